from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from companion.hardware.display import DisplayError, Screen, create_device


def frame(text: str) -> Image.Image:
    im = Image.new("1", (128, 64))
    ImageDraw.Draw(im).text((0, 0), text, fill=1)
    return im


def test_the_dummy_device_keeps_the_last_frame():
    device = create_device("dummy")
    screen = Screen(device)
    im = frame("ahoj")
    assert screen.show(im)
    assert device.image.convert("1").tobytes() == im.tobytes()


def test_identical_frames_are_skipped_and_listeners_see_shown_frames():
    screen = Screen(create_device("dummy"))
    seen = []
    screen.listeners.append(lambda im, t: seen.append(t))
    assert screen.show(frame("a")) and not screen.show(frame("a")) and screen.show(frame("b"))
    assert screen.frames == 2 and len(seen) == 2


def test_a_missing_i2c_panel_is_one_sentence():
    with pytest.raises(DisplayError) as err:
        create_device("ssd1306", i2c_port=97)
    assert "I2C bus 97" in str(err.value) and "0x3C" in str(err.value)


def test_terminal_and_gif_devices_are_created(tmp_path):
    out = io.StringIO()
    term = create_device("terminal", stream=out)
    term.display(frame("x"))
    assert "\x1b[H" in out.getvalue()
    gif = create_device("gif", gif_file=str(tmp_path / "a.gif"))
    gif.display(frame("y"))
    gif.write_animation()
    assert (tmp_path / "a.gif").stat().st_size > 0


def test_an_unknown_driver_is_refused():
    with pytest.raises(DisplayError):
        create_device("crt")


def test_the_pygame_window_twin_opens_where_sdl_can(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    device = create_device("pygame")
    screen = Screen(device)
    assert screen.show(frame("okno"))
    screen.close()
