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
(``companion/firmware/dice/``: ``main.py`` and the ``dice`` package, plus the
boards' shared ``companion/firmware/lib/``: the wire protocol and the link), so
an installed companion finds it from any folder; ``COMPANION_DICE_FIRMWARE`` may
point at another copy of the ``dice`` package.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import random
import select
import shutil
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.errors import UsageError

FIRMWARE_ENV = "COMPANION_DICE_FIRMWARE"
BOARD_DIR = Path(__file__).resolve().parents[1] / "firmware" / "dice"
"""The dice's flash image shipped in the package: ``main.py`` and the ``dice`` package."""
LIB_DIR = Path(__file__).resolve().parents[1] / "firmware" / "lib"
"""The boards' shared modules (``:lib/`` on a board): ``tablewire``, ``tablelink``."""
LIB_MODULES = ("tablewire", "tablelink")
_PACKAGE = "_companion_dice_firmware"
_MODULES = ("shims", "protocol", "fair", "link")


class FirmwareNotFound(UsageError, RuntimeError):
    """The dice firmware's files are missing (one sentence; the CLI exits with 2)."""


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


def load_firmware_lib(lib: Path = LIB_DIR) -> dict[str, ModuleType]:
    """The boards' shared modules, loaded once under the names the boards import them by
    (``import tablewire``: on a board they sit in ``:lib/``, on ``sys.path``)."""
    out: dict[str, ModuleType] = {}
    for name in LIB_MODULES:
        module = sys.modules.get(name)
        if module is None:
            source = lib / f"{name}.py"
            spec = importlib.util.spec_from_file_location(name, source)
            if spec is None or spec.loader is None or not source.is_file():
                raise FirmwareNotFound(
                    f"The boards' shared firmware is missing from {lib}; reinstall the companion.")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
        out[name] = module
    return out


def load_firmware() -> ModuleType:
    """The firmware package (loaded once, under a private name), with its logic modules."""
    package = sys.modules.get(_PACKAGE)
    if package is None:
        load_firmware_lib()
        path = firmware_dir()
        spec = importlib.util.spec_from_file_location(
            _PACKAGE, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        if spec is None or spec.loader is None:
            raise FirmwareNotFound(f"Cannot load the dice firmware from {path}.")
        package = importlib.util.module_from_spec(spec)
        sys.modules[_PACKAGE] = package
        try:
            spec.loader.exec_module(package)
            for name in _MODULES:
                importlib.import_module(f"{_PACKAGE}.{name}")
        except BaseException:
            for name in [m for m in sys.modules if m == _PACKAGE or m.startswith(_PACKAGE + ".")]:
                del sys.modules[name]
            raise
    return package


class PtyStream:
    """A board firmware's stream on a pty master: non-blocking, and a dead link swallows
    writes (the simulated dice and the simulated pad hub use it)."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self.last_write_ns = 0  # perf_counter_ns() just before the last write (benchmarks)

    def write(self, data: bytes) -> None:
        fd = self.fd
        if fd is None:
            return  # unplugged: the bytes go nowhere, as on a dead link
        self.last_write_ns = time.perf_counter_ns()
        try:
            os.write(fd, data)
        except OSError:
            pass  # nobody reading and the buffer full, or the pty closing

    def read(self) -> bytes | None:
        fd = self.fd
        if fd is None:
            return None
        try:
            return os.read(fd, 1024) or None
        except OSError:
            return None


class SimulatedDice:
    """A dice on a pty at :attr:`path`; see the module docstring."""

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
        self._tmpdir: str | None = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="companion-dice-")
            link_path = os.path.join(self._tmpdir, "dice")
        self.path: str = os.fspath(link_path)
        if os.path.lexists(self.path) and not os.path.islink(self.path):
            raise FileExistsError(f"{self.path} exists and is not a symlink")
        self.battery_mv = battery_mv
        self.sent: list[tuple[str, int, int]] = []  # (kind, seq, value) in order
        self.last_roll_write_ns = 0  # perf_counter_ns() when the last roll's frame was written
        self._stream = PtyStream()
        self._slave: int | None = None
        self._pts = ""
        boot_id = self._entropy(4).hex().upper()
        self._link: Any = fw.link.Link(
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
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._plug()
        with self._lock:
            self._link.start(self._now())
        self._thread = threading.Thread(target=self._run, name="dice-sim", daemon=True)
        self._thread.start()

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

    def unplug(self) -> None:
        """The path disappears and the line dies; events made now wait in the outbox."""
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            fd, self._stream.fd = self._stream.fd, None
            slave, self._slave = self._slave, None
            for each in (fd, slave):
                if each is not None:
                    os.close(each)

    def replug(self) -> None:
        """Back at the same path (on a new pty); unacknowledged events are re-sent."""
        with self._lock:
            if self._stream.fd is None:
                self._plug()

    def noise(self, data: bytes) -> None:
        """Write raw bytes on the line (line noise, a stray boot message)."""
        with self._lock:
            self._stream.write(data)

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        self.unplug()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> SimulatedDice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what a test may look at ------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self._stream.fd is not None

    @property
    def pts_path(self) -> str:
        """The pty slave behind :attr:`path` (changes at every replug)."""
        return self._pts

    @property
    def unacked(self) -> int:
        with self._lock:
            return len(self._link.outbox)

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

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._pts = os.ttyname(slave)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self._pts, tmp)
        os.replace(tmp, self.path)
        self._slave = slave
        self._stream.fd = master

    def _run(self) -> None:
        while not self._stop.is_set():
            fd = self._stream.fd
            if fd is None:
                self._stop.wait(0.01)
            else:
                with contextlib.suppress(OSError, ValueError):
                    select.select([fd], [], [], 0.01)
            with self._lock:
                self._link.poll(self._now())
