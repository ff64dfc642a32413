"""Gobbit's referee panels (companion.games.gobbit.screens): drawn, and read aloud."""

from __future__ import annotations

from luma.core.device import dummy
from luma.core.render import canvas
from PIL import ImageChops

from companion.games.gobbit.screens import REFEREE_BODY_TOP as BODY_TOP
from companion.games.gobbit.screens import REFEREE_LINE as LINE
from companion.games.gobbit.screens import RefereeView, draw_referee
from companion.ui.fonts import load_font
from companion.ui.referee import Screen
from companion.ui.screens import fit
from companion.ui.screens import render as render_view


def render_ref(screen):
    return render_view(RefereeView(screen))


def lit_ref(image, box) -> int:
    return sum(image.crop(box).histogram()[1:])


def test_title_bar_is_inverted_and_lines_are_drawn():
    img = render_ref(Screen("Verdikt", ("Hráč 2 bere", "", "kupičku")))
    assert img.size == (128, 64) and img.mode == "1"
    assert img.getpixel((127, 0)) and img.getpixel((127, 11))  # white bar, black text inside
    assert lit_ref(img, (0, 0, 128, 12)) < 128 * 12  # the title text cuts dark pixels into it
    assert lit_ref(img, (0, BODY_TOP, 128, BODY_TOP + LINE)) > 0
    assert lit_ref(img, (0, BODY_TOP + LINE, 128, BODY_TOP + 2 * LINE)) == 0  # the empty line
    assert lit_ref(img, (0, BODY_TOP + 2 * LINE, 128, BODY_TOP + 3 * LINE)) > 0


def test_the_selected_line_is_inverted():
    img = render_ref(Screen("Karty", ("1: modrý had", "2: bez karty"), selected=1))
    y = BODY_TOP + LINE + 1
    assert img.getpixel((127, y)) and not img.getpixel((127, BODY_TOP + 1))


def test_long_text_is_cut_with_an_ellipsis_and_fits():
    font = load_font()
    text = fit(font, "Tahle věta je na displej o šířce 128 bodů opravdu příliš dlouhá", 126)
    assert text.endswith("…") and font.getlength(text) <= 126


def test_luma_canvas_gives_the_same_picture():
    screen = Screen("Rozhodčí", ("H2→H3       0 ms", "H3→H3    +7,0 ms"))
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_referee(draw, screen, load_font())
    assert ImageChops.difference(device.image.convert("1"), render_ref(screen)).getbbox() is None


def test_czech_letters_are_drawn():
    img = render_ref(Screen("", ("ěščřžýáíé",)))
    assert lit_ref(img, (0, BODY_TOP, 128, BODY_TOP + 3)) > 0  # the accents above the letters
