"""The die's circuit (hardware/boards/dice.py) against the dice firmware's pins, and the
charge current its programming resistor sets."""

from __future__ import annotations

from boards import dice, erc
from boards.parts import PICO_NAMES

from tests.hardware.conftest import ROOT
from tests.hardware.fwpins import constants

MAIN = constants(ROOT / "firmware" / "dice" / "main.py")


def gp_net(gp: int) -> str | None:
    num = next(str(n) for n, name in PICO_NAMES.items() if name == f"GP{gp}")
    return dice.circuit().ref("U1").nets.get(num)


def test_imu_and_pips_on_the_firmware_pins() -> None:
    assert gp_net(MAIN["I2C_SDA"]) == "I2C_SDA"  # type: ignore[arg-type]
    assert gp_net(MAIN["I2C_SCL"]) == "I2C_SCL"  # type: ignore[arg-type]
    assert [gp_net(p) for p in MAIN["LED_PINS"]] == [f"PIP{k}" for k in range(7)]  # type: ignore[attr-defined]
    adxl = constants(ROOT / "firmware" / "dice" / "dice" / "adxl345.py")
    sdo = dice.circuit().ref("U2").nets["12"]
    assert (adxl.get("ADDRESS"), sdo) in ((0x53, "GND"), (0x1D, "3V3"))


def test_the_cell_divider_is_where_the_firmware_reads_it() -> None:
    """The firmware reads the switched cell through two equal resistors on GP28 (ADC2)
    when it names CELL_ADC; an older firmware reading VSYS/3 on GP29 needs no parts."""
    c = dice.circuit()
    if "CELL_ADC" not in MAIN:
        assert MAIN.get("VSYS_ADC") == 29
        return
    assert MAIN["CELL_ADC"] == dice.CELL_ADC and gp_net(dice.CELL_ADC) == "CELL_SENSE"
    top, bottom = (c.ref(r) for r in ("R5", "R6"))
    assert top.part.value == bottom.part.value
    assert MAIN.get("CELL_DIVIDER", 2) == 2
    assert set(top.nets.values()) == {"BAT_SW", "CELL_SENSE"}


def test_charges_at_half_c_or_less() -> None:
    c = dice.circuit()
    prog = next(i for i in c.instances if "PROG" in i.nets.values() and i.ref.startswith("R"))
    kohm = float(prog.part.value.rstrip("k"))
    assert 1000 / kohm <= 0.5 * dice.CELL_MAH
    assert erc.check(c) == []
