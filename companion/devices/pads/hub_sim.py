"""A simulated pad hub on a pty, running the hub firmware's own logic.

:class:`SimulatedHub` runs the firmware's modules (``padhub.sense``,
``padhub.app``, ``padhub.layout`` and the shared ``tablelink``/``tablewire``:
plain Python) under CPython with a pseudo-terminal as its serial line, so the
simulator and the real hub cannot drift apart.  Only the PIO state machines are
replaced: every scan, each channel's charge count is its baseline (a pad's
channel more than its multiplexer's reference slots), plus a lift while a hand
lies on the pad at that channel's sample time (``layout.sample_us``).

Hands: :meth:`SimulatedHub.press` / :meth:`~SimulatedHub.release` /
:meth:`~SimulatedHub.tap` (the terminal's pad keys), or
:meth:`~SimulatedHub.slap` at a given time with each pad's own delay from a
:class:`~companion.devices.pads.sim.PadModel` (how much later than another a pad
senses the same hand: its sensitivity).

Time: ``realtime=True`` runs the scans in a thread on the host's clock (``make
run``); otherwise nothing happens until :meth:`~SimulatedHub.run_until` runs the
scans up to a hub time, so tests are exact.  The reader opens :attr:`path`
(a symlink to the pty, like the dice's: the loading and the line are
:mod:`companion.dice.simboard`).
"""

from __future__ import annotations

import bisect
import os
import random
import time
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.devices.pads.hub import hub_channel
from companion.devices.pads.sim import PadModel
from companion.dice.simboard import (
    FIRMWARE_DIR,
    FirmwareNotFound,
    PtyBoard,
    load_board,
    load_firmware_lib,
)
from companion.inputs.pads import Pad

BOARD_DIR = FIRMWARE_DIR / "padhub"
"""The hub's flash image shipped in the package: ``main.py`` and the ``padhub`` package."""
_PACKAGE = "_companion_padhub_firmware"
_MODULES = ("shims", "layout", "sense", "scan", "app")

BASE_COUNTS = 1200
PAD_COUNTS = 300
"""A pad and its wire over what its multiplexer's reference slots (no pad) measure."""
LIFT_COUNTS = 400


def firmware_dir() -> Path:
    """The directory of the hub firmware's logic package (the ``padhub`` package)."""
    path = BOARD_DIR / "padhub"
    if not (path / "sense.py").is_file():
        raise FirmwareNotFound(f"The pad hub firmware is missing from {path}; "
                               "reinstall the companion.")
    return path


def load_firmware() -> ModuleType:
    """The hub firmware's logic package (loaded once, under a private name)."""
    return load_board(_PACKAGE, firmware_dir, _MODULES, "the pad hub firmware")


class SimulatedHub(PtyBoard):
    """A pad hub on a pty at :attr:`path`; see the module docstring."""

    thread_name = "padhub-sim"
    poll_s = 0.005

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
        self._base = [BASE_COUNTS + 5 * ch + (PAD_COUNTS if fw.layout.pad(ch) is not None else 0)
                      for ch in range(self.channels)]
        self._next_scan = 0
        self._target_scan = -1
        super().__init__(link_path, "companion-padhub-", "padhub")
        self.boot_id: str = self._rng.randbytes(4).hex().upper()
        hub: Any = None

        def beat() -> tuple[int, int]:
            return tuple(hub.beat_fields()) if hub is not None else (0, 0)

        self._link = lib["tablelink"].Link(
            self._stream, lib["tablewire"].PADHUB, device_id, "sim-" + str(fw.VERSION),
            self.boot_id, (self.channels, self.scan_us), beat)
        hub = fw.app.Hub(self._source, self._link, fw.sense.Detector(settle=settle))
        self._hub: Any = hub
        self._t0 = time.monotonic()
        self._run_board(lambda: self._hub.step(0, budget=0))  # hello and a beat

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
    def sent(self) -> int:
        """Events (touches and releases) the hub has sent."""
        return int(self._hub.events)

    def _step(self) -> None:
        if self.realtime:
            self._target_scan = self.now_us() // self.scan_us
        self._hub.step(self.now_us() // 1000 if self.realtime else
                       max(self._next_scan - 1, 0) * self.scan_us // 1000, budget=256)
