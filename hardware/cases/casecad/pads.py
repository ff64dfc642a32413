"""A pad island for Gobbit: a shallow tray that holds the copper-foil sectors (one per seat,
each on the side facing its seat, with guard gaps between them) and a cover the cards lie on.

Tray coordinates: millimetres, the island's centre at the origin, seat 1 towards -y, seat 2
towards +y, seats 3 and 4 (when there are four) towards -x and +x; the wires' exit in the
-y rim, right of seat 1's sector (x = 52). A two-seat island uses the -y and +y sectors only.
"""

from __future__ import annotations

from dataclasses import dataclass

from manifold3d import Manifold

from .shapes import box, cylinder, rounded_box, union

SIDE = 140.0
HALF = SIDE / 2
RIM = 4.0
FLOOR = 3.2
COVER_T = 2.0
COVER_GAP = 0.2
HEIGHT = FLOOR + COVER_T
SECTOR = (44.0, 30.0)       # along the seat's edge, towards the centre
SECTOR_OUT = 62.0           # the sector's outer edge from the centre
FOIL_RECESS = 0.2           # marks where the foil goes
CHANNEL_W = 2.4
CHANNEL_D = 1.2
EXIT_X = 52.0              # the wires leave through the -y rim here


@dataclass(frozen=True)
class PadParts:
    printed: dict[str, Manifold]
    sectors: dict[str, tuple[float, float, float, float]]   # seat -> x0, y0, x1, y1


def sectors() -> dict[str, tuple[float, float, float, float]]:
    w, d = SECTOR
    o, i = SECTOR_OUT, SECTOR_OUT - d
    return {"seat 1": (-w / 2, -o, w / 2, -i), "seat 2": (-w / 2, i, w / 2, o),
            "seat 3": (-o, -w / 2, -i, w / 2), "seat 4": (i, -w / 2, o, w / 2)}


def _channel(a: tuple[float, float], b: tuple[float, float], z0: float) -> Manifold:
    ends = [cylinder(x, y, z0, FLOOR + 1, CHANNEL_W, 24) for x, y in (a, b)]
    return Manifold.batch_hull(ends)


def tray() -> Manifold:
    solid = rounded_box(-HALF, -HALF, 0, HALF, HALF, HEIGHT, 4.0)
    cuts = [rounded_box(-HALF + RIM, -HALF + RIM, FLOOR, HALF - RIM, HALF - RIM, HEIGHT + 1,
                        1.0)]
    for x0, y0, x1, y1 in sectors().values():
        cuts.append(box(x0, y0, FLOOR - FOIL_RECESS, x1, y1, FLOOR + 1))
    # each sector's wire runs from its inner edge to the middle, then along the diagonal (in
    # the guard gap between seats 1 and 4) and straight out through the -y rim
    z0 = FLOOR - CHANNEL_D
    h = CHANNEL_W / 2
    inner = SECTOR_OUT - SECTOR[1]
    cuts += [box(-h, -inner - 1, z0, h, inner + 1, FLOOR + 1),
             box(-inner - 1, -h, z0, inner + 1, h, FLOOR + 1)]
    turn = EXIT_X
    cuts.append(_channel((0.0, 0.0), (turn, -turn), z0))
    cuts.append(_channel((turn, -turn), (turn, -HALF + RIM + 0.5), z0))
    # the rim's notch where the cable leaves
    cuts.append(box(turn - 3.0, -HALF - 1, z0, turn + 3.0, -HALF + RIM + 1, HEIGHT + 1))
    return solid - union(cuts)


def cover() -> Manifold:
    inner = HALF - RIM - COVER_GAP
    return rounded_box(-inner, -inner, FLOOR, inner, inner, FLOOR + COVER_T, 1.0 - COVER_GAP)


def build_pads() -> PadParts:
    return PadParts({"pad_tray": tray(), "pad_cover": cover()}, sectors())
