"""A pad island's board (hardware/boards/island.py) against the hub firmware's layout:
seats' sectors on slots Y0..Y5, the reference slots open, ESD on every pad line."""

from __future__ import annotations

from boards import island

from tests.hardware.conftest import ROOT
from tests.hardware.fwpins import constants

LAYOUT = constants(ROOT / "firmware" / "padhub" / "padhub" / "layout.py")


def test_sectors_on_the_slots_the_firmware_reads() -> None:
    u1 = island.circuit().ref("U1")
    by_name = {u1.part.pins[n][0]: net for n, net in u1.nets.items()}
    assert LAYOUT["SEATS"] == 6 and LAYOUT["REFERENCE_SLOTS"] == (6, 7)
    for seat in range(1, LAYOUT["SEATS"] + 1):  # type: ignore[operator]
        assert by_name[f"Y{seat - 1}"] == f"SECTOR{seat}"
    for slot in LAYOUT["REFERENCE_SLOTS"]:  # type: ignore[union-attr]
        assert by_name[f"Y{slot}"] == "NC"
    assert by_name["E"] == by_name["VEE"] == "GND"


def test_every_pad_line_and_the_sense_line_have_esd() -> None:
    c = island.circuit()
    nets = c.nets()
    for net in [f"SECTOR{s}" for s in range(1, 7)] + ["Z"]:
        assert any(c.ref(r).part.key == "tpd4e" for r, _ in nets[net]), net
    assert any(c.ref(r).part.key == "c_100n" for r, _ in nets["3V3"])
