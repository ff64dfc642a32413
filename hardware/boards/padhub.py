"""The pad hub: a Raspberry Pi Pico, the seven islands' 390 kOhm charge resistors, seven
keyed cables to the pad islands (each island carries its own 74HC4051: boards.island) and
one to the table HAT.

Pins (firmware/padhub/main.py): the strobe on GP2 (the sense machines' trigger, read back
by them; it stays on the board), the address A, B, C on GP3, GP4, GP5, the
islands' sense lines on GP6..GP12 (piles 1..6, then the graveyard), UART0 to the Pi
(GP0 = TX, GP1 = RX).  5 V from the HAT's cable enters VSYS through a Schottky diode, so a
laptop on the Pico's USB does not feed the Pi; the 3.3 V to the islands leaves through a
PTC; every line that leaves the board has an ESD diode.
"""

from __future__ import annotations

from .netlist import NC, Circuit
from .parts import PICO_NAMES

WIDTH, HEIGHT = 100.0, 60.0
STROBE_PIN = 2
ADDRESS_PIN = 3
SENSE_PINS = (6, 7, 8, 9, 10, 11, 12)
UART_TX, UART_RX = 0, 1
ISLANDS = ("P1", "P2", "P3", "P4", "P5", "P6", "G")

# the firmware's constant -> (GPIO, net)
FIRMWARE_NETS = {
    "STROBE_PIN": (STROBE_PIN, "STROBE"),
    "ADDRESS_PIN": (ADDRESS_PIN, "ADDR_A"),
    "ADDRESS_PIN+1": (ADDRESS_PIN + 1, "ADDR_B"),
    "ADDRESS_PIN+2": (ADDRESS_PIN + 2, "ADDR_C"),
    **{f"SENSE_PINS[{i}]": (gp, f"Z_{ISLANDS[i]}") for i, gp in enumerate(SENSE_PINS)},
    "UART0 TX": (UART_TX, "HUB_TX"),
    "UART0 RX": (UART_RX, "HUB_RX"),
}


def circuit() -> Circuit:
    c = Circuit("padhub", "Pad hub (Raspberry Pi Pico, seven islands, 100 x 60 mm)")
    gp_nets = {gp: net for gp, net in FIRMWARE_NETS.values()}
    pico: dict[str | int, str] = {}
    for num, name in PICO_NAMES.items():
        if name.startswith("GP") and int(name[2:]) in gp_nets:
            pico[num] = gp_nets[int(name[2:])]
        elif name == "GND":
            pico[num] = "GND"
        elif name == "VSYS":
            pico[num] = "VSYS"
        elif name == "3V3_OUT":
            pico[num] = "3V3"
        else:
            pico[num] = NC
    c.add("U1", "pico", pico, note="Raspberry Pi Pico, USB end at the board's edge")
    # the strobe: the sense machines read it back; a test point to see the scan on a scope
    c.add("TP4", "testpoint", {1: "STROBE"}, note="strobe (scan timing)")
    # the HAT's cable: 1 GND, 2 5V in, 3 RX (Pi TX -> GP1), 4 TX (GP0 -> Pi RX)
    c.add("J1", "xh4", {1: "GND", 2: "5V_IN", 3: "LINK_RX", 4: "LINK_TX"},
          note="to the HAT: 1 GND, 2 5V, 3 Pi TX in, 4 TX to the Pi")
    c.add("D1", "schottky", A="5V_IN", K="VSYS")
    c.add("R1", "r_1k", {1: "HUB_RX", 2: "LINK_RX"})
    c.add("R2", "r_1k", {1: "HUB_TX", 2: "LINK_TX"})
    c.add("U2", "usblc6", IO1="LINK_RX", IO2="LINK_TX", VBUS="5V_IN", GND="GND")
    c.add("C1", "c_100n", {1: "5V_IN", 2: "GND"}, note="U2's decoupling")
    # the islands: 1 GND, 2 3V3, 3 A, 4 B, 5 C, 6 Z
    c.add("F1", "ptc_100", {1: "3V3", 2: "3V3_ISL"}, note="3.3 V to the islands")
    c.add("C2", "c_100n", {1: "3V3_ISL", 2: "GND"})
    for i, isl in enumerate(ISLANDS):
        c.add(f"R{3 + i}", "r_390k", {1: "3V3", 2: f"Z_{isl}"}, note=f"charge resistor, island {isl}")
        c.add(f"J{2 + i}", "xh6", {1: "GND", 2: "3V3_ISL", 3: "ADDR_A", 4: "ADDR_B", 5: "ADDR_C",
                                   6: f"Z_{isl}"},
              note=f"island {isl}: GND 3V3 A B C Z")
    # ESD on every line to the islands: 7 sense lines, the address, 3V3 (11 of 12 channels)
    lines = [f"Z_{i}" for i in ISLANDS] + ["ADDR_A", "ADDR_B", "ADDR_C", "3V3_ISL", NC]
    for k in range(3):
        d = lines[4 * k:4 * k + 4]
        c.add(f"U{3 + k}", "tpd4e", D1=d[0], D2=d[1], D3=d[2], D4=d[3], GND="GND")
    c.add("TP1", "testpoint", {1: "VSYS"}, note="VSYS (5 V less the diode)")
    c.add("TP2", "testpoint", {1: "3V3"}, note="3.3 V")
    c.add("TP3", "testpoint", {1: "GND"}, note="GND")
    c.power_flags["VSYS"] = "5 V from the HAT's cable through D1 (or the Pico's own USB)"
    c.power_flags["GND"] = "ground from the HAT's cable (J1 pin 1)"
    c.notes += ["The strobe (GP2) stays on the board: the sense machines read it back.",
                "Each island's 74HC4051 sits under the island (boards.island), a few cm from its pads."]
    return c


# routed 0.5 mm wide (the rest 0.25 mm)
POWER_NETS = ("5V_IN", "VSYS")


def placement() -> dict[str, dict]:
    s: dict[str, dict] = {
        "U1": {"x": 14.0, "y": 30.0, "rot": 0},
        "J1": {"x": 40.0, "y": 54.0, "rot": 0},
        "D1": {"x": 36.0, "y": 46.0, "rot": 0}, "C1": {"x": 42.0, "y": 46.0, "rot": 0},
        "R1": {"x": 36.0, "y": 41.0, "rot": 0}, "R2": {"x": 36.0, "y": 38.0, "rot": 0},
        "U2": {"x": 44.0, "y": 40.0, "rot": 0},
        "F1": {"x": 60.0, "y": 6.0, "rot": 0}, "C2": {"x": 65.0, "y": 6.0, "rot": 0},
        "TP1": {"x": 54.0, "y": 55.0}, "TP2": {"x": 58.0, "y": 55.0}, "TP3": {"x": 62.0, "y": 55.0},
        "TP4": {"x": 66.0, "y": 55.0},
    }
    for i in range(7):
        s[f"R{3 + i}"] = {"x": 32.0, "y": 8.0 + 3.0 * i, "rot": 0}
        s[f"J{2 + i}"] = {"x": 90.0, "y": 5.5 + 8.0 * i, "rot": 0}
    for k in range(3):
        s[f"U{3 + k}"] = {"x": 72.0, "y": 12.0 + 16.0 * k, "rot": 90}
    return s


def silk_texts() -> list[dict]:
    t = [{"text": "HAT", "x": 30.5, "y": 54.0, "size": 1.2},
         {"text": "VSYS 3V3 GND STB", "x": 60.0, "y": 58.3, "size": 0.8},
         {"text": "companion pad hub", "x": 60.0, "y": 50.0, "size": 1.2}]
    for i, isl in enumerate(ISLANDS):
        t.append({"text": isl, "x": 79.0, "y": 5.5 + 8.0 * i, "size": 1.2})
    return t
