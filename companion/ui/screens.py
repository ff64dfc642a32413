"""Drawing the screen models on a 128 x 64 one-bit canvas.

``render(view, t)`` is pure: the same view at the same animation time ``t``
(seconds) gives the same image, which the tests compare pixel by pixel.
Blinking toggles every half second; a line too long for the width scrolls.
``layout(view, t)`` also reports what was drawn where, and :func:`problems`
finds text cut by the panel's edge or by an ellipsis, text with no room, and
text and marks drawn over each other (the every-screen test runs it on every
screen of every game).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import body_font, heading_font
from .marks import draw_mark
from .referee import BODY_LINES as REFEREE_LINES
from .referee import Screen as RefereeScreen
from .views import ListView, MessageView, RefereeView, TurnView, View, WinView

WIDTH, HEIGHT = 128, 64
BLINK_HZ = 2.0
SCROLL_CPS = 6.0  # characters per second of a scrolling line
SCROLL_PAUSE = 1.5  # seconds a scrolling line rests at its start
DICE_LOST = "Kostka je pryč"  # disconnected (the event line says to use the buttons)
DICE_MISSING = "Bez kostky"  # none configured: rolls come from the buttons


def blink_on(t: float) -> bool:
    return int(t * BLINK_HZ) % 2 == 0


def _text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    return int(font.getlength(text))


def line_height(font: ImageFont.FreeTypeFont) -> int:
    top, bottom = font.getbbox("ÁŽjg")[1::2]
    return max(8, int(bottom - min(0, top)))


def fit(font: ImageFont.FreeTypeFont, text: str, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if _text_width(font, text) <= width:
        return text
    while text and _text_width(font, text + "…") > width:
        text = text[:-1]
    return text + "…"


def scrolled(font: ImageFont.FreeTypeFont, text: str, width: int, t: float) -> str:
    """The visible window of a line that scrolls when it does not fit."""
    if _text_width(font, text) <= width:
        return text
    loop = text + "   ·   "
    steps = max(0.0, t - SCROLL_PAUSE) * SCROLL_CPS
    start = int(steps) % len(loop)
    window = (loop + loop)[start:start + len(loop)]
    out = ""
    for ch in window:
        if _text_width(font, out + ch) > width:
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


class Painter:
    """Draws on a frame and, when ``record`` is set, notes every item as an :class:`Ink`."""

    def __init__(self, draw: ImageDraw.ImageDraw, record: bool = False) -> None:
        self.draw = draw
        self.record = record
        self.inks: list[Ink] = []

    def text(self, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont, fill: int = 1,
             *, whole: str | None = None, scrolls: bool = False, on_bar: bool = False) -> None:
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


# --- the screens -----------------------------------------------------------------------


def _inverse(p: Painter, x: int, y: int, w: int, h: int, text: str,
             font: ImageFont.FreeTypeFont, *, whole: str | None = None,
             scrolls: bool = False) -> None:
    p.bar((x, y, x + w, y + h))
    p.text((x + 1, y), text, font, fill=0, whole=whole, scrolls=scrolls, on_bar=True)


def _turn(p: Painter, v: TurnView, t: float) -> None:
    font = body_font()
    lh = line_height(font)
    from .minimap import SIZE as MAP_SIZE  # the Člověče board: imported when first drawn
    from .minimap import draw_board

    draw_board(p.draw, v.position, 0, 0, v.blink, blink_on(t))
    p.area("board", (0, 0, MAP_SIZE, MAP_SIZE))
    x = MAP_SIZE + 3
    w = WIDTH - x
    y = 0
    # who: name and mark (and the computer sign)
    p.text((x, y), v.player, font)
    mx = x + _text_width(font, v.player) + 2
    p.mark(v.colour, mx, y + 1, 5)
    if v.computer:
        p.text((mx + 8, y), "PC", font)
    y += lh
    # the roll, or how to get one
    if v.roll is not None:
        p.text((x, y), f"Hod PC: {v.roll}" if v.roll_virtual else f"Hod: {v.roll}", font)
    elif v.manual_roll is not None:
        label = "Hod: ◀ "
        p.text((x, y), label, font)
        vx = x + _text_width(font, label)
        value = str(v.manual_roll)
        if blink_on(t):
            _inverse(p, vx, y, _text_width(font, value) + 2, lh, value, font)
        else:
            p.text((vx + 1, y), value, font)
        p.text((vx + _text_width(font, value) + 3, y), " ▶", font)
    y += lh
    if v.tries_shown:
        p.text((x, y), f"Pokus {v.tries + 1} ze 3", font)
        y += lh
    # numbered choices (the selected one kept in view)
    rows = max(1, (HEIGHT - lh - y) // lh - 1)
    first = min(max(0, v.selected - rows + 1), max(0, len(v.choices) - rows))
    for i in range(first, min(len(v.choices), first + rows)):
        c = v.choices[i]
        text = f"{i + 1} {c.label}" + (" ×" if c.capture else "")
        if i == v.selected and len(v.choices) > 1:
            _inverse(p, x, y, w, lh, fit(font, text, w - 2), font, whole=text)
        else:
            p.text((x + 1, y), fit(font, text, w - 2), font, whole=text)
        y += lh
    for i in (*range(first), *range(first + rows, len(v.choices))):
        p.lost(v.choices[i].label)
    # the prompt, or a warning about the dice
    status = v.prompt
    if v.dice == "lost":
        status = DICE_LOST
    elif v.dice == "missing" and v.manual_roll is not None:
        status = DICE_MISSING
    p.text((x, HEIGHT - 2 * lh), fit(font, status, w), font, whole=status)
    # the selected move in words, or what just happened, across the whole width
    line = v.words or v.event
    p.text((0, HEIGHT - lh), scrolled(font, line, WIDTH - 1, t), font, whole=line, scrolls=True)


SCROLL_MARK_W = 7
"""The column a scrolling list keeps on its right for ▲ ▼ (never on an item or its bar)."""


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
            _inverse(p, 0, y, w, lh, scrolled(font, text, w - 3, t), font, whole=text,
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


def _win(p: Painter, v: WinView, t: float) -> None:
    head, font = heading_font(bold=True), body_font()
    lh = line_height(font)
    from .minimap import SIZE as MAP_SIZE
    from .minimap import draw_board

    draw_board(p.draw, v.position, 0, 0)
    p.area("board", (0, 0, MAP_SIZE, MAP_SIZE))
    x = MAP_SIZE + 4
    p.text((x, 2), "Vyhrává", head)
    p.text((x, 18), v.player, head)
    if blink_on(t):
        p.mark(v.colour, x + _text_width(head, v.player) + 3, 20, 7)
    p.text((x, HEIGHT - lh), fit(font, v.footer, WIDTH - x), font, whole=v.footer)


def _message(p: Painter, v: MessageView, t: float) -> None:
    head, font = heading_font(), body_font()
    hh, lh = line_height(head), line_height(font)
    p.text((0, 0), fit(head, v.title, WIDTH), head, whole=v.title)
    y = hh + 2
    for line in v.lines:
        if y + lh > HEIGHT - (lh if v.footer else 0):
            p.lost(line)
            continue
        p.text((0, y), fit(font, line, WIDTH), font, whole=line)
        y += lh
    if v.footer:
        p.text((0, HEIGHT - lh), fit(font, v.footer, WIDTH), font, whole=v.footer)


REFEREE_LINE = 12
REFEREE_BODY_TOP = 13


def _referee(p: Painter, screen: RefereeScreen, font: ImageFont.FreeTypeFont) -> None:
    draw = p.draw
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill="black")
    p.bar((0, 0, WIDTH, REFEREE_LINE))
    p.text((1, 0), fit(font, screen.title, WIDTH - 2), font, fill=0, whole=screen.title,
           on_bar=True)
    for i, text in enumerate(screen.lines):
        if i >= REFEREE_LINES:
            p.lost(text)
            continue
        y = REFEREE_BODY_TOP + i * REFEREE_LINE
        shown = fit(font, text, WIDTH - 2)
        if screen.selected == i:
            p.bar((0, y, WIDTH, y + REFEREE_LINE))
            p.text((1, y), shown, font, fill=0, whole=text, on_bar=True)
        else:
            p.text((1, y), shown, font, whole=text)


def draw_referee(draw: ImageDraw.ImageDraw, screen: RefereeScreen,
                 font: ImageFont.FreeTypeFont) -> None:
    """Paint a referee screen (Terminus 6x12): an inverted title bar (rows 0-11), then up to
    four body lines at rows 13, 25, 37 and 49, the selected one inverted; text that does not
    fit is cut with an ellipsis."""
    _referee(Painter(draw), screen, font)


def _paint(view: View, t: float, record: bool) -> tuple[Image.Image, list[Ink]]:
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing on a one-bit panel
    p = Painter(draw, record)
    if isinstance(view, TurnView):
        _turn(p, view, t)
    elif isinstance(view, ListView):
        _list(p, view, t)
    elif isinstance(view, WinView):
        _win(p, view, t)
    elif isinstance(view, MessageView):
        _message(p, view, t)
    elif isinstance(view, RefereeView):
        _referee(p, view.screen, heading_font())
    else:  # napij se's screens: their own module (it uses this one's helpers)
        from .napij_screens import draw_napij

        draw_napij(p, view, t)
    return image, p.inks


def render(view: View, t: float = 0.0) -> Image.Image:
    """The frame of ``view`` at animation time ``t`` seconds."""
    return _paint(view, t, False)[0]


def layout(view: View, t: float = 0.0) -> tuple[Image.Image, list[Ink]]:
    """The frame of ``view`` and what was drawn where (see :func:`problems`)."""
    return _paint(view, t, True)


def wrap(font: ImageFont.FreeTypeFont, text: str, width: int = WIDTH) -> list[str]:
    """Break ``text`` into lines of at most ``width`` pixels at spaces."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if _text_width(font, candidate) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
