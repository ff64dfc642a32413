"""Drawing a referee :class:`~companion.referee.screen.Screen` on the 128x64 OLED (pure).

``draw_referee(draw, screen, font)`` paints onto a Pillow ``ImageDraw``; the
service calls it from :func:`companion.ui.screens.render` for a ``RefereeView``,
the same frame on the Pi, the mock display and the terminal twin.  Layout for Terminus 6x12: an inverted title bar (rows
0-11) and four body lines at rows 13, 25, 37 and 49; the selected line is
inverted.  Text that does not fit is cut with an ellipsis.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from companion.ui import screens
from companion.ui.screens import HEIGHT, WIDTH

from .screen import BODY_LINES, Screen

LINE = 12
BODY_TOP = 13


def fit(text: str, font: Any, width: int = WIDTH - 2) -> str:
    """``text`` shortened with ``…`` until it fits ``width`` pixels (the screens' own fit)."""
    return screens.fit(font, text, width)


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


def render(screen: Screen) -> Image.Image:
    """``screen`` as a 128x64 one-bit image, drawn exactly as the service draws it."""
    from companion.ui.views import RefereeView

    return screens.render(RefereeView(screen))
