"""The table's devices: nothing claimed before the first frame, everything once after it,
every beep heard by the listener, and the inputs posted where the loop reads them."""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory

from companion.devices.pads.timing import TimingBook
from companion.games import playable
from companion.inputs.events import ButtonPress
from companion.service.hardware import TableHardware
from tests.service.rig import BUTTON_PINS, rig_config


class Dice:
    def __init__(self) -> None:
        self.starts = 0

    def start(self) -> None:
        self.starts += 1


def hardware_for(tmp_path, **kw):
    posted: list[object] = []
    dice = Dice()
    factory = MockFactory()
    hw = TableHardware(rig_config(tmp_path), playable(), post=posted.append, dice=dice,
                       long_when=lambda name: False, pad_timing=TimingBook("ttp223-fast"),
                       pin_factory=factory, **kw)
    return hw, dice, posted, factory


def test_nothing_is_claimed_before_start_and_start_claims_once(tmp_path):
    hw, dice, _posted, factory = hardware_for(tmp_path)
    try:
        hw.beep("turn")  # before the first frame: silent, no error
        assert hw.buzzer is None and hw.buttons is None and dice.starts == 0
        hw.start()
        buzzer, buttons = hw.buzzer, hw.buttons
        assert buzzer is not None and buttons is not None and dice.starts == 1
        hw.start()
        assert hw.buzzer is buzzer and hw.buttons is buttons and dice.starts == 1
    finally:
        hw.close()
        factory.close()


def test_every_beep_reaches_the_listener_and_a_press_reaches_the_loop(tmp_path):
    heard: list[str] = []
    hw, _dice, posted, factory = hardware_for(tmp_path, on_sound=heard.append)
    try:
        hw.start()
        hw.beep("six")
        hw.beep("win")
        assert heard == ["six", "win"]
        pin = factory.pin(BUTTON_PINS["select"])
        pin.drive_low()
        time.sleep(0.01)
        pin.drive_high()
        end = time.monotonic() + 2
        while not posted and time.monotonic() < end:
            time.sleep(0.01)
        assert posted == [ButtonPress("select")]
    finally:
        hw.close()
        factory.close()
