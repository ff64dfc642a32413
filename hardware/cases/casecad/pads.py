"""A pad island for Gobbit: a shallow tray that holds the copper-foil sectors (one per seat,
each on the side facing its seat, with guard gaps between them) and a cover the cards lie on.
One tray per seat count, 2 to 6: print the one for your table, seven of them (six piles and
the graveyard).

Tray coordinates: millimetres, the island's centre at the origin; seat 1 towards -y, the
others counter-clockwise, evenly spaced (two seats: seat 2 towards +y; four: seat 2 +x,
seat 3 +y, seat 4 -x, as in hardware/guide/pads.md). The wires run from each sector to the
middle, then out along the guard gap between seats 1 and 2 and straight through the rim.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from manifold3d import CrossSection, JoinType, Manifold

from .shapes import box, cylinder, rounded_box, union

SEATS = (2, 3, 4, 5, 6)
SIDE = 140.0
HALF = SIDE / 2
RIM = 4.0
FLOOR = 3.2
COVER_T = 2.0
COVER_GAP = 0.2
HEIGHT = FLOOR + COVER_T
SECTOR_IN = 16.0            # the sectors start this far from the middle
SECTOR_EDGE = HALF - RIM - 2.0
GUARD = 12.0                # the gap between two seats' sectors
FOIL_RECESS = 0.2           # marks where the foil goes
CHANNEL_W = 2.4
CHANNEL_D = 1.2
TURN = HALF - RIM - 4.0     # where the exit channel turns straight towards the rim


@dataclass(frozen=True)
class PadParts:
    printed: dict[str, Manifold]
    sectors: dict[int, dict[str, CrossSection]]      # seats -> seat name -> its sector


def seat_angle(seat: int, seats: int) -> float:
    """The direction of a seat from the island's middle, degrees (seat 1 at -90)."""
    return -90.0 + (seat - 1) * 360.0 / seats


def sectors(seats: int) -> dict[str, CrossSection]:
    """Each seat's sector: its wedge of the island, less half the guard gap on each side."""
    square = CrossSection.square((2 * SECTOR_EDGE, 2 * SECTOR_EDGE), center=True)
    hole = CrossSection.circle(SECTOR_IN, 96)
    half = 180.0 / seats
    result = {}
    for seat in range(1, seats + 1):
        mid = seat_angle(seat, seats)
        arc = [(0.0, 0.0)] + [
            (300 * math.cos(math.radians(a)), 300 * math.sin(math.radians(a)))
            for a in [mid - half + i * (2 * half) / 32 for i in range(33)]]
        wedge = (CrossSection([arc]) ^ square) - hole
        result[f"seat {seat}"] = wedge.offset(-GUARD / 2, JoinType.Miter)
    return result


def exit_route(seats: int) -> list[tuple[float, float]]:
    """The exit channel: from the middle along the gap between seats 1 and 2, then straight
    through the nearest rim."""
    phi = math.radians(seat_angle(1, seats) + 180.0 / seats)
    c, s = math.cos(phi), math.sin(phi)
    r = TURN / max(abs(c), abs(s))
    x, y = r * c, r * s
    if abs(s) >= abs(c) - 1e-9:
        end = (x, math.copysign(HALF - RIM + 0.5, y))
    else:
        end = (math.copysign(HALF - RIM + 0.5, x), y)
    return [(0.0, 0.0), (x, y), end]


def _channel(a: tuple[float, float], b: tuple[float, float], z0: float) -> Manifold:
    ends = [cylinder(x, y, z0, FLOOR + 1, CHANNEL_W, 24) for x, y in (a, b)]
    return Manifold.batch_hull(ends)


def tray(seats: int) -> Manifold:
    solid = rounded_box(-HALF, -HALF, 0, HALF, HALF, HEIGHT, 4.0)
    cuts = [rounded_box(-HALF + RIM, -HALF + RIM, FLOOR, HALF - RIM, HALF - RIM, HEIGHT + 1,
                        1.0)]
    for sector in sectors(seats).values():
        cuts.append(sector.extrude(FOIL_RECESS + 1).translate((0, 0, FLOOR - FOIL_RECESS)))
    z0 = FLOOR - CHANNEL_D
    for seat in range(1, seats + 1):      # each sector's wire to the middle
        a = math.radians(seat_angle(seat, seats))
        r = SECTOR_IN + GUARD / 2 + 2.0
        cuts.append(_channel((0.0, 0.0), (r * math.cos(a), r * math.sin(a)), z0))
    route = exit_route(seats)
    for a, b in zip(route, route[1:], strict=False):
        cuts.append(_channel(a, b, z0))
    x, y = route[-1]
    outer, inner = HALF + 1.0, HALF - RIM - 1.0      # the notch: through the rim, square to it
    if abs(abs(y) - (HALF - RIM + 0.5)) < 1e-6:
        sy = math.copysign(1.0, y)
        cuts.append(box(x - 3.0, min(sy * inner, sy * outer), z0, x + 3.0,
                        max(sy * inner, sy * outer), HEIGHT + 1))
    else:
        sx = math.copysign(1.0, x)
        cuts.append(box(min(sx * inner, sx * outer), y - 3.0, z0, max(sx * inner, sx * outer),
                        y + 3.0, HEIGHT + 1))
    return solid - union(cuts)


def cover() -> Manifold:
    inner = HALF - RIM - COVER_GAP
    return rounded_box(-inner, -inner, FLOOR, inner, inner, FLOOR + COVER_T, 1.0 - COVER_GAP)


def build_pads() -> PadParts:
    printed = {f"pad_tray_{n}": tray(n) for n in SEATS}
    printed["pad_cover"] = cover()
    return PadParts(printed, {n: sectors(n) for n in SEATS})
