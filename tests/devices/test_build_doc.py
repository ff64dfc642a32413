"""hardware/guide/build.md: every header pin it names is that pin (the header's own table), and every
bill of materials adds up to its total."""

from __future__ import annotations

import re
from pathlib import Path

from companion.devices.header import BCM_TO_PHYSICAL, POWER_AND_GROUND
from companion.devices.pinmap import load_default

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "hardware" / "guide" / "build.md").read_text("utf-8")


def test_every_pin_named_with_what_it_carries_is_right():
    named = re.findall(r"\b(\d{1,2}) \((GPIO\d+|3V3|5V|GND)(?:,[^)]*)?\)", TEXT)
    assert len(named) > 20
    for pin, what in named:
        physical = int(pin)
        if what.startswith("GPIO"):
            assert BCM_TO_PHYSICAL[int(what[4:])] == physical, (pin, what)
        else:
            assert POWER_AND_GROUND[physical] == what, (pin, what)


def test_the_power_pins_are_the_pin_maps():
    parts = load_default().parts
    assert "| VCC | 1 (3V3)" in TEXT and parts["display"].vcc == 1
    assert f"| transducer + | {parts['buzzer'].vcc} (5V)" in TEXT
    assert f"{parts['pads'].vcc} (3V3): their output swings" in TEXT


def tables() -> list[list[list[str]]]:
    out, current = [], []
    for line in TEXT.splitlines():
        if line.startswith("|"):
            current.append([c.strip() for c in line.strip("|").split("|")])
        elif current:
            out.append(current)
            current = []
    return out


def test_every_bill_of_materials_adds_up_to_its_total():
    checked = 0
    for table in tables():
        if table[0][:2] != ["part", "common order code or module name"]:
            continue
        rows = table[2:]
        totals = [r for r in rows if r[0].startswith("**total")]
        if not totals:
            continue
        priced = [float(re.search(r"€([\d.]+)", r[3]).group(1)) for r in rows
                  if not r[0].startswith("**total")]
        total = float(re.search(r"€([\d.]+)", totals[0][3]).group(1))
        assert abs(sum(priced) - total) <= 0.5, (table[2][0], sum(priced), total)
        checked += 1
    assert checked == 5  # the box, the two dice, the two kinds of pads
