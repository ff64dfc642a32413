from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware.buzzer import PATTERNS, Buzzer


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


def test_each_pattern_beeps_its_number_of_times(factory):
    for name, (_on, _off, n) in PATTERNS.items():
        pin = factory.pin(18)
        buzzer = Buzzer(18, factory)
        pin.clear_states()
        buzzer.play(name)
        time.sleep(sum(PATTERNS[name][:2]) * n + 0.2)
        highs = [s for s in pin.states if s.state]
        assert len(highs) == n, name
        buzzer.close()


def test_an_unknown_pattern_is_a_programming_error(factory):
    buzzer = Buzzer(18, factory)
    with pytest.raises(ValueError):
        buzzer.play("fanfare")
    buzzer.close()


def test_the_listener_hears_every_pattern(factory):
    heard = []
    buzzer = Buzzer(18, factory, listener=heard.append)
    buzzer.play("six")
    assert heard == ["six"] and buzzer.played == ["six"]
    buzzer.close()
