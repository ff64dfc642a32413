"""The cross board in miniature: 11 x 11 cells of 5 x 5 pixels (55 x 55) on the OLED.

Empty track fields are a single pixel, start fields a frame, goal fields a
hollow square, house places a pixel; pieces are their colour's mark (3 x 3, so
that neighbours stay apart).  The
movable piece and its target blink: on the "off" phase the piece is hidden and
the target shows a frame.
"""

from __future__ import annotations

from PIL import ImageDraw

from companion.games.clovece.engine.board import GOALS, HOUSES, TRACK, piece_cells
from companion.games.clovece.engine.rules import START, Position
from companion.ui.marks import draw_mark

CELL = 5
SIZE = 11 * CELL


def _origin(x0: int, y0: int, cell: tuple[int, int]) -> tuple[int, int]:
    return x0 + cell[0] * CELL, y0 + cell[1] * CELL


def draw_board(draw: ImageDraw.ImageDraw, pos: Position, x0: int = 0, y0: int = 0,
               blink: tuple[tuple[int, int], tuple[int, int]] | None = None,
               phase_on: bool = True) -> None:
    """Draw ``pos``; ``blink`` = (cell of the moving piece, cell of its target)."""
    starts = {TRACK[START[c]] for c in pos.colours}
    dots = []  # the empty fields' and house places' pixels, drawn in one call
    for cell in TRACK:
        x, y = _origin(x0, y0, cell)
        if cell in starts:
            draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=1)
        else:
            dots.append((x + 2, y + 2))
    for c in pos.colours:
        for cell in GOALS[c]:
            x, y = _origin(x0, y0, cell)
            draw.rectangle((x + 1, y + 1, x + 3, y + 3), outline=1)
        for cell in HOUSES[c]:
            x, y = _origin(x0, y0, cell)
            dots.append((x + 2, y + 2))
    draw.point(dots, fill=1)
    moving, target = blink if blink else (None, None)
    for c, _p, cell in piece_cells(pos):
        x, y = _origin(x0, y0, cell)
        draw.rectangle((x + 1, y + 1, x + 3, y + 3), fill=0)
        if cell == moving and not phase_on:
            continue
        draw_mark(draw, c, x + 1, y + 1, 3)
    if target is not None and not phase_on:
        x, y = _origin(x0, y0, target)
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=1)
