"""Drawing the napij se screens (:mod:`companion.ui.napij_views`) on the 128 x 64 canvas.

Layout, top to bottom (5 x 8 body font, 25 characters a line):

* row 0: whose turn (name, mark, "PC") and, at the right, the turn's throws;
* rows 8-21: the strip map of the selected move, when there is one: a cell of
  7 x 7 pixels per field with its kind marked above it (card, start, arrow,
  junction fork, turn-off, trap, rolling pin, home), pieces as their colour's
  mark, the moving piece and its target blinking, a pointer under the target;
* the words of that move, wrapped; or, on the other screens, the rows (a list
  with the selected one inverted, or lines that scroll when they are too
  long); then the prompt and the event line.

A banner (a drink to announce) is drawn over everything in a framed box.
Pure: the same view at the same time ``t`` gives the same frame.
"""

from __future__ import annotations

from PIL import ImageDraw, ImageFont

from .fonts import body_font, heading_font
from .marks import draw_mark
from .napij_views import BOTTLE, Banner, Cell, NapijView, Strip
from .screens import HEIGHT, WIDTH, blink_on, fit, line_height, scrolled, wrap

PITCH = 8
"""Pixels from one strip cell to the next (a 7-pixel cell and a gap)."""
MAX_CELLS = WIDTH // PITCH
MARK_TOP = 8
"""The row of the kind markers above the cells."""
CELL_TOP = 12
CELL = 7
STRIP_BOTTOM = 23
"""The first row under a strip."""
STRIP_SECONDS = 2.0
BANNER_TOP, BANNER_BOTTOM = 8, 55
"""The banner covers everything between the header and the event line."""
PAGE_SECONDS = 3.0
"""How long each page of a text longer than the screen shows."""
"""How long each move of a split play shows in the strip before the next one."""

_BOTTLE_SHAPE = ("..#..", "..#..", ".###.", ".###.", ".###.")
_MARKERS: dict[str, tuple[str, ...]] = {
    "card": ("#####", "#...#", "#####"),
    "arrow": ("#.#..", ".#.#.", "#.#.."),
    "junction": ("#...#", ".#.#.", "..#.."),
    "turnoff": ("#....", ".##..", "...##"),
    "trap": ("#.#.#", ".#.#.", "#.#.#"),
    "rolling_pin": ("#####", ".....", "#####"),
    "home": ("..#..", ".#.#.", "#...#"),
}
"""The 5 x 3 glyph above a cell of each special kind (a start field shows its colour's mark)."""


def _pattern(draw: ImageDraw.ImageDraw, rows: tuple[str, ...], x: int, y: int,
             fill: int = 1) -> None:
    for dy, row in enumerate(rows):
        for dx, ch in enumerate(row):
            if ch == "#":
                draw.point((x + dx, y + dy), fill=fill)


def _text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    return int(font.getlength(text))


def _cell(draw: ImageDraw.ImageDraw, cell: Cell, x: int, *, hidden: bool, lit: bool) -> None:
    """One field of the strip at ``x``: its marker, its box, the piece on it."""
    y = CELL_TOP
    if cell.kind == "gap":
        for dx in (1, 3, 5):
            draw.point((x + dx, y + 3), fill=1)
        return
    if cell.kind == "start" and cell.colour is not None:
        draw_mark(draw, cell.colour, x + 2, MARK_TOP, 3)
    elif cell.kind in _MARKERS:
        _pattern(draw, _MARKERS[cell.kind], x + 1, MARK_TOP)
    if cell.kind == "pub":  # a little house: roof and walls
        draw.line((x, y + 2, x + 3, y - 1), fill=1)
        draw.line((x + 3, y - 1, x + 6, y + 2), fill=1)
        draw.rectangle((x, y + 2, x + 6, y + CELL - 1), outline=1)
    else:
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=1, fill=1 if lit else 0)
    if cell.piece is None or hidden:
        return
    ink = 0 if lit else 1
    if cell.kind == "pub":
        draw_mark(draw, cell.piece if cell.piece >= 0 else 0, x + 2, y + 3, 3, fill=ink)
    elif cell.piece == BOTTLE:
        _pattern(draw, _BOTTLE_SHAPE, x + 1, y + 1, ink)
    else:
        draw_mark(draw, cell.piece, x + 1, y + 1, 5, fill=ink)


def draw_strip(draw: ImageDraw.ImageDraw, strip: Strip, t: float) -> None:
    """The strip map: cells centred across the width, the moving piece and target blinking."""
    cells = strip.cells[:MAX_CELLS]
    x0 = (WIDTH - len(cells) * PITCH + 1) // 2
    on = blink_on(t)
    for i, cell in enumerate(cells):
        x = x0 + i * PITCH
        _cell(draw, cell, x, hidden=(i == strip.moving and not on and strip.moving != strip.target),
              lit=(i == strip.target and on))
        if i == strip.target:  # a pointer under the target, in both phases
            draw.line((x + 1, CELL_TOP + CELL + 2, x + 5, CELL_TOP + CELL + 2), fill=1)
            draw.point((x + 3, CELL_TOP + CELL + 1), fill=1)
        elif i == strip.moving:
            draw.point((x + 3, CELL_TOP + CELL + 2), fill=1)


def _header(draw: ImageDraw.ImageDraw, v: NapijView, font: ImageFont.FreeTypeFont) -> None:
    right = " ".join(str(n) for n in v.throws) if v.throws else v.note
    rw = _text_width(font, right) if right else 0
    room = WIDTH - rw - (4 if right else 0)
    extra = (8 if v.mark is not None else 0) + (12 if v.computer else 0)
    name = fit(font, v.player, max(10, room - extra))
    draw.text((0, 0), name, font=font, fill=1)
    x = _text_width(font, name) + 2
    if v.mark is not None:
        draw_mark(draw, v.mark, x, 1, 5)
        x += 8
    if v.computer:
        draw.text((x, 0), "PC", font=font, fill=1)
    if right:
        draw.text((WIDTH - rw, 0), right, font=font, fill=1)


def _rows(draw: ImageDraw.ImageDraw, v: NapijView, font: ImageFont.FreeTypeFont, top: int,
          bottom: int, t: float) -> None:
    lh = line_height(font)
    count = max(1, (bottom - top) // lh)
    sel = v.selected
    first = 0
    if sel is not None:
        first = min(max(0, sel - count + 1), max(0, len(v.rows) - count))
    elif len(v.rows) > count:  # a long text: its pages take turns
        pages = -(-len(v.rows) // count)
        first = (int(t / PAGE_SECONDS) % pages) * count
    shown = v.rows[first:first + count]
    for k, row in enumerate(shown):
        i = first + k
        y = top + k * lh
        x = 8 if row.mark is not None else 1
        width = WIDTH - x - (6 if len(v.rows) > count else 0)
        inverted = sel == i
        if inverted:
            draw.rectangle((0, y, WIDTH - 1, y + lh - 1), fill=1)
        text = scrolled(font, row.text, width, t) if inverted or sel is None else \
            fit(font, row.text, width)
        ink = 0 if inverted else 1
        if row.mark is not None:
            draw_mark(draw, row.mark, 1, y + 1, 5, fill=ink)
        draw.text((x, y), text, font=font, fill=ink)
    if first > 0:
        draw.text((WIDTH - 5, top), "▲", font=font, fill=0 if sel == first else 1)
    if first + count < len(v.rows):
        last = top + (count - 1) * lh
        draw.text((WIDTH - 5, last), "▼", font=font, fill=0 if sel == first + count - 1 else 1)


def draw_banner(draw: ImageDraw.ImageDraw, banner: Banner) -> None:
    """A framed box over the middle of the screen (the header and the event line stay):
    the title (Terminus, wrapped), the lines, the marks of the colours concerned."""
    head, font = heading_font(bold=True), body_font()
    hh, lh = line_height(head), line_height(font)
    inner = WIDTH - 8
    titles = [fit(head, line, inner) for line in wrap(head, banner.title, inner)[:2]]
    lines = [fit(font, line, inner) for line in banner.lines[:2]]
    marks = banner.marks[:4]
    top, bottom = BANNER_TOP, BANNER_BOTTOM
    height = len(titles) * hh + len(lines) * lh + (9 if marks else 0)
    if height > bottom - top - 4:
        marks, height = (), height - 9
    draw.rectangle((0, top, WIDTH - 1, bottom), fill=0)
    draw.rectangle((1, top, WIDTH - 2, bottom), outline=1)
    draw.rectangle((2, top + 1, WIDTH - 3, bottom - 1), outline=1)
    y = top + (bottom - top + 1 - height) // 2
    for title in titles:
        draw.text(((WIDTH - _text_width(head, title)) // 2, y - 1), title, font=head, fill=1)
        y += hh
    for line in lines:
        draw.text(((WIDTH - _text_width(font, line)) // 2, y), line, font=font, fill=1)
        y += lh
    if marks:
        x = (WIDTH - (len(marks) * 10 - 3)) // 2
        for c in marks:
            draw_mark(draw, c, x, y + 1, 7)
            x += 10


def _move(draw: ImageDraw.ImageDraw, v: NapijView, font: ImageFont.FreeTypeFont, bottom: int,
          t: float) -> None:
    """The move of the play on show now: its strip, and its words wrapped below."""
    lh = line_height(font)
    k = int(t / STRIP_SECONDS) % len(v.moves)
    move = v.moves[k]
    top = lh + 1
    if move.strip is not None:
        draw_strip(draw, move.strip, t)
        top = STRIP_BOTTOM
    text = f"{k + 1}/{len(v.moves)} {move.text}" if len(v.moves) > 1 else move.text
    lines = wrap(font, text, WIDTH - 1)
    room = max(1, (bottom - top) // lh)
    if len(lines) > room:
        lines = lines[:room - 1] + [fit(font, " ".join(lines[room - 1:]), WIDTH - 1)]
    for i, line in enumerate(lines):
        draw.text((1, top + i * lh), fit(font, line, WIDTH - 1), font=font, fill=1)


def draw_napij(draw: ImageDraw.ImageDraw, v: NapijView, t: float) -> None:
    """Paint a napij se screen (see the module docstring for the layout)."""
    font = body_font()
    lh = line_height(font)
    _header(draw, v, font)
    bottom = HEIGHT - (lh if v.event else 0) - (lh if v.prompt else 0)
    if v.moves:
        _move(draw, v, font, bottom, t)
    else:
        _rows(draw, v, font, lh + 1, bottom, t)
    if v.prompt:
        draw.text((0, bottom), fit(font, v.prompt, WIDTH), font=font, fill=1)
    if v.event:
        draw.text((0, HEIGHT - lh), scrolled(font, v.event, WIDTH, t), font=font, fill=1)
    if v.banner is not None:
        draw_banner(draw, v.banner)
