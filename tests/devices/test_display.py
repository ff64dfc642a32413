from __future__ import annotations

import errno
import io
import os

import pytest
from PIL import Image, ImageDraw

from companion.devices.display import (
    DisplayError,
    I2CPanel,
    PanelStatus,
    Screen,
    create_device,
    device_opener,
)


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


@pytest.mark.parametrize("target", ["folder", "/dev/full"])
def test_the_gif_twin_is_written_when_the_screen_closes_and_a_refusal_is_one_sentence(
        tmp_path, target):
    name = str(tmp_path) if target == "folder" else target
    screen = Screen(create_device("gif", gif_file=name))
    screen.show(frame("z"))
    screen.close()
    reason = "is a directory" if target == "folder" else "no space left on device"
    assert screen.write_out() == f"The display's GIF {name} cannot be written ({reason})."
    assert screen.write_out() == ""  # once
    good = Screen(create_device("gif", gif_file=str(tmp_path / "b.gif")))
    good.show(frame("z"))
    assert good.write_out() == "" and (tmp_path / "b.gif").stat().st_size > 0


def test_the_gif_twin_leaves_nothing_for_the_interpreters_exit(tmp_path):
    """luma writes its GIF at exit, where a folder or a full disk was a traceback: the twin
    unregisters that, so a process that never closes its screen exits quietly."""
    import subprocess
    import sys

    code = ("from companion.devices.display import create_device\n"
            "from PIL import Image\n"
            f"d = create_device('gif', gif_file={str(tmp_path)!r})\n"
            "d.display(Image.new('1', (128, 64)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


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


# --- a real panel driver over a fake I2C bus -------------------------------------------------
#
# luma's own tests drive its devices through a mock serial interface; here the
# real luma.oled ssd1306 / sh1106 classes run over luma's real ``i2c`` interface
# (``i2c(bus=...)``, as with an already opened smbus), and the fake smbus below
# is the panel: it records what it acknowledges and fails on command.

SSD1306_INIT = [0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00,
                0xA1, 0xC8, 0xDA, 0x12, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6]
SH1106_INIT = [0xAE, 0x20, 0x10, 0xB0, 0xC8, 0x00, 0x10, 0x40, 0xA1, 0xA6, 0xA8, 0x3F, 0xA4,
               0xD3, 0x00, 0xD5, 0xF0, 0xD9, 0x22, 0xDA, 0x12, 0xDB, 0x20, 0x8D, 0x14]
NOP, DISPLAY_ON, SET_CONTRAST = 0xE3, 0xAF, 0x81


class FakeBus:
    """An smbus with one panel at 0x3C; ``unplugged`` or ``fail_next`` make writes fail."""

    def __init__(self, fail_on: str = "any", errno_: int = errno.EREMOTEIO) -> None:
        self.writes: list[tuple[int, list[int]]] = []  # (control byte, payload) acknowledged
        self.attempts = 0
        self.unplugged = False
        self.fail_next = 0
        self.fail_on = fail_on  # "any", "command" (control 0x00) or "data" (0x40)
        self.errno = errno_

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        assert address == 0x3C and len(data) <= 32 and control in (0x00, 0x40)
        self.attempts += 1
        kind = "command" if control == 0x00 else "data"
        if self.fail_on in ("any", kind) and (self.unplugged or self.fail_next):
            if self.fail_next:
                self.fail_next -= 1
            raise OSError(self.errno, os.strerror(self.errno))
        self.writes.append((control, list(data)))

    def commands(self) -> list[list[int]]:
        return [payload for control, payload in self.writes if control == 0x00]

    def data(self) -> bytes:
        return bytes(b for control, payload in self.writes if control == 0x40 for b in payload)

    def clear(self) -> None:
        self.writes.clear()


def pattern() -> Image.Image:
    """A frame whose bytes all differ from page to page and column to column."""
    im = Image.new("1", (128, 64))
    for x in range(128):
        for y in range(64):
            if (x * 7 + y * 3) % 5 == 0 or (x == 127 and y == 63):
                im.putpixel((x, y), 1)
    return im


def pages_of(im: Image.Image) -> bytes:
    """The panel's memory layout: 8 pages of 8 rows, one byte per column, top row in bit 0."""
    return bytes(sum(1 << bit for bit in range(8) if im.getpixel((x, page * 8 + bit)))
                 for page in range(8) for x in range(128))


def panel(driver: str, bus: FakeBus) -> tuple[Screen, I2CPanel]:
    opener = I2CPanel(driver, bus=bus)
    return Screen(opener(), reopen=opener, reopen_every=3.0), opener


def test_a_ssd1306_gets_its_init_the_contrast_and_1024_bytes_in_page_order():
    bus = FakeBus()
    screen, _ = panel("ssd1306", bus)
    assert bus.commands() == [[NOP], SSD1306_INIT, [SET_CONTRAST, 0xCF],
                              [0x21, 0x00, 0x7F, 0x22, 0x00, 0x07], [DISPLAY_ON]]
    assert bus.data() == bytes(1024)  # luma clears the panel while opening it
    bus.clear()
    screen.contrast(0x40)
    im = pattern()
    assert screen.show(im)
    assert bus.commands() == [[SET_CONTRAST, 0x40], [0x21, 0x00, 0x7F, 0x22, 0x00, 0x07]]
    data = bus.data()
    assert len(data) == 1024 and data == pages_of(im)
    # column 0 of page 0: rows 0 and 5 lit; column 127 of page 7: rows 57, 62 and 63
    assert data[0] == 0b0010_0001 and data[1023] == 0b1100_0010


def test_a_sh1106_gets_its_init_and_each_page_with_the_column_offset():
    bus = FakeBus()
    screen, _ = panel("sh1106", bus)
    pages = [[0xB0 + p, 0x02, 0x10] for p in range(8)]
    assert bus.commands() == [[NOP], SH1106_INIT, [SET_CONTRAST, 0x7F], *pages, [DISPLAY_ON]]
    bus.clear()
    im = pattern()
    assert screen.show(im)
    assert bus.commands() == pages
    assert bus.data() == pages_of(im)
    assert [control for control, _ in bus.writes][:6] == [0x00, 0x40, 0x40, 0x40, 0x40, 0x00]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("fail_on", ["command", "data"])
def test_a_glitch_is_retried_at_once(driver, fail_on):
    bus = FakeBus(fail_on=fail_on)
    screen, _ = panel(driver, bus)
    bus.clear()
    bus.fail_next = 1
    im = pattern()
    assert screen.show(im)
    assert screen.status.present and screen.status.glitches == 1 and screen.status.lost == 0
    assert bus.data()[-1024:] == pages_of(im)  # the whole frame went again
    assert screen.frames == 1


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("errno_", [errno.EREMOTEIO, errno.EIO, errno.ENXIO])
def test_an_unplugged_panel_is_gone_reopened_and_redrawn(driver, errno_):
    # EREMOTEIO and EIO on a command reach the screen as luma's DeviceNotFoundError,
    # ENXIO (and any error on data) as the bus's own OSError
    bus = FakeBus(errno_=errno_)
    screen, _ = panel(driver, bus)
    statuses: list = []
    screen.on_status.append(statuses.append)
    shown: list = []
    screen.listeners.append(lambda im, t: shown.append(im))
    screen.contrast(0x30)
    first = frame("a")
    assert screen.show(first)

    bus.unplugged = True  # mid-game
    assert not screen.show(frame("b"))  # no exception: the game goes on
    assert not screen.present and screen.status.lost == 1
    assert statuses == [screen.status] and "does not answer" in screen.status.describe()
    tried = bus.attempts
    latest = frame("c")
    assert not screen.show(latest)  # kept, not sent
    screen.contrast(0x50)  # remembered for later
    assert bus.attempts == tried  # nothing goes to a panel that is gone

    screen.poll(100.0)  # the first poll sets the schedule
    screen.poll(102.9)
    assert bus.attempts == tried
    assert not screen.poll(103.0)  # an attempt: nobody answers the NOP...
    assert bus.attempts == tried + 1  # ...so no luma device was built (no init sent)
    assert not screen.present and len(statuses) == 1

    bus.unplugged = False
    bus.clear()
    assert not screen.poll(105.0)  # not yet time
    assert screen.poll(106.0)  # the panel is back
    commands = bus.commands()
    assert commands[:2] == [[NOP], SSD1306_INIT if driver == "ssd1306" else SH1106_INIT]
    assert [SET_CONTRAST, 0x50] in commands[3:]  # the remembered contrast, after the init's own
    assert bus.data()[-1024:] == pages_of(latest)  # the current frame is redrawn
    assert screen.present and screen.status.lost == 1 and screen.status.error == ""
    assert statuses[-1] == screen.status and len(statuses) == 2
    assert shown == [first, latest] and screen.frames == 2
    bus.clear()
    assert screen.show(frame("d")) and bus.data() == pages_of(frame("d"))  # and it goes on


def test_without_a_reopen_the_same_device_is_tried_again():
    bus = FakeBus()
    device = I2CPanel("ssd1306", bus=bus)()
    screen = Screen(device, reopen_every=1.0)
    bus.unplugged = True
    assert not screen.show(frame("x"))
    bus.unplugged = False
    bus.clear()
    screen.poll(0.0)
    assert screen.poll(1.0)
    assert screen.device is device and SSD1306_INIT not in bus.commands()
    assert bus.data() == pages_of(frame("x"))


def test_a_panel_missing_at_start_is_one_sentence_and_bugs_are_not_swallowed():
    bus = FakeBus()
    bus.unplugged = True
    with pytest.raises(DisplayError, match=r"No sh1106 display answers on I2C bus 1 at address 0x3C"):
        I2CPanel("sh1106", bus=bus)()
    assert bus.attempts == 1  # only the NOP
    screen, _ = panel("ssd1306", FakeBus())
    with pytest.raises(AssertionError):  # a frame of the wrong size is a bug, not a bus error
        screen.show(Image.new("1", (64, 32)))


def test_screen_settings_are_checked():
    with pytest.raises(ValueError):
        Screen(create_device("dummy"), reopen_every=0)
    assert PanelStatus().describe() == "The display works."


def test_the_opener_of_each_driver():
    assert isinstance(device_opener("ssd1306"), I2CPanel)
    device = device_opener("dummy")()
    assert device.size == (128, 64)
