"""The no-solder box's shopping list, pad mat and drawing, from its data file and the pin map;
hardware/no-solder.md holds the generated part as generated."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from companion.devices.nosolder import (
    BEGIN,
    END,
    generated_block,
    mat_size_mm,
    parts,
    plugged_svg,
    shopping_markdown,
    total,
)
from companion.devices.pinmap import load_default

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"


def test_hardware_no_solder_md_holds_the_generated_part_as_generated():
    text = (ROOT / "hardware" / "no-solder.md").read_text("utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    assert text[start:end] == generated_block()


def test_every_part_has_an_order_code_and_the_totals_add_up():
    listed = parts()
    assert {p.needed_for for p in listed} == {"all", "pads", "optional"}
    for p in listed:
        assert p.what and p.usd > 0 and p.qty >= 1
        assert p.url.startswith("https://") or p.shop == "any"
    box = sum(p.usd * p.qty for p in listed if p.needed_for == "all")
    assert total(("all",)) == round(box, 2)
    text = shopping_markdown()
    assert f"**{total(('all',)):.2f} USD**" in text
    assert f"**{total(('all', 'optional', 'pads')):.2f} USD**" in text


def test_the_mat_grows_with_the_seats():
    assert mat_size_mm(2) == (250, 225)  # 3 columns of 50 mm, 2 rows of 75 mm, 25 mm gaps
    assert mat_size_mm(3) == (325, 325)


def test_the_drawing_names_each_control_by_its_pin_map_pin_and_every_pad():
    pm = load_default()
    texts = [t.text or "" for t in ET.fromstring(plugged_svg(pm)).iter(f"{NS}text")]
    assert f"◀ GPIO{pm.bonnet['left']}" in texts and f"● GPIO{pm.bonnet['select']}" in texts
    assert f"A: menu GPIO{pm.bonnet['menu']}" in texts
    for key in ("1>1", "2>3", "3>g"):
        assert key in texts
    moved = dict(pm.bonnet, left=26)
    from dataclasses import replace

    assert "◀ GPIO26" in [t.text for t in ET.fromstring(
        plugged_svg(replace(pm, bonnet=moved))).iter(f"{NS}text")]
