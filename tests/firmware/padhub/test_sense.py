"""padhub.sense: baselines, thresholds, confirmation dated at the first scan, drift, max on time."""

from padhub import layout
from padhub.sense import Detector

from tests.firmware.padhub.support import Table


def run(detector, table, scans, start=0):
    events = []
    for scan in range(start, start + scans):
        for event in detector.update(scan, table.counts(scan)):
            events.append(event)
    return events


def test_nothing_is_reported_while_the_baselines_settle():
    d = Detector(settle=16)
    table = Table()
    table.touch(0, 0)
    assert run(d, table, 16) == [] and d.ready
    assert d.base[5] == (2000 + 35) * 16 and d.base[0] == (2000 + 400) * 16


def test_a_touch_is_dated_at_the_first_scan_that_saw_it():
    d = Detector(settle=8)
    table = Table()
    run(d, table, 8)
    ch = layout.channel(2, 3)
    table.touch(ch, layout.sample_us(20, ch) - 1, layout.sample_us(60, ch) - 1)
    events = run(d, table, 80, start=8)
    assert events == [(ch, True, layout.sample_us(20, ch)), (ch, False, layout.sample_us(60, ch))]


def test_touches_one_scan_apart_keep_their_order_and_distance():
    d = Detector(settle=8)
    table = Table()
    run(d, table, 8)
    a, b = layout.channel(4, 1), layout.channel(4, 2)  # the same slot: sampled together
    table.touch(a, layout.sample_us(30, a) - 500)
    table.touch(b, layout.sample_us(31, b) - 500)
    events = run(d, table, 10, start=28)
    assert [e[0] for e in events] == [a, b]
    assert events[1][2] - events[0][2] == layout.SCAN_US


def test_one_noisy_scan_is_not_a_touch():
    d = Detector(settle=8)
    table = Table(noise=lambda scan, ch: 900 if (scan, ch) == (12, 3) else 0)
    assert run(d, table, 40) == []


def test_hysteresis_keeps_a_wavering_touch_one_touch():
    d = Detector(settle=8)
    wobble = {20: 0, 21: 300, 22: 150, 23: 90, 24: 250, 25: 0, 26: 0}  # extra counts on channel 9

    table = Table(noise=lambda scan, ch: wobble.get(scan, 0) if ch == 9 else 0)
    events = run(d, table, 40)
    # 300 > 3.1 % of 2063 = 64: touched at 21; 150, 90 stay above half (32); 0, 0 release it.
    assert events == [(9, True, layout.sample_us(21, 9)), (9, False, layout.sample_us(25, 9))]


def test_slow_drift_is_followed_without_a_touch():
    d = Detector(settle=8)
    table = Table(noise=lambda scan, ch: scan // 20)  # +1 count every 20 scans
    assert run(d, table, 4000) == []
    assert abs(d.base[0] // 16 - table.counts(4000)[0]) < 40


def test_a_pad_held_too_long_is_released_and_learnt():
    d = Detector(settle=8, max_on=50)
    table = Table()
    run(d, table, 8)
    table.touch(4, 0)  # a card pile put on the pad for good
    events = run(d, table, 80, start=8)
    assert [e[1] for e in events] == [True, False]
    assert run(d, table, 50, start=88) == []
