"""What the simulated boards share: their firmware loaded under CPython, and a pty as their line.

The simulated dice (:mod:`companion.dice.sim`) and the simulated pad hub
(:mod:`companion.devices.pads.hub_sim`) both run their board's own firmware
logic, shipped inside the package as the boards' flash images
(``firmware/<board>/`` and the boards' shared ``firmware/lib/``),
so that a simulator and its real board cannot drift apart:

* :func:`load_firmware_lib` loads the shared modules under the names the boards
  import them by; :func:`load_board` loads a board's logic package once, under a
  private name.
* :class:`PtyBoard` is a board on a pseudo-terminal: the reader opens
  :attr:`~PtyBoard.path`, a stable symlink to the pty's slave (like the udev
  rules' ``/dev/companion-dice``); :meth:`~PtyBoard.unplug` removes the symlink
  and closes the pty (the reader's reads fail, as with a USB unplug),
  :meth:`~PtyBoard.replug` brings a new pty at the same path; a thread steps the
  firmware whenever bytes arrive, and at least every :attr:`~PtyBoard.poll_s`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
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
from typing import Any, Self

from companion.errors import UsageError


def find_firmware_dir() -> Path:
    """The boards' flash images (``<board>/`` and ``lib/``): the copy an installed wheel
    carries (``companion/firmware/``), else the checkout's top-level ``firmware/``."""
    package = Path(__file__).resolve().parents[1]
    shipped = package / "firmware"
    return shipped if shipped.is_dir() else package.parent / "firmware"


FIRMWARE_DIR = find_firmware_dir()
"""The boards' flash images (``<board>/`` and ``lib/``), found by :func:`find_firmware_dir`."""
LIB_DIR = FIRMWARE_DIR / "lib"
"""The boards' shared modules (``:lib/`` on a board), in the order they import each other."""
LIB_MODULES = ("tableshims", "tablewire", "tablelink")


class FirmwareNotFound(UsageError, RuntimeError):
    """A board's firmware files are missing (one sentence; the CLI exits with 2)."""


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


def load_board(package: str, where: Callable[[], Path], modules: tuple[str, ...],
               what: str) -> ModuleType:
    """A board's logic package, loaded once (the shared lib first) from the folder ``where()``
    says, under the private name ``package`` with its ``modules``; ``what`` names it in
    the error."""
    loaded = sys.modules.get(package)
    if loaded is None:
        load_firmware_lib()
        path = where()
        spec = importlib.util.spec_from_file_location(
            package, path / "__init__.py", submodule_search_locations=[str(path)])
        if spec is None or spec.loader is None:
            raise FirmwareNotFound(f"Cannot load {what} from {path}.")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[package] = loaded
        try:
            spec.loader.exec_module(loaded)
            for name in modules:
                importlib.import_module(f"{package}.{name}")
        except BaseException:
            for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
                del sys.modules[name]
            raise
    return loaded


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


class PtyBoard:
    """A simulated board on a pty at :attr:`path` (a symlink in a folder of its own unless
    ``link_path`` is given).  A board sets :attr:`_link` (its firmware's ``Link``: the
    outbox) and :meth:`_step`, then calls :meth:`_run_board`."""

    thread_name = "board-sim"
    poll_s = 0.01
    """How long the thread waits for bytes before it steps the firmware anyway."""

    def __init__(self, link_path: str | os.PathLike[str] | None, prefix: str, name: str) -> None:
        self._tmpdir: str | None = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix=prefix)
            link_path = os.path.join(self._tmpdir, name)
        self.path: str = os.fspath(link_path)
        if os.path.lexists(self.path) and not os.path.islink(self.path):
            raise FileExistsError(f"{self.path} exists and is not a symlink")
        self._stream = PtyStream()
        self._slave: int | None = None
        self._pts = ""
        self._link: Any = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def _step(self) -> None:
        """Run the firmware once (with the lock held): read the line, send what is due."""
        raise NotImplementedError

    def _run_board(self, first: Any) -> None:
        """Plug the line, call ``first`` (the firmware's start) with the lock held, start the thread."""
        self._plug()
        with self._lock:
            first()
        self._thread.start()

    # -- the line -----------------------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self._stream.fd is not None

    @property
    def pts_path(self) -> str:
        """The pty slave behind :attr:`path` (changes at every replug)."""
        return self._pts

    @property
    def unacked(self) -> int:
        """Events the board sent that the companion has not acknowledged yet."""
        with self._lock:
            return len(self._link.outbox)

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

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        self.unplug()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside -------------------------------------------------------------------

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
                self._stop.wait(self.poll_s)
            else:
                with contextlib.suppress(OSError, ValueError):
                    select.select([fd], [], [], self.poll_s)
            with self._lock:
                self._step()
