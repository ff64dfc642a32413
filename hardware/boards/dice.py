"""The die's circuit (a netlist and its picture; no board yet: the parts are wired by hand
on the die's printed carrier, hardware/guide/dice.md).

A Raspberry Pi Pico W (its own Bluetooth LE radio carries the link), the ADXL345 on I2C1
(GP2 = SDA, GP3 = SCL, address 0x53: SDO to ground), the seven pip LEDs on GP10..GP16, a
protected 1-cell LiPo (500 mAh, the cell's own protection circuit), an MCP73831 charger
from the Pico W's USB 5 V, set to 196 mA (0.39 C) by its 5.1 kOhm programming resistor
(I = 1000 V / R), the power switch between the cell and VSYS (through a Schottky, so USB
and cell never meet), and the switched cell through 2 x 100 kOhm to GP28 (ADC2), which the
firmware reads (the Pico W's own VSYS/3 on GP29 is its radio's SPI clock).

The MCP73831 has no thermistor input: it limits its own die temperature (thermal
regulation); the cell's protection circuit cuts out at over-discharge, over-charge and
short circuit; at 196 mA the charger dissipates at most (5.0 - 3.0) V x 0.196 A = 0.39 W.
"""

from __future__ import annotations

from .netlist import NC, Circuit
from .parts import PICO_NAMES

I2C_SDA, I2C_SCL = 2, 3
LED_PINS = (10, 11, 12, 13, 14, 15, 16)
CELL_ADC = 28
CHARGE_MA = 1000 / 5.1  # MCP73831: I_REG = 1000 V / R_PROG (kOhm -> mA)
CELL_MAH = 500


def circuit() -> Circuit:
    c = Circuit("dice", "The die (Pico W, ADXL345, protected LiPo, MCP73831 at 0.39 C)")
    gp = {I2C_SDA: "I2C_SDA", I2C_SCL: "I2C_SCL", CELL_ADC: "CELL_SENSE",
          **{p: f"PIP{k}" for k, p in enumerate(LED_PINS)}}
    pico: dict[str | int, str] = {}
    for num, name in PICO_NAMES.items():
        if name.startswith("GP") and int(name[2:]) in gp:
            pico[num] = gp[int(name[2:])]
        elif name in ("GND", "VSYS", "VBUS"):
            pico[num] = name
        elif name == "3V3_OUT":
            pico[num] = "3V3"
        else:
            pico[num] = NC
    c.add("U1", "pico_w", pico, note="Raspberry Pi Pico W (BLE link)")
    c.add("U2", "adxl345", VDDIO="3V3", VS="3V3", GND="GND", CS="3V3", SDO="GND",
          SDA="I2C_SDA", SCL="I2C_SCL", INT1=NC, INT2=NC, RES=NC, note="I2C address 0x53")
    c.add("C1", "c_100n", {1: "3V3", 2: "GND"}, note="U2's decoupling")
    c.add("C2", "c_10u", {1: "3V3", 2: "GND"})
    c.add("R1", "r_4k7", {1: "3V3", 2: "I2C_SDA"})
    c.add("R2", "r_4k7", {1: "3V3", 2: "I2C_SCL"})
    for k in range(7):
        c.add(f"R{10 + k}", "r_330", {1: f"PIP{k}", 2: f"PIP{k}_A"})
        c.add(f"D{10 + k}", "led", A=f"PIP{k}_A", K="GND", note=f"pip {k}")
    c.add("BT1", "lipo", {1: "GND", 2: "BAT"}, note="500 mAh, own protection circuit")
    c.add("U3", "mcp73831", VDD="VBUS", VSS="GND", VBAT="BAT", PROG="PROG", STAT="CHG_LED",
          note="charges at 1000/5.1k = 196 mA")
    c.add("C3", "c_100n", {1: "VBUS", 2: "GND"}, note="U3's decoupling")
    c.add("C4", "c_4u7", {1: "VBUS", 2: "GND"})
    c.add("C5", "c_4u7", {1: "BAT", 2: "GND"})
    c.add("R3", "r_5k1", {1: "PROG", 2: "GND"}, note="charge current 196 mA")
    c.add("R4", "r_1k", {1: "VBUS", 2: "CHG_LED_A"})
    c.add("D1", "led", A="CHG_LED_A", K="CHG_LED", note="lit while charging")
    c.add("SW1", "slide", {1: "BAT_SW", 2: "BAT", 3: NC}, note="power switch")
    c.add("D2", "schottky", A="BAT_SW", K="VSYS")
    c.add("R5", "r_100k", {1: "BAT_SW", 2: "CELL_SENSE"})
    c.add("R6", "r_100k", {1: "CELL_SENSE", 2: "GND"})
    c.add("C6", "c_100n", {1: "CELL_SENSE", 2: "GND"}, note="ADC input filter")
    c.power_flags["VBUS"] = "5 V from the Pico W's USB socket while charging"
    c.power_flags["VSYS"] = "the cell through SW1 and D2, or USB through the Pico W's own diode"
    c.notes += [f"Charge current {CHARGE_MA:.0f} mA = {CHARGE_MA / CELL_MAH:.2f} C of the "
                f"{CELL_MAH} mAh cell; the charger has no thermistor input (thermal regulation only).",
                "Do not charge unattended; the cell charges whether the switch is on or off."]
    return c
