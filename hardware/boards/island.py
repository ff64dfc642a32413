"""A pad island's board (seven per box: six piles and the graveyard), under its island:
the 74HC4051 that connects the island's six sectors one at a time to the island's sense
line, its 100 nF, ESD diodes on the six sector lines and the sense line, a keyed
connector to the sectors' wires and one to the pad hub's cable.

Slots (firmware/padhub/padhub/layout.py): Y0..Y5 are the sectors of seats 1..6; Y6 and
Y7 have no pad (the reference channels) and stay open; the enable and VEE are grounded.
"""

from __future__ import annotations

from .netlist import NC, Circuit

WIDTH, HEIGHT = 36.0, 26.0
SECTOR_SLOTS = {f"SECTOR{s}": f"Y{s - 1}" for s in range(1, 7)}


def circuit() -> Circuit:
    c = Circuit("island", "Pad island board (74HC4051 under the island, 36 x 26 mm)")
    c.add("J1", "xh6", {1: "GND", 2: "3V3", 3: "ADDR_A", 4: "ADDR_B", 5: "ADDR_C", 6: "Z"},
          note="to the pad hub: GND 3V3 A B C Z")
    c.add("J2", "xh7", {1: "GND", **{k + 2: f"SECTOR{k + 1}" for k in range(6)}},
          note="sectors: 1 GND guard, 2..7 seats 1..6")
    c.add("U1", "hc4051", S0="ADDR_A", S1="ADDR_B", S2="ADDR_C", Z="Z", E="GND", VEE="GND",
          GND="GND", VCC="3V3", Y6=NC, Y7=NC,
          **{slot: net for net, slot in SECTOR_SLOTS.items()},
          note="Y6, Y7 open: the reference slots")
    c.add("C1", "c_100n", {1: "3V3", 2: "GND"}, note="U1's decoupling")
    c.add("U2", "tpd4e", D1="SECTOR1", D2="SECTOR2", D3="SECTOR3", D4="SECTOR4", GND="GND")
    c.add("U3", "tpd4e", D1="SECTOR5", D2="SECTOR6", D3="Z", D4=NC, GND="GND")
    c.power_flags["3V3"] = "3.3 V from the pad hub's cable (through the hub's PTC)"
    c.power_flags["GND"] = "ground from the pad hub's cable"
    return c


def placement() -> dict[str, dict]:
    return {
        "J1": {"x": 11.0, "y": 21.5, "rot": 0},
        "J2": {"x": 18.0, "y": 4.5, "rot": 180},
        "U1": {"x": 26.0, "y": 15.0, "rot": 90},
        "C1": {"x": 33.0, "y": 21.0, "rot": 90},
        "U2": {"x": 8.0, "y": 12.0, "rot": 90},
        "U3": {"x": 15.0, "y": 12.0, "rot": 90},
    }


def silk_texts() -> list[dict]:
    return [{"text": "HUB", "x": 21.5, "y": 24.0, "size": 1.0},
            {"text": "SECTORS 1-6", "x": 31.0, "y": 9.0, "size": 0.8},
            {"text": "island", "x": 31.5, "y": 11.0, "size": 1.0}]
