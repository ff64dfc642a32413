"""The OLED port: a luma device chosen by configuration, and the screen the service draws on.

Like luma's own ``create_device``: ``ssd1306`` / ``sh1106`` on I2C for the
table; ``terminal`` (block characters, this project's), ``asciiblock``,
``pygame`` and ``gif`` from luma.emulator for laptops; ``dummy`` from
luma.core for tests.  :class:`Screen` skips frames identical to the last one
(no needless I2C traffic) and tells listeners about every frame it hands on.

A panel can fail during a game (a loose cable, a panel pulled out): luma's
bus writes then raise ``OSError`` (or luma's ``DeviceNotFoundError``, which
its I2C interface makes of "no acknowledgement").  :class:`Screen` retries a
failed write at once (a glitch passes); when the retries fail too the panel is
*gone*: frames are kept but not sent, the game goes on, and
:meth:`Screen.poll` (called by the loop with its time) reopens the panel every
``reopen_every`` seconds and redraws the current frame when it answers again.
:attr:`Screen.status` and the ``on_status`` callbacks tell the service.
"""

from __future__ import annotations

import atexit
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from luma.core.error import DeviceNotFoundError
from PIL import Image

from companion.devices.ports import DisplayDevice

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
I2C_DRIVERS = ("ssd1306", "sh1106")

BUS_ERRORS: tuple[type[Exception], ...] = (OSError, DeviceNotFoundError)
"""What a bus write raises when the panel does not answer (smbus2, or luma's translation)."""

NOP = 0xE3
"""The no-operation command of both the SSD1306 and the SH1106: a harmless "are you there?"."""


class DisplayError(RuntimeError):
    """The display cannot be opened; the message is one sentence for a person."""


REOPEN_ERRORS: tuple[type[Exception], ...] = (DisplayError, *BUS_ERRORS)
"""What a failed reopen attempt raises."""


class I2CPanel:
    """Opens an SSD1306 / SH1106 panel on I2C, again and again (a callable).

    One luma ``i2c`` serial interface is made on the first call and kept, so
    failed attempts leak no file handles.  Each call first sends :data:`NOP`:
    when nobody acknowledges, :class:`DisplayError` comes before any luma
    device is built (every luma device registers an exit hook, so an attempt
    every few seconds must not build one).  When the panel answers, a new luma
    device runs its whole init sequence (a panel that lost power forgot it).
    ``bus`` is an smbus-like object for tests (luma's ``i2c(bus=...)``).
    """

    def __init__(self, driver: str, *, i2c_port: int = 1, i2c_address: int = 0x3C,
                 rotate: int = 0, bus: Any = None) -> None:
        if driver not in I2C_DRIVERS:
            raise DisplayError(f"{driver!r} is not an I2C panel driver.")
        self.driver = driver
        self.i2c_port = i2c_port
        self.i2c_address = i2c_address
        self.rotate = rotate
        self.bus = bus
        self._serial: Any = None

    def __call__(self) -> Any:
        try:
            from luma.core.interface.serial import i2c
            from luma.oled.device import sh1106, ssd1306

            if self._serial is None:
                if self.bus is not None:
                    self._serial = i2c(bus=self.bus, address=self.i2c_address)
                else:
                    self._serial = i2c(port=self.i2c_port, address=self.i2c_address)
            self._serial.command(NOP)
            cls = ssd1306 if self.driver == "ssd1306" else sh1106
            return cls(self._serial, width=WIDTH, height=HEIGHT, rotate=self.rotate)
        except Exception as exc:  # luma raises several kinds; all mean "no panel there"
            raise DisplayError(
                f"No {self.driver} display answers on I2C bus {self.i2c_port} at address "
                f"0x{self.i2c_address:02X} ({exc.__class__.__name__}).") from None


def device_opener(driver: str, *, i2c_port: int = 1, i2c_address: int = 0x3C, rotate: int = 0,
                  gif_file: str = "companion.gif", gif_seconds: float = 0.25,
                  stream: Any = None) -> Callable[[], Any]:
    """A callable that opens the configured device (for I2C panels: again after a failure)."""
    if driver in I2C_DRIVERS:
        return I2CPanel(driver, i2c_port=i2c_port, i2c_address=i2c_address, rotate=rotate)

    def open_device() -> Any:
        return create_device(driver, i2c_port=i2c_port, i2c_address=i2c_address, rotate=rotate,
                             gif_file=gif_file, gif_seconds=gif_seconds, stream=stream)
    return open_device


def create_device(driver: str, *, i2c_port: int = 1, i2c_address: int = 0x3C, rotate: int = 0,
                  gif_file: str = "companion.gif", gif_seconds: float = 0.25,
                  stream: Any = None) -> Any:
    """A luma device (anything with ``display(image)``, ``contrast()``, ``cleanup()``)."""
    if driver in I2C_DRIVERS:
        return I2CPanel(driver, i2c_port=i2c_port, i2c_address=i2c_address, rotate=rotate)()
    if driver == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if driver == "terminal":
        from companion.devices.terminal_display import TerminalDisplay

        return TerminalDisplay(stream=stream, rotate=rotate)
    if driver in ("asciiblock", "pygame", "gif"):
        try:
            from luma.emulator import device as emu
        except ImportError:
            raise DisplayError(
                f"The {driver} display needs luma.emulator: pip install 'companion[sim]'.") from None
        if driver == "gif":

            class ClosingGif(emu.gifanim):  # type: ignore[misc]  # luma.emulator is untyped
                """luma's GIF twin, written when the screen closes (Screen.write_out: one
                sentence on a refusal), not at the interpreter's exit (a traceback)."""

                def __init__(self) -> None:
                    super().__init__(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1",
                                     filename=gif_file, duration=gif_seconds)
                    atexit.unregister(self.write_animation)
                    self.gif_file = gif_file

            return ClosingGif()
        cls = emu.asciiblock if driver == "asciiblock" else emu.pygame
        return cls(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    raise DisplayError(f"Unknown display driver {driver!r}.")


FrameListener = Callable[[Image.Image, float], None]


@dataclass(frozen=True)
class PanelStatus:
    """What the screen knows about its panel, for the service to log or show."""

    present: bool = True
    """False while the panel is gone (frames are kept, not sent)."""
    error: str = ""
    """The last bus error, e.g. ``OSError: [Errno 121] Remote I/O error``."""
    lost: int = 0
    """How many times the panel was lost since the start."""
    glitches: int = 0
    """Bus errors that a retry at once got past."""

    def describe(self) -> str:
        """One sentence for the log."""
        if self.present:
            back = f" (it was lost {self.lost} time(s))" if self.lost else ""
            return f"The display works{back}."
        return (f"The display does not answer ({self.error}); the game goes on without it "
                "and the companion keeps trying to reopen it.")


StatusListener = Callable[[PanelStatus], None]


class Screen:
    """What the service draws on: hands changed frames to the device, survives a failing panel.

    ``reopen`` opens the device again (:func:`device_opener`); without it a
    lost panel is retried on the same device.  ``retries``: extra attempts at
    once after a bus error; ``reopen_every``: seconds between reopen attempts
    (on the clock :meth:`poll` is given).
    """

    def __init__(self, device: DisplayDevice, clock: Callable[[], float] = time.perf_counter, *,
                 reopen: Callable[[], DisplayDevice] | None = None, retries: int = 2,
                 reopen_every: float = 3.0) -> None:
        if retries < 0 or reopen_every <= 0:
            raise ValueError("retries must not be negative and reopen_every must be positive.")
        self.device = device
        self.clock = clock
        self.reopen = reopen
        self.retries = retries
        self.reopen_every = reopen_every
        self.listeners: list[FrameListener] = []
        self.on_status: list[StatusListener] = []
        self.frames = 0
        self.status = PanelStatus()
        self._last: bytes | None = None
        self._frame: Image.Image | None = None
        self._contrast: int | None = None
        self._next_reopen: float | None = None
        self._written_out = False

    @property
    def present(self) -> bool:
        return self.status.present

    def show(self, image: Image.Image) -> bool:
        """Display ``image`` unless it equals the last frame; return whether it was shown.

        While the panel is gone the frame is kept (drawn when the panel is back)
        and ``False`` is returned.
        """
        raw = image.tobytes()
        if raw == self._last:
            return False
        self._last = raw
        self._frame = image
        if not self.status.present:
            return False
        return self._hand_on(image)

    def _for_device(self, image: Image.Image) -> Image.Image:
        mode = getattr(self.device, "mode", "1")
        return image if image.mode == mode else image.convert(mode)

    def _hand_on(self, image: Image.Image) -> bool:
        frame = self._for_device(image)
        if not self._on_bus(lambda: self.device.display(frame)):
            return False
        self._shown(image)
        return True

    def _shown(self, image: Image.Image) -> None:
        self.frames += 1
        t = self.clock()
        for listener in self.listeners:
            listener(image, t)

    def _on_bus(self, action: Callable[[], object]) -> bool:
        """Run a bus write, retrying at once; after the last failure the panel is gone."""
        error: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                action()
            except BUS_ERRORS as exc:
                error = exc
                continue
            if attempt:
                self.status = replace(self.status, glitches=self.status.glitches + 1)
                log.info("display: a bus error (%s) passed on retry %d", _name(error), attempt)
            return True
        assert error is not None
        self._lose(error)
        return False

    def absent(self, error: Exception) -> None:
        """The panel did not answer at the start: run without it until :meth:`poll` finds it."""
        self._lose(error)

    def _lose(self, error: Exception) -> None:
        self.status = replace(self.status, present=False, error=_name(error),
                              lost=self.status.lost + 1)
        self._next_reopen = None
        log.warning("%s", self.status.describe())
        self._tell()

    def _tell(self) -> None:
        for listener in self.on_status:
            listener(self.status)

    def poll(self, now: float) -> bool:
        """Reopen a lost panel when it is time (call it from the loop with the loop's time).

        The first call after a loss only sets the schedule: attempts follow every
        ``reopen_every`` seconds.  When the panel answers, the contrast and the
        current frame are sent again.  Returns whether the panel came back.
        """
        if self.status.present:
            return False
        if self._next_reopen is None:
            self._next_reopen = now + self.reopen_every
            return False
        if now < self._next_reopen:
            return False
        self._next_reopen = now + self.reopen_every
        try:
            if self.reopen is not None:
                self.device = self.reopen()
            if self._contrast is not None:
                self._contrast_on(self._contrast)
            if self._frame is not None:
                self.device.display(self._for_device(self._frame))
        except REOPEN_ERRORS as exc:
            log.debug("display: still gone (%s)", _name(exc))
            return False
        self.status = replace(self.status, present=True, error="")
        log.warning("display: the panel answers again; the current frame is redrawn")
        if self._frame is not None:
            self._shown(self._frame)
        self._tell()
        return True

    def contrast(self, level: int) -> None:
        if level != self._contrast:
            self._contrast = level
            if self.status.present:
                self._on_bus(lambda: self._contrast_on(level))

    def _contrast_on(self, level: int) -> None:
        try:
            self.device.contrast(level)
        except BUS_ERRORS:
            raise
        except Exception:  # an emulator without contrast: nothing to do
            log.debug("display has no contrast control")

    def close(self) -> None:
        try:
            self.device.cleanup()
        except Exception:  # closing a panel that is already gone
            log.debug("display cleanup failed", exc_info=True)

    def write_out(self) -> str:
        """Write the file a twin of the panel keeps (the GIF twin's animation), once: "" or
        one sentence why it cannot be written (a folder, a full disk)."""
        write = getattr(self.device, "write_animation", None)
        if write is None or self._written_out:
            return ""
        self._written_out = True
        name = getattr(self.device, "gif_file", "")
        try:
            write()
        except OSError as exc:
            log.debug("the GIF could not be written", exc_info=True)
            reason = (exc.strerror or str(exc)).lower()
            return f"The display's GIF {name} cannot be written ({reason})."
        return ""


def _name(exc: BaseException | None) -> str:
    if exc is None:
        return ""
    text = str(exc)
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__
