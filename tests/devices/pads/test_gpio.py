"""The slap-pad adapter on gpiozero mock pins whose edge ticks and callback delivery we control."""

from __future__ import annotations

import gc
import re
import time
from pathlib import Path

import pytest
from gpiozero import Button, GPIOPinInUse, InputDevice
from gpiozero.pins.mock import MockFactory, MockPin, PinState
from gpiozero.pins.pi import PiPin

from companion.devices.pads.gpio import (
    PadTouch,
    SimulatedSlapPads,
    SlapPads,
)
from companion.devices.pinmap import Pad, PinMapError, check_layout, load_default
from companion.games.gobbit.engine.cards import parse_card
from companion.games.gobbit.engine.judge import Situation, Touch, judge
from companion.inputs.pads import PadReleased, PadStuck

ROOT = Path(__file__).resolve().parents[3]


class HeldPin(MockPin):
    """A mock pin whose edges take the factory's clock and whose callbacks can be held back."""

    def __init__(self, factory, info):
        self.forced: bool | None = None
        super().__init__(factory, info)

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.forced is not None:  # a push-pull output overrides the pull resistor
            self._state = self.forced

    def _change_state(self, value):
        if self._state != value:
            t = self._factory.now
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self._last_change = t
            return True
        return False

    def _call_when_changed(self):
        ticks, state = self._last_change, self._state
        if self._factory.hold:
            self._factory.held.append((self, ticks, state))
        else:
            PiPin._call_when_changed(self, ticks, state)


class ClockFactory(MockFactory):
    """MockFactory with a clock the test sets: edges are stamped with it; callbacks may wait."""

    def __init__(self):
        super().__init__(pin_class=HeldPin)
        self.now = 1000.0
        self.hold = False
        self.held: list = []

    def ticks(self):
        return self.now

    def deliver(self, order=None):
        """Run the held callbacks (in ``order``, indices into the held list), late."""
        items, self.held = self.held, []
        for i in (order if order is not None else range(len(items))):
            pin, ticks, state = items[i]
            PiPin._call_when_changed(pin, ticks, state)


class WrappingFactory(ClockFactory):
    """Like pigpio: ticks are 32-bit microseconds and ticks_diff is always positive."""

    def ticks(self):
        return int(self.now * 1e6) % 2**32

    def ticks_diff(self, later, earlier):
        return ((later - earlier) % 2**32) / 1e6


class WrappingPin(HeldPin):
    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self._last_change = int(self._last_change * 1e6) % 2**32
        return changed


PADS = {Pad(1, 1): 17, Pad(1, 2): 27, Pad(1, "g"): 22,
        Pad(2, 1): 23, Pad(2, 2): 24, Pad(2, "g"): 25}


def make(factory=None, **kwargs):
    factory = factory or ClockFactory()
    events: list = []
    pads = SlapPads(PADS, events.append, pin_factory=factory, **kwargs)
    return factory, pads, events


def press(factory, pads, pad, at):
    factory.now = at
    pads.device(pad).pin.drive_high()


def release(factory, pads, pad, at):
    factory.now = at
    pads.device(pad).pin.drive_low()


# --- timing ----------------------------------------------------------------------------


def test_touches_1_ms_apart_keep_their_order_when_callbacks_come_100_ms_late_and_reversed():
    factory, pads, events = make()
    factory.hold = True
    press(factory, pads, Pad(1, 2), 10.000)  # seat 1 attacks seat 2's pile
    press(factory, pads, Pad(2, 2), 10.001)  # seat 2 defends 1 ms later
    assert events == []
    factory.now = 10.101  # the callbacks run 100 ms after the edges...
    factory.deliver(order=[1, 0])  # ...and the later edge arrives first
    assert [e.pad for e in events] == [Pad(2, 2), Pad(1, 2)]  # arrival order: wrong
    attack, defence = sorted(events, key=lambda e: e.ms)
    assert (attack.pad, defence.pad) == (Pad(1, 2), Pad(2, 2))
    assert defence.ms - attack.ms == pytest.approx(1.0, abs=1e-6)
    assert (attack.tick, defence.tick) == (10.000, 10.001)  # edge ticks, not 10.101
    assert pads.ms_between(defence, attack) == pytest.approx(1.0, abs=1e-6)
    # the judge, fed from the pads, gives the pile to the attacker
    sit = Situation(tops={1: parse_card("Sb"), 2: parse_card("Cb")},
                    touches=tuple(Touch(e.seat, e.target, e.ms) for e in events))
    assert judge(sit).to_json()["piles"] == {"2": 1}
    pads.close()


def test_real_time_delay_with_the_stock_mock_factory():
    factory = MockFactory(pin_class=HeldPinRealTime)
    events: list = []
    pads = SlapPads(PADS, events.append, pin_factory=factory)
    HeldPinRealTime.hold = True
    try:
        pads.device(Pad(1, "g")).pin.drive_high()
        time.sleep(0.002)
        pads.device(Pad(2, "g")).pin.drive_high()
        time.sleep(0.1)
        for pin, ticks, state in reversed(HeldPinRealTime.held):
            PiPin._call_when_changed(pin, ticks, state)
    finally:
        HeldPinRealTime.hold = False
        HeldPinRealTime.held.clear()
    first = min(events, key=lambda e: e.ms)
    assert first.pad == Pad(1, "g") and events[0].pad == Pad(2, "g")
    assert 1.5 <= max(e.ms for e in events) - first.ms < 50  # ms between edges, not callbacks
    pads.close()


class HeldPinRealTime(MockPin):
    hold = False
    held: list = []

    def _call_when_changed(self):
        if HeldPinRealTime.hold:
            HeldPinRealTime.held.append((self, self._last_change, self._state))
        else:
            super()._call_when_changed()


def test_ordering_survives_a_tick_counter_that_wraps():
    factory = WrappingFactory()
    factory.pin_class = WrappingPin
    events: list = []
    pads = SlapPads(PADS, events.append, pin_factory=factory)
    factory.hold = True
    wrap_s = 2**32 / 1e6
    press(factory, pads, Pad(1, 1), wrap_s - 0.0005)  # just before the counter wraps
    press(factory, pads, Pad(2, 1), wrap_s + 0.0003)  # just after
    factory.deliver(order=[1, 0])
    by_ms = sorted(events, key=lambda e: e.ms)
    assert [e.pad for e in by_ms] == [Pad(1, 1), Pad(2, 1)]
    assert by_ms[1].ms - by_ms[0].ms == pytest.approx(0.8, abs=0.01)
    pads.close()


# --- chatter ---------------------------------------------------------------------------------


def test_chatter_within_a_few_ms_is_one_touch():
    factory, pads, events = make(chatter_ms=10)
    pad = Pad(1, 2)
    press(factory, pads, pad, 1.0000)
    release(factory, pads, pad, 1.0005)  # contact bounce on the way in
    press(factory, pads, pad, 1.0010)
    release(factory, pads, pad, 1.0600)
    press(factory, pads, pad, 1.0620)  # bounce on the way out
    release(factory, pads, pad, 1.0630)
    assert [type(e) for e in events] == [PadTouch]
    assert events[0].tick == 1.0
    assert pads.chatter_count == 2
    press(factory, pads, pad, 1.2000)  # a real second slap
    assert len(events) == 2 and events[1].ms == pytest.approx(200.0)
    pads.close()


def test_without_the_filter_every_bounce_would_count():
    factory, pads, events = make(chatter_ms=0)
    pad = Pad(1, 2)
    for i in range(3):
        press(factory, pads, pad, 1.0 + i * 0.001)
        release(factory, pads, pad, 1.0005 + i * 0.001)
    assert len(events) == 3
    pads.close()


def test_edges_of_one_pad_never_go_back_in_time():
    factory, pads, events = make()
    factory.hold = True
    press(factory, pads, Pad(1, 1), 2.000)
    release(factory, pads, Pad(1, 1), 2.050)
    factory.deliver(order=[1, 0])  # impossible from the kernel; the stale press is dropped
    assert events == [] and pads.stale_count == 1
    pads.close()


# --- stuck pads -------------------------------------------------------------------------------


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_a_stuck_pad_is_reported_once_ignored_and_released():
    clock = FakeClock()
    factory, pads, events = make(stuck_after_s=5.0, clock=clock)
    pad = Pad(2, "g")
    press(factory, pads, pad, 1.0)
    assert [type(e) for e in events] == [PadTouch]
    clock.t = 4.9
    pads.poll()
    assert len(events) == 1 and pads.stuck == frozenset()
    clock.t = 5.0
    pads.poll()
    pads.poll()
    assert events[1:] == [PadStuck(2, "g")] and pads.stuck == {pad}
    press(factory, pads, Pad(1, 1), 7.0)  # the other pads still work
    assert events[-1].pad == Pad(1, 1)
    release(factory, pads, pad, 8.0)
    assert events[-1] == PadReleased(2, "g") and pads.stuck == frozenset()
    press(factory, pads, pad, 9.0)
    assert isinstance(events[-1], PadTouch) and events[-1].pad == pad
    pads.close()


def test_a_pad_active_at_start_gives_no_touch_and_becomes_stuck():
    clock = FakeClock()
    factory = ClockFactory()
    factory.pin(17).forced = True  # the module holds its output high from power-up
    events: list = []
    pads = SlapPads(PADS, events.append, pin_factory=factory, clock=clock)
    assert events == []
    clock.t = 6.0
    pads.poll()
    assert events == [PadStuck(1, 1)]
    pads.close()


def test_active_low_modules():
    factory, pads, events = make(active_high=False)
    release(factory, pads, Pad(1, "g"), 3.0)  # active low: pulling the line low is a touch
    assert [e.pad for e in events] == [Pad(1, "g")]
    pads.close()


# --- construction -----------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_from_the_pin_map_every_pad_has_its_pin(seats):
    pm = load_default()
    factory = ClockFactory()
    events: list = []
    with SlapPads.from_pinmap(pm, seats, events.append, pin_factory=factory) as pads:
        assert set(pads.pads) == set(pm.pads[seats])
        for pad, pin in pm.pads[seats].items():
            assert pads.device(pad).pin.info.name == f"GPIO{pin}"
        for i, pad in enumerate(sorted(pads.pads, key=lambda p: p.key)):
            press(factory, pads, pad, 1.0 + i / 1000)
        assert sorted(e.pad.key for e in events) == sorted(p.key for p in pm.pads[seats])


def test_missing_seat_count_and_shared_pins_are_refused():
    with pytest.raises(PinMapError, match="5 seats"):
        SlapPads.from_pinmap(load_default(), 5, print, pin_factory=ClockFactory())
    with pytest.raises(PinMapError, match="share"):
        SlapPads({Pad(1, 1): 17, Pad(1, 2): 17}, print, pin_factory=ClockFactory())
    with pytest.raises(ValueError):
        SlapPads(PADS, print, pin_factory=ClockFactory(), stuck_after_s=0)


def test_close_frees_the_pins_for_the_next_adapter():
    factory, pads, _ = make()
    pads.close()
    again = SlapPads(PADS, print, pin_factory=factory)
    again.close()


def test_simulated_pads_tap_through_the_same_adapter():
    events: list = []
    with SimulatedSlapPads(load_default().pads[3], events.append) as sim:
        sim.tap(Pad(3, 1))
        sim.press(Pad(2, "g"))
        sim.release(Pad(2, "g"))
    assert [e.pad for e in events] == [Pad(3, 1), Pad(2, "g")]
    assert events[1].ms >= events[0].ms >= 0


@pytest.mark.parametrize(("active_high", "pull"), [(True, "down"), (False, "up")])
def test_every_pad_is_a_gpiozero_input_device_with_its_pin_set_up_through_the_public_api(
        active_high, pull):
    factory, pads, events = make(active_high=active_high)
    for pad, number in PADS.items():
        line = pads.device(pad)
        assert type(line.device) is InputDevice  # gpiozero's own device: its reservation rules
        assert line.device.pin_factory is factory
        assert line.pin is factory.pin(number)
        assert line.device.pull_up is (not active_high)
        assert (line.pin.function, line.pin.pull) == ("input", pull)
        assert (line.pin.edges, line.pin.bounce) == ("both", None)
        assert line.pin.when_changed == line.changed
    gc.collect()  # the pin holds its callback weakly: the adapter must keep it alive
    (release if active_high is False else press)(factory, pads, Pad(2, 1), 1.0)
    assert [e.pad for e in events] == [Pad(2, 1)]
    first = pads.device(Pad(1, 1))
    pads.close()
    assert factory.pin(17).when_changed is None
    assert first.device.closed and first.pin is None and not first.is_active


def test_a_pin_held_by_a_button_is_refused_and_the_pads_taken_so_far_are_freed():
    factory = ClockFactory()
    button = Button(24, pin_factory=factory)
    with pytest.raises(GPIOPinInUse, match=r"slap pad 2>2 cannot have GPIO24: .*Button"):
        SlapPads(PADS, print, pin_factory=factory)
    assert factory.pin(17).when_changed is None  # the pads before it were let go
    button.close()
    with SlapPads(PADS, print, pin_factory=factory) as pads:
        with pytest.raises(GPIOPinInUse, match=r"GPIO17 is already in use by .*InputDevice"):
            Button(17, pin_factory=factory)
        with pytest.raises(GPIOPinInUse, match=r"slap pad 1>1 cannot have GPIO17"):
            SlapPads({Pad(1, 1): 17}, print, pin_factory=factory)  # nor a second reader
        assert pads.device(Pad(1, 1)).pin.when_changed is not None
    Button(17, pin_factory=factory).close()  # free again after close


def test_gpiozero_keeps_its_own_state_in_step():
    factory, pads, _ = make()
    press(factory, pads, Pad(1, 1), 1.0)
    assert pads.device(Pad(1, 1)).is_active
    pads.close()


# --- the pad layout documentation ------------------------------------------------------------


def test_hardware_pads_md_tables_match_the_pin_map():
    text = (ROOT / "hardware" / "guide" / "pads.md").read_text("utf-8")
    pm = load_default()
    for seats in (2, 3, 4):
        section = text.split(f"<!-- pads {seats} -->")[1].split("<!-- end -->")[0]
        found = {}
        for line in section.splitlines():
            m = re.match(r"\|\s*seat (\d)\s*\|(.*)\|\s*$", line)
            if m:
                cells = [c.strip() for c in m.group(2).split("|")]
                targets = [*range(1, seats + 1), "g"]
                for target, cell in zip(targets, cells, strict=True):
                    found[Pad(int(m.group(1)), target)] = int(cell.removeprefix("GPIO"))
        assert found == pm.pads[seats], seats


def test_three_seats_leave_room_for_five_buttons_and_the_dice_uart():
    # hardware/guide/pads.md claims it; the header check proves it.
    check_layout(load_default().layout(seats=3, extra_buttons=True, dice_uart=True))


def test_four_seats_take_every_free_gpio():
    pm = load_default()
    used = set(pm.layout(seats=4).values())
    header = set(range(2, 28))
    assert header - used == set()  # 20 pads + display + 3 buttons + buzzer = 26 GPIOs
    assert len(pm.pads[4]) == 20


def test_calibrated_offsets_are_subtracted_from_every_touch():
    f = ClockFactory()
    got: list = []
    pads = SlapPads({Pad(1, 1): 17, Pad(2, 1): 27}, got.append, pin_factory=f,
                    offsets={Pad(2, 1): 12.5})
    for pad, at in ((Pad(1, 1), 10.000), (Pad(2, 1), 10.020)):
        f.now = at
        pads.device(pad).pin.drive_high()
    assert [round(e.ms, 6) for e in got] == [0.0, 7.5]  # 20 ms apart, 12.5 of it pad 2's own delay
    pads.set_offsets({})
    for pad in (Pad(1, 1), Pad(2, 1)):
        f.now += 0.5
        pads.device(pad).pin.drive_low()
    f.now = 12.0
    pads.device(Pad(2, 1)).pin.drive_high()
    assert round(got[-1].ms, 6) == 2000.0 and got[-1].tick == 12.0  # the tick is never changed
    pads.close()
