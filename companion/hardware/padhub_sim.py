"""A simulated pad hub on a pty, running the hub firmware's own logic.

:class:`SimulatedHub` runs the firmware's modules (``padhub.sense``,
``padhub.app``, ``padhub.layout`` and the shared ``tablelink``/``tablewire``:
plain Python) under CPython with a pseudo-terminal as its serial line, so the
simulator and the real hub cannot drift apart.  Only the PIO state machines are
replaced: every scan, each channel's charge count is its baseline, plus a lift
while a hand lies on the pad at that channel's sample time (``layout.sample_us``).

Hands: :meth:`SimulatedHub.press` / :meth:`~SimulatedHub.release` /
:meth:`~SimulatedHub.tap` (the terminal's pad keys), or
:meth:`~SimulatedHub.slap` at a given time with each pad's own delay from a
:class:`~companion.hardware.padsim.PadModel` (how much later than another a pad
senses the same hand: its sensitivity).

Time: ``realtime=True`` runs the scans in a thread on the host's clock (``make
run``); otherwise nothing happens until :meth:`~SimulatedHub.run_until` runs the
scans up to a hub time, so tests are exact.  The reader opens :attr:`path`
(a symlink to the pty, like the dice's).
"""

from __future__ import annotations

import bisect
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
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.dice.sim import FirmwareNotFound, PtyStream, load_firmware_lib
from companion.inputs.pads import Pad

from .padhub import hub_channel
from .padsim import PadModel

BOARD_DIR = Path(__file__).resolve().parents[1] / "firmware" / "padhub"
"""The hub's flash image shipped in the package: ``main.py`` and the ``padhub`` package."""
_PACKAGE = "_companion_padhub_firmware"
_MODULES = ("shims", "layout", "sense", "scan", "app")

BASE_COUNTS = 2000
LIFT_COUNTS = 400


def load_firmware() -> ModuleType:
    """The hub firmware's logic package (loaded once, under a private name)."""
    package = sys.modules.get(_PACKAGE)
    if package is None:
        load_firmware_lib()
        path = BOARD_DIR / "padhub"
        if not (path / "sense.py").is_file():
            raise FirmwareNotFound(f"The pad hub firmware is missing from {path}; "
                                   "reinstall the companion.")
        spec = importlib.util.spec_from_file_location(
            _PACKAGE, path / "__init__.py", submodule_search_locations=[str(path)])
        if spec is None or spec.loader is None:
            raise FirmwareNotFound(f"Cannot load the pad hub firmware from {path}.")
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


class SimulatedHub:
    """A pad hub on a pty at :attr:`path`; see the module docstring."""

    def __init__(self, seed: int | None = None, *, device_id: str = "sim-hub",
                 link_path: str | os.PathLike[str] | None = None, realtime: bool = True,
                 model: PadModel | None = None, hold_ms: float = 80.0, settle: int = 64) -> None:
        fw = load_firmware()
        lib = load_firmware_lib()
        self.layout: Any = fw.layout
        self.scan_us: int = int(fw.layout.SCAN_US)
        self.channels: int = int(fw.layout.CHANNELS)
        self.realtime = realtime
        self.model = model
        self.hold_ms = hold_ms
        self._rng = random.Random(seed)
        self._hands: dict[int, list[tuple[int, int]]] = {}  # channel -> sorted (from, to) us
        self._base = [BASE_COUNTS + 5 * ch for ch in range(self.channels)]
        self._next_scan = 0
        self._target_scan = -1
        self._tmpdir: str | None = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="companion-padhub-")
            link_path = os.path.join(self._tmpdir, "padhub")
        self.path: str = os.fspath(link_path)
        if os.path.lexists(self.path) and not os.path.islink(self.path):
            raise FileExistsError(f"{self.path} exists and is not a symlink")
        self._stream = PtyStream()
        self._slave: int | None = None
        self.boot_id: str = self._rng.randbytes(4).hex().upper()
        hub: Any = None

        def beat() -> tuple[int, int]:
            return tuple(hub.beat_fields()) if hub is not None else (0, 0)

        self._link: Any = lib["tablelink"].Link(
            self._stream, lib["tablewire"].PADHUB, device_id, "sim-" + str(fw.VERSION),
            self.boot_id, (self.channels, self.scan_us), beat)
        hub = fw.app.Hub(self._source, self._link, fw.sense.Detector(settle=settle))
        self._hub: Any = hub
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._plug()
        with self._lock:
            self._hub.step(0, budget=0)  # hello and a beat
        self._thread = threading.Thread(target=self._run, name="padhub-sim", daemon=True)
        self._thread.start()

    # --- hands ---------------------------------------------------------------------------

    def now_us(self) -> int:
        """The hub's clock now (the real one in real time, else the last scan run)."""
        if self.realtime:
            return int((time.monotonic() - self._t0) * 1_000_000)
        return max(self._next_scan - 1, 0) * self.scan_us

    def touch(self, channel: int, from_us: int, to_us: int) -> None:
        """A hand on ``channel`` from ``from_us`` to ``to_us`` (hub time)."""
        with self._lock:
            bisect.insort(self._hands.setdefault(channel, []), (from_us, to_us))

    def slap(self, pads: Iterable[Pad], at_ms: float) -> None:
        """Hands on ``pads`` at ``at_ms`` (hub time), each sensed after its pad's own delay."""
        for pad in pads:
            delay = self.model.delay(pad, self._rng) if self.model is not None else 0.0
            start = int((at_ms + delay) * 1000)
            self.touch(hub_channel(pad), start, start + int(self.hold_ms * 1000))

    def press(self, pad: Pad) -> None:
        now = self.now_us() + self.scan_us
        self.touch(hub_channel(pad), now, 1 << 62)

    def release(self, pad: Pad) -> None:
        now = self.now_us() + self.scan_us
        with self._lock:
            spans = self._hands.get(hub_channel(pad), [])
            for i, (start, end) in enumerate(spans):
                if start <= now < end:
                    spans[i] = (start, now)

    def tap(self, pad: Pad) -> None:
        """One short touch from now (a key has no release in a terminal)."""
        now = self.now_us() + self.scan_us
        self.touch(hub_channel(pad), now, now + int(self.hold_ms * 1000))

    # --- time ------------------------------------------------------------------------------

    def run_until(self, ms: float) -> None:
        """Run every scan sampled before ``ms`` (hub time) and send what they found."""
        with self._lock:
            self._target_scan = int(ms * 1000) // self.scan_us
            while self._next_scan <= self._target_scan:
                self._hub.step(self.now_us() // 1000 if self.realtime else
                               self._next_scan * self.scan_us // 1000, budget=256)

    def _counts(self, scan: int) -> list[int]:
        counts = list(self._base)
        for ch, spans in self._hands.items():
            t = self.layout.sample_us(scan, ch)
            for start, end in spans:
                if start > t:
                    break
                if t < end:
                    counts[ch] += LIFT_COUNTS
                    break
        return counts

    def _source(self) -> tuple[int, list[int]] | None:
        if self._next_scan > self._target_scan:
            return None
        scan = self._next_scan
        self._next_scan += 1
        if scan % 1024 == 0:  # forget hands long gone
            old = scan * self.scan_us - 10_000_000
            for ch, spans in self._hands.items():
                self._hands[ch] = [s for s in spans if s[1] > old]
        return scan, self._counts(scan)

    # --- the line ---------------------------------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self._stream.fd is not None

    @property
    def unacked(self) -> int:
        with self._lock:
            return len(self._link.outbox)

    @property
    def sent(self) -> int:
        """Events (touches and releases) the hub has sent."""
        return int(self._hub.events)

    def unplug(self) -> None:
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            fd, self._stream.fd = self._stream.fd, None
            slave, self._slave = self._slave, None
            for each in (fd, slave):
                if each is not None:
                    os.close(each)

    def replug(self) -> None:
        with self._lock:
            if self._stream.fd is None:
                self._plug()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._slave = slave
        self._stream.fd = master

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        self.unplug()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> SimulatedHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            fd = self._stream.fd
            if fd is None:
                self._stop.wait(0.005)
            else:
                with contextlib.suppress(OSError, ValueError):
                    select.select([fd], [], [], 0.005)
            with self._lock:
                if self.realtime:
                    self._target_scan = self.now_us() // self.scan_us
                self._hub.step(self.now_us() // 1000 if self.realtime else
                               max(self._next_scan - 1, 0) * self.scan_us // 1000, budget=256)
