"""Simulated MPR121 chips on a simulated I2C bus, sampling as the datasheet says.

:class:`SimulatedMpr121Bus` answers the driver's register reads and writes
(:class:`~companion.devices.pads.mpr121.I2CBus`) for chips at any of the four addresses.
Each chip samples its electrodes every ESI milliseconds from its own phase (chips are
not synchronised), electrode ``e`` a little after electrode ``e - 1`` in each round;
a sample under a hand is lower by that pad's **lift** (its counts: a big pad under a
flat hand lifts more); the second filter averages the last SFI samples and the status
bit follows the touch and release thresholds after the debounce's agreeing samples.
The settings are what the driver wrote into CONFIG1, CONFIG2, DEBOUNCE and the
thresholds.  The IRQ line (:attr:`irq_pin`, a :class:`ClockedMockPin` of the caller's
factory) falls when a status changes and rises when it is read.

Time is the caller's: :attr:`now_ms` (set by :class:`Mpr121Table` or the terminal's
clock), so tests are exact.  :class:`Mpr121Table` is the table for the benchmark and
the tests, with the same ``slap`` / ``run_until`` as the other front ends' twins.
"""

from __future__ import annotations

import heapq
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.devices.pads import mpr121 as chip
from companion.devices.pads.sim import PadModel
from companion.inputs.pads import Pad

BASELINE_COUNTS = 720
"""An untouched copper-tape pad and its wire (10-bit counts)."""
ELECTRODE_STEP_MS = 0.04
"""Electrode ``e`` is measured this much after electrode ``e - 1`` in a round."""
LIFT = (14.0, 80.0)
"""A pad's drop in counts under a hand: just over the default threshold (12) up to a
large pad under a flat hand."""


@dataclass
class _Chip:
    address: int
    phase_ms: float
    regs: dict[int, int] = field(default_factory=dict)
    hands: dict[int, list[tuple[float, float, float]]] = field(default_factory=dict)
    """electrode -> (from_ms, to_ms, lift)"""
    samples: dict[int, list[float]] = field(default_factory=dict)
    agree: dict[int, int] = field(default_factory=dict)
    status: int = 0
    round: int = 0
    """The next sampling round to run."""
    running: bool = False
    last: int = -1
    """The last sample taken: round x 16 + electrode."""

    def reset(self) -> None:
        self.regs = {chip.CONFIG2: chip.CONFIG2_AFTER_RESET, chip.CONFIG1: 0x10}
        self.samples, self.agree, self.status, self.round, self.running = {}, {}, 0, 0, False
        self.last = -1

    def setting(self) -> tuple[int, int, int, int, int]:
        c2 = self.regs.get(chip.CONFIG2, chip.CONFIG2_AFTER_RESET)
        esi = chip.ESI_MS[c2 & 7]
        sfi = chip.SFI_SAMPLES[c2 >> 3 & 3]
        dt = self.regs.get(chip.DEBOUNCE, 0)
        return esi, sfi, dt & 7, dt >> 4 & 7, self.regs.get(chip.ECR, 0) & 0x0F


class SimulatedMpr121Bus:
    """MPR121 chips at ``addresses`` on a simulated I2C bus (see the module docstring).

    ``lifts``: (address, electrode) -> counts under a hand; drawn from ``seed`` for every
    electrode not given.  ``realtime``: :attr:`now_ms` is the host clock since the bus
    was made (``make run``).
    """

    def __init__(self, addresses: Iterable[int] = chip.ADDRESSES, *, seed: int = 0,
                 lifts: Mapping[tuple[int, int], float] | None = None, realtime: bool = False,
                 irq_pin: Any = None, others: Iterable[int] = ()) -> None:
        rng = random.Random(seed)
        self.others = frozenset(others)
        """Addresses of other devices on the bus that acknowledge (a panel at 0x3C)."""
        self._chips = {a: _Chip(a, rng.uniform(0.0, 1.0)) for a in sorted(set(addresses))}
        for c in self._chips.values():
            c.reset()
        self.lifts = {(a, e): rng.uniform(*LIFT) for a in self._chips
                      for e in range(chip.ELECTRODES)}
        self.lifts.update(lifts or {})
        self.realtime = realtime
        self._t0 = time.monotonic()
        self._now_ms = 0.0
        self._lock = threading.RLock()
        self.irq_pin = irq_pin
        self._irq_at: float | None = None
        self.reads = 0

    @classmethod
    def for_pads(cls, pads: Mapping[Pad, tuple[int, int]], **kwargs: Any) -> SimulatedMpr121Bus:
        """The chips these pads sit on."""
        return cls(sorted({a for a, _ in pads.values()}), **kwargs)

    # --- time ---------------------------------------------------------------------------

    @property
    def now_ms(self) -> float:
        if self.realtime:
            return (time.monotonic() - self._t0) * 1000.0
        return self._now_ms

    @now_ms.setter
    def now_ms(self, value: float) -> None:
        self._now_ms = value

    def phase_ms(self, address: int) -> float:
        """When the chip's sampling rounds start, mod its ESI."""
        return self._chips[address].phase_ms

    def settle(self, upto_ms: float | None = None) -> None:
        """Run every chip's sampling rounds up to ``upto_ms`` (default: now)."""
        end = self.now_ms if upto_ms is None else upto_ms
        with self._lock:
            for c in self._chips.values():
                self._advance(c, end)

    def _advance(self, c: _Chip, end: float) -> None:
        if not c.running:
            return
        esi, sfi, dt_touch, dt_release, enabled = c.setting()
        count = chip.ELECTRODES if enabled >= chip.ELECTRODES else enabled
        round_start = c.phase_ms + c.round * esi
        for e, spans in c.hands.items():  # hands gone before this round are forgotten
            c.hands[e] = [h for h in spans if h[1] > round_start]
        if not any(c.hands.values()) and c.status == 0 and all(
                len(w) == sfi and min(w) == BASELINE_COUNTS for w in c.samples.values()):
            rounds = int((end - c.phase_ms) // esi) + 1  # idle: nothing changes, skip ahead
            if rounds > c.round:
                c.round = rounds
                c.last = c.round * 16 - 1
            return
        while True:
            start = c.phase_ms + c.round * esi
            if start > end:
                return
            for e in range(count):
                t = start + e * ELECTRODE_STEP_MS
                if t > end:
                    return  # the rest of this round later (the round is re-run from e)
                self._sample(c, e, t, sfi, dt_touch, dt_release)
            c.round += 1

    def _sample(self, c: _Chip, e: int, t: float, sfi: int, dt_touch: int,
                dt_release: int) -> None:
        packed = c.round * 16 + e
        if packed <= c.last:
            return  # sampled already (a round cut short by the end of a run goes on later)
        c.last = packed
        lift = 0.0
        for start, stop, amount in c.hands.get(e, ()):
            if start <= t < stop:
                lift = amount
                break
        window = c.samples.setdefault(e, [])
        window.append(BASELINE_COUNTS - lift)
        del window[:-sfi]
        filtered = sum(window) / len(window)
        delta = BASELINE_COUNTS - filtered
        touched = bool(c.status >> e & 1)
        threshold = c.regs.get(chip.TOUCH_THRESHOLD + 2 * e + (1 if touched else 0), 12 if not
                               touched else 6)
        wants = delta > threshold if not touched else delta >= threshold
        if wants != touched:
            c.agree[e] = c.agree.get(e, 0) + 1
            if c.agree[e] > (dt_touch if not touched else dt_release):
                c.status ^= 1 << e
                c.agree[e] = 0
                self._irq_fall(t)
        else:
            c.agree[e] = 0

    def _irq_fall(self, t: float) -> None:
        if self._irq_at is None:
            self._irq_at = t
            if self.irq_pin is not None:
                self.irq_pin.drive(False, t / 1000.0)

    def irq_pending(self) -> float | None:
        """When the IRQ line fell and has not been released by a read (ms), else ``None``."""
        return self._irq_at

    # --- hands ---------------------------------------------------------------------------

    def touch(self, where: tuple[int, int], from_ms: float, to_ms: float) -> None:
        """A hand on electrode ``where`` = (address, electrode) from ``from_ms`` to ``to_ms``."""
        address, electrode = where
        with self._lock:
            self._chips[address].hands.setdefault(electrode, []).append(
                (from_ms, to_ms, self.lifts[where]))

    def tap(self, where: tuple[int, int], hold_ms: float = 80.0) -> None:
        """A short touch from now (the terminal's pad keys)."""
        now = self.now_ms
        self.touch(where, now, now + hold_ms)

    # --- the bus (smbus2's methods) ------------------------------------------------------

    def write_quick(self, i2c_addr: int) -> None:
        """An address probe (``i2cdetect``'s): acknowledged by a chip or another device."""
        if i2c_addr not in self.others:
            self._chip(i2c_addr)

    def read_byte(self, i2c_addr: int) -> int:
        """A probe by reading: chips answer with their current register, others with 0."""
        if i2c_addr in self.others:
            return 0
        self._chip(i2c_addr)
        return 0

    def _chip(self, address: int) -> _Chip:
        c = self._chips.get(address)
        if c is None:
            raise OSError(121, "Remote I/O error")  # no ACK: what smbus2 raises
        return c

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        with self._lock:
            c = self._chip(i2c_addr)
            self._advance(c, self.now_ms)
            if register == chip.SOFT_RESET and value == chip.RESET_VALUE:
                phase = c.phase_ms
                c.reset()
                c.phase_ms = phase
                return
            if register == chip.ECR:
                starting = value & 0x0F and not c.running
                c.running = bool(value & 0x0F)
                if starting:
                    esi = c.setting()[0]
                    c.round = max(0, int((self.now_ms - c.phase_ms) // esi) + 1)
                    c.last = c.round * 16 - 1
            c.regs[register] = value & 0xFF

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        with self._lock:
            c = self._chip(i2c_addr)
            self._advance(c, self.now_ms)
            return c.regs.get(register, 0)

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        with self._lock:
            c = self._chip(i2c_addr)
            self._advance(c, self.now_ms)
            self.reads += 1
            if register == chip.TOUCH_STATUS:
                self._release_irq()
                return [c.status & 0xFF, c.status >> 8 & 0x0F][:length]
            if register == chip.FILTERED_DATA:
                out: list[int] = []
                for e in range(chip.ELECTRODES):
                    window = c.samples.get(e) or [BASELINE_COUNTS]
                    value = int(sum(window) / len(window))
                    out += [value & 0xFF, value >> 8]
                return out[:length]
            if register == chip.BASELINE:
                return [BASELINE_COUNTS >> 2] * length
            return [c.regs.get(register + i, 0) for i in range(length)]

    def _release_irq(self) -> None:
        if self._irq_at is not None:
            self._irq_at = None
            if self.irq_pin is not None:
                self.irq_pin.drive(True, self.now_ms / 1000.0)

    def close(self) -> None:
        pass


class Mpr121Table:
    """Hands on pads read by a real :class:`~companion.devices.pads.mpr121.Mpr121Pads`
    (``start=False``) over a :class:`SimulatedMpr121Bus`, in time order.

    ``slap(pads, at_ms)`` puts a hand on each pad ``model``'s delay later (its
    sensitivity; ``None``: at once) for ``hold_ms``; ``run_until(ms)`` runs the reader's
    polls (every ``poll_ms``) and, with an IRQ line, a read right after each fall of the
    line, up to ``ms``.
    """

    def __init__(self, pads: Any, bus: SimulatedMpr121Bus, *, poll_ms: float,
                 model: PadModel | None = None, seed: int = 0, hold_ms: float = 80.0,
                 irq: bool = False, set_clock: Callable[[float], None] | None = None,
                 read_delay_ms: float = 0.0) -> None:
        self.pads = pads
        self.bus = bus
        self.poll_ms = poll_ms
        self.model = model
        self.hold_ms = hold_ms
        self.irq = irq
        self.rng = random.Random(seed)
        self.read_delay_ms = read_delay_ms
        self._set_clock = set_clock
        self._now = bus.now_ms
        self._next_poll = self._now + poll_ms
        self._slaps: list[tuple[float, int, Pad]] = []
        self._seq = 0

    def _at(self, ms: float) -> None:
        self._now = ms
        self.bus.now_ms = ms
        if self._set_clock is not None:
            self._set_clock(ms / 1000.0)

    def slap(self, pads: Iterable[Pad], at_ms: float) -> None:
        for pad in pads:
            delay = self.model.delay(pad, self.rng) if self.model is not None else 0.0
            self._seq += 1
            heapq.heappush(self._slaps, (at_ms + delay, self._seq, pad))

    def run_until(self, ms: float) -> None:
        while self._slaps and self._slaps[0][0] <= ms:
            at, _, pad = heapq.heappop(self._slaps)
            self.bus.touch(self.pads.where(pad), at, at + self.hold_ms)
        step = self.poll_ms
        while self._next_poll <= ms:
            if self.irq:
                self._irq_reads(self._next_poll)
            self._at(self._next_poll)
            self.pads.read()
            self._next_poll += step
        if self.irq:
            self._irq_reads(ms)
        self._at(max(self._now, ms))

    def _irq_reads(self, until: float) -> None:
        """Reads answering the IRQ line's falls before ``until``, ``read_delay_ms`` after each."""
        while True:
            self.bus.settle(until)
            fell = self.bus.irq_pending()
            if fell is None or fell + self.read_delay_ms > until:
                return
            self._at(fell + self.read_delay_ms)
            self.pads.read()


