from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import Buttons
from companion.inputs.events import ButtonPress

PINS = {"left": 5, "select": 6, "right": 13}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


def collect(factory, long_press=0.2):
    got: list[ButtonPress] = []
    lock = threading.Lock()

    def post(ev):
        with lock:
            got.append(ev)

    return Buttons(PINS, post, long_press=long_press, bounce=None, pin_factory=factory), got


def wait_for(pred, timeout=2.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return False


def test_a_short_press_is_reported_on_release(factory):
    buttons, got = collect(factory)
    pin = factory.pin(6)
    pin.drive_low()
    assert got == []
    pin.drive_high()
    assert wait_for(lambda: got == [ButtonPress("select")])
    buttons.close()


def test_a_long_press_is_reported_once_while_held_and_its_release_is_swallowed(factory):
    buttons, got = collect(factory, long_press=0.15)
    pin = factory.pin(6)
    pin.drive_low()
    assert wait_for(lambda: got == [ButtonPress("select", long=True)])
    pin.drive_high()
    time.sleep(0.1)
    assert got == [ButtonPress("select", long=True)]
    buttons.close()


def test_each_button_reports_its_own_name(factory):
    buttons, got = collect(factory)
    for pin in (5, 13):
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    assert wait_for(lambda: got == [ButtonPress("left"), ButtonPress("right")])
    buttons.close()


def test_buttons_use_pull_ups_and_are_idle_high(factory):
    buttons, _ = collect(factory)
    assert all(b.pull_up for b in buttons.buttons.values())
    assert not any(b.is_pressed for b in buttons.buttons.values())
    buttons.close()


def test_presses_during_a_long_press_follow_it_in_order(factory):
    """◀ ▶ pressed while ● is held for the menu are not dropped nor reported before the menu
    opens: they come after the long press, in the order they were pressed."""
    buttons, got = collect(factory, long_press=0.2)
    select, right, left = factory.pin(6), factory.pin(13), factory.pin(5)
    select.drive_low()
    for pin in (right, right, left):
        pin.drive_low()
        pin.drive_high()
    assert got == []  # waiting for ● to be decided
    assert wait_for(lambda: len(got) == 4)
    assert got == [ButtonPress("select", long=True), ButtonPress("right"), ButtonPress("right"),
                   ButtonPress("left")]
    select.drive_high()
    time.sleep(0.05)
    assert len(got) == 4  # the release of a long press is swallowed
    buttons.close()


def test_a_short_press_keeps_its_place_before_presses_made_while_it_was_down(factory):
    buttons, got = collect(factory, long_press=0.5)
    select, right = factory.pin(6), factory.pin(13)
    select.drive_low()
    right.drive_low()
    right.drive_high()
    select.drive_high()  # released before the long-press time: a short ●, first
    assert wait_for(lambda: len(got) == 2)
    assert got == [ButtonPress("select"), ButtonPress("right")]
    time.sleep(0.6)
    assert len(got) == 2
    buttons.close()


def test_a_held_arrow_runs_faster_and_faster_and_stops_when_released(factory):
    got: list[tuple[float, ButtonPress]] = []
    buttons = Buttons(PINS, lambda ev: got.append((time.monotonic(), ev)), long_press=0.2,
                      bounce=None, pin_factory=factory, repeat_delay=0.3)
    pin = factory.pin(13)
    start = time.monotonic()
    pin.drive_low()
    time.sleep(2.0)
    pin.drive_high()
    released = len(got)
    time.sleep(0.3)
    assert len(got) == released  # nothing after the release, and the release is swallowed
    assert all(ev == ButtonPress("right") for _, ev in got)  # no long press
    assert got[0][0] - start >= 0.28
    gaps = [b - a for (a, _), (b, _) in zip(got, got[1:], strict=False)]
    assert 10 <= len(got) <= 30
    assert sum(gaps[-4:]) / 4 < gaps[0] / 2  # it speeds up
    buttons.close()


def test_a_short_arrow_press_is_one_step(factory):
    buttons, got = collect(factory)
    pin = factory.pin(5)
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    assert wait_for(lambda: got == [ButtonPress("left")])
    time.sleep(0.5)
    assert got == [ButtonPress("left")]
    buttons.close()


def test_the_gaps_shrink_to_the_shortest():
    from itertools import islice

    from companion.devices.buttons import FIRST_GAP, SHORTEST_GAP, repeat_gaps

    gaps = list(islice(repeat_gaps(), 30))
    assert gaps[0] == FIRST_GAP and gaps[-1] == SHORTEST_GAP
    assert all(a >= b for a, b in zip(gaps, gaps[1:], strict=False))
