"""The electrical rules check (hardware/boards/erc.py): every board passes, and each rule
fails on a circuit that breaks it."""

from __future__ import annotations

import pytest
from boards import dice, erc, hat, island, padhub
from boards.netlist import NC, Circuit
from boards.parts import PARTS, Part


@pytest.mark.parametrize("module", [hat, padhub, island, dice], ids=lambda m: m.__name__)
def test_every_board_passes(module) -> None:
    assert erc.check(module.circuit()) == []


def _with(key: str, pins: dict[str, tuple[str, str]]) -> None:
    PARTS[key] = Part(key, key, "x:y", "m", "mpn", "d", "c", 1.0, pins)


@pytest.fixture()
def toys():
    _with("t_out", {"1": ("OUT", "O"), "2": ("GND", "W")})
    _with("t_in", {"1": ("IN", "I"), "2": ("GND", "W")})
    _with("t_src", {"1": ("V", "S"), "2": ("GND", "S")})
    yield
    for k in ("t_out", "t_in", "t_src"):
        del PARTS[k]


def test_two_outputs_on_one_net(toys) -> None:
    c = Circuit("t", "t")
    c.add("U1", "t_out", {1: "A", 2: "GND"})
    c.add("U2", "t_out", {1: "A", 2: "GND"})
    c.add("U3", "t_src", {1: "V", 2: "GND"})
    c.add("U4", "t_in", {1: "V", 2: "GND"})
    assert erc.check(c) == ["net A: two outputs (U1.1, U2.1)"]


def test_input_driven_by_nothing_and_a_pin_left_unconnected(toys) -> None:
    c = Circuit("t", "t")
    c.add("U1", "t_in", {1: "A", 2: "GND"})
    c.add("U2", "t_in", {1: "A"})
    c.add("U3", "t_src", {1: NC, 2: "GND"})  # open on purpose: no error
    assert erc.check(c) == ["U2 pin 2 (GND): not connected",
                            "net A: inputs with nothing driving them"]


def test_power_input_needs_a_source_or_a_flag(toys) -> None:
    c = Circuit("t", "t")
    c.add("U1", "t_out", {1: "A", 2: "GND"})
    c.add("U2", "t_in", {1: "A", 2: "GND"})
    assert erc.check(c) == ["net GND: power input without a source or power flag"]
    c.power_flags["GND"] = "by cable"
    assert erc.check(c) == []


def test_a_net_with_one_pin_and_two_sources(toys) -> None:
    c = Circuit("t", "t")
    c.add("U1", "t_src", {1: "V", 2: "GND"})
    c.add("U2", "t_src", {1: "LONE", 2: "GND"})
    assert erc.check(c) == ["net GND: power sources of U1, U2 meet", "net LONE: only U2 pin 1 is on it",
                            "net V: only U1 pin 1 is on it"]
