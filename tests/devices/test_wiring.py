"""The wiring diagrams are drawn from the pin map, and hardware/guide/wiring/ holds them as drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from companion.cli import main
from companion.devices.pinmap import LAYOUTS, load_default
from companion.devices.wiring import drawings, slug, svg

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"


def test_the_drawings_in_hardware_wiring_are_the_pin_maps():
    made = drawings(load_default())
    folder = ROOT / "hardware" / "guide" / "wiring"
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(made)
    for name, text in made.items():
        assert (folder / name).read_text("utf-8") == text, name


def test_every_wired_line_and_its_power_is_labelled_next_to_its_pin():
    pm = load_default()
    title, opts = LAYOUTS[4]  # slap pads, 4 seats
    tree = ET.fromstring(svg(pm, title, opts))  # well-formed XML: ">" escaped in "1>1"
    texts = [t.text or "" for t in tree.iter(f"{NS}text")]
    for name, pin in pm.layout(**opts).items():
        assert any(t.startswith(f"{name} (GPIO{pin})") for t in texts), name
    assert "3V3 → pads" in texts and "GND → buttons" in texts and "5V → buzzer" in texts
    assert "pads.4.2>g (GPIO14) · 1 kΩ" in texts


def test_file_names_are_plain():
    assert slug("Člověče / napij se, dice on USB, five buttons") == (
        "clovece-napij-se-dice-on-usb-five-buttons")
    assert slug("Slap pads, 2 seats, five buttons") == "slap-pads-2-seats-five-buttons"


def test_companion_pins_writes_them(tmp_path, capsys):
    assert main(["pins", "--svg", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("*.svg"))) == len(LAYOUTS) + 1  # and the no-solder box
    assert main(["pins", "--svg", str(tmp_path / "nothing")]) == 2
    assert "needs an existing folder" in capsys.readouterr().err
