from __future__ import annotations

import io

import pytest
from luma.core.device import device as luma_device
from luma.core.render import canvas
from PIL import Image

from companion.devices.terminal_display import TerminalDisplay, choose_mode, to_text


def checker() -> Image.Image:
    im = Image.new("1", (128, 64))
    for y in range(64):
        for x in range(128):
            if (x // 2 + y // 4) % 2 == 0 and x < 8 and y < 8:
                im.putpixel((x, y), 1)
    return im


def test_modes_follow_the_terminal_size():
    assert choose_mode(140, 40) == "half"
    assert choose_mode(80, 40) == "quad"
    assert choose_mode(80, 24) == "braille"


def test_text_sizes_per_mode():
    im = Image.new("1", (128, 64))
    assert [len(to_text(im, m)) for m in ("half", "quad", "braille")] == [32, 32, 16]
    assert [len(to_text(im, m)[0]) for m in ("half", "quad", "braille")] == [128, 64, 64]


def test_pixels_map_to_the_right_characters():
    im = Image.new("1", (4, 4))
    im.putpixel((0, 0), 1)
    assert to_text(im, "half")[0][0] == "▀"
    assert to_text(im, "quad")[0][0] == "▘"
    assert to_text(im, "braille")[0][0] == chr(0x2801)
    im.putpixel((0, 1), 1)
    assert to_text(im, "half")[0][0] == "█"


def test_the_frame_is_drawn_with_a_border_and_the_footer():
    out = io.StringIO()
    d = TerminalDisplay(stream=out, text_mode="quad")
    d.set_footer("help line")
    d.display(checker())
    text = out.getvalue()
    assert text.startswith("\x1b[2J\x1b[H+" + "-" * 64 + "+")
    assert "help line" in text
    assert text.count("|█ █ ") == 2  # the 8 x 8 checker corner: two rows of quadrants


def last_picture(out: io.StringIO) -> list[str]:
    """The rows inside the border of the last frame written to ``out``."""
    frame = out.getvalue().rsplit("\x1b[H", 1)[1]
    lines = [line.removesuffix("\x1b[K").removesuffix("\x1b[K\x1b[J") for line in frame.split("\n")]
    return [line[1:-1] for line in lines if line.startswith("|")]


def corner() -> Image.Image:
    im = Image.new("1", (128, 64))
    im.putpixel((0, 0), 1)
    return im


def test_it_is_a_luma_device_with_luma_capabilities():
    d = TerminalDisplay(stream=io.StringIO(), text_mode="half")
    assert isinstance(d, luma_device)
    assert (d.width, d.height, d.size, d.mode, d.rotate) == (128, 64, (128, 64), "1", 0)
    assert d.bounding_box == (0, 0, 127, 63)
    with pytest.raises(AssertionError):  # like every luma device: the image must have its size
        d.display(Image.new("1", (64, 128)))


def test_luma_canvas_draws_on_it():
    out = io.StringIO()
    d = TerminalDisplay(stream=out, text_mode="half")
    with canvas(d) as draw:
        draw.point((127, 63), fill="white")
    rows = last_picture(out)
    assert rows[-1][-1] == "▄" and sum(r.count(" ") for r in rows) == 128 * 32 - 1


@pytest.mark.parametrize(("rotate", "size", "where"), [
    (0, (128, 64), (0, "▀")), (2, (128, 64), (-1, "▄")), (1, (64, 128), (0, "▀"))])
def test_rotate_turns_the_frame_like_a_panel_mounted_that_way(rotate, size, where):
    out = io.StringIO()
    d = TerminalDisplay(stream=out, text_mode="half", rotate=rotate)
    assert d.size == size
    im = Image.new("1", size)
    im.putpixel((0, 0), 1)  # the top-left pixel of the frame
    d.display(im)
    rows = last_picture(out)
    assert (len(rows), len(rows[0])) == (32, 128)  # the panel itself is always 128 x 64
    row, char = where
    col = {0: 0, 2: -1, 1: -1}[rotate]  # rotate=1: a quarter turn clockwise puts it top-right
    assert rows[row][col] == char
    assert sum(r.count(" ") for r in rows) == 128 * 32 - 1


def test_preprocess_is_lumas_own():
    d = TerminalDisplay(stream=io.StringIO(), rotate=2)
    turned = d.preprocess(corner())
    assert turned.getpixel((127, 63)) and not turned.getpixel((0, 0))


def test_clear_hide_show_and_contrast_behave_as_on_a_panel():
    out = io.StringIO()
    d = TerminalDisplay(stream=out, text_mode="half")
    d.display(corner())
    d.hide()
    assert all(set(r) == {" "} for r in last_picture(out))  # dark
    d.show()
    assert last_picture(out)[0][0] == "▀"  # the picture is back
    d.contrast(0x10)
    assert d.level == 0x10
    with pytest.raises(AssertionError):
        d.contrast(300)
    d.clear()
    assert all(set(r) == {" "} for r in last_picture(out))


def test_cleanup_leaves_the_picture_once():
    out = io.StringIO()
    d = TerminalDisplay(stream=out, text_mode="half")
    d.display(corner())
    d.cleanup()
    d.cleanup()  # luma calls it again at exit
    assert out.getvalue().endswith("\x1b[K\x1b[J\n")
    assert last_picture(out)[0][0] == "▀"


def test_a_terminal_too_small_for_any_picture_says_what_size_it_needs(monkeypatch):
    assert choose_mode(60, 15) is None
    out = io.StringIO()
    d = TerminalDisplay(stream=out)
    monkeypatch.setattr(d, "terminal_size", lambda: (60, 15))
    d.set_footer("řádek nápovědy\ndruhý řádek")
    d.display(checker())
    frame = out.getvalue().rsplit("\x1b[H", 1)[1]
    text = frame.replace("\x1b[K", "").replace("\x1b[J", "")
    assert "|" not in text and "█" not in text  # no broken picture
    assert "Terminál 60×15 je na obrázek displeje malý" in " ".join(text.split())
    assert "66×20" in text  # Braille picture, its border and the two footer lines
    assert all(len(line) <= 60 for line in text.split("\n")) and text.count("\n") < 15


@pytest.mark.parametrize(("size", "mode", "width"), [
    ((130, 36), "half", 128), ((129, 36), "quad", 64), ((66, 36), "quad", 64),
    ((66, 35), "braille", 64), ((66, 20), "braille", 64), ((65, 20), None, 0),
    ((66, 19), "braille", 64), ((66, 17), None, 0)])
def test_the_sizes_the_readme_names_give_their_drawing(monkeypatch, size, mode, width):
    """README: with make run's two footer lines, half blocks from 130×36, quadrants from
    66×36, Braille from 66×20 (66×18 still draws the picture, without the footer)."""
    out = io.StringIO()
    d = TerminalDisplay(stream=out)
    monkeypatch.setattr(d, "terminal_size", lambda: size)
    d.set_footer("a\nb")
    assert d.text_mode() == mode
    d.display(checker())
    if mode is None:
        assert last_picture(out) == []
        assert "potřebuji aspoň 66×20" in " ".join(out.getvalue().replace("\x1b[K", "").split())
    else:
        assert len(last_picture(out)[0]) == width


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_resized_terminal_is_drawn_again_at_once(monkeypatch):
    import os
    import signal
    import time

    before = signal.getsignal(signal.SIGWINCH)
    try:
        out = Tty()
        monkeypatch.setenv("COLUMNS", "140")
        monkeypatch.setenv("LINES", "40")
        d = TerminalDisplay(stream=out)
        d.display(checker())
        assert len(last_picture(out)[0]) == 128
        monkeypatch.setenv("COLUMNS", "80")
        os.kill(os.getpid(), signal.SIGWINCH)  # the terminal says it was resized
        end = time.monotonic() + 2
        while len(last_picture(out)[0]) != 64 and time.monotonic() < end:
            time.sleep(0.01)
        assert len(last_picture(out)[0]) == 64  # no new frame was needed
    finally:
        signal.signal(signal.SIGWINCH, before)
