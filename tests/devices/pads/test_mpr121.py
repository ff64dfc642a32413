"""The MPR121 pads: the chip's set-up, the pads on the electrodes, the reader's edges and
times, and the declared uncertainty against the simulated chips (no touch that far apart is
ever ordered wrong)."""

from __future__ import annotations

import pytest
from gpiozero import Button, GPIOPinInUse
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.pads import mpr121 as chip
from companion.devices.pads.mpr121 import (
    DEFAULT_SETTINGS,
    Mpr121Error,
    Mpr121Pads,
    Mpr121Settings,
    chips_for,
    init_chip,
    mpr121_pads,
    read_electrodes,
)
from companion.devices.pads.mpr121_sim import Mpr121Table, SimulatedMpr121Bus
from companion.devices.pads.sim import ClockedMockFactory
from companion.inputs.pads import Pad, PadStuck, PadTouch, table_pads


class Recorder:
    """A bus that records the writes and answers like a chip fresh from reset."""

    def __init__(self, config2=chip.CONFIG2_AFTER_RESET):
        self.writes = []
        self.config2 = config2

    def write_byte_data(self, addr, reg, value):
        self.writes.append((addr, reg, value))

    def read_byte_data(self, addr, reg):
        return self.config2

    def read_i2c_block_data(self, addr, reg, n):
        return [0] * n


def test_the_chip_is_reset_set_up_and_started_last():
    bus = Recorder()
    init_chip(bus, 0x5B)
    regs = {reg: value for _, reg, value in bus.writes}
    assert bus.writes[0] == (0x5B, chip.SOFT_RESET, chip.RESET_VALUE)
    assert bus.writes[-1] == (0x5B, chip.ECR, 0x8C)  # all twelve electrodes, tracking on
    assert regs[chip.CONFIG2] == 0x20  # 0.5 us, SFI 4, ESI 1 ms
    assert regs[chip.CONFIG1] == 0x10  # FFI 6, 16 uA
    assert regs[chip.DEBOUNCE] == 0
    assert regs[chip.TOUCH_THRESHOLD + 2 * 11] == 12 and regs[chip.TOUCH_THRESHOLD + 23] == 6


def test_a_chip_that_does_not_reset_as_an_mpr121_is_refused():
    with pytest.raises(Mpr121Error, match="does not reset as an MPR121 does"):
        init_chip(Recorder(config2=0x00), 0x5A)
    with pytest.raises(Mpr121Error, match="No MPR121 answers at 0x5C"):
        init_chip(SimulatedMpr121Bus((0x5A,)), 0x5C)


def test_settings_give_the_registers_and_the_timing():
    s = Mpr121Settings(esi_ms=2, sfi=6, ffi=10, poll_ms=1.0, read_bound_ms=3.0)
    assert s.config2 == 0x20 | 1 << 3 | 1 and s.config1 == 1 << 6 | 16
    assert s.filter_ms == 12.0 and s.uncertainty_ms() == 15.0
    with pytest.raises(ValueError, match="sampling interval"):
        Mpr121Settings(esi_ms=3)
    with pytest.raises(ValueError, match="poll period"):
        Mpr121Settings(poll_ms=5.0, read_bound_ms=4.0)


@pytest.mark.parametrize("seats, chips", [(2, 1), (3, 1), (4, 2), (5, 3), (6, 4)])
def test_the_pads_fill_the_chips_in_address_order(seats, chips):
    pads = mpr121_pads(seats)
    assert set(pads) == set(table_pads(seats)) and chips_for(seats) == chips
    assert sorted({a for a, _ in pads.values()}) == list(chip.ADDRESSES[:chips])
    assert len(set(pads.values())) == len(pads)
    assert pads[Pad(1, 1)] == (0x5A, 0)
    assert mpr121_pads(4)[Pad(3, 4)] == (0x5B, 1)  # the 14th pad


def test_more_pads_than_the_chips_hold_are_refused():
    with pytest.raises(ValueError, match="need 2 MPR121 chips, not 1"):
        mpr121_pads(4, addresses=(0x5A,))


def table(seats=4, *, seed=0, irq=False, lifts=None, settings=DEFAULT_SETTINGS, **kwargs):
    pads = mpr121_pads(seats)
    got = []
    factory = ClockedMockFactory()
    bus = SimulatedMpr121Bus.for_pads(pads, seed=seed, lifts=lifts)
    if irq:
        reader = Mpr121Pads(pads, got.append, bus, settings=settings, irq_pin=24,
                            pin_factory=factory, start=False, **kwargs)
        bus.irq_pin = factory.pin(24)
    else:
        reader = Mpr121Pads(pads, got.append, bus, settings=settings, start=False,
                            ticks=lambda: bus.now_ms / 1000.0, ticks_diff=lambda a, b: a - b,
                            **kwargs)
    t = Mpr121Table(reader, bus, poll_ms=settings.poll_ms, irq=irq,
                    set_clock=lambda s: setattr(factory, "now", s))
    t.run_until(50.0)
    return t, reader, got


def touches(got):
    return [e for e in got if isinstance(e, PadTouch)]


@pytest.mark.parametrize("irq", [False, True])
def test_a_slap_is_one_touch_timed_within_the_filter_and_the_read(irq):
    t, reader, got = table(irq=irq)
    t.slap([Pad(2, "g")], 100.0)
    t.run_until(400.0)
    t.slap([Pad(2, "g")], 500.0)  # released and touched again: a second touch
    t.run_until(900.0)
    first, second = touches(got)
    assert first.pad == Pad(2, "g")
    assert 400.0 <= second.ms - first.ms <= 400.0 + DEFAULT_SETTINGS.uncertainty_ms()
    assert reader.late_reads == 0
    if irq:
        assert reader.irq_edges >= 4  # two touches, two releases
    reader.close()


def test_the_irq_line_times_a_touch_by_its_edge_not_by_the_poll():
    # with the line wired, the read after the edge comes 0.3 ms late: the time is the edge's
    t, reader, got = table(irq=True)
    t.read_delay_ms = 0.3
    t.slap([Pad(1, 1)], 100.0)
    t.slap([Pad(1, 2)], 130.0)
    t.run_until(500.0)
    a, b = touches(got)
    assert reader.irq_edges >= 2
    assert abs((b.ms - a.ms) - 30.0) <= DEFAULT_SETTINGS.filter_ms


def test_the_irq_line_is_a_pulled_up_gpiozero_input_no_other_device_can_take():
    factory = ClockedMockFactory()
    pads = mpr121_pads(2)
    bus = SimulatedMpr121Bus.for_pads(pads)
    reader = Mpr121Pads(pads, print, bus, irq_pin=24, pin_factory=factory, start=False)
    line = factory.pin(24)
    assert (line.function, line.pull, line.edges, line.bounce) == ("input", "up", "falling", None)
    with pytest.raises(GPIOPinInUse, match="GPIO24"):
        Button(24, pin_factory=factory)
    line.drive_low()  # a chip pulls it low: a status changed
    assert reader.irq_edges == 1
    reader.close()
    assert line.when_changed is None
    Button(24, pin_factory=factory).close()  # free again after close


def test_a_pad_held_too_long_is_stuck_and_its_release_ends_it():
    clock = [0.0]
    t, reader, got = table(clock=lambda: clock[0])
    t.slap([Pad(1, "g")], 100.0)
    t.hold_ms = 10_000.0
    t.run_until(200.0)
    clock[0] = 10.0
    reader.poll()
    assert [e for e in got if isinstance(e, PadStuck)] == [PadStuck(1, "g")]


def test_a_chip_that_stops_answering_does_not_end_the_others():
    t, reader, got = table()
    t.bus._chips.pop(0x5B)  # noqa: SLF001 - the cable pulled out
    t.slap([Pad(1, 1)], 100.0)
    t.run_until(200.0)
    assert [e.pad for e in touches(got)] == [Pad(1, 1)]


def test_the_electrodes_read_lower_under_a_hand():
    t, reader, got = table(seats=2)
    t.slap([Pad(1, 2)], 100.0)
    t.run_until(110.0)
    readings = read_electrodes(t.bus, 0x5A)
    address, electrode = mpr121_pads(2)[Pad(1, 2)]
    touched = readings[electrode]
    assert touched.baseline - touched.filtered > 12
    assert all(r.baseline - r.filtered < 2 for r in readings if r.electrode != electrode)


def test_the_reader_thread_reports_a_touch_on_a_live_bus():
    import threading

    pads = mpr121_pads(2)
    bus = SimulatedMpr121Bus.for_pads(pads, realtime=True)
    seen = threading.Event()
    reader = Mpr121Pads(pads, lambda e: seen.set() if isinstance(e, PadTouch) else None, bus)
    try:
        bus.tap(pads[Pad(2, 1)])
        assert seen.wait(2.0)
    finally:
        reader.close()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), first=st.sampled_from(table_pads(6)),
       second=st.sampled_from(table_pads(6)),
       extra=st.floats(0.0, 30.0), start=st.floats(100.0, 101.0),
       lift_a=st.floats(12.5, 200.0), lift_b=st.floats(12.5, 200.0), irq=st.booleans())
def test_no_two_touches_the_declared_uncertainty_apart_are_ordered_wrong(
        seed, first, second, extra, start, lift_a, lift_b, irq):
    """Any two pads (on one chip or two, of any strength of touch just over the threshold up,
    sampled from any phase): a touch the declared figure or more after another never comes
    out first."""
    if first == second:
        return
    pads = mpr121_pads(6)
    lifts = {pads[first]: lift_a, pads[second]: lift_b}
    t, reader, got = table(6, seed=seed, irq=irq, lifts=lifts)
    gap = DEFAULT_SETTINGS.uncertainty_ms() + extra
    t.slap([first], start)
    t.slap([second], start + gap)
    t.run_until(start + gap + 200.0)
    times = {e.pad: e.ms for e in touches(got)}
    assert set(times) == {first, second}
    assert times[second] - times[first] >= 0  # equal would be a tie, never the wrong order
