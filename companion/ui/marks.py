"""The colour marks as pixel shapes: the OLED has no colour, so every colour is a shape.

red: dot (tečka), blue: diamond (kosočtverec), green: stripe (pruh),
yellow: triangle (trojúhelník) — the same marks the pieces and start fields carry.
"""

from __future__ import annotations

from functools import cache

from PIL import ImageDraw

_SHAPES_3 = (
    ("###", "###", "###"),  # red: dot (a solid square at this size)
    (".#.", "###", ".#."),  # blue: diamond
    ("...", "###", "..."),  # green: stripe
    (".#.", "###", "###"),  # yellow: triangle
)
_SHAPES_5 = (
    (".###.", "#####", "#####", "#####", ".###."),  # red: dot
    ("..#..", ".###.", "#####", ".###.", "..#.."),  # blue: diamond
    (".....", "#####", "#####", "#####", "....."),  # green: stripe
    ("..#..", "..#..", ".###.", ".###.", "#####"),  # yellow: triangle
)
_SHAPES_7 = (
    ("..###..", ".#####.", "#######", "#######", "#######", ".#####.", "..###.."),
    ("...#...", "..###..", ".#####.", "#######", ".#####.", "..###..", "...#..."),
    (".......", ".......", "#######", "#######", "#######", ".......", "......."),
    ("...#...", "...#...", "..###..", "..###..", ".#####.", ".#####.", "#######"),
)


def shape(colour: int, size: int = 5) -> tuple[str, ...]:
    """The rows of a colour's mark, ``#`` set and ``.`` clear (size 3, 5 or 7)."""
    table = _SHAPES_7 if size >= 7 else _SHAPES_5 if size >= 5 else _SHAPES_3
    return table[colour]


def draw_mark(draw: ImageDraw.ImageDraw, colour: int, x: int, y: int, size: int = 5,
              fill: int = 1) -> None:
    """Draw the mark of ``colour`` with its top-left corner at (x, y)."""
    draw_pattern(draw, shape(colour, size), x, y, fill)


def draw_pattern(draw: ImageDraw.ImageDraw, rows: tuple[str, ...], x: int, y: int,
                 fill: int = 1) -> None:
    """Draw a pixel pattern (rows of ``#`` set and ``.`` clear) with its top-left corner at
    (x, y), in one call."""
    draw.point([(x + dx, y + dy) for dx, dy in _lit(rows)], fill=fill)


@cache
def _lit(rows: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The set pixels of a pattern, as (dx, dy) from its top-left corner."""
    return tuple((dx, dy) for dy, row in enumerate(rows) for dx, ch in enumerate(row)
                 if ch == "#")
