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
from companion.devices.pads.mpr121_sim import SimulatedMpr121Bus
from companion.devices.voice import SilentAnnouncer, VoiceStatus
from companion.dice.sim import SimulatedDice
from companion.service.config import Config
from tests.devices.fake_pi import pi4


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


def run_doctor(cfg, factory, *, hands, answers, display=None, voice=None, root="/",
               i2c=None):
    lines = []
    doctor = Doctor(cfg, out=lines.append, ask=lambda q: answers.get(q.split()[1], True),
                    pin_factory=factory, open_display=display or (lambda: dummy(mode="1")),
                    announcer=voice or Voice(), system_root=str(root), press_timeout=0.5,
                    link_timeout=4.0, touch_timeout=1.0, prompted=hands,
                    i2c_bus=i2c if i2c is not None else SimulatedMpr121Bus((), others={0x3C}))
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
    assert parts == ["pins", "i2c", "i2c", "panel", "buttons", "buttons", "buttons", "buzzer",
                     "dice", "pads", "voice"]
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
    assert [f.part for f in findings if f.ok] == ["pins", "i2c", "i2c", "buttons", "buttons"]
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
    assert "--only takes pins, i2c, panel, buttons, buzzer, dice, pads, voice, not 'kettle'" in (
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


def bonnet_config(tmp_path):
    from companion.service.pi_profiles import with_bonnet

    cfg = with_bonnet(config(tmp_path, ""))
    return replace(cfg, game=replace(cfg.game, seats=4))


class BonnetHands:
    """Presses the bonnet's controls and touches every MPR121 pad (but ``dead`` ones)."""

    def __init__(self, factory, bus, seats, dead=()):
        from companion.devices.pads.mpr121 import mpr121_pads

        self.factory, self.bus, self.dead = factory, bus, set(dead)
        self.pads = mpr121_pads(seats)

    def __call__(self, part, name, pin):
        if part == "buttons":
            threading.Timer(0.05, self._press, (pin,)).start()
        elif part == "pads":
            threading.Timer(0.05, self._touch).start()

    def _press(self, pin):
        p = self.factory.pin(pin)
        p.drive_low()
        p.drive_high()

    def _touch(self):
        for pad, where in self.pads.items():
            if pad.key not in self.dead:
                self.bus.tap(where, 60.0)


def test_the_bonnet_and_two_touch_controllers_are_recognised_and_checked(tmp_path, factory):
    bus = SimulatedMpr121Bus((0x5A, 0x5B), others={0x3C}, realtime=True, seed=2)
    cfg = bonnet_config(tmp_path)
    findings, lines = run_doctor(cfg, factory, hands=BonnetHands(factory, bus, 4, dead={"3>4"}),
                                 answers={}, i2c=bus)
    by_part = {}
    for f in findings:
        by_part.setdefault(f.part, []).append(f)
    assert [f.sentence for f in by_part["i2c"]] == [
        "On I2C bus 1: 0x3C, 0x5A, 0x5B.",
        "A panel at 0x3C and 2 MPR121 touch controllers (Gobbit's pads for up to 4 seats): this "
        "fits the no-solder box (profile bonnet). The configuration is set up for it."]
    assert any(line.startswith("Press ● (GPIO4, header pin 7)") for line in lines)
    assert any(line.startswith("Press the help button (GPIO6, header pin 31)") for line in lines)
    assert len(by_part["buttons"]) == 5 and all(f.ok for f in by_part["buttons"])
    assert by_part["buzzer"][0].sentence.startswith("The buzzer is off")
    pads = [f.sentence for f in by_part["pads"]]
    assert pads[0] == "2 MPR121 chips sense 20 pads."
    # 3>4 is the 14th pad (seat 3's fourth): the second chip's electrode 1
    assert pads[1:] == ["Pad 3>4 never reported a touch: check the crocodile clip from its "
                        "copper tape to electrode 1 of the MPR121 at 0x5B."]


def test_a_missing_touch_controller_is_named_and_the_profile_suggested(tmp_path, factory):
    bus = SimulatedMpr121Bus((0x5A,), others={0x3C})
    cfg = replace(config(tmp_path, ""), pads=replace(Config().pads, frontend="mpr121"),
                  game=replace(Config().game, seats=4))
    doctor = Doctor(cfg, out=lambda line: None, i2c_bus=bus)
    doctor.run(["i2c"])
    assert [f.line() for f in doctor.findings] == [
        "ok  i2c     On I2C bus 1: 0x3C, 0x5A.",
        "ok  i2c     A panel at 0x3C and 1 MPR121 touch controller (Gobbit's pads for up to 3 "
        "seats): this fits the no-solder box (profile bonnet). Set it up with: sudo sh "
        "scripts/setup-pi.sh --profile bonnet.",
        "FIX i2c     4 seats need 2 MPR121 chips at 0x5A, 0x5B; 0x5B does not answer: check its "
        "STEMMA QT cable and its ADDR setting (hardware/no-solder.md)."]


def test_a_bus_with_nothing_on_it_says_so(tmp_path):
    doctor = Doctor(config(tmp_path, ""), out=lambda line: None, i2c_bus=SimulatedMpr121Bus(()))
    doctor.run(["i2c"])
    assert [f.ok for f in doctor.findings] == [False, True]
    assert doctor.findings[1].sentence.startswith("No panel answers at 0x3C or 0x3D")


def test_our_wireless_die_is_found_over_bluetooth_or_named_absent_in_one_sentence(tmp_path):
    from companion.dice.ble.bumble_port import BumbleNusPort
    from companion.dice.ble.virtual import VirtualBleDie
    from companion.dice.pixels.bumble_port import Air

    air = Air()
    try:
        cfg = config(tmp_path, "")
        cfg = replace(cfg, dice=replace(cfg.dice, kind="ble"))
        doctor = Doctor(cfg, out=lambda s: None, ask=lambda q: True, link_timeout=1.0,
                        ble_port=lambda: BumbleNusPort(air))
        absent = doctor.run(("dice",))[-1]
        assert not absent.ok
        assert absent.sentence.startswith("No wireless dice was heard (no die is advertising "
                                          "within 1 s): switch it on")
        assert absent.sentence.count(". ") == 0 and absent.sentence.endswith(").")
        die = VirtualBleDie(air, "Companion dice 0007", battery_mv=3810)
        doctor = Doctor(cfg, out=lambda s: None, ask=lambda q: True, link_timeout=4.0,
                        ble_port=lambda: BumbleNusPort(air))
        found = doctor.run(("dice",))[-1]
        assert found.ok, found.sentence
        assert found.sentence == ("The wireless dice pico-virtual (firmware virtual-1.0.0) answers "
                                  "over Bluetooth; battery 3.81 V.")
        die.close()
    finally:
        air.close()
