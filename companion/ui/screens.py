"""Drawing the screen models on a 128 x 64 one-bit canvas.

``render(view, t)`` is pure: the same view at the same animation time ``t``
(seconds) gives the same image, which the tests compare pixel by pixel.
Blinking toggles every half second; a line too long for the width scrolls.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from .fonts import body_font, heading_font
from .marks import draw_mark
from .referee import BODY_LINES as REFEREE_LINES
from .referee import Screen as RefereeScreen
from .views import ListView, MessageView, NapijView, RefereeView, TurnView, View, WinView

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


def _inverse(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, text: str,
             font: ImageFont.FreeTypeFont) -> None:
    draw.rectangle((x, y, x + w - 1, y + h - 1), fill=1)
    draw.text((x + 1, y), text, font=font, fill=0)


def _turn(draw: ImageDraw.ImageDraw, v: TurnView, t: float) -> None:
    font = body_font()
    lh = line_height(font)
    from .minimap import SIZE as MAP_SIZE  # the Člověče board: imported when first drawn
    from .minimap import draw_board

    draw_board(draw, v.position, 0, 0, v.blink, blink_on(t))
    x = MAP_SIZE + 3
    w = WIDTH - x
    y = 0
    # who: name and mark (and the computer sign)
    draw.text((x, y), v.player, font=font, fill=1)
    mx = x + _text_width(font, v.player) + 2
    draw_mark(draw, v.colour, mx, y + 1, 5)
    if v.computer:
        draw.text((mx + 8, y), "PC", font=font, fill=1)
    y += lh
    # the roll, or how to get one
    if v.roll is not None:
        draw.text((x, y), f"Hod: {v.roll}", font=font, fill=1)
    elif v.manual_roll is not None:
        label = "Hod: ◀ "
        draw.text((x, y), label, font=font, fill=1)
        vx = x + _text_width(font, label)
        if blink_on(t):
            _inverse(draw, vx, y, _text_width(font, str(v.manual_roll)) + 2, lh,
                     str(v.manual_roll), font)
        else:
            draw.text((vx + 1, y), str(v.manual_roll), font=font, fill=1)
        draw.text((vx + _text_width(font, str(v.manual_roll)) + 3, y), " ▶", font=font, fill=1)
    y += lh
    if v.tries_shown:
        draw.text((x, y), f"Pokus {v.tries + 1} ze 3", font=font, fill=1)
        y += lh
    # numbered choices (three visible, the selected one kept in view)
    rows = max(1, (HEIGHT - lh - y) // lh - 1)
    first = min(max(0, v.selected - rows + 1), max(0, len(v.choices) - rows))
    for i in range(first, min(len(v.choices), first + rows)):
        c = v.choices[i]
        text = f"{i + 1} {c.label}" + (" ×" if c.capture else "")
        if i == v.selected and len(v.choices) > 1:
            _inverse(draw, x, y, w, lh, text, font)
        else:
            draw.text((x + 1, y), text, font=font, fill=1)
        y += lh
    # the prompt, or a warning about the dice
    status = v.prompt
    if v.dice == "lost":
        status = DICE_LOST
    elif v.dice == "missing" and v.manual_roll is not None:
        status = DICE_MISSING
    draw.text((x, HEIGHT - 2 * lh), fit(font, status, w), font=font, fill=1)
    # what just happened, across the whole width
    draw.text((0, HEIGHT - lh), scrolled(font, v.event, WIDTH, t), font=font, fill=1)


def _list(draw: ImageDraw.ImageDraw, v: ListView, t: float) -> None:
    head, font = heading_font(), body_font()
    hh, lh = line_height(head), line_height(font)
    draw.text((0, -1), fit(head, v.title, WIDTH), font=head, fill=1)
    draw.line((0, hh - 1, WIDTH - 1, hh - 1), fill=1)
    y0 = hh + 1
    rows = (HEIGHT - y0 - (lh if v.footer else 0)) // lh
    first = min(max(0, v.selected - rows + 1), max(0, len(v.items) - rows))
    for row, i in enumerate(range(first, min(len(v.items), first + rows))):
        y = y0 + row * lh
        text = v.items[i]
        if i == v.selected:
            _inverse(draw, 0, y, WIDTH, lh, scrolled(font, text, WIDTH - 2, t), font)
        else:
            draw.text((1, y), fit(font, text, WIDTH - 2), font=font, fill=1)
    if first > 0:
        draw.text((WIDTH - 6, y0), "▲", font=font, fill=1)
    if first + rows < len(v.items):
        draw.text((WIDTH - 6, y0 + (rows - 1) * lh), "▼", font=font, fill=1)
    if v.footer:
        draw.text((0, HEIGHT - lh), fit(font, v.footer, WIDTH), font=font, fill=1)


def _win(draw: ImageDraw.ImageDraw, v: WinView, t: float) -> None:
    head, font = heading_font(bold=True), body_font()
    lh = line_height(font)
    from .minimap import SIZE as MAP_SIZE
    from .minimap import draw_board

    draw_board(draw, v.position, 0, 0)
    x = MAP_SIZE + 4
    draw.text((x, 2), "Vyhrává", font=head, fill=1)
    draw.text((x, 18), v.player, font=head, fill=1)
    if blink_on(t):
        draw_mark(draw, v.colour, x + _text_width(head, v.player) + 3, 20, 7)
    draw.text((x, HEIGHT - lh), fit(font, v.footer, WIDTH - x), font=font, fill=1)


def _message(draw: ImageDraw.ImageDraw, v: MessageView, t: float) -> None:
    head, font = heading_font(), body_font()
    hh, lh = line_height(head), line_height(font)
    draw.text((0, -1), fit(head, v.title, WIDTH), font=head, fill=1)
    y = hh + 2
    for line in v.lines:
        if y + lh > HEIGHT - (lh if v.footer else 0):
            break
        draw.text((0, y), fit(font, line, WIDTH), font=font, fill=1)
        y += lh
    if v.footer:
        draw.text((0, HEIGHT - lh), fit(font, v.footer, WIDTH), font=font, fill=1)


REFEREE_LINE = 12
REFEREE_BODY_TOP = 13


def draw_referee(draw: ImageDraw.ImageDraw, screen: RefereeScreen,
                 font: ImageFont.FreeTypeFont) -> None:
    """Paint a referee screen (Terminus 6x12): an inverted title bar (rows 0-11), then up to
    four body lines at rows 13, 25, 37 and 49, the selected one inverted; text that does not
    fit is cut with an ellipsis."""
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill="black")
    draw.rectangle((0, 0, WIDTH - 1, REFEREE_LINE - 1), fill="white")
    draw.text((1, 0), fit(font, screen.title, WIDTH - 2), font=font, fill="black")
    for i, text in enumerate(screen.lines[:REFEREE_LINES]):
        y = REFEREE_BODY_TOP + i * REFEREE_LINE
        colour = "white"
        if screen.selected == i:
            draw.rectangle((0, y, WIDTH - 1, y + REFEREE_LINE - 1), fill="white")
            colour = "black"
        draw.text((1, y), fit(font, text, WIDTH - 2), font=font, fill=colour)


def render(view: View, t: float = 0.0) -> Image.Image:
    """The frame of ``view`` at animation time ``t`` seconds."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing on a one-bit panel
    if isinstance(view, TurnView):
        _turn(draw, view, t)
    elif isinstance(view, ListView):
        _list(draw, view, t)
    elif isinstance(view, WinView):
        _win(draw, view, t)
    elif isinstance(view, MessageView):
        _message(draw, view, t)
    elif isinstance(view, RefereeView):
        draw_referee(draw, view.screen, heading_font())
    elif isinstance(view, NapijView):
        from .napij_screens import draw_napij  # its own module (it uses this one's helpers)

        draw_napij(draw, view, t)
    else:  # pragma: no cover - a view type without a drawing is a programming error
        raise TypeError(f"no drawing for {type(view).__name__}")
    return image


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
