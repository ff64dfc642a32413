"""Gobbit's screens: the referee panels (a title bar and up to four lines: the touch log,
disputes, races, the card editor, the virtual deck's verdicts), as a view that registers its
own drawing (:func:`companion.ui.screens.renderer`) and names how it is read aloud
(:mod:`companion.games.gobbit.reading`).  What a panel says is built by the referee models
(:mod:`companion.games.gobbit.referee`) as a :class:`~companion.ui.referee.Screen`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import ImageDraw, ImageFont

from companion.ui.fonts import heading_font
from companion.ui.referee import BODY_LINES, Screen
from companion.ui.screens import HEIGHT, WIDTH, Painter, fit, renderer
from companion.ui.views import View

if TYPE_CHECKING:
    from companion.ui.reading import Reading


@dataclass(frozen=True)
class RefereeView(View):
    """A Gobbit referee screen (drawn by :func:`draw_referee`)."""

    screen: Screen

    def reading(self) -> Reading:
        from companion.games.gobbit.reading import read_referee

        return read_referee(self)


REFEREE_LINE = 12
REFEREE_BODY_TOP = 13


def _referee(p: Painter, screen: Screen, font: ImageFont.FreeTypeFont) -> None:
    draw = p.draw
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill="black")
    p.bar((0, 0, WIDTH, REFEREE_LINE))
    p.text((1, 0), fit(font, screen.title, WIDTH - 2), font, fill=0, whole=screen.title,
           on_bar=True)
    for i, text in enumerate(screen.lines):
        if i >= BODY_LINES:
            p.lost(text)
            continue
        y = REFEREE_BODY_TOP + i * REFEREE_LINE
        shown = fit(font, text, WIDTH - 2)
        if screen.selected == i:
            p.bar((0, y, WIDTH, y + REFEREE_LINE))
            p.text((1, y), shown, font, fill=0, whole=text, on_bar=True)
        else:
            p.text((1, y), shown, font, whole=text)


@renderer(RefereeView)
def _referee_view(p: Painter, v: RefereeView, t: float) -> None:
    _referee(p, v.screen, heading_font())


def draw_referee(draw: ImageDraw.ImageDraw, screen: Screen,
                 font: ImageFont.FreeTypeFont) -> None:
    """Paint a referee screen (Terminus 6x12): an inverted title bar (rows 0-11), then up to
    four body lines at rows 13, 25, 37 and 49, the selected one inverted; text that does not
    fit is cut with an ellipsis."""
    _referee(Painter(draw), screen, font)
