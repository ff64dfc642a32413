"""The pad hub's circuit (hardware/boards/padhub.py) against the hub firmware's pin
constants (firmware/padhub/main.py, the UART pins of firmware/lib/tablestreams.py) and its
layout (firmware/padhub/padhub/layout.py): 0 mismatches."""

from __future__ import annotations

import re

from boards import padhub
from boards.parts import PICO_NAMES

from tests.hardware.conftest import ROOT
from tests.hardware.fwpins import constants

MAIN = constants(ROOT / "firmware" / "padhub" / "main.py")
LAYOUT = constants(ROOT / "firmware" / "padhub" / "padhub" / "layout.py")


def gp_net(gp: int) -> str | None:
    num = next(str(n) for n, name in PICO_NAMES.items() if name == f"GP{gp}")
    return padhub.circuit().ref("U1").nets.get(num)


def firmware_pins() -> dict[str, int]:
    pins = {"STROBE_PIN": MAIN["STROBE_PIN"]}
    for k in range(3):
        pins["ADDRESS_PIN" + (f"+{k}" if k else "")] = MAIN["ADDRESS_PIN"] + k  # type: ignore[operator]
    for i, gp in enumerate(MAIN["SENSE_PINS"]):  # type: ignore[arg-type]
        pins[f"SENSE_PINS[{i}]"] = gp
    text = (ROOT / "firmware" / "lib" / "tablestreams.py").read_text()
    uart = re.search(r"UART\(0,.*tx=machine\.Pin\((\d+)\), rx=machine\.Pin\((\d+)\)", text)
    assert uart, "tablestreams.py no longer opens UART0 with explicit pins"
    pins["UART0 TX"], pins["UART0 RX"] = int(uart.group(1)), int(uart.group(2))
    return pins


def test_every_firmware_pin_is_its_net_on_the_board() -> None:
    mismatches = []
    for name, gp in firmware_pins().items():
        board_gp, net = padhub.FIRMWARE_NETS[name]
        if board_gp != gp or gp_net(gp) != net:
            mismatches.append(f"{name}: firmware GP{gp}, board GP{board_gp} carries {gp_net(gp)}")
    assert mismatches == []
    assert set(padhub.FIRMWARE_NETS) == set(firmware_pins())


def test_no_other_gpio_carries_a_signal() -> None:
    used = {gp for gp, _ in padhub.FIRMWARE_NETS.values()}
    u1 = padhub.circuit().ref("U1").nets
    for num, name in PICO_NAMES.items():
        if name.startswith("GP") and int(name[2:]) not in used:
            assert u1.get(str(num)) == "NC", name


def test_one_island_per_multiplexer_each_with_its_charge_resistor() -> None:
    c = padhub.circuit()
    assert len(padhub.ISLANDS) == LAYOUT["MUXES"] == len(MAIN["SENSE_PINS"])  # type: ignore[arg-type]
    nets = c.nets()
    for isl in padhub.ISLANDS:
        on = {c.ref(r).part.key for r, _ in nets[f"Z_{isl}"]}
        assert on == {"pico", "r_390k", "xh6", "tpd4e"}, (isl, on)
        resistor = next(r for r, _ in nets[f"Z_{isl}"] if r.startswith("R"))
        assert c.ref(resistor).part.value == "390k"
        assert "3V3" in c.ref(resistor).nets.values()


def test_every_line_to_an_island_has_esd_and_the_power_a_fuse() -> None:
    c = padhub.circuit()
    nets = c.nets()
    leaving = {net for i in c.instances if i.part.key == "xh6" for net in i.nets.values()} - {"GND"}
    for net in leaving:
        assert any(c.ref(r).part.key == "tpd4e" for r, _ in nets[net]), net
    assert any(c.ref(r).part.key.startswith("ptc") for r, _ in nets["3V3_ISL"])
    # the HAT's 5 V reaches VSYS only through the Schottky: the Pico cannot feed the Pi
    vsys = {c.ref(r).part.key for r, _ in nets["VSYS"]}
    assert "schottky" in vsys and "xh4" not in vsys
