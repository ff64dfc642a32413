from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices.buzzer import HIGH_HZ, LOW_HZ, PATTERNS, Buzzer, steps, tone_of


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


def test_an_active_buzzer_beeps_each_pattern_its_number_of_times(factory):
    for name, (_on, _off, n) in PATTERNS.items():
        pin = factory.pin(18)
        buzzer = Buzzer(18, factory, kind="active")
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


@pytest.fixture
def pwm_factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


def test_every_pattern_keeps_a_rhythm_of_its_own():
    rhythms = {tuple(seconds for _hz, seconds in steps(name)) for name in PATTERNS}
    assert len(rhythms) == len(PATTERNS)  # distinct even on an active buzzer (no pitch)


def test_a_passive_buzzers_beeps_are_tones_within_the_transducers_band():
    for name in PATTERNS:
        beeps = [hz for hz, _ in steps(name) if hz]
        assert len(beeps) == PATTERNS[name][2]
        assert all(LOW_HZ <= hz <= HIGH_HZ for hz in beeps)  # 2400 +- 400 Hz
    assert tone_of("illegal") > tone_of("turn") > tone_of("drink-start")


def test_a_passive_buzzer_plays_square_waves_at_the_patterns_tone(pwm_factory):
    pin = pwm_factory.pin(18)
    buzzer = Buzzer(18, pwm_factory)
    assert buzzer.kind == "passive"
    pin.clear_states()
    buzzer.play("six")
    time.sleep(sum(s for _, s in steps("six")) + 0.2)
    levels = [s.state for s in pin.states]
    assert levels.count(0.5) == 2  # two beeps, each half duty: a tone, not a click
    assert pin.frequency == tone_of("six") and levels[-1] == 0
    buzzer.close()


def test_a_new_pattern_cuts_the_one_playing(pwm_factory):
    pin = pwm_factory.pin(18)
    buzzer = Buzzer(18, pwm_factory)
    buzzer.play("drink-delay")  # 0.6 s
    time.sleep(0.05)
    buzzer.play("illegal")
    assert pin.frequency == HIGH_HZ
    buzzer.close()
    assert pin.state == 0


def test_without_pwm_a_passive_buzzer_beeps_on_and_off(factory):
    pin = factory.pin(18)
    buzzer = Buzzer(18, factory)  # gpiozero's plain mock pins have no PWM
    pin.clear_states()
    buzzer.play("turn")
    time.sleep(0.3)
    assert [s.state for s in pin.states if s.state] == [True]
    buzzer.close()


def test_a_buzzer_kind_must_be_known(factory):
    with pytest.raises(ValueError, match="passive or active"):
        Buzzer(18, factory, kind="piezo")
