"""The table HAT's circuit (hardware/boards/hat.py) against the Pi's pin map
(companion/devices/pinmap.toml): every GPIO net on the 40-pin header is the pin the
service drives, and each protection part sits where the board's promises say."""

from __future__ import annotations

import tomllib

from boards import erc, hat
from boards.parts import PI_HEADER_NAMES

from tests.hardware.conftest import ROOT

PINMAP = tomllib.loads((ROOT / "companion" / "devices" / "pinmap.toml").read_text())


def header_pin(gpio: int) -> str:
    return next(str(n) for n, name in PI_HEADER_NAMES.items() if name == f"GPIO{gpio}")


def mismatches() -> list[str]:
    c = hat.circuit()
    j1 = c.ref("J1").nets
    out = []
    for (section, key), net in hat.PINMAP_NETS.items():
        gpio = PINMAP[section][key]
        got = j1.get(header_pin(gpio))
        if got != net:
            out.append(f"[{section}] {key} = GPIO{gpio}: header pin {header_pin(gpio)} is {got}, not {net}")
    claimed = {net for net in hat.PINMAP_NETS.values()}
    for num, name in PI_HEADER_NAMES.items():
        net = j1.get(str(num))
        if name.startswith("GPIO") and net not in (None, "NC") and net not in claimed:
            out.append(f"{name} carries {net}, which pinmap.toml does not name")
    return out


def test_every_gpio_net_matches_the_pin_map() -> None:
    assert mismatches() == []


def test_a_moved_pin_is_a_mismatch() -> None:
    saved = PINMAP["buttons"]["left"]
    PINMAP["buttons"]["left"] = 26
    try:
        assert mismatches() == ["[buttons] left = GPIO26: header pin 37 is NC, not BTN_LEFT"]
    finally:
        PINMAP["buttons"]["left"] = saved


def test_power_pins_are_those_the_pin_map_names() -> None:
    j1 = hat.circuit().ref("J1").nets
    for part in ("display", "buzzer", "dice_uart", "padhub_uart", "audio_i2s"):
        entry = PINMAP["parts"][part]
        assert j1[str(entry["vcc"])] == entry["supply"]
        assert j1[str(entry["gnd"])] == "GND"


def test_every_line_leaving_the_box_has_esd_a_fuse_and_series_resistors() -> None:
    c = hat.circuit()
    nets = c.nets()
    for who, conn in (("DICE", "J3"), ("HUB", "J4")):
        on = {ref for ref, _ in nets[f"5V_{who}"]}
        assert conn in on and any(r.startswith("U") for r in on)  # the ESD array's VBUS
        # the Schottky's cathode (pin 1) feeds the cable, its anode (pin 2) sits behind the PTC
        diode = next(i for i in c.instances if i.part.key == "schottky" and i.nets["1"] == f"5V_{who}")
        fuse_out = diode.nets["2"]
        assert any(c.ref(r).part.key.startswith("ptc") for r, _ in nets[fuse_out])
        for line in ("TX", "RX"):
            refs = {c.ref(r).part.key for r, _ in nets[f"{who}_{line}"]}
            assert refs == {"xh4", "r_1k", "usblc6"}, (who, line, refs)


def test_decoupling_next_to_every_ic_and_no_eeprom() -> None:
    c = hat.circuit()
    ics = [i for i in c.instances if i.ref.startswith("U")]
    caps = [i for i in c.instances if i.part.key == "c_100n"]
    assert len(caps) >= len(ics)
    j1 = c.ref("J1").nets
    assert j1["27"] == j1["28"] == "NC"  # ID_SD, ID_SC: no HAT EEPROM
    assert erc.check(c) == []


def test_buttons_are_the_three_switches_the_case_reads() -> None:
    c = hat.circuit()
    assert [c.ref(r).note for r in ("SW1", "SW2", "SW3")] == ["button ◀", "button ●", "button ▶"]
    nets = {c.ref(r).nets["1"] for r in ("SW1", "SW2", "SW3")}
    resistors = {i.nets["1"] for i in c.instances if i.nets.get("2") in nets}
    assert resistors == {"BTN_LEFT", "BTN_SELECT", "BTN_RIGHT"}
