"""Drawing the screen models on a 128 x 64 one-bit canvas.

``render(view, t)`` is pure: the same view at the same animation time ``t``
(seconds) gives the same image, which the tests compare pixel by pixel.
Blinking toggles every half second; a line too long for the width scrolls.
``layout(view, t)`` also reports what was drawn where, and :func:`problems`
finds text cut by the panel's edge or by an ellipsis, text with no room, and
text and marks drawn over each other (the every-screen test runs it on every
screen of every game).  Each kind of view has its drawing registered with
:func:`renderer`: the shared ones (lists, messages) here, a game's own screens in its
module (``companion/ui/<game>_screens.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from companion.ui.fonts import body_font, heading_font
from companion.ui.marks import draw_mark
from companion.ui.views import ListView, MessageView, View

WIDTH, HEIGHT = 128, 64
BLINK_HZ = 2.0
SCROLL_CPS = 6.0  # characters per second of a scrolling line
SCROLL_PAUSE = 1.5  # seconds a scrolling line rests at its start
DICE_LOST = "Kostka je pryč"  # disconnected (the event line says to use the buttons)
DICE_MISSING = "Bez kostky"  # none configured: rolls come from the buttons


def blink_on(t: float) -> bool:
    return int(t * BLINK_HZ) % 2 == 0


@functools.lru_cache(maxsize=4096)
def text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    """``text``'s width in pixels (kept: a frame measures the same lines again and again)."""
    return int(font.getlength(text))


def line_height(font: ImageFont.FreeTypeFont) -> int:
    top, bottom = font.getbbox("ÁŽjg")[1::2]
    return max(8, int(bottom - min(0, top)))


def fit(font: ImageFont.FreeTypeFont, text: str, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if text_width(font, text) <= width:
        return text
    while text and text_width(font, text + "…") > width:
        text = text[:-1]
    return text + "…"


def scrolled(font: ImageFont.FreeTypeFont, text: str, width: int, t: float) -> str:
    """The visible window of a line that scrolls when it does not fit."""
    if text_width(font, text) <= width:
        return text
    loop = text + "   ·   "
    steps = max(0.0, t - SCROLL_PAUSE) * SCROLL_CPS
    start = int(steps) % len(loop)
    window = (loop + loop)[start:start + len(loop)]
    out = ""
    for ch in window:
        if text_width(font, out + ch) > width:
            break
        out += ch
    return out


# --- what was drawn where (for the clipping and overlap check) -----------------------

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 with x1, y1 exclusive."""


@dataclass(frozen=True)
class Ink:
    """One thing drawn on a frame, as :func:`layout` reports it.

    ``kind``: ``text``; ``mark`` (a colour's mark, ▲ ▼ scroll marks); ``bar`` (an inverted
    selection or title bar); ``board`` (the mini-map, a strip map); ``rule`` (a line: a
    frame's edge); ``lost`` (a text that had no room at all); ``hidden`` (a text partly
    under a box drawn over it later, a banner).  ``box`` is the area it lights (for text:
    its lit pixels).  A text that stands for a longer one (cut with an ellipsis) has
    ``whole`` != ``text``, unless it ``scrolls``.  ``on_bar``: drawn dark on a lit bar.
    """

    kind: str
    box: Box
    text: str = ""
    whole: str = ""
    scrolls: bool = False
    on_bar: bool = False


def _ink_box(font: ImageFont.FreeTypeFont, xy: tuple[int, int], text: str) -> Box:
    """The lit pixels of ``text`` drawn at ``xy`` (found by drawing it on a scratch canvas)."""
    pad = 64
    scratch = Image.new("1", (WIDTH + 2 * pad, HEIGHT + 2 * pad))
    d = ImageDraw.Draw(scratch)
    d.fontmode = "1"
    d.text((xy[0] + pad, xy[1] + pad), text, font=font, fill=1)
    box = scratch.getbbox()
    if box is None:
        return (xy[0], xy[1], xy[0], xy[1])
    return (box[0] - pad, box[1] - pad, box[2] - pad, box[3] - pad)


@functools.lru_cache(maxsize=1024)
def _stamp(font: ImageFont.FreeTypeFont, text: str) -> tuple[int, int, Image.Image] | None:
    """``text`` in ``font`` as one-bit text drawn at (0, 0) draws it: where its lit pixels
    start from that point and their mask (``None``: none lit).  Drawn once per line and
    kept: the same lines come back in every frame, and stamping a mask is much cheaper
    than laying the glyphs out again."""
    left, top, right, bottom = font.getbbox(text)
    pad = 2 * int(font.size) + 4
    scratch = Image.new("1", (int(right - min(0, left)) + 2 * pad,
                              int(bottom - min(0, top)) + 2 * pad))
    d = ImageDraw.Draw(scratch)
    d.fontmode = "1"
    d.text((pad, pad), text, font=font, fill=1)
    box = scratch.getbbox()
    if box is None:
        return None
    return box[0] - pad, box[1] - pad, scratch.crop(box)


class Painter:
    """Draws on a frame and, when ``record`` is set, notes every item as an :class:`Ink`."""

    def __init__(self, draw: ImageDraw.ImageDraw, record: bool = False) -> None:
        self.draw = draw
        self.record = record
        self.inks: list[Ink] = []

    def text(self, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont, fill: int = 1,
             *, whole: str | None = None, scrolls: bool = False, on_bar: bool = False) -> None:
        x, y = xy
        if self.draw.fontmode == "1" and type(x) is int and type(y) is int:
            stamp = _stamp(font, text)
            if stamp is not None:
                dx, dy, mask = stamp
                self.draw.bitmap((x + dx, y + dy), mask, fill=fill)
        else:
            self.draw.text(xy, text, font=font, fill=fill)
        if self.record and text.strip():
            self.inks.append(Ink("text", _ink_box(font, xy, text), text,
                                 text if whole is None else whole, scrolls, on_bar))

    def bar(self, box: Box) -> None:
        """An inverted (lit) rectangle; text on it is drawn dark with ``on_bar``."""
        self.draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=1)
        if self.record:
            self.inks.append(Ink("bar", box))

    def mark(self, colour: int, x: int, y: int, size: int, *, on_bar: bool = False) -> None:
        """A colour's mark; ``on_bar``: drawn dark on a selection bar (it stays visible)."""
        draw_mark(self.draw, colour, x, y, size, fill=0 if on_bar else 1)
        if self.record:
            self.inks.append(Ink("mark", (x, y, x + size, y + size), on_bar=on_bar))

    def line(self, box: Box) -> None:
        """A lit line, horizontal or vertical (``box`` one pixel thick, exclusive end)."""
        self.draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=1)
        if self.record:
            self.inks.append(Ink("rule", box))

    def cover(self, box: Box) -> None:
        """Clear ``box`` to draw something over what is there (a banner): what lies wholly
        under it is hidden and no longer counts; a text partly under it is reported."""
        self.draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=0)
        if not self.record:
            return
        kept: list[Ink] = []
        for ink in self.inks:
            b = ink.box
            inside = box[0] <= b[0] and box[1] <= b[1] and b[2] <= box[2] and b[3] <= box[3]
            if inside and ink.kind != "lost":
                continue
            if ink.kind == "text" and _overlap(b, box):
                kept.append(Ink("hidden", b, ink.text, ink.whole))
                continue
            kept.append(ink)
        self.inks = kept

    def symbol(self, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont) -> None:
        """A mark drawn with a glyph (▲ ▼)."""
        self.draw.text(xy, text, font=font, fill=1)
        if self.record:
            self.inks.append(Ink("mark", _ink_box(font, xy, text), text, text))

    def area(self, kind: str, box: Box) -> None:
        if self.record:
            self.inks.append(Ink(kind, box))

    def lost(self, text: str) -> None:
        if self.record:
            self.inks.append(Ink("lost", (0, 0, 0, 0), "", text))


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def problems(inks: list[Ink]) -> list[str]:
    """What is wrong with a frame's layout: text cut (by the panel's edge, or with an ellipsis
    where the whole text matters), a text with no room, or text and marks drawn over each
    other (a scroll mark on a text or on the selection bar, text over the player's mark)."""
    found: list[str] = []
    texts = [i for i in inks if i.kind == "text"]
    for i in inks:
        if i.kind == "lost":
            found.append(f"no room for {i.whole!r}")
        elif i.kind == "hidden":
            found.append(f"{i.whole!r} is partly hidden by a box drawn over it")
    for t in texts:
        x0, y0, x1, y1 = t.box
        if x0 < 0 or y0 < 0 or x1 > WIDTH - 1 or y1 > HEIGHT:
            found.append(f"{t.text!r} is cut by the panel's edge (lit {t.box})")
        if t.whole != t.text and not t.scrolls:
            found.append(f"{t.whole!r} is shown cut as {t.text!r}")
    solid = [i for i in inks if i.kind in ("mark", "board", "rule")]
    for a in solid:
        for t in texts:
            if _overlap(a.box, t.box):
                found.append(f"{t.text!r} overlaps a {a.kind} at {a.box}")
        for b in inks:
            if b.kind == "bar" and a.kind == "mark" and not a.on_bar and _overlap(a.box, b.box):
                found.append(f"the mark {a.text or a.box!r} is drawn on a selection bar")
    for b in (i for i in inks if i.kind == "bar"):
        for t in texts:
            if not t.on_bar and _overlap(b.box, t.box):
                found.append(f"{t.text!r} overlaps a selection bar at {b.box}")
    for n, a in enumerate(texts):
        for b in texts[n + 1:]:
            if _overlap(a.box, b.box) and a.on_bar == b.on_bar:
                found.append(f"{a.text!r} and {b.text!r} are drawn over each other")
    return found


# --- who draws which view ----------------------------------------------------------------

Renderer = Callable[[Painter, Any, float], None]
"""Draws a view (the painter, the view, the animation time)."""
Moves = Callable[[Any], bool]
"""Whether a view's drawing changes with time alone (a page turning, a line scrolling)."""
_RENDERERS: dict[type, Renderer] = {}
_MOVES: dict[type, Moves] = {}
DrawT = TypeVar("DrawT", bound=Renderer)


def renderer(kind: type, *, moves: Moves | None = None) -> Callable[[DrawT], DrawT]:
    """Register the decorated function as the drawing of the views of ``kind`` (and of its
    subclasses), and ``moves``: whether a view of it changes with time alone (then the
    shell draws it again and again without being asked: :func:`moves`).  A game's screens
    register theirs in the module that defines or draws them
    (``companion/ui/<game>_screens.py``); this module names no game."""

    def register(draw: DrawT) -> DrawT:
        _RENDERERS[kind] = draw
        if moves is not None:
            _MOVES[kind] = moves
        return draw

    return register


def moves(view: object) -> bool:
    """Whether ``view`` changes on the panel with time alone (a message's pages turning, a
    long footer scrolling); ``False`` for a kind that did not say (it is asked of its host)."""
    for base in type(view).__mro__:
        says = _MOVES.get(base)
        if says is not None:
            return says(view)
        if base in _RENDERERS:
            return False
    return False


def renderer_of(kind: type) -> Renderer:
    """The drawing of the views of ``kind``; :class:`TypeError` when none is registered (the
    module that registers it was not imported: a programming error)."""
    for base in kind.__mro__:
        draw = _RENDERERS.get(base)
        if draw is not None:
            return draw
    raise TypeError(f"No drawing is registered for {kind.__name__}: import the module that "
                    "draws it (it registers itself with companion.ui.screens.renderer).")


# --- the screens -----------------------------------------------------------------------


def inverse(p: Painter, x: int, y: int, w: int, h: int, text: str,
             font: ImageFont.FreeTypeFont, *, whole: str | None = None,
             scrolls: bool = False) -> None:
    p.bar((x, y, x + w, y + h))
    p.text((x + 1, y), text, font, fill=0, whole=whole, scrolls=scrolls, on_bar=True)


SCROLL_MARK_W = 7
"""The column a scrolling list keeps on its right for ▲ ▼ (never on an item or its bar)."""


@renderer(ListView)
def _list(p: Painter, v: ListView, t: float) -> None:
    head, font = heading_font(), body_font()
    hh, lh = line_height(head), line_height(font)
    p.text((0, 0), fit(head, v.title, WIDTH), head, whole=v.title)
    p.draw.line((0, hh, WIDTH - 1, hh), fill=1)
    y0 = hh + 2
    rows = (HEIGHT - y0 - (lh if v.footer else 0)) // lh
    first = min(max(0, v.selected - rows + 1), max(0, len(v.items) - rows))
    scrolling = len(v.items) > rows
    w = WIDTH - (SCROLL_MARK_W if scrolling else 0)
    for row, i in enumerate(range(first, min(len(v.items), first + rows))):
        y = y0 + row * lh
        text = v.items[i]
        if i == v.selected:
            inverse(p, 0, y, w, lh, scrolled(font, text, w - 3, t), font, whole=text,
                     scrolls=True)
        else:
            p.text((1, y), fit(font, text, w - 2), font, whole=text)
    if first > 0:
        p.symbol((WIDTH - 6, y0), "▲", font)
    if first + rows < len(v.items):
        p.symbol((WIDTH - 6, y0 + (rows - 1) * lh), "▼", font)
    if v.footer:  # a long notice ("Hlas mlčí: chybí zvuková karta.") scrolls, never cut
        p.text((0, HEIGHT - lh), scrolled(font, v.footer, WIDTH - 1, t), font, whole=v.footer,
               scrolls=True)


MESSAGE_PAGE_SECONDS = 3.0
"""How long each page of a message too long for one screen stays (they turn by themselves:
the buttons belong to whoever shows the message)."""


def message_pages(v: MessageView) -> list[tuple[str, ...]]:
    """The lines of ``v`` wrapped to the panel's width (a line that fits stays as it is), in
    pages of as many lines as the screen has room for under the title."""
    head, font = heading_font(), body_font()
    rows = max(1, (HEIGHT - line_height(head) - 2 - (line_height(font) if v.footer else 0))
               // line_height(font))
    lines: list[str] = []
    for line in v.lines:
        lines += [line] if text_width(font, line) <= WIDTH else wrap(font, line, WIDTH - 1)
    return [tuple(lines[i:i + rows]) for i in range(0, len(lines), rows)] or [()]


def _message_moves(v: MessageView) -> bool:
    return len(message_pages(v)) > 1 or text_width(body_font(), v.footer) > WIDTH


@renderer(MessageView, moves=_message_moves)
def _message(p: Painter, v: MessageView, t: float) -> None:
    """The title, the lines (wrapped; pages that turn every :data:`MESSAGE_PAGE_SECONDS` when
    they are more than the screen holds, "2/3" at the title's right) and the footer (it
    scrolls when long): nothing is ever cut."""
    head, font = heading_font(), body_font()
    hh, lh = line_height(head), line_height(font)
    pages = message_pages(v)
    page = int(t / MESSAGE_PAGE_SECONDS) % len(pages) if len(pages) > 1 else 0
    if len(pages) > 1:
        mark = f"{page + 1}/{len(pages)}"
        room = WIDTH - text_width(head, mark) - 4
        p.text((0, 0), fit(head, v.title, room), head, whole=v.title)
        p.text((WIDTH - 1 - text_width(head, mark), 0), mark, head)
    else:
        p.text((0, 0), fit(head, v.title, WIDTH), head, whole=v.title)
    y = hh + 2
    for line in pages[page]:
        p.text((0, y), fit(font, line, WIDTH), font, whole=line)
        y += lh
    if text_width(font, v.footer) > WIDTH:
        p.text((0, HEIGHT - lh), scrolled(font, v.footer, WIDTH - 1, t), font, whole=v.footer,
               scrolls=True)
    elif v.footer:
        p.text((0, HEIGHT - lh), v.footer, font, whole=v.footer)


def _paint(view: View, t: float, record: bool) -> tuple[Image.Image, list[Ink]]:
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing on a one-bit panel
    p = Painter(draw, record)
    renderer_of(type(view))(p, view, t)
    return image, p.inks


def render(view: View, t: float = 0.0) -> Image.Image:
    """The frame of ``view`` at animation time ``t`` seconds."""
    return _paint(view, t, False)[0]


def layout(view: View, t: float = 0.0) -> tuple[Image.Image, list[Ink]]:
    """The frame of ``view`` and what was drawn where (see :func:`problems`)."""
    return _paint(view, t, True)


def wrap(font: ImageFont.FreeTypeFont, text: str, width: int = WIDTH) -> list[str]:
    """Break ``text`` into lines of at most ``width`` pixels at spaces (a word wider than
    ``width`` alone is broken where it must be)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while text_width(font, word) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and text_width(font, word[:cut]) > width:
                cut -= 1
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:cut])
            word = word[cut:]
        candidate = f"{current} {word}".strip()
        if text_width(font, candidate) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
