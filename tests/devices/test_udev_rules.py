"""scripts/99-companion-dice.rules tells the dice from the pad hub by the USB product string
each board's firmware sets (both show MicroPython's vendor and product ids)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "scripts" / "99-companion-dice.rules"


def firmware_product(board: str) -> str:
    text = (ROOT / "firmware" / board / "main.py").read_text("utf-8")
    match = re.search(r'^USB_PRODUCT = "([^"]+)"', text, re.M)
    assert match, board
    return match.group(1)


def rules() -> dict[str, dict[str, str]]:
    """SYMLINK -> the rule's match keys and values."""
    out = {}
    for line in RULES.read_text("utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        keys = dict(re.findall(r'(\w+(?:\{\w+\})?)[=!+]=?"([^"]*)"', line))
        out[keys["SYMLINK"]] = keys
    return out


def test_each_board_gets_its_own_name_by_its_product_string():
    r = rules()
    assert set(r) == {"companion-dice", "companion-padhub"}
    assert r["companion-dice"]["ATTRS{product}"] == firmware_product("dice") == "Companion dice"
    assert r["companion-padhub"]["ATTRS{product}"] == firmware_product("padhub")
    for rule in r.values():
        assert (rule["ATTRS{idVendor}"], rule["ATTRS{idProduct}"]) == ("2e8a", "0005")
        assert rule["GROUP"] == "dialout" and rule["MODE"] == "0660"


def test_the_products_differ():
    assert firmware_product("dice") != firmware_product("padhub")
