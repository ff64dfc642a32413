"""``companion doctor`` against the simulated twins: a whole box, then a box with parts missing;
one sentence a finding."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy

from companion.cli import main
from companion.commands.doctor import PARTS, Doctor
from companion.devices.display import DisplayError
from companion.devices.voice import SilentAnnouncer, VoiceStatus
from companion.dice.sim import SimulatedDice
from companion.service.config import Config

from ..devices.fake_pi import pi4


class Hands:
    """The person at the box: presses what is asked (except ``dead`` buttons) and touches
    every pad (except ``dead`` ones), a little after the prompt."""

    def __init__(self, factory, cfg, dead=()):
        self.factory = factory
        self.cfg = cfg
        self.dead = set(dead)

    def __call__(self, part, name, pin):
        if part == "buttons" and name not in self.dead:
            threading.Timer(0.05, self._press, (pin,)).start()
        elif part == "pads":
            pads = [(pad, p) for pad, p in self.cfg.pins.pads[2].items()
                    if pad.key not in self.dead]
            threading.Timer(0.05, self._touch, (pads,)).start()

    def _press(self, pin):
        p = self.factory.pin(pin)
        p.drive_low()
        p.drive_high()

    def _touch(self, pads):
        for _pad, pin in pads:
            p = self.factory.pin(pin)
            p.drive_high()
            p.drive_low()


class ModulePin(MockPWMPin):
    """A mock pin whose module drives it: a pad in ``HIGH`` reads high whatever its pull."""

    HIGH: set[int] = set()

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.info.name in {f"GPIO{n}" for n in self.HIGH}:
            self.drive_high()


class Voice(SilentAnnouncer):
    def __init__(self, status=None):
        super().__init__()
        self._status = status or VoiceStatus()


def config(tmp_path, dice_port):
    cfg = Config()
    return replace(cfg, dice=replace(cfg.dice, port=dice_port),
                   game=replace(cfg.game, seats=2),
                   service=replace(cfg.service, data_dir=str(tmp_path / "data")))


def run_doctor(cfg, factory, *, hands, answers, display=None, voice=None, root="/"):
    lines = []
    doctor = Doctor(cfg, out=lines.append, ask=lambda q: answers.get(q.split()[1], True),
                    pin_factory=factory, open_display=display or (lambda: dummy(mode="1")),
                    announcer=voice or Voice(), system_root=str(root), press_timeout=0.5,
                    link_timeout=4.0, touch_timeout=1.0, prompted=hands)
    return doctor.run(PARTS), lines


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


def test_a_whole_box_passes_every_check(tmp_path, factory):
    dice = SimulatedDice(seed=3)
    try:
        cfg = config(tmp_path, dice.path)
        findings, lines = run_doctor(cfg, factory, hands=Hands(factory, cfg), answers={},
                                     root=pi4(tmp_path / "pi"))
    finally:
        dice.close()
    wrong = [f.line() for f in findings if not f.ok]
    assert wrong == []
    parts = [f.part for f in findings]
    assert parts == ["pins", "panel", "buttons", "buttons", "buttons", "buzzer", "dice", "pads",
                     "voice"]
    assert any(line.startswith("Press ◀ (GPIO5, header pin 29)") for line in lines)
    assert any(f.sentence.startswith("The dice sim (firmware ") for f in findings)
    assert findings[-2].sentence == "All 6 pads report a touch."
    assert all(line.count(".") >= 1 for line in lines if line.startswith(("ok ", "FIX")))


def test_a_box_with_parts_missing_names_each_one_sentence_each(tmp_path):
    cfg = config(tmp_path, str(tmp_path / "no-dice"))
    ModulePin.HIGH = {cfg.pins.pads[2][next(p for p in cfg.pins.pads[2] if p.key == "1>g")]}
    factory = MockFactory(pin_class=ModulePin)

    def no_panel():
        raise DisplayError("no panel")

    findings, _lines = run_doctor(
        cfg, factory, hands=Hands(factory, cfg, dead=("right",)),
        answers={"the": False},  # "Did the buzzer beep four times?" -> no
        display=no_panel, voice=Voice(VoiceStatus(False, "no-espeak", "espeak-ng is not "
                                                  "installed: sudo apt install espeak-ng.")),
        root=pi4(tmp_path / "pi", uart=True))
    wrong = {f.part: f.sentence for f in findings if not f.ok}
    assert wrong["panel"].startswith("No panel answers at 0x3C on I2C bus 1: check VCC to 3.3 V")
    assert wrong["buttons"].startswith("▶ did not answer in 0.5 s: check its wire to GPIO13 "
                                       "(header pin 33)")
    assert wrong["buzzer"].startswith("The buzzer is silent: check 5 V at header pin 4")
    assert wrong["dice"].startswith(f"Nothing is at {tmp_path / 'no-dice'}: plug the dice in")
    assert wrong["pads"].startswith("Pad 1>g (GPIO22, header pin 15) reads touched with nobody "
                                    "touching")
    assert wrong["voice"] == "espeak-ng is not installed: sudo apt install espeak-ng."
    assert [f.part for f in findings if f.ok] == ["pins", "buttons", "buttons"]
    factory.close()


def test_a_pad_that_never_reports_is_named_with_its_pin(tmp_path, factory):
    cfg = config(tmp_path, "")
    findings, _ = run_doctor(cfg, factory, hands=Hands(factory, cfg, dead=("2>g",)), answers={})
    pads = [f for f in findings if f.part == "pads"]
    assert [f.sentence for f in pads] == [
        "Pad 2>g never reported a touch: check its wire to GPIO25 (header pin 22) through its "
        "1 kΩ, and its module's 3.3 V and ground."]
    assert any(f.part == "dice" and f.ok and "No dice is configured" in f.sentence
               for f in findings)


def test_pins_taken_by_the_pis_interfaces_are_named(tmp_path, factory):
    cfg = config(tmp_path, "")
    cfg = replace(cfg, game=replace(cfg.game, seats=4))
    doctor = Doctor(cfg, out=lambda s: None, ask=lambda q: True, pin_factory=factory,
                    system_root=str(pi4(tmp_path / "pi", uart=True, spi=True)))
    findings = doctor.run(("pins",))
    assert len(findings) == 7 and not any(f.ok for f in findings)  # 14, 15 and SPI's 7-11


def test_the_command_refuses_an_unknown_part(capsys):
    assert main(["--config", "/dev/null", "doctor", "--only", "panel,kettle"]) == 2
    assert "--only takes pins, panel, buttons, buzzer, dice, pads, voice, not 'kettle'" in (
        capsys.readouterr().err)


def test_the_pad_hub_is_checked_by_its_raw_counts_and_a_touch_of_each_pad(tmp_path):
    from companion.devices.pads.hub import hub_pads
    from companion.devices.pads.hub_sim import SimulatedHub

    sim = SimulatedHub(seed=5)
    try:
        cfg = config(tmp_path, "")
        cfg = replace(cfg, pads=replace(cfg.pads, frontend="hub", hub_port=sim.path))
        pads = [p for p in hub_pads(2) if p.key != "2>1"]

        def hands(part, name, pin):
            if part == "pads":
                threading.Timer(0.1, lambda: [sim.tap(p) for p in pads]).start()

        doctor = Doctor(cfg, out=lambda s: None, ask=lambda q: True, seats=2, touch_timeout=2.0,
                        link_timeout=5.0, prompted=hands)
        findings = doctor.run(("pads",))
    finally:
        sim.close()
    assert [f.ok for f in findings] == [True, False]
    assert findings[0].sentence.startswith("The pad hub sim-hub sim-1.0.0 answers on ")
    assert findings[1].sentence.startswith("Pad 2>1 never reported a touch: check its wire to "
                                           "channel 1 of the hub")


@pytest.mark.parametrize(("kind", "start"), [("pixels", "The dice is a Pixels die"),
                                             ("none", "No dice is configured")])
def test_a_pixels_die_or_none_is_not_looked_for_on_a_serial_line(tmp_path, kind, start):
    cfg = config(tmp_path, "/dev/serial0")
    cfg = replace(cfg, dice=replace(cfg.dice, kind=kind))
    doctor = Doctor(cfg, out=lambda s: None, ask=lambda q: True,
                    system_root=str(pi4(tmp_path / "pi", console=True)))
    findings = doctor.run(("pins", "dice"))
    assert [f.ok for f in findings] == [True, True] and findings[-1].sentence.startswith(start)
