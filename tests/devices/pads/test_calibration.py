"""Calibrating the pads: offsets and spread from slaps, end to end through gpiozero mock pins."""

from __future__ import annotations

import random
import statistics

import pytest

from companion.devices.pads.calibration import (
    UNEVEN_RATIO,
    Calibration,
    CalibrationError,
    CalibrationSession,
    assess,
    pair_plan,
    solve,
)
from companion.devices.pads.gpio import SlapPads
from companion.devices.pads.sim import (
    CLUMSY,
    FLAT,
    ClockedMockFactory,
    Hand,
    PadModel,
    SimulatedTable,
    run_plan,
)
from companion.devices.pinmap import load_default
from companion.inputs.pads import Pad, PadTouch, table_pads

A, B, C, D = Pad(1, 1), Pad(2, 1), Pad(1, "g"), Pad(2, "g")


def test_exact_delays_are_found_exactly_and_leave_no_spread():
    delays = {A: 10.0, B: 3.0, C: 30.0, D: 1.0}
    rng = random.Random(1)
    slaps = []
    for k in range(20):
        hand = k * 1000.0
        pads = rng.sample([A, B, C, D], rng.randint(2, 4))
        slaps.append({p: hand + delays[p] for p in pads})
    cal = solve(slaps)
    mean = sum(delays.values()) / 4
    for p, d in delays.items():
        assert cal.offsets_ms[p] == pytest.approx(d - mean)
    assert sum(cal.offsets_ms.values()) == pytest.approx(0.0, abs=1e-9)
    assert cal.spread_ms == pytest.approx(0.0, abs=1e-9)
    assert cal.slaps == 20 and cal.missing == ()


def test_the_spread_is_the_largest_difference_left_in_one_slap():
    # A is 5 ms late on average, but one slap it was 2 ms later still.
    slaps = [{A: 5.0, B: 0.0}, {A: 1005.0, B: 1000.0}, {A: 2007.0, B: 2000.0},
             {A: 3003.0, B: 3000.0}]
    cal = solve(slaps)
    assert cal.offsets_ms[A] - cal.offsets_ms[B] == pytest.approx(5.0)
    assert cal.spread_ms == pytest.approx(2.0)
    assert cal.residual_ms[A] == pytest.approx(1.0)


def test_pads_not_linked_to_the_others_are_named_missing():
    slaps = [{A: 0.0, B: 1.0}, {A: 1000.0, B: 1001.0}]
    cal = solve(slaps, expected=[A, B, C, D])
    assert set(cal.offsets_ms) == {A, B}
    assert cal.missing == (C, D)
    cal = solve(slaps + [{C: 5.0, D: 6.0}], expected=[A, B, C, D])
    assert len(cal.offsets_ms) == 2 and len(cal.missing) == 2  # two groups: the larger first


def test_slaps_of_one_pad_cannot_calibrate():
    with pytest.raises(CalibrationError, match="two pads"):
        solve([{A: 0.0}, {B: 5.0}])


def touch(pad: Pad, ms: float) -> PadTouch:
    return PadTouch(pad.seat, pad.target, 0.0, ms)


def test_the_session_groups_touches_into_slaps():
    s = CalibrationSession([A, B, C, D], min_slaps=2)
    for t in (touch(B, 1012), touch(A, 1000), touch(A, 1050),  # A again: its first touch counts
              touch(C, 2000),  # alone: no difference to measure
              touch(A, 3000), touch(B, 3004), touch(Pad(5, 5), 3001)):  # a pad of no seat here
        s.feed(t)
    assert s.slaps == [{B: 1012, A: 1000}, ]
    assert s.singles == 1
    assert s.all_slaps()[-1] == {A: 3000, B: 3004}
    assert s.counts() == {A: 2, B: 2, C: 0, D: 0}
    assert s.progress == (2, 4) and not s.ready
    for k in (4, 5):
        s.feed(touch(C, k * 1000))
        s.feed(touch(D, k * 1000 + 3))
        s.feed(touch(A, k * 1000 + 1))
    assert s.progress == (4, 4) and s.ready
    cal = s.result()
    assert isinstance(cal, Calibration) and set(cal.offsets_ms) == {A, B, C, D}


def test_ready_needs_the_pads_linked_not_only_counted():
    s = CalibrationSession([A, B, C, D], min_slaps=1)
    for t in (touch(A, 0), touch(B, 1), touch(C, 1000), touch(D, 1001)):
        s.feed(t)
    assert s.progress == (4, 4) and not s.ready


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_pair_plan_links_every_pad_of_the_table(seats):
    pads = list(load_default().pads[seats])
    plan = pair_plan(pads)
    assert {p for pair in plan for p in pair} == set(pads)
    s = CalibrationSession(pads, min_slaps=1)
    for k, (a, b) in enumerate(plan):
        s.feed(touch(a, k * 1000.0))
        s.feed(touch(b, k * 1000.0 + 1))
    assert s.ready
    for a, b in plan:  # a hand spans neighbouring sectors of one island, or two islands
        assert a != b


# --- end to end: simulated modules on mock pins ------------------------------------------------


def table(seed: int, seats: int = 4):
    factory = ClockedMockFactory()
    got: list = []
    pads = SlapPads.from_pinmap(load_default(), seats, got.append, pin_factory=factory)
    model = PadModel.seeded(pads.pads, seed)  # per-pad latency 5..45 ms, jitter 1..4 ms
    return pads, SimulatedTable(pads, factory, model, seed=seed + 100), model, got


def spread_of(touches: list, plan, rounds: int) -> float:
    """The largest difference between the two pads of each of these validation slaps."""
    s = CalibrationSession({p for pair in plan for p in pair})
    for t in touches:
        s.feed(t)
    worst = 0.0
    for slap in s.all_slaps():
        worst = max(worst, max(slap.values()) - min(slap.values()))
    assert len(s.all_slaps()) == len(plan) * rounds
    return worst


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_calibration_through_mock_pins_leaves_the_true_spread_within_one_sampling_period(seed):
    pads, sim, model, got = table(seed)
    plan = pair_plan(pads.pads)
    scan = model.sampling_ms  # the modules' sampling period: the finest they can time a touch
    true = model.true_spread_ms(plan)
    # Before: the pads' own delays (5..45 ms) swamp the real spread.
    end = run_plan(sim, plan, 4)
    before = spread_of(got, plan, 4)
    assert before > true + scan
    # The calibration: every pair a dozen times.
    session = CalibrationSession(pads.pads)
    start = len(got)
    end = run_plan(sim, plan, 12, start_ms=end + 2000)
    for event in got[start:]:
        session.feed(event)
    assert session.ready
    cal = session.result()
    assert cal.missing == ()
    assert abs(cal.spread_ms - true) <= scan
    mean = sum(model.mean_delay(p) for p in pads.pads) / len(pads.pads)
    for p in pads.pads:
        assert abs(cal.offsets_ms[p] - (model.mean_delay(p) - mean)) <= scan / 2
    # After: the adapter subtracts the offsets; fresh slaps show the true spread.
    pads.set_offsets(cal.offsets_ms)
    start = len(got)
    run_plan(sim, plan, 4, start_ms=end + 2000)
    after = spread_of(got[start:], plan, 4)
    assert after <= true + scan
    pads.close()


# --- a calibration that refuses nonsense (assess) ------------------------------------------------


def calibrate(seed: int, seats: int, hand: Hand = FLAT, model: str = "ttp223") -> Calibration:
    """The whole calibration routine on a simulated table, slapped by ``hand``."""
    pads = table_pads(seats)
    got: list = []
    factory = ClockedMockFactory()
    gpio = SlapPads.from_pinmap(load_default(), seats, got.append, pin_factory=factory)
    kind = PadModel.ttp223(pads, seed) if model == "ttp223" else PadModel.seeded(pads, seed)
    sim = SimulatedTable(gpio, factory, kind, seed=seed)
    run_plan(sim, pair_plan(pads), 12, every_ms=400.0, hand=hand, seed=seed)
    gpio.close()
    session = CalibrationSession(pads)
    for event in got:
        session.feed(event)
    return session.result()


@pytest.mark.parametrize("seed", range(12))
def test_a_flat_hand_on_ttp223_pads_is_accepted(seed):
    cal = calibrate(seed, 2 + seed % 3)
    assert assess(cal, declared_ms=60.0) is None
    assert max(cal.pair_ms.values()) < UNEVEN_RATIO * statistics.median(cal.pair_ms.values())


@pytest.mark.parametrize("seed", range(6))
def test_a_clumsy_hand_is_refused_as_no_better_than_the_datasheet(seed):
    cal = calibrate(seed, 4, CLUMSY)
    refusal = assess(cal, declared_ms=60.0)
    assert refusal is not None and refusal.rule == "worse"
    assert refusal.spread_ms == cal.spread_ms > 60.0 and refusal.declared_ms == 60.0


def test_one_pair_slapped_unevenly_is_found_and_named():
    """A pair whose second pad lands 50 to 250 ms late: the fit finds it in most tables (the
    lag's scatter hides among the modules' own in the rest) and never names another pair."""
    plan = pair_plan(table_pads(4))
    named = 0
    for seed in range(20):
        pair = plan[seed % len(plan)]
        cal = calibrate(seed, 4, Hand((50.0, 250.0), frozenset({frozenset(pair)})))
        refusal = assess(cal, declared_ms=1000.0)  # so vague that only the fit can fail
        if refusal is not None:
            assert refusal.rule == "uneven" and set(refusal.pads) == set(pair)
            assert refusal.ratio > UNEVEN_RATIO
            named += 1
    assert named >= 15


def test_too_few_slaps_are_refused_naming_the_pads_that_lack_them():
    cal = calibrate(1, 2)
    refusal = assess(cal, declared_ms=60.0, min_slaps=13)
    assert refusal is not None and refusal.rule == "few" and refusal.wanted == 13
    assert {p.key for p in refusal.pads} == {"1>1", "2>g"}  # each in one pair of the plan
    assert refusal.slaps == 12


def test_a_spread_equal_to_the_declared_figure_is_no_better():
    cal = calibrate(2, 2)
    assert assess(cal, declared_ms=cal.spread_ms + 0.01) is None
    refusal = assess(cal, declared_ms=cal.spread_ms)
    assert refusal is not None and refusal.rule == "worse"
