"""A simulated dice on a pty, speaking the firmware's protocol with the firmware's own code.

:class:`SimulatedDice` runs the dice firmware's logic modules
(``link.py``, ``protocol.py``, ``fair.py`` of the ``dice`` package: plain Python) under
CPython with a pseudo-terminal as its serial line, so the simulator and the
real dice cannot drift apart.  The reader opens :attr:`SimulatedDice.path`,
a stable symlink to the pty's slave (like the udev rule's
``/dev/companion-dice``): :meth:`~SimulatedDice.unplug` removes the symlink
and closes the pty (the reader's reads fail, as with a USB unplug);
:meth:`~SimulatedDice.replug` brings a new pty at the same path, and the
firmware re-sends what was not acknowledged.

The firmware ships inside the package, as the dice's flash image
(``firmware/dice/``: ``main.py`` and the ``dice`` package, plus the
boards' shared ``firmware/lib/``: the wire protocol and the link), so
an installed companion finds it from any folder; ``COMPANION_DICE_FIRMWARE`` may
point at another copy of the ``dice`` package.  The loading and the pty line are
the simulated pad hub's too (:mod:`companion.dice.simboard`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.dice.simboard import FIRMWARE_DIR, FirmwareNotFound, PtyBoard, load_board

FIRMWARE_ENV = "COMPANION_DICE_FIRMWARE"
BOARD_DIR = FIRMWARE_DIR / "dice"
"""The dice's flash image shipped in the package: ``main.py`` and the ``dice`` package."""
_PACKAGE = "_companion_dice_firmware"
_MODULES = ("shims", "protocol", "fair", "link")


def firmware_dir() -> Path:
    """The directory of the dice firmware's logic package (the ``dice`` package)."""
    env = os.environ.get(FIRMWARE_ENV)
    if env:
        path = Path(env)
        if not (path / "link.py").is_file():
            raise FirmwareNotFound(
                f"{FIRMWARE_ENV} points at {path}, which holds no dice firmware; "
                "unset it to use the firmware installed with the companion.")
        return path
    path = BOARD_DIR / "dice"
    if not (path / "link.py").is_file():
        raise FirmwareNotFound(
            f"The dice firmware is missing from {path}; reinstall the companion.")
    return path


def load_firmware() -> ModuleType:
    """The firmware package (loaded once, under a private name), with its logic modules."""
    return load_board(_PACKAGE, firmware_dir, _MODULES, "the dice firmware")


class SimulatedDice(PtyBoard):
    """A dice on a pty at :attr:`path`; see the module docstring."""

    thread_name = "dice-sim"
    poll_s = 0.01

    def __init__(
        self,
        seed: int | None = None,
        device_id: str = "sim",
        *,
        link_path: str | os.PathLike[str] | None = None,
        battery_mv: int | None = None,
        heartbeat_ms: int = 1000,
        resend_ms: int = 300,
        outbox_size: int = 32,
    ) -> None:
        if battery_mv is not None and not 0 <= battery_mv <= 99999:
            raise ValueError("The battery voltage must be 0 to 99999 millivolts.")
        fw = load_firmware()
        self._shims: Any = fw.shims
        self._fair: Any = fw.fair
        if seed is None:
            self._entropy: Callable[[int], bytes] = os.urandom
        else:
            self._entropy = random.Random(seed).randbytes
        super().__init__(link_path, "companion-dice-", "dice")
        self.battery_mv = battery_mv
        self.sent: list[tuple[str, int, int]] = []  # (kind, seq, value) in order
        self.last_roll_write_ns = 0  # perf_counter_ns() when the last roll's frame was written
        boot_id = self._entropy(4).hex().upper()
        self._link = fw.link.Link(
            self._stream,
            device_id,
            "sim-" + str(fw.VERSION),
            boot_id,
            battery=lambda: self.battery_mv,
            outbox_size=outbox_size,
            resend_ms=resend_ms,
            beat_ms=heartbeat_ms,
        )
        self.boot_id: str = boot_id
        self._run_board(lambda: self._link.start(self._now()))

    # -- what a player does -----------------------------------------------------

    def roll(self, value: int | None = None) -> int:
        """Roll: ``value`` 1..6, or None for a fair (seeded) roll; returns the face sent."""
        if value is not None and (not isinstance(value, int) or not 1 <= value <= 6):
            raise ValueError("a dice shows 1 to 6")
        with self._lock:
            face = int(self._fair.roll_die(self._entropy)) if value is None else value
            seq = int(self._link.event("ROLL", face, self._now()))
            self.last_roll_write_ns = self._stream.last_write_ns
            self.sent.append(("ROLL", seq, face))
        return face

    def drop(self, fall_ms: int = 420) -> None:
        """The dice falls off the table (a free fall of ``fall_ms``)."""
        with self._lock:
            seq = int(self._link.event("DROP", fall_ms, self._now()))
            self.sent.append(("DROP", seq, fall_ms))

    def noise(self, data: bytes) -> None:
        """Write raw bytes on the line (line noise, a stray boot message)."""
        with self._lock:
            self._stream.write(data)

    # -- what a test may look at ------------------------------------------------

    @property
    def acked(self) -> int:
        """The highest sequence number the companion acknowledged."""
        with self._lock:
            return int(self._link.acked)

    @property
    def ignore_acks(self) -> bool:
        return bool(self._link.ignore_acks)

    @ignore_acks.setter
    def ignore_acks(self, value: bool) -> None:
        """Lose every ACK from now on (the companion's acks do not arrive)."""
        with self._lock:
            self._link.ignore_acks = value

    # -- inside -------------------------------------------------------------------

    def _now(self) -> int:
        return int(self._shims.ticks_ms())

    def _step(self) -> None:
        self._link.poll(self._now())
