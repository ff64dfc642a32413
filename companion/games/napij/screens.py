"""Drawing the napij se screens (:mod:`companion.games.napij.views`) on the 128 x 64 canvas.

Layout, top to bottom (5 x 8 body font, 25 characters a line):

* row 0: whose turn (name, mark, "PC") and, at the right, the turn's throws;
* rows 8-21: the strip map of the selected move, when there is one: a cell of
  7 x 7 pixels per field with its kind marked above it (card, start, arrow,
  junction fork, turn-off, trap, rolling pin, home), pieces as their colour's
  mark, the moving piece and its target blinking, a pointer under the target;
* the words of that move, wrapped; or, on the other screens, the rows (a list
  with the selected one inverted, or lines that scroll when they are too
  long); then the prompt and the event line.

A banner (a drink to announce) is drawn over the body in a framed box; the prompt
under it says how to answer it ("● vypito  ◀ později").
Pure: the same view at the same time ``t`` gives the same frame.
"""

from __future__ import annotations

from PIL import ImageDraw, ImageFont

from companion.games.napij.views import BOTTLE, Banner, Cell, NapijView, Strip
from companion.ui.fonts import body_font, heading_font
from companion.ui.marks import draw_mark, draw_pattern
from companion.ui.screens import (
    HEIGHT,
    SCROLL_MARK_W,
    WIDTH,
    Painter,
    blink_on,
    fit,
    line_height,
    renderer,
    scrolled,
    wrap,
)

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
"""How long each move of a split play shows in the strip before the next one."""
BANNER_TOP, BANNER_BOTTOM = 8, 55
"""The banner covers everything between the header and the event line."""
PAGE_SECONDS = 3.0
"""How long each page of a text longer than the screen shows."""
WORDS_WIDTH = WIDTH - 2
"""Pixels a line of a move's words takes (from x = 1, the panel's last column kept dark)."""

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
        draw_pattern(draw, _MARKERS[cell.kind], x + 1, MARK_TOP)
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
        draw_pattern(draw, _BOTTLE_SHAPE, x + 1, y + 1, ink)
    else:
        draw_mark(draw, cell.piece, x + 1, y + 1, 5, fill=ink)


def draw_strip(p: Painter, strip: Strip, t: float) -> None:
    """The strip map: cells centred across the width, the moving piece and target blinking."""
    draw = p.draw
    cells = strip.cells[:MAX_CELLS]
    if len(strip.cells) > MAX_CELLS:
        p.lost(f"{len(strip.cells) - MAX_CELLS} fields of the strip map")
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
    p.area("board", (x0, MARK_TOP, x0 + len(cells) * PITCH - 1, CELL_TOP + CELL + 3))


def row_pages(v: NapijView) -> int:
    """How many pages the rows of ``v`` take (1: they fit, or a list scrolls instead)."""
    font = body_font()
    lh = line_height(font)
    count = max(1, (_bottom(v, lh) - (lh + 1)) // lh)
    if v.selected is not None or v.moves or len(v.rows) <= count:
        return 1
    return -(-len(v.rows) // count)


def shown_page(v: NapijView, t: float) -> int:
    """The page of rows on show at time ``t``: the view's own, or the one whose turn it is."""
    pages = row_pages(v)
    if v.page is not None:
        return v.page % pages
    return int(t / PAGE_SECONDS) % pages


PAGE_MARK = "{page}/{pages}"
"""At the header's right while a text takes more than one page (and the header has no note
there): where it is; `` ▶`` follows when ▶ turns the page (a card's text), the ▼ ▲ at the
rows' right say there is more."""


def _header(p: Painter, v: NapijView, font: ImageFont.FreeTypeFont, t: float = 0.0) -> None:
    right = " ".join(str(n) for n in v.throws) if v.throws else v.note
    pages = row_pages(v)
    if pages > 1 and not right:
        right = PAGE_MARK.format(page=shown_page(v, t) + 1, pages=pages)
        if v.page is not None:
            right += " ▶"
    rw = _text_width(font, right) if right else 0
    room = WIDTH - rw - (4 if right else 0)
    extra = (8 if v.mark is not None else 0) + (12 if v.computer else 0)
    name = fit(font, v.player, max(10, room - extra))
    p.text((0, 0), name, font, whole=v.player)
    x = _text_width(font, name) + 2
    if v.mark is not None:
        p.mark(v.mark, x, 1, 5)
        x += 8
    if v.computer:
        p.text((x, 0), "PC", font)
    if right:  # flush right, its last lit column one short of the panel's edge
        ink = font.getmask(right).getbbox()
        p.text((WIDTH - 1 - (ink[2] if ink else rw), 0), right, font)


def _rows(p: Painter, v: NapijView, font: ImageFont.FreeTypeFont, top: int,
          bottom: int, t: float) -> None:
    lh = line_height(font)
    count = max(1, (bottom - top) // lh)
    sel = v.selected
    first = 0
    if sel is not None:
        first = min(max(0, sel - count + 1), max(0, len(v.rows) - count))
    elif len(v.rows) > count:  # a long text: page by page (▶, or they take turns)
        first = shown_page(v, t) * count
    more = len(v.rows) > count
    right = WIDTH - (SCROLL_MARK_W if more else 0)
    """The rows end here; the page or scroll marks ▲ ▼ keep the column beyond."""
    shown = v.rows[first:first + count]
    for k, row in enumerate(shown):
        i = first + k
        y = top + k * lh
        x = 8 if row.mark is not None else 1
        width = right - x - 1
        inverted = sel == i
        if inverted:
            p.bar((0, y, right, y + lh))
        text = scrolled(font, row.text, width, t)  # a row too long scrolls, never cut
        if row.mark is not None:
            p.mark(row.mark, 1, y + 1, 5, on_bar=inverted)
        p.text((x, y), text, font, fill=0 if inverted else 1, whole=row.text, scrolls=True,
               on_bar=inverted)
    if first > 0:
        p.symbol((WIDTH - 6, top), "▲", font)
    if first + count < len(v.rows):
        p.symbol((WIDTH - 6, top + (count - 1) * lh), "▼", font)


def _frame(p: Painter, x0: int, y0: int, x1: int, y1: int) -> None:
    """A one-pixel frame, corners inclusive."""
    p.line((x0, y0, x1 + 1, y0 + 1))
    p.line((x0, y1, x1 + 1, y1 + 1))
    p.line((x0, y0, x0 + 1, y1 + 1))
    p.line((x1, y0, x1 + 1, y1 + 1))


def draw_banner(p: Painter, banner: Banner, bottom: int = BANNER_BOTTOM) -> None:
    """A framed box over the middle of the screen down to ``bottom`` (the header, the
    prompt under it and the event line stay): the title (Terminus, wrapped), the lines, the
    marks of the colours concerned."""
    head, font = heading_font(bold=True), body_font()
    hh, lh = line_height(head), line_height(font)
    inner = WIDTH - 8
    title_lines = wrap(head, banner.title, inner)
    for lost in title_lines[2:]:
        p.lost(lost)
    for lost in banner.lines[2:]:
        p.lost(lost)
    titles = title_lines[:2]
    lines = banner.lines[:2]
    marks = banner.marks[:4]
    top = BANNER_TOP
    height = len(titles) * hh + len(lines) * lh + (9 if marks else 0)
    if height > bottom - top - 4:
        marks, height = (), height - 9
    p.cover((0, top, WIDTH, bottom + 1))
    _frame(p, 1, top, WIDTH - 2, bottom)
    _frame(p, 2, top + 1, WIDTH - 3, bottom - 1)
    y = top + (bottom - top + 1 - height) // 2
    for title in titles:
        shown = fit(head, title, inner)
        p.text(((WIDTH - _text_width(head, shown)) // 2, y - 1), shown, head, whole=title)
        y += hh
    for line in lines:
        shown = fit(font, line, inner)
        p.text(((WIDTH - _text_width(font, shown)) // 2, y), shown, font, whole=line)
        y += lh
    if marks:
        x = (WIDTH - (len(marks) * 10 - 3)) // 2
        for c in marks:
            p.mark(c, x, y + 1, 7)
            x += 10


def _bottom(v: NapijView, lh: int) -> int:
    """The first row under the body (the prompt and the event line keep the rows below)."""
    return HEIGHT - (lh if v.event else 0) - (lh if v.prompt else 0)


def _move_lines(v: NapijView, k: int, font: ImageFont.FreeTypeFont,
                bottom: int) -> tuple[int, list[list[str]]]:
    """Where the words of move ``k`` begin (under its strip) and their lines, wrapped inside
    the panel, in pages of as many lines as there is room for (never cut, never scrolled)."""
    lh = line_height(font)
    move = v.moves[k]
    top = STRIP_BOTTOM if move.strip is not None else lh + 1
    text = f"{k + 1}/{len(v.moves)} {move.text}" if len(v.moves) > 1 else move.text
    lines = wrap(font, text, WORDS_WIDTH)
    room = max(1, (bottom - top) // lh)
    if len(lines) > room:  # pages: the column of the page marks ▼ ▲ stays free
        lines = wrap(font, text, WORDS_WIDTH - SCROLL_MARK_W)
    return top, [lines[i:i + room] for i in range(0, len(lines), room)] or [[]]


def schedule(v: NapijView) -> tuple[tuple[float, ...], float]:
    """When each page of a turn screen begins within one round, and how long the round is:
    the moves of a play take turns (each shows :data:`STRIP_SECONDS`, longer while its last
    line scrolls to its end), a long text shows page by page (:data:`PAGE_SECONDS` each).
    ``render(v, t)`` for ``t`` in the first tuple shows every page once."""
    font = body_font()
    lh = line_height(font)
    bottom = _bottom(v, lh)
    if v.moves:
        starts, t = [], 0.0
        for k in range(len(v.moves)):
            words = _move_lines(v, k, font, bottom)[1]
            for _ in words:  # a move's words longer than the room: page by page
                starts.append(t)
                t += STRIP_SECONDS if len(words) == 1 else PAGE_SECONDS
        return tuple(starts), t
    pages = row_pages(v)
    if pages > 1 and v.page is None:
        return tuple(k * PAGE_SECONDS for k in range(pages)), pages * PAGE_SECONDS
    return (0.0,), 0.0


def _move(p: Painter, v: NapijView, font: ImageFont.FreeTypeFont, bottom: int,
          t: float) -> None:
    """The move of the play on show now: its strip, and a page of its words wrapped below."""
    lh = line_height(font)
    starts, cycle = schedule(v)
    at = t % cycle
    now = max(i for i, start in enumerate(starts) if start <= at)
    k, page = _page_of(v, font, bottom, now)
    move = v.moves[k]
    if move.strip is not None:
        draw_strip(p, move.strip, t)
    top, pages = _move_lines(v, k, font, bottom)
    for i, line in enumerate(pages[page]):
        p.text((1, top + i * lh), line, font)
    if len(pages) > 1:  # more of this move's words on the next page
        p.symbol((WIDTH - 6, top + (len(pages[page]) - 1) * lh), "▼" if page + 1 < len(pages)
                 else "▲", font)


def _page_of(v: NapijView, font: ImageFont.FreeTypeFont, bottom: int,
             n: int) -> tuple[int, int]:
    """The move and the page of its words of the ``n``-th page of :func:`schedule`."""
    for k in range(len(v.moves)):
        pages = len(_move_lines(v, k, font, bottom)[1])
        if n < pages:
            return k, n
        n -= pages
    raise IndexError(n)


@renderer(NapijView)
def draw_napij(p: Painter, v: NapijView, t: float) -> None:
    """Paint a napij se screen (see the module docstring for the layout)."""
    if not isinstance(v, NapijView):  # a view type without a drawing is a programming error
        raise TypeError(f"no drawing for {type(v).__name__}")
    font = body_font()
    lh = line_height(font)
    _header(p, v, font, t)
    bottom = _bottom(v, lh)
    if v.moves:
        _move(p, v, font, bottom, t)
    else:
        _rows(p, v, font, lh + 1, bottom, t)
    if v.prompt:
        p.text((0, bottom), fit(font, v.prompt, WIDTH), font, whole=v.prompt)
    if v.event:
        p.text((0, HEIGHT - lh), scrolled(font, v.event, WIDTH, t), font, whole=v.event,
               scrolls=True)
    if v.banner is not None:  # over the body; its answer is the prompt under it
        draw_banner(p, v.banner, bottom - 1 if v.prompt else BANNER_BOTTOM)
