"""Who touched first? The ordering error of the pad front ends on the same simulated slaps.

The same hands slap both front ends: pairs of hands from two seats on the same
pile (a contested pile), the second hand a random gap after the first (uniform
0..150 ms, either order; seeded).  Each front end reports the touches as it
would at the table:

* **GPIO**: one touch module per pad on the Pi's GPIO, simulated like the TTP223
  in fast mode (``PadModel.ttp223``: every pad its own fixed delay, 2..20 ms, plus
  a sampling delay drawn per touch, up to 25..40 ms, so at most the datasheet's
  60 ms), through the real ``SlapPads`` adapter on clocked mock pins;
* **hub**: the pad hub (its firmware's own detector on 993 us scans, the real
  reader on a pty), each pad sensing a hand 0.5..5 ms late (its sensitivity)
  plus up to 0.3 ms of jitter;
* **MPR121**: two MPR121 chips on I2C (the simulated chips: 1 ms sampling from each
  chip's own phase, the 4-sample filter, each pad's touch 14..80 counts deep, so 1 to 4
  samples to the status bit), read by the real ``Mpr121Pads`` every 2 ms (``polled``) or
  on the IRQ line's edges 0.3 ms late (``irq``), the same hands (0.5..5 ms sensitivity,
  up to 0.3 ms jitter) as the hub's.

For each front end three ways of judging are counted, as the share of all pairs:

* ``wrong if exact``: the order the raw times give is wrong (what the referee did
  before decision D28: every difference taken at face value);
* ``declared``: with the pad type's declared uncertainty (60 ms, 1 ms, 8 ms) a gap
  inside it is a tie (simultaneous, D2 decides), outside it a call, right or wrong;
* ``calibrated``: the same after a calibration at this table (each pad slapped 12
  times in pairs), its offsets subtracted and its spread as the uncertainty.

The ratios hub / GPIO and MPR121 / GPIO are the peer comparison.  ``--latency N`` prints
instead how late the simulated MPR121 reports a touch at the chosen settings (N seeded
touches, each pad's depth 14..80 counts, any phase): to its status bit, and to the reader
(polled every 2 ms; on the IRQ line 0.3 ms late), against the declared 8 ms.  Also printed: the wrong and tied
shares by true gap.

    .venv/bin/python benchmarks/pad_ordering.py [--pairs 1000] [--seed 1] [--latency N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.devices.pads.calibration import CalibrationSession, pair_plan
from companion.devices.pads.frontends import PAD_TYPES
from companion.devices.pads.gpio import SlapPads
from companion.devices.pads.hub import PadHub, hub_pads
from companion.devices.pads.hub_sim import SimulatedHub
from companion.devices.pads.mpr121 import DEFAULT_SETTINGS, Mpr121Pads, mpr121_pads
from companion.devices.pads.mpr121_sim import Mpr121Table, SimulatedMpr121Bus
from companion.devices.pads.sim import ClockedMockFactory, PadModel, SimulatedTable, run_plan
from companion.devices.pinmap import load_default
from companion.inputs.pads import Pad, PadTouch

SEATS = 4
SPACING_MS = 300.0
MAX_GAP_MS = 150.0
BINS = ((0.0, 5.0), (5.0, 20.0), (20.0, 60.0), (60.0, MAX_GAP_MS + 1))


@dataclass(frozen=True)
class Pair:
    first: Pad
    second: Pad
    at_ms: float
    gap_ms: float  # true: the second hand lands this much after the first (> 0)


def make_pairs(n: int, seed: int, start_ms: float) -> list[Pair]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        pile = rng.choice([*range(1, SEATS + 1), "g"])
        a, b = rng.sample(range(1, SEATS + 1), 2)
        out.append(Pair(Pad(a, pile), Pad(b, pile), start_ms + k * SPACING_MS,
                        rng.uniform(0.05, MAX_GAP_MS)))
    return out


def slap_pairs(table: Any, pairs: list[Pair]) -> None:
    for p in pairs:
        table.run_until(p.at_ms)
        table.slap([p.first], p.at_ms)
        table.slap([p.second], p.at_ms + p.gap_ms)
    table.run_until(pairs[-1].at_ms + 2 * SPACING_MS)


def measured(touches: list[PadTouch], pairs: list[Pair], tick_ms: Callable[[Any], float]
             ) -> list[float | None]:
    """Per pair: the second pad's time minus the first's (None: a touch went missing)."""
    by_slot: dict[int, dict[Pad, float]] = {}
    start = pairs[0].at_ms
    for t in touches:
        slot = int((tick_ms(t.tick) - start + 50.0) // SPACING_MS)
        by_slot.setdefault(slot, {}).setdefault(t.pad, t.ms)
    out: list[float | None] = []
    for k, p in enumerate(pairs):
        seen = by_slot.get(k, {})
        out.append(seen[p.second] - seen[p.first] if p.first in seen and p.second in seen
                   else None)
    return out


@dataclass
class Score:
    wrong: int = 0
    ties: int = 0
    missing: int = 0

    def add(self, d: float | None, within: float) -> None:
        if d is None:
            self.missing += 1
        elif abs(d) < within or d == 0:
            self.ties += 1
        elif d < 0:
            self.wrong += 1  # the second hand was called first


def calibrate(table: Any, pads: list[Pad], touches: Callable[[], list[PadTouch]],
              wait: Callable[[int], None], start_ms: float) -> tuple[dict[Pad, float], float, float]:
    plan = pair_plan(pads)
    first = len(touches())
    end = run_plan(table, plan, 12, start_ms=start_ms, every_ms=400.0)
    wait(first + 2 * 12 * len(plan))
    session = CalibrationSession(pads)
    for t in touches()[first:]:
        session.feed(t)
    cal = session.result()
    return cal.offsets_ms, cal.spread_ms, end


def run_gpio(pairs: list[Pair], seed: int, calibrated: bool) -> tuple[list[float | None], float]:
    factory = ClockedMockFactory()
    got: list[Any] = []
    pads = SlapPads.from_pinmap(load_default(), SEATS, got.append, pin_factory=factory)
    table = SimulatedTable(pads, factory, PadModel.ttp223(pads.pads, seed), seed=seed + 1)
    within = PAD_TYPES["ttp223-fast"].uncertainty_ms

    def touches() -> list[PadTouch]:
        return [e for e in got if isinstance(e, PadTouch)]

    try:
        if calibrated:
            offsets, within, _ = calibrate(table, list(pads.pads), touches, lambda n: None, 1000.0)
            pads.set_offsets(offsets)
        first = len(touches())
        slap_pairs(table, pairs)
        return measured(touches()[first:], pairs, lambda tick: tick * 1000.0), within
    finally:
        pads.close()


def run_hub(pairs: list[Pair], seed: int, calibrated: bool) -> tuple[list[float | None], float]:
    table_pads = hub_pads(SEATS)
    model = PadModel.seeded(table_pads, seed, latency=(0.5, 5.0), jitter=(0.0, 0.3))
    got: list[Any] = []
    with SimulatedHub(seed=seed + 1, realtime=False, model=model) as hub:
        reader = PadHub(table_pads, got.append, hub.path, reconnect_interval=0.05)
        try:
            deadline = time.monotonic() + 5
            while not reader.connected and time.monotonic() < deadline:
                time.sleep(0.01)
            hub.run_until(100)

            def touches() -> list[PadTouch]:
                return [e for e in got if isinstance(e, PadTouch)]

            def wait(n: int) -> None:
                end = time.monotonic() + 30
                while len(touches()) < n and time.monotonic() < end:
                    time.sleep(0.01)

            within = PAD_TYPES["padhub"].uncertainty_ms
            if calibrated:
                offsets, spread, _ = calibrate(hub, list(table_pads), touches, wait, 1000.0)
                within = max(spread, PAD_TYPES["padhub"].floor_ms)
                reader.set_offsets(offsets)
            first = len(touches())
            slap_pairs(hub, pairs)
            wait(first + 2 * len(pairs))
            return measured(touches()[first:], pairs, lambda tick: tick / 1000.0), within
        finally:
            reader.close()


def mpr121_table(where: dict[Pad, tuple[int, int]], got: list[Any], seed: int, *, irq: bool,
                 model: PadModel | None = None) -> tuple[Mpr121Pads, Mpr121Table]:
    """The real reader on simulated chips: polled every 2 ms, or on the IRQ line 0.3 ms late."""
    factory = ClockedMockFactory()
    bus = SimulatedMpr121Bus.for_pads(where, seed=seed)
    if irq:
        reader = Mpr121Pads(where, got.append, bus, irq_pin=24, pin_factory=factory, start=False)
        bus.irq_pin = factory.pin(24)
    else:
        reader = Mpr121Pads(where, got.append, bus, start=False,
                            ticks=lambda: bus.now_ms / 1000.0, ticks_diff=lambda a, b: a - b)
    table = Mpr121Table(reader, bus, poll_ms=DEFAULT_SETTINGS.poll_ms, model=model,
                        seed=seed + 1, irq=irq, read_delay_ms=0.3 if irq else 0.0,
                        set_clock=lambda s: setattr(factory, "now", s))
    return reader, table


def run_mpr121(pairs: list[Pair], seed: int, calibrated: bool, *, irq: bool = False
               ) -> tuple[list[float | None], float]:
    where = mpr121_pads(SEATS)
    model = PadModel.seeded(where, seed, latency=(0.5, 5.0), jitter=(0.0, 0.3))
    got: list[Any] = []
    reader, table = mpr121_table(where, got, seed + 1, irq=irq, model=model)

    def touches() -> list[PadTouch]:
        return [e for e in got if isinstance(e, PadTouch)]

    try:
        within = PAD_TYPES["mpr121"].uncertainty_ms
        if calibrated:
            offsets, spread, _ = calibrate(table, list(where), touches, lambda n: None, 1000.0)
            within = max(spread, PAD_TYPES["mpr121"].floor_ms)
            reader.set_offsets(offsets)
        first = len(touches())
        slap_pairs(table, pairs)
        return measured(touches()[first:], pairs, lambda tick: tick * 1000.0), within
    finally:
        reader.close()


def run_mpr121_irq(pairs: list[Pair], seed: int, calibrated: bool
                   ) -> tuple[list[float | None], float]:
    return run_mpr121(pairs, seed, calibrated, irq=True)


def mpr121_latency(n: int, seed: int) -> None:
    """Touch -> status bit and touch -> reported time of simulated MPR121 pads (ms)."""
    where = mpr121_pads(SEATS)
    rng = random.Random(seed)
    pads = list(where)
    for irq in (False, True):
        got: list[Any] = []
        reader, table = mpr121_table(where, got, seed, irq=irq)
        truth: list[float] = []
        for k in range(n):
            at = 1000.0 + k * 300.0 + rng.uniform(0.0, 5.0)
            table.run_until(at)
            table.slap([rng.choice(pads)], at)
            truth.append(at)
        table.run_until(1000.0 + n * 300.0 + 300.0)
        reader.close()
        ticks = [t.tick * 1000.0 for t in got if isinstance(t, PadTouch)]
        late = sorted(tick - at for tick, at in zip(ticks, truth, strict=True))
        name = "irq line" if irq else "polled  "
        print(f"MPR121 {name}: touch -> reported time over {len(late)} touches: min "
              f"{late[0]:.2f} ms, median {late[len(late) // 2]:.2f} ms, max {late[-1]:.2f} ms "
              f"(declared uncertainty {DEFAULT_SETTINGS.uncertainty_ms():.0f} ms: "
              f"{DEFAULT_SETTINGS.filter_ms:.0f} ms filter + "
              f"{DEFAULT_SETTINGS.read_bound_ms:.0f} ms read)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--latency", type=int, default=0, metavar="N",
                    help="print the MPR121's touch-to-report delays over N touches instead")
    args = ap.parse_args()
    if args.latency:
        mpr121_latency(args.latency, args.seed)
        return
    start = 200_000.0  # after any calibration's slaps
    pairs = make_pairs(args.pairs, args.seed, start)
    n = len(pairs)
    rows = []
    by_gap: dict[str, list[tuple[int, int, int, int]]] = {}
    for name, run in (("GPIO (TTP223)", run_gpio), ("pad hub", run_hub),
                      ("MPR121 polled", run_mpr121), ("MPR121 irq", run_mpr121_irq)):
        t0 = time.perf_counter()
        raw, declared_ms = run(pairs, args.seed, calibrated=False)
        cal, calibrated_ms = run(pairs, args.seed, calibrated=True)
        exact, declared, calibrated = Score(), Score(), Score()
        for d in raw:
            exact.add(d, 0.0)
            declared.add(d, declared_ms)
        for d in cal:
            calibrated.add(d, calibrated_ms)
        rows.append((name, exact, declared, declared_ms, calibrated, calibrated_ms,
                     time.perf_counter() - t0))
        bins = []
        for lo, hi in BINS:
            idx = [k for k, p in enumerate(pairs) if lo <= p.gap_ms < hi]
            raw_score, cal_score = Score(), Score()
            for k in idx:
                raw_score.add(raw[k], 0.0)
                cal_score.add(cal[k], calibrated_ms)
            bins.append((len(idx), raw_score.wrong, cal_score.wrong, cal_score.ties))
        by_gap[name] = bins

    def pct(x: int) -> str:
        return f"{100.0 * x / n:5.1f} %"

    print(f"{n} pairs of slaps on a {SEATS}-seat table, true gaps 0..{MAX_GAP_MS:.0f} ms "
          f"(seed {args.seed}); the same hands for every front end")
    print(f"{'front end':<14} {'wrong if exact':>14}  {'declared ±':>11} {'wrong':>7} {'ties':>7}"
          f"  {'calibrated ±':>13} {'wrong':>7} {'ties':>7}  {'missing':>7}  {'s':>5}")
    for name, exact, dec, dec_ms, cal, cal_ms, secs in rows:
        print(f"{name:<14} {pct(exact.wrong):>14}  {dec_ms:9.1f}ms {pct(dec.wrong)} {pct(dec.ties)}"
              f"  {cal_ms:11.1f}ms {pct(cal.wrong)} {pct(cal.ties)}  {exact.missing + cal.missing:7d}"
              f"  {secs:5.1f}")
    (_, g_exact, g_dec, _, g_cal, _, _) = rows[0]

    def ratio(a: int, b: int) -> str:
        return f"{a / b:.3f}x" if b else ("0 of 0" if not a else "inf")

    for name, h_exact, h_dec, _, h_cal, _, _ in rows[1:]:
        print(f"{name} / GPIO: wrong if exact {ratio(h_exact.wrong, g_exact.wrong)}, "
              f"ties declared {ratio(h_dec.ties, g_dec.ties)}, "
              f"ties calibrated {ratio(h_cal.ties, g_cal.ties)}")
    print("by true gap: pairs; wrong if exact; calibrated: wrong, ties")
    for k, (lo, hi) in enumerate(BINS):
        cells = "   ".join(f"{name}: {c[0]:4d}; {c[1]:4d}; {c[2]:4d} {c[3]:4d}"
                           for name, c in ((nm, by_gap[nm][k]) for nm in by_gap))
        print(f"  {lo:5.1f}..{min(hi, MAX_GAP_MS):5.1f} ms   {cells}")


if __name__ == "__main__":
    main()
