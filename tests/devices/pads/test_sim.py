"""Simulated pads: a clocked mock pin factory, per-pad delays from a seed, slaps in time order."""

from __future__ import annotations

import random

import pytest

from companion.devices.pads.gpio import SlapPads
from companion.devices.pads.sim import (
    ClockedMockFactory,
    PadModel,
    SimulatedTable,
    run_plan,
    slap_plan_times,
)
from companion.devices.pinmap import load_default
from companion.inputs.pads import Pad, PadTouch


def test_the_factory_stamps_edges_with_its_clock():
    factory = ClockedMockFactory(now=5.0)
    got: list = []
    pads = SlapPads({Pad(1, 1): 17}, got.append, pin_factory=factory)
    pin = pads.device(Pad(1, 1)).pin
    pin.drive_high()
    factory.now = 5.25
    pin.drive_low()
    factory.now = 6.0
    pin.drive_high()
    assert [e.tick for e in got] == [5.0, 6.0]
    assert got[1].ms == 1000.0
    pads.close()


def test_the_model_is_drawn_from_its_seed():
    pads = list(load_default().pads[3])
    a, b = PadModel.seeded(pads, 4), PadModel.seeded(pads, 4)
    assert a == b and a != PadModel.seeded(pads, 5)
    assert all(5.0 <= v <= 45.0 for v in a.latency_ms.values())
    assert all(1.0 <= v <= 4.0 for v in a.jitter_ms.values())
    ttp = PadModel.ttp223(pads, 1)
    assert all(ttp.latency_ms[p] + ttp.jitter_ms[p] <= 60.0 for p in pads)  # the datasheet's max
    rng = random.Random(0)
    p = pads[0]
    for _ in range(100):
        assert a.latency_ms[p] <= a.delay(p, rng) <= a.latency_ms[p] + a.jitter_ms[p]
    assert a.true_spread_ms([(pads[0], pads[1])]) == (a.jitter_ms[pads[0]] + a.jitter_ms[pads[1]]) / 2


def test_slaps_come_out_as_touches_at_the_modules_delays_in_time_order():
    factory = ClockedMockFactory()
    got: list = []
    pads = SlapPads.from_pinmap(load_default(), 2, got.append, pin_factory=factory)
    model = PadModel({p: 10.0 * i for i, p in enumerate(sorted(pads.pads, key=str))},
                     {p: 0.0 for p in pads.pads})
    sim = SimulatedTable(pads, factory, model)
    first, second = sorted(pads.pads, key=str)[:2]
    sim.slap([second, first], 1000.0)
    sim.run_until(2000.0)
    touches = [e for e in got if isinstance(e, PadTouch)]
    assert [e.pad for e in touches] == [first, second]
    assert [e.ms for e in touches] == [0.0, pytest.approx(10.0)]
    assert sim.edges == 4  # two presses, two releases
    pads.close()


def test_the_plan_in_time_and_run_plan():
    a, b = Pad(1, 1), Pad(2, 1)
    times = slap_plan_times([(a, b)], 3, start_ms=100.0, every_ms=50.0)
    assert times == [(100.0, (a, b)), (150.0, (a, b)), (200.0, (a, b))]

    class Recorder:
        def __init__(self):
            self.slaps, self.until = [], []

        def slap(self, pads, at_ms):
            self.slaps.append((tuple(pads), at_ms))

        def run_until(self, ms):
            self.until.append(ms)

    r = Recorder()
    assert run_plan(r, [(a, b)], 2, start_ms=0.0, every_ms=10.0) == 20.0
    assert r.slaps == [((a, b), 0.0), ((a, b), 10.0)] and r.until[-1] == 20.0
