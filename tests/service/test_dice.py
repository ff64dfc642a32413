"""companion.service.dice: the table's dice of each kind, switching, the kept choice, the
inputs each dice's events become, the verdict reaching a Pixels die."""

from __future__ import annotations

import json

import pytest

from companion.dice.pixels.adapter import DiceCrooked, DiceLowBattery
from companion.dice.pixels.bumble_port import Air
from companion.dice.pixels.virtual import VirtualPixel
from companion.dice.reader import DiceConnected, DiceDisconnected, DiceDrop, DiceRoll
from companion.inputs.events import DiceLink, DiceNotice, Dropped, Rolled
from companion.service.dice import (
    AWAY,
    CROOKED,
    DiceChoice,
    TableDice,
    load_choice,
    save_choice,
    translate_pixels,
    translate_serial,
)
from companion.service.hosts.base import DiceStatus
from tests.dice.pixels.support import until


def test_the_serial_dice_s_events_are_the_inputs_they_always_were():
    roll, drop = translate_serial(DiceRoll(4, 7)), translate_serial(DiceDrop(8))
    assert roll == [Rolled(4, 7)] and roll[0].receipt is not None
    assert drop == [Dropped(8)] and drop[0].receipt is not None
    assert translate_serial(DiceConnected("d1", "fw")) == [DiceLink(True, "d1 fw")]
    assert translate_serial(DiceDisconnected("gone")) == [DiceLink(False, "gone")]


def test_a_pixels_die_s_events_are_the_same_inputs_and_a_line_for_the_table():
    assert translate_pixels(DiceRoll(6, 1)) == [Rolled(6, 1)]
    assert translate_pixels(DiceDisconnected("asleep or out of range")) == [
        DiceLink(False, "asleep or out of range"), DiceNotice(AWAY)]
    assert translate_pixels(DiceCrooked(2)) == [DiceNotice(CROOKED)]
    low = translate_pixels(DiceLowBattery(12))
    assert len(low) == 1 and "12 %" in low[0].line  # type: ignore[union-attr]
    assert AWAY == "Kostka spí / mimo dosah: hoď tlačítky."


def test_the_choice_is_kept_and_read_with_care(tmp_path):
    path = tmp_path / "dice.json"
    assert load_choice(path) is None
    save_choice(path, DiceChoice("pixels", "Kostka"))
    assert load_choice(path) == DiceChoice("pixels", "Kostka")
    for bad in ("{", json.dumps({"kind": "godice"}), json.dumps([1]), "x" * 5000):
        path.write_text(bad)
        assert load_choice(path) is None


def test_no_dice_and_the_configured_state():
    status = DiceStatus()
    dice = TableDice(DiceChoice("none"), serial_port="/dev/x", baudrate=115200,
                     post=print, status=status)
    assert not status.configured
    dice.start()
    assert dice.reader is None and dice.pixels is None
    TableDice(DiceChoice("serial"), serial_port="", baudrate=1, post=print, status=status)
    assert not status.configured


@pytest.fixture
def air():
    a = Air()
    yield a
    a.close()


def test_switching_to_a_pixels_die_pairs_it_keeps_it_and_blinks_verdicts(tmp_path, air):
    die = VirtualPixel(air, "Kostka", seed=1)
    posted: list[object] = []
    status = DiceStatus()
    dice = TableDice(DiceChoice("none"), serial_port="", baudrate=115200, post=posted.append,
                     status=status, choice_path=tmp_path / "dice.json",
                     pixels_port=air.central,
                     pixels_options={"backoff": 0.02, "scan_window": 0.1})
    dice.scan_start()
    assert until(lambda: dice.scan_results())
    found = dice.scan_results()[0]
    assert (found.name, found.colour, found.battery) == ("Kostka", "černá", 90)
    assert found.line == "Kostka · černá · 90 %"
    dice.scan_stop()
    dice.choose("pixels", found.name)
    assert status.configured and load_choice(tmp_path / "dice.json") == DiceChoice("pixels",
                                                                                   "Kostka")
    assert until(lambda: any(isinstance(p, DiceLink) and p.up for p in posted))
    die.roll(5)
    assert until(lambda: any(isinstance(p, Rolled) for p in posted))
    dice.verdict(5, True, 2)
    assert until(lambda: len(die.blinks) == 1) and die.blinks[0].colour == 0x00C000
    status.up = True
    dice.choose("none")
    assert DiceLink(False, "another dice was chosen") in posted and not status.configured
    again = TableDice(DiceChoice("serial"), serial_port="", baudrate=1, post=print,
                      status=DiceStatus(), choice_path=tmp_path / "dice.json")
    assert again.kind == "none"  # the table's choice wins over the configuration's
    dice.close()
    die.close()


def test_a_table_with_the_serial_dice_never_loads_bluetooth(tmp_path):
    import subprocess
    import sys

    code = f"""
import sys
from dataclasses import replace
from companion.games import playable
from companion.service.config import Config
from companion.service.app import build_app
base = Config()
cfg = replace(base, display=replace(base.display, driver="dummy"),
              service=replace(base.service, data_dir={str(tmp_path)!r}, pin_factory="mock",
                              shutdown_command=""))
app = build_app(cfg, games=playable(), dice_port="loop://")
app.start_hardware()
app.close()
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("bleak", "bumble", "dbus_fast")
                or m.startswith("companion.dice.pixels"))
print(loaded)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_our_dice_s_low_cell_is_shown_and_said_once_until_it_was_charged():
    from companion.dice.reader import DiceBattery
    from companion.service.dice import EMPTY, BatteryWatch

    watch = BatteryWatch()
    lines = [translate_serial(DiceBattery(mv), watch)
             for mv in (3900, 3480, 3460, 3520, 3590, 3440)]
    assert lines == [[], [DiceNotice("Kostce dochází baterie (3,48 V): nabij ji.")], [], [], [], []]
    assert translate_serial(DiceBattery(3610), watch) == []  # charged: it may warn again
    assert translate_serial(DiceBattery(3490), watch) != []
    assert translate_serial(DiceBattery(3250), watch) == [DiceNotice(EMPTY)]
    assert translate_serial(DiceBattery(3240), watch) == []
    assert translate_serial(DiceBattery(None), watch) == []  # on USB: charging
    assert translate_serial(DiceBattery(3450)) == []  # without a watch: only logged


def test_the_notice_thresholds_are_the_firmware_s():
    import re
    from pathlib import Path

    from companion.service import dice as table

    text = (Path(__file__).parents[2] / "firmware/dice/dice/battery.py").read_text()
    for name in ("LOW_MV", "CLEAR_MV", "CUTOFF_MV"):
        found = re.search(rf"^{name} = const\((\d+)\)", text, re.M)
        assert found is not None and int(found.group(1)) == getattr(table, name), name


def test_our_bluetooth_die_rolls_and_its_low_cell_reaches_the_table(air):
    from companion.dice.ble.bumble_port import BumbleNusPort
    from companion.dice.ble.virtual import VirtualBleDie

    die = VirtualBleDie(air, "Companion dice 0042", battery_mv=3450)
    posted: list[object] = []
    status = DiceStatus()
    dice = TableDice(DiceChoice("ble"), serial_port="", baudrate=115200, post=posted.append,
                     status=status, ble_name="Companion dice 0042",
                     ble_port=lambda: BumbleNusPort(air))
    assert status.configured
    dice.start()
    try:
        assert until(lambda: any(isinstance(p, DiceLink) and p.up for p in posted))
        assert until(lambda: DiceNotice("Kostce dochází baterie (3,45 V): nabij ji.") in posted)
        die.roll(6)
        assert until(lambda: any(isinstance(p, Rolled) and p.value == 6 for p in posted))
        rolled = next(p for p in posted if isinstance(p, Rolled))
        rolled.receipt.settle()
        assert until(lambda: die.acked == 1)  # acknowledged once the table took it
    finally:
        dice.close()
        die.close()


def test_leaving_our_wireless_die_while_it_is_looked_for_does_not_wait_for_the_scan(air):
    import time

    from companion.dice.ble.bumble_port import BumbleNusPort

    dice = TableDice(DiceChoice("ble"), serial_port="", baudrate=115200, post=lambda i: None,
                     status=DiceStatus(), ble_port=lambda: BumbleNusPort(air))
    dice.start()
    time.sleep(0.3)  # the reader is scanning (5 s) for a die that is not there
    began = time.monotonic()
    dice.choose("none")
    assert time.monotonic() - began < 1.0
    assert dice.reader is None
    dice.close()
