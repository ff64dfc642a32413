"""Calibrating the pads: offsets and spread from slaps, end to end through gpiozero mock pins."""

from __future__ import annotations

import random

import pytest

from companion.hardware.padcal import (
    Calibration,
    CalibrationError,
    CalibrationSession,
    pair_plan,
    solve,
)
from companion.hardware.pads import SlapPads
from companion.hardware.padsim import ClockedMockFactory, PadModel, SimulatedTable, run_plan
from companion.hardware.pinmap import load_default
from companion.inputs.pads import Pad, PadTouch

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
