"""companion.devices.pads.state: the touch, chatter, offset and stuck rules both pad adapters
share, on plain numbers as edge times."""

from __future__ import annotations

import threading

import pytest

from companion.devices.pads.state import PadStates
from companion.inputs.pads import Pad, PadReleased, PadSignal, PadStuck, PadTouch

A, B = Pad(1, 2), Pad(2, "g")


class Clock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def book(**kwargs: object) -> tuple[PadStates, list[PadSignal], Clock]:
    got: list[PadSignal] = []
    clock = Clock()
    settings: dict = {"chatter_ms": 10.0, "stuck_after_s": 5.0, "offsets": None}
    settings.update(kwargs)
    states = PadStates([A, B], got.append, clock=clock, lock=threading.Lock(),
                       within_chatter=lambda later, earlier: later - earlier < 10, **settings)
    return states, got, clock


def test_a_touch_is_an_event_at_its_time_less_the_pads_offset() -> None:
    states, _, _ = book(offsets={B: 1.5})
    assert states.edge(A, 100, True, 3.0) == PadTouch(1, 2, 100, 3.0)
    assert states.edge(A, 101, True, 4.0) is None  # already touched
    assert states.edge(B, 102, True, 5.0) == PadTouch(2, "g", 102, 3.5)
    states.set_offsets({})
    states.edge(B, 200, False, 0.0)
    assert states.edge(B, 300, True, 7.0) == PadTouch(2, "g", 300, 7.0)
    assert states.edge(A, 400, False, 0.0) is None and states.edge(A, 401, False, 0.0) is None


def test_a_touch_within_the_chatter_window_of_its_release_continues_it() -> None:
    states, _, _ = book()
    states.edge(A, 100, True, 0.0)
    states.edge(A, 150, False, 0.0)
    assert states.edge(A, 159, True, 0.0) is None and states.chatter_count == 1
    states.edge(A, 170, False, 0.0)
    assert states.edge(A, 180, True, 0.0) == PadTouch(1, 2, 180, 0.0)
    states.edge(A, 190, False, 0.0)
    states.forget_releases()  # a new clock: the old release says nothing of the new times
    assert states.edge(A, 5, True, 0.0) == PadTouch(1, 2, 5, 0.0) and states.chatter_count == 1


def test_a_stuck_pad_is_reported_once_ignored_and_released() -> None:
    states, got, clock = book(stuck_after_s=5.0)
    states.edge(A, 100, True, 0.0)
    clock.now += 4.9
    states.poll()
    assert got == []
    clock.now += 0.2
    states.poll()
    states.poll()
    assert got == [PadStuck(1, 2)] and states.stuck == {A}
    assert states.edge(A, 200, False, 0.0) == PadReleased(1, 2) and states.stuck == frozenset()


def test_reset_forgets_what_every_pad_held() -> None:
    states, got, clock = book()
    states.edge(A, 100, True, 0.0)
    clock.now += 6
    states.poll()
    states.reset()
    assert states.stuck == frozenset() and not states.states[A].active
    assert states.edge(A, 300, True, 1.0) == PadTouch(1, 2, 300, 1.0)


@pytest.mark.parametrize(("setting", "value"), [("chatter_ms", -1.0), ("stuck_after_s", 0.0)])
def test_bad_settings_are_refused(setting: str, value: float) -> None:
    with pytest.raises(ValueError, match=setting):
        book(**{setting: value})
