"""Simulated slap pads with realistic timing, for the tests, the benchmark and ``--simulate``.

* :class:`ClockedMockFactory`: gpiozero's ``MockFactory`` whose edge ticks come
  from a clock the caller sets (``now``, seconds), so edges are timed exactly
  like the kernel's line-event timestamps would time them.
* :class:`PadModel`: each pad's touch module answers a hand after its own
  **latency** plus a **jitter** drawn per touch (uniform over the pad's jitter
  width, e.g. the module's sampling period); drawn from a seeded distribution.
* :class:`SimulatedTable`: hands slapping pads at given times; each pad's edge
  comes when its module answers and drives that pad's mock pin of a real
  :class:`~companion.devices.pads.gpio.SlapPads` (the GPIO front end), in time order.
* :func:`slap_plan_times`: the calibration routine of the table, as slaps in time.
* :class:`Hand`: how the player's hand lands on the two pads of a slap: at once (one flat
  hand, :data:`FLAT`) or the second pad later by a random lag (a clumsy hand, fingers
  typing keys), on every pair or only on some.

The pad hub's twin is :mod:`companion.devices.pads.hub_sim` (same ``slap``/``run_until``).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero.exc import PinSetInput
from gpiozero.pins.mock import MockFactory, MockPin

from companion.devices.pads.gpio import SlapPads
from companion.inputs.pads import Pad


class ClockedMockPin(MockPin):  # type: ignore[misc]
    """A mock pin whose edges are stamped with a tick the caller gives (or its factory's clock).

    Built on gpiozero's public pin interface only: the line's level is this class's own
    (``level``, answered through the documented ``_get_state`` hook), and an edge goes to
    the pin's public ``when_changed`` callable with its tick, if the pin's ``edges`` ask for
    it.  ``drive(active, ticks)`` is the explicit form; ``drive_high()`` / ``drive_low()``
    (gpiozero's mock pin methods, used by the pulls too) take the tick from
    ``factory.ticks()``.  Unlike gpiozero's ``MockPin`` it keeps no ``states`` history.
    """

    def __init__(self, factory: Any, info: Any) -> None:
        self.level = False  # set before gpiozero's constructor applies the pin's pull
        super().__init__(factory, info)

    def _get_state(self) -> bool:
        return self.level

    def _set_state(self, value: Any) -> None:
        if self.function == "input":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        self.drive(bool(value), self.factory.ticks(), output=True)

    def drive(self, active: bool, ticks: Any, *, output: bool = False) -> bool:
        """Set the line to ``active`` at ``ticks``: ``True`` (and the callback run) if it changed."""
        if self.level == active:
            return False
        self.level = active
        if not output and self.edges in ("both", "rising" if active else "falling"):
            callback = self.when_changed
            if callback is not None:
                callback(ticks, active)
        return True

    def drive_high(self) -> None:
        self.drive(True, self.factory.ticks())

    def drive_low(self) -> None:
        self.drive(False, self.factory.ticks())


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """gpiozero's mock pin factory with a settable clock (``now``, seconds) and
    :class:`ClockedMockPin` pins."""

    def __init__(self, now: float = 0.0) -> None:
        super().__init__(pin_class=ClockedMockPin)
        self.now = now

    def ticks(self) -> float:
        return self.now


@dataclass(frozen=True)
class PadModel:
    """How late each pad's module reports a hand (ms): ``latency`` + uniform(0, ``jitter``)."""

    latency_ms: Mapping[Pad, float]
    jitter_ms: Mapping[Pad, float]

    @classmethod
    def seeded(cls, pads: Iterable[Pad], seed: int, *, latency: tuple[float, float] = (5.0, 45.0),
               jitter: tuple[float, float] = (1.0, 4.0)) -> PadModel:
        """Latency and jitter width of every pad drawn from ``random.Random(seed)``."""
        rng = random.Random(seed)
        order = sorted(set(pads), key=lambda p: (p.seat, str(p.target)))
        lat = {p: rng.uniform(*latency) for p in order}
        jit = {p: rng.uniform(*jitter) for p in order}
        return cls(lat, jit)

    @classmethod
    def ttp223(cls, pads: Iterable[Pad], seed: int) -> PadModel:
        """Modules like the TTP223 in fast mode: every delay within the datasheet's 60 ms,
        most of it the module's own sampling and debouncing (jitter), some of it fixed."""
        return cls.seeded(pads, seed, latency=(2.0, 20.0), jitter=(25.0, 40.0))

    def delay(self, pad: Pad, rng: random.Random) -> float:
        return self.latency_ms[pad] + rng.uniform(0.0, self.jitter_ms[pad])

    def mean_delay(self, pad: Pad) -> float:
        """The pad's offset as a perfect calibration would find it (its mean delay)."""
        return self.latency_ms[pad] + self.jitter_ms[pad] / 2

    def true_spread_ms(self, pairs: Iterable[tuple[Pad, Pad]]) -> float:
        """The largest difference two of these pads can show for one slap once each pad's
        mean delay is subtracted: the spread a perfect calibration would leave."""
        return max((self.jitter_ms[a] + self.jitter_ms[b]) / 2 for a, b in pairs)

    @property
    def sampling_ms(self) -> float:
        """The widest jitter: how finely the slowest-sampling module can time a touch."""
        return max(self.jitter_ms.values())


class Slapper(Protocol):
    """A simulated table: hands slap pads at given times (ms); edges come out in time order."""

    def slap(self, pads: Iterable[Pad], at_ms: float) -> None: ...
    def run_until(self, ms: float) -> None: ...


class SimulatedTable:
    """Slaps on a :class:`SlapPads` driven through the mock pins of a :class:`ClockedMockFactory`.

    ``slap(pads, at_ms)`` schedules each pad's press when its module answers (the
    model's delay) and its release ``hold_ms`` later; ``run_until(ms)`` performs the
    scheduled edges up to ``ms`` in time order, stamping each with its own time.
    """

    def __init__(self, pads: SlapPads, factory: ClockedMockFactory, model: PadModel, *,
                 seed: int = 0, hold_ms: float = 80.0) -> None:
        self.pads = pads
        self.factory = factory
        self.model = model
        self.hold_ms = hold_ms
        self.rng = random.Random(seed)
        self._queue: list[tuple[float, int, Pad, bool]] = []
        self._seq = 0
        self.edges = 0

    def _push(self, at_ms: float, pad: Pad, on: bool) -> None:
        self._seq += 1
        heapq.heappush(self._queue, (at_ms, self._seq, pad, on))

    def slap(self, pads: Iterable[Pad], at_ms: float) -> None:
        for pad in pads:
            edge = at_ms + self.model.delay(pad, self.rng)
            self._push(edge, pad, True)
            self._push(edge + self.hold_ms, pad, False)

    def run_until(self, ms: float) -> None:
        while self._queue and self._queue[0][0] <= ms:
            at, _seq, pad, on = heapq.heappop(self._queue)
            self.factory.now = at / 1000.0
            pin: Any = self.pads.device(pad).pin
            if on:
                pin.drive_high()
            else:
                pin.drive_low()
            self.edges += 1


def slap_plan_times(plan: Sequence[tuple[Pad, Pad]], rounds: int, *, start_ms: float = 1000.0,
                    every_ms: float = 1000.0) -> list[tuple[float, tuple[Pad, Pad]]]:
    """The calibration routine in time: every pair of ``plan`` slapped ``rounds`` times,
    one slap every ``every_ms``."""
    out = []
    t = start_ms
    for _ in range(rounds):
        for pair in plan:
            out.append((t, pair))
            t += every_ms
    return out


@dataclass(frozen=True)
class Hand:
    """How a hand lands on a slap's two pads: the second ``lag_ms`` later (uniform between
    the two values; ``(0, 0)``: both at once), on ``pairs`` only (``None``: every pair)."""

    lag_ms: tuple[float, float] = (0.0, 0.0)
    pairs: frozenset[frozenset[Pad]] | None = None

    def lag(self, pair: tuple[Pad, Pad], rng: random.Random) -> float:
        if self.lag_ms == (0.0, 0.0) or (self.pairs is not None
                                         and frozenset(pair) not in self.pairs):
            return 0.0
        return rng.uniform(*self.lag_ms)


FLAT = Hand()
"""One flat hand across both pads: they are touched at the same moment."""
CLUMSY = Hand((20.0, 200.0))
"""Fingers landing one after the other (or two keys typed): 20 to 200 ms apart."""


def run_plan(table: Slapper, plan: Sequence[tuple[Pad, Pad]], rounds: int, *,
             start_ms: float = 1000.0, every_ms: float = 1000.0, hand: Hand = FLAT,
             seed: int = 0) -> float:
    """Slap the plan on ``table`` with ``hand`` (its lags drawn from ``seed``); returns the
    time after the last slap settled."""
    end = start_ms
    rng = random.Random(seed)
    for at, pair in slap_plan_times(plan, rounds, start_ms=start_ms, every_ms=every_ms):
        table.run_until(at)
        lag = hand.lag(pair, rng)
        if lag:
            table.slap(pair[:1], at)
            table.slap(pair[1:], at + lag)
        else:
            table.slap(pair, at)
        end = at + every_ms
    table.run_until(end)
    return end
