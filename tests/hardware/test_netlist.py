"""Circuits as data (hardware/boards/netlist.py): pins by number or by name, pins left open
on purpose kept off the nets, mistakes refused."""

from __future__ import annotations

import json

import pytest
from boards.netlist import NC, Circuit


def test_pins_by_name_tie_every_pin_of_that_name() -> None:
    c = Circuit("t", "t")
    c.add("U1", "usblc6", IO1="A", IO2="B", VBUS="V", GND="GND")
    assert c.ref("U1").nets == {"1": "A", "6": "A", "3": "B", "4": "B", "5": "V", "2": "GND"}
    assert c.nets()["A"] == [("U1", "1"), ("U1", "6")]


def test_open_pins_stay_off_the_nets_and_out_of_the_json() -> None:
    c = Circuit("t", "t")
    c.add("R1", "r_1k", {1: "A", 2: NC})
    assert c.nets() == {"A": [("R1", "1")]}
    pins = json.loads(c.to_json())["parts"][0]["pins"]
    assert pins["2"]["net"] == "" and pins["1"] == {"name": "1", "kind": "P", "net": "A"}


def test_mistakes_are_refused() -> None:
    c = Circuit("t", "t")
    c.add("R1", "r_1k", {1: "A", 2: "B"})
    with pytest.raises(ValueError, match="R1 placed twice"):
        c.add("R1", "r_1k", {1: "A", 2: "B"})
    with pytest.raises(KeyError, match="no pin named SDA"):
        c.add("R2", "r_1k", SDA="A")
    with pytest.raises(KeyError, match="no pin 3"):
        c.add("R3", "r_1k", {3: "A"})
