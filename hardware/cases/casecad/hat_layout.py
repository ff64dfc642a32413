"""Where the HAT's parts sit in the box: the board file's footprints turned into box coordinates.

Box coordinates are the Raspberry Pi's mechanical drawing: millimetres, the Pi's corner
by the USB-C socket at the origin, x along the long edge, y towards the 40-pin header
(whose centre is at (32.5, 52.5)), z up from the underside of the box's floor.

A HAT lies on the Pi with its 40-pin header (J1) over the Pi's, so the board file's
coordinates are moved to put J1's centre at (32.5, 52.5), mirrored (KiCad's y points down)
and turned by the quarter turn that makes the board's outline cover the HAT's place on the
Pi: x 0 … 65, y -0.5 … 56 (the HAT specification's outline, 65 × 56.5 mm).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .kicad_board import Board

HEADER_CENTRE = (32.5, 52.5)
HAT_OUTLINE = (0.0, -0.5, 65.0, 56.0)
PI_HOLES = ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5))
OUTLINE_TOLERANCE = 1.0  # mm: how far the board's outline may sit from the HAT's place


class LayoutError(ValueError):
    """The board file does not describe a HAT that fits the Pi's header."""


@dataclass(frozen=True)
class HatLayout:
    """The parts of the HAT the cases need, in box coordinates (x, y)."""

    buttons: tuple[tuple[float, float], ...]     # SW1 ◀, SW2 ●, SW3 ▶: switch centres
    oled_connector: tuple[float, float]          # J2: centre of its pins
    oled_row: tuple[float, float]                # unit vector along J2's pin row
    towards_board: tuple[float, float]           # unit vector from J2 into the board
    holes: tuple[tuple[float, float], ...]       # the mounting holes (H*), if the file has them
    cable_connectors: tuple[tuple[float, float], ...]   # J3, J4: the cables that leave the box
    others: dict[str, tuple[float, float, float, float]]   # U1, LS1 if there: their pads' box
    rotation: int                                # quarter turn applied, degrees
    outline: tuple[float, float, float, float]   # the board outline in box coordinates


def _transform(point: tuple[float, float], centre: tuple[float, float],
               rotation: int) -> tuple[float, float]:
    dx, dy = point[0] - centre[0], -(point[1] - centre[1])   # KiCad's y points down
    a = math.radians(rotation)
    x = dx * math.cos(a) - dy * math.sin(a)
    y = dx * math.sin(a) + dy * math.cos(a)
    return HEADER_CENTRE[0] + x, HEADER_CENTRE[1] + y


def _bbox(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def layout_from_board(board: Board) -> HatLayout:
    """The HAT's buttons, OLED connector and holes in box coordinates.

    Raises LayoutError when the board has no J1, SW1…SW3 or J2, or when no quarter turn puts
    its outline within 1 mm of the HAT's place on the Pi.
    """
    try:
        header = board.footprint("J1").centre()
        switches = [board.footprint(f"SW{n}") for n in (1, 2, 3)]
        oled = board.footprint("J2")
    except KeyError as exc:
        raise LayoutError(str(exc.args[0])) from None
    x0, y0, x1, y1 = board.outline
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    best: tuple[float, int] | None = None
    for rotation in (0, 90, 180, 270):
        box = _bbox([_transform(c, header, rotation) for c in corners])
        error = max(abs(a - b) for a, b in zip(box, HAT_OUTLINE, strict=True))
        if best is None or error < best[0]:
            best = (error, rotation)
    assert best is not None
    error, rotation = best
    if error > OUTLINE_TOLERANCE:
        raise LayoutError(
            f"the board outline is {error:.1f} mm away from a HAT's place on the Pi "
            f"(65 x 56.5 mm with J1 centred at {HEADER_CENTRE})")

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return _transform(p, header, rotation)

    pads = [at(p) for p in oled.pads] or [at((oled.x, oled.y))]
    centre = at(oled.centre())
    bx0, by0, bx1, by1 = _bbox(pads)
    row = (1.0, 0.0) if (bx1 - bx0) >= (by1 - by0) else (0.0, 1.0)
    normal = (-row[1], row[0])
    middle = ((HAT_OUTLINE[0] + HAT_OUTLINE[2]) / 2, (HAT_OUTLINE[1] + HAT_OUTLINE[3]) / 2)
    if (middle[0] - centre[0]) * normal[0] + (middle[1] - centre[1]) * normal[1] < 0:
        normal = (-normal[0], -normal[1])
    holes = tuple(at(fp.centre()) for ref, fp in sorted(board.footprints.items())
                  if ref.startswith("H") and ref[1:].isdigit())
    cables = tuple(at(board.footprints[ref].centre()) for ref in ("J3", "J4")
                   if ref in board.footprints)
    return HatLayout(
        buttons=tuple(at(sw.centre()) for sw in switches),
        oled_connector=centre, oled_row=row, towards_board=normal, holes=holes,
        cable_connectors=cables,
        others={ref: _bbox([at(p) for p in board.footprints[ref].pads])
                for ref in ("U1", "LS1") if board.footprints.get(ref, None) is not None
                and board.footprints[ref].pads},
        rotation=rotation,
        outline=_bbox([at(c) for c in corners]))
