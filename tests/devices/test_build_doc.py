"""The build guide: hardware/guide/build.md names every header pin right (the header's own table)
and every bill of materials adds up to its total; hardware/README.md and the guide give the values
the firmware and the companion use (the die's cut-off, its charge current, the pad hub's
resistor, wire and open-channel threshold, the die's radio), says what is built in for safety,
and says that nothing has been built."""

from __future__ import annotations

import re
from pathlib import Path

from companion.devices.header import BCM_TO_PHYSICAL, POWER_AND_GROUND
from companion.devices.pinmap import load_default

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "hardware" / "guide" / "build.md").read_text("utf-8")
README = (ROOT / "hardware" / "README.md").read_text("utf-8")
DICE = (ROOT / "hardware" / "guide" / "dice.md").read_text("utf-8")
PADS = (ROOT / "hardware" / "guide" / "pads.md").read_text("utf-8")
FIRMWARE = ROOT / "firmware"


def flat(text: str) -> str:
    """The text with its line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def firmware_constant(path: str, name: str) -> str:
    """A constant of a firmware file (``NAME = const(V)``, ``NAME = V`` or ``NAME = "V"``)."""
    text = (FIRMWARE / path).read_text("utf-8")
    found = re.search(rf'^{name} = (?:const\((\w+)\)|"([^"]*)"|(\w+))', text, re.M)
    assert found is not None, (path, name)
    return next(g for g in found.groups() if g is not None)


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


def test_the_guide_says_nothing_has_been_built():
    assert "**Nothing here has been built for real yet.**" in README
    assert "Nothing here has been built for real" in flat(DICE)


def volts(mv: str) -> str:
    return f"{int(mv) / 1000:.1f} V"


def test_the_cut_off_and_the_warning_are_the_firmwares():
    low, clear = firmware_constant("dice/dice/battery.py", "LOW_MV"), firmware_constant(
        "dice/dice/battery.py", "CLEAR_MV")
    cutoff = firmware_constant("dice/dice/battery.py", "CUTOFF_MV")
    empty = firmware_constant("dice/dice/battery.py", "CELL_EMPTY_MV")
    confirm = firmware_constant("dice/dice/battery.py", "CONFIRM")
    every = int(firmware_constant("dice/dice/app.py", "BATTERY_MS")) / 1000
    readme, dice = flat(README), flat(DICE)
    assert f"Below **{volts(low)}** (read while the die works)" in readme
    assert f"above {volts(clear)}" in readme
    assert f"Below **{volts(cutoff)}** for {confirm} readings in a row (one a second)" in readme
    assert every == 1
    assert f"protection ({volts(empty)})" in readme and f"cuts out at {volts(empty)}" in readme
    assert f"below **{volts(low)}** the die warns" in dice
    assert f"below **{volts(cutoff)}** five readings in a row" in dice and confirm == "5"
    assert f"does not start below {volts(low)}" in dice
    assert f"it does not start again below {volts(low)}" in readme


def test_the_charge_current_is_set_by_the_part_at_half_a_c_or_less():
    readme = flat(README)
    found = re.search(r"PROG resistor of ([\d.]+) kΩ sets I = 1000 V / \1 kΩ", readme)
    assert found is not None
    r_prog_k = float(found.group(1))
    ma = 1000 / r_prog_k  # MCP73831: I_REG = 1000 V / R_PROG
    capacity = int(re.search(r"1-cell LiPo of (\d+) mAh", readme).group(1))
    assert f"charges at **{ma:.0f} mA**" in readme
    assert f"{ma / capacity:.2f} C for a {capacity} mAh cell, within the 0.5 C" in readme
    assert ma / capacity <= 0.5
    assert f"R_PROG = {r_prog_k:g} kΩ" in flat(DICE) and f"{ma:.0f} mA" in flat(DICE)
    assert "TP4056" not in README + DICE + TEXT  # no module whose resistor must be swapped


def test_do_not_charge_unattended_is_said_where_the_builder_charges():
    charging = README[README.index("* **Charging.**"):README.index("* **Low.**")]
    assert "**Do not charge unattended.**" in charging
    assert "**Do not charge unattended**" in DICE


def test_the_test_points_bracket_their_voltages():
    rows = {r[0]: r for table in tables_of(README) for r in table[2:]
            if table[0][:2] == ["test point", "expect"]}
    assert set(rows) == {"GND (to the Pi's pin 6)", "5V", "3V3"}
    for name, nominal in (("5V", 5.0), ("3V3", 3.3)):
        low, high = map(float, re.match(r"([\d.]+) to ([\d.]+) V", rows[name][1]).groups())
        assert low < nominal < high and high - low <= 0.1 * nominal * 2 + 1e-9
    assert rows["GND (to the Pi's pin 6)"][1].startswith("0 V")


def test_the_safety_parts_are_each_named_with_where_they_are():
    rows = [r for table in tables_of(README) for r in table[2:]
            if table[0] == ["hazard", "built in", "where"]]
    built = " ".join(r[1] for r in rows)
    for part in ("protected cell", "PROG resistor", "resettable fuse (PTC)", "a diode in the 5 V",
                 "ESD protection", "warns at 3.5 V and sleeps at 3.3 V"):
        assert part in built, part
    assert all(r[2] for r in rows) and len(rows) >= 7


def test_the_pad_hub_needs_four_wires_and_says_390_kohm_everywhere():
    from companion.devices.pads import raw

    assert "**4 wires: 5 V, GND, TX, RX**" in README
    for path in [*(ROOT / "hardware").rglob("*.md"), *(FIRMWARE / "padhub").rglob("*.py")]:
        text = flat(path.read_text("utf-8"))
        assert not re.search(r"\b(3|three) wires\b", text), path
        assert "470 kOhm" not in text and "470 kΩ" not in text, path
    for path in [ROOT / "hardware/guide/pads.md", *(FIRMWARE / "padhub").rglob("*.py")]:
        text = flat(path.read_text("utf-8"))
        charge = re.findall(r"\b(\d+) (?:kOhm|kΩ)", text)
        # the charge resistor, and the largest one the window allows (449 kΩ): nothing else
        assert {int(v) for v in charge if int(v) >= 100} <= {raw.SENSE_OHMS // 1000, 449}, path
    assert "390 kOhm to 3.3 V" in flat((FIRMWARE / "padhub/main.py").read_text("utf-8"))


def test_the_open_channel_threshold_comes_from_the_wire():
    from companion.devices.pads import raw

    assert raw.WIRE_PF == raw.WIRE_PF_PER_M * raw.WIRE_M
    wire_cm = f"{raw.WIRE_M * 100:.0f} cm"
    assert f"cut to **{wire_cm}** (the open-channel check counts on the wire's own " \
           f"{raw.WIRE_PF:.1f} pF)" in flat(README)
    pads = flat(PADS)
    assert f"less than {raw.OPEN_PF:.1f} pF: its {wire_cm} wire alone adds {raw.WIRE_PF:.1f} pF" in pads
    assert f"Cut each sector's wire to its multiplexer to {wire_cm}" in pads


def test_the_dies_radio_and_cell_sense_are_the_firmwares():
    service = firmware_constant("dice/dice/ble.py", "SERVICE")
    name = firmware_constant("dice/dice/ble.py", "NAME")
    assert f"service `{service}`" in flat(DICE) and f'"{name}"' in DICE
    adc = firmware_constant("dice/main.py", "CELL_ADC")
    assert firmware_constant("dice/main.py", "CELL_DIVIDER") == "2"  # two equal resistors
    assert f"two 100 kΩ resistors that let the Pico W read the cell on **GP{adc}**" in flat(README)
    assert firmware_constant("dice/main.py", "LINK") == "ble" and '`LINK = "ble"`' in README
    assert '`[dice] kind = "ble"`' in README


def test_every_guide_link_of_the_readme_is_there():
    links = re.findall(r"\]\((guide/[^)#]*)\)", README)
    assert len(links) >= 8
    for link in links:
        assert (ROOT / "hardware" / link).exists(), link


def tables_of(text: str) -> list[list[list[str]]]:
    out, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append([c.strip() for c in line.strip("|").split("|")])
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out
