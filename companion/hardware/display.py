"""The OLED port: a luma device chosen by configuration, and the screen the service draws on.

Like luma's own ``create_device``: ``ssd1306`` / ``sh1106`` on I2C for the
table; ``terminal`` (block characters, this project's), ``asciiblock``,
``pygame`` and ``gif`` from luma.emulator for laptops; ``dummy`` from
luma.core for tests.  :class:`Screen` skips frames identical to the last one
(no needless I2C traffic) and tells listeners about every frame it hands on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64


class DisplayError(RuntimeError):
    """The display cannot be opened; the message is one sentence for a person."""


def create_device(driver: str, *, i2c_port: int = 1, i2c_address: int = 0x3C, rotate: int = 0,
                  gif_file: str = "companion.gif", gif_seconds: float = 0.25,
                  stream: Any = None) -> Any:
    """A luma device (anything with ``display(image)``, ``contrast()``, ``cleanup()``)."""
    if driver in ("ssd1306", "sh1106"):
        try:
            from luma.core.interface.serial import i2c
            from luma.oled.device import sh1106, ssd1306

            serial = i2c(port=i2c_port, address=i2c_address)
            cls = ssd1306 if driver == "ssd1306" else sh1106
            return cls(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
        except Exception as exc:  # luma raises several kinds; all mean "no panel there"
            raise DisplayError(
                f"No {driver} display answers on I2C bus {i2c_port} at address "
                f"0x{i2c_address:02X} ({exc.__class__.__name__}).") from None
    if driver == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if driver == "terminal":
        from .terminal_display import TerminalDisplay

        return TerminalDisplay(stream=stream, rotate=rotate)
    if driver in ("asciiblock", "pygame", "gif"):
        try:
            from luma.emulator import device as emu
        except ImportError:
            raise DisplayError(
                f"The {driver} display needs luma.emulator: pip install 'companion[sim]'.") from None
        if driver == "gif":
            return emu.gifanim(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1",
                               filename=gif_file, duration=gif_seconds)
        cls = emu.asciiblock if driver == "asciiblock" else emu.pygame
        return cls(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    raise DisplayError(f"Unknown display driver {driver!r}.")


FrameListener = Callable[[Image.Image, float], None]


class Screen:
    """What the service draws on: hands changed frames to the device."""

    def __init__(self, device: Any, clock: Callable[[], float] = time.perf_counter) -> None:
        self.device = device
        self.clock = clock
        self.listeners: list[FrameListener] = []
        self.frames = 0
        self._last: bytes | None = None
        self._contrast: int | None = None

    def show(self, image: Image.Image) -> bool:
        """Display ``image`` unless it equals the last frame; return whether it was shown."""
        raw = image.tobytes()
        if raw == self._last:
            return False
        self._last = raw
        mode = getattr(self.device, "mode", "1")
        self.device.display(image if image.mode == mode else image.convert(mode))
        self.frames += 1
        t = self.clock()
        for listener in self.listeners:
            listener(image, t)
        return True

    def contrast(self, level: int) -> None:
        if level != self._contrast:
            self._contrast = level
            try:
                self.device.contrast(level)
            except Exception:  # an emulator without contrast: nothing to do
                log.debug("display has no contrast control")

    def close(self) -> None:
        try:
            self.device.cleanup()
        except Exception:  # closing a panel that is already gone
            log.debug("display cleanup failed", exc_info=True)
