from __future__ import annotations

import io

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
    d = TerminalDisplay(stream=out, mode="quad")
    d.set_footer("help line")
    d.display(checker())
    text = out.getvalue()
    assert text.startswith("\x1b[2J\x1b[H+" + "-" * 64 + "+")
    assert "help line" in text
    assert text.count("|█ █ ") == 2  # the 8 x 8 checker corner: two rows of quadrants
