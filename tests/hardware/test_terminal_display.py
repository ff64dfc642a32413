from __future__ import annotations

import io

import pytest
from luma.core.device import device as luma_device
from luma.core.render import canvas
from PIL import Image

from companion.hardware.terminal_display import TerminalDisplay, choose_mode, to_text


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
