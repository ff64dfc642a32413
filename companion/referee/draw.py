"""Drawing a referee :class:`~companion.referee.screen.Screen` on the 128x64 OLED (pure).

``draw_referee(draw, screen, font)`` paints onto any Pillow ``ImageDraw`` — the
one luma's ``canvas(device)`` yields on the Pi, on the mock display and in the
terminal twin alike.  Layout for Terminus 6x12: an inverted title bar (rows
0-11) and four body lines at rows 13, 25, 37 and 49; the selected line is
inverted.  Text that does not fit is cut with an ellipsis.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from .screen import BODY_LINES, Screen

WIDTH, HEIGHT = 128, 64
LINE = 12
BODY_TOP = 13


def fit(text: str, font: Any, width: int = WIDTH - 2) -> str:
    """``text`` shortened with ``…`` until it fits ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def draw_referee(draw: ImageDraw.ImageDraw, screen: Screen, font: Any) -> None:
    """Paint ``screen``: title bar, then up to four lines (the selected one inverted)."""
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill="black")
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill="white")
    draw.text((1, 0), fit(screen.title, font), font=font, fill="black")
    for i, text in enumerate(screen.lines[:BODY_LINES]):
        y = BODY_TOP + i * LINE
        colour = "white"
        if screen.selected == i:
            draw.rectangle((0, y, WIDTH - 1, y + LINE - 1), fill="white")
            colour = "black"
        draw.text((1, y), fit(text, font), font=font, fill=colour)


def render(screen: Screen, font: Any | None = None) -> Image.Image:
    """``screen`` as a 128x64 one-bit image (for tests, pictures and the terminal twin)."""
    if font is None:
        from companion.ui.fonts import load_font

        font = load_font()
    image = Image.new("1", (WIDTH, HEIGHT))
    draw_referee(ImageDraw.Draw(image), screen, font)
    return image
