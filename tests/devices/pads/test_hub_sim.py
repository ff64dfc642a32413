"""The simulated pad hub: the firmware's own logic on a pty, hands in hub time, and a
calibration through it that leaves the true spread within one scan period."""

from __future__ import annotations

import sys
import time
from functools import partial

from companion.devices.pads.calibration import CalibrationSession, pair_plan
from companion.devices.pads.hub import PadHub, hub_channel, hub_pads
from companion.devices.pads.hub_sim import BOARD_DIR, SimulatedHub, load_firmware
from companion.devices.pads.sim import PadModel, run_plan
from companion.inputs.pads import Pad, PadTouch
from tests.dice import support

wait_for = partial(support.wait_for, timeout=30.0)  # a ceiling: the calibration runs long under load


def test_the_simulation_runs_the_firmware_shipped_in_the_package():
    fw = load_firmware()
    assert fw.sense.__file__.startswith(str(BOARD_DIR))
    assert sys.modules["tablelink"].__file__.endswith("firmware/lib/tablelink.py")
    assert fw.layout.SCAN_US == 993


def test_taps_in_real_time_reach_the_adapter():
    got: list = []
    with SimulatedHub(seed=1) as hub:
        pads = PadHub(hub_pads(2), got.append, hub.path, reconnect_interval=0.05)
        try:
            assert wait_for(lambda: pads.connected)
            time.sleep(0.1)  # the baselines settle (64 scans)
            hub.tap(Pad(2, "g"))
            assert wait_for(lambda: any(isinstance(e, PadTouch) for e in got))
            hub.press(Pad(1, 2))
            assert wait_for(lambda: sum(isinstance(e, PadTouch) for e in got) == 2)
            hub.release(Pad(1, 2))
            assert [e.pad for e in got if isinstance(e, PadTouch)] == [Pad(2, "g"), Pad(1, 2)]
        finally:
            pads.close()


def test_a_slap_is_sensed_after_each_pads_own_delay():
    a, b = Pad(1, 1), Pad(2, 1)
    model = PadModel({a: 0.0, b: 4.0}, {a: 0.0, b: 0.0})
    got: list = []
    with SimulatedHub(seed=2, realtime=False, model=model) as hub:
        pads = PadHub(hub_pads(2), got.append, hub.path, reconnect_interval=0.05)
        try:
            assert wait_for(lambda: pads.connected)
            hub.run_until(100)
            hub.slap([a, b], 500.0)
            hub.run_until(700)
            assert wait_for(lambda: sum(isinstance(e, PadTouch) for e in got) == 2)
            first, second = [e for e in got if isinstance(e, PadTouch)]
            assert (first.pad, second.pad) == (a, b)
            assert abs((second.ms - first.ms) - 4.0) <= hub.scan_us / 1000  # 4 ms, to a scan
            assert first.tick >= 500_000 and hub_channel(a) == 0
        finally:
            pads.close()


def test_calibration_through_the_hub_leaves_the_true_spread_within_one_scan_period():
    seats = 3
    table = hub_pads(seats)
    model = PadModel.seeded(table, 11, latency=(0.5, 5.0), jitter=(0.0, 0.3))
    plan = pair_plan(list(table))
    got: list = []
    with SimulatedHub(seed=4, realtime=False, model=model) as hub:
        pads = PadHub(table, got.append, hub.path, reconnect_interval=0.05)
        try:
            assert wait_for(lambda: pads.connected)
            hub.run_until(100)
            scan = hub.scan_us / 1000
            true = scan + model.true_spread_ms(plan)  # a scan's phase, plus the pads' jitter

            def touches():
                return [e for e in got if isinstance(e, PadTouch)]

            def slaps(rounds, start_ms):
                first = len(touches())
                end = run_plan(hub, plan, rounds, start_ms=start_ms, every_ms=400.0)
                assert wait_for(lambda: len(touches()) - first == 2 * len(plan) * rounds,
                            timeout=30.0)  # a loaded machine drains the pty slowly
                session = CalibrationSession(table)
                for e in touches()[first:]:
                    session.feed(e)
                return session, end

            before, end = slaps(2, 1000.0)
            worst = max(max(s.values()) - min(s.values()) for s in before.all_slaps())
            assert worst > true + scan  # the pads' own delays (0.5..5 ms) show
            session, end = slaps(12, end + 1000.0)
            assert session.ready
            cal = session.result()
            assert abs(cal.spread_ms - true) <= scan
            pads.set_offsets(cal.offsets_ms)
            after, _ = slaps(2, end + 1000.0)
            worst = max(max(s.values()) - min(s.values()) for s in after.all_slaps())
            assert worst <= true + scan
        finally:
            pads.close()
