"""The bills of materials (hardware/boards/bom.py): every line orderable (manufacturer part
number, distributor and code, quantity, unit price), totals that add up, per board and for
the whole box; the committed CSVs are the ones the circuits give."""

from __future__ import annotations

import csv
import io

import pytest
from boards import bom, build

from tests.hardware.conftest import HARDWARE


@pytest.mark.parametrize("name", list(build.BOARDS))
def test_every_line_orderable_and_the_total_adds_up(name: str) -> None:
    circuit = build.BOARDS[name].circuit()
    rows = list(csv.DictReader(io.StringIO(bom.bom_csv(circuit))))
    lines, last = rows[:-1], rows[-1]
    assert lines and last["Comment"] == "TOTAL"
    for row in lines:
        for col in ("MPN", "Manufacturer", "Distributor", "Distributor code"):
            assert row[col] not in ("", "-"), (row["Designator"], col)
        assert int(row["Quantity"]) == len(row["Designator"].split())
        assert float(row["Unit price USD"]) > 0
    assert float(last["Line total USD"]) == pytest.approx(
        sum(float(r["Unit price USD"]) * int(r["Quantity"]) for r in lines), abs=0.01)
    placed = {i.ref for i in circuit.instances if i.part.price > 0}
    assert sorted(r for row in lines for r in row["Designator"].split()) == sorted(placed)


def test_the_box_total_is_the_boards_times_their_count() -> None:
    circuits = {n: m.circuit() for n, m in build.BOARDS.items()}
    rows = list(csv.DictReader(io.StringIO(bom.box_csv(circuits, build.PER_BOX))))
    want = sum(bom.total(c) * build.PER_BOX[n] for n, c in circuits.items())
    assert float(rows[-1]["Box total USD"]) == pytest.approx(want, abs=0.01)
    assert {r["Board"] for r in rows[:-1]} == set(build.BOARDS)


@pytest.mark.parametrize("name", list(build.BOARDS))
def test_committed_bom_netlist_and_schematic_match_the_circuit(name: str) -> None:
    from boards import schematic

    c = build.BOARDS[name].circuit()
    folder = HARDWARE / name
    assert (folder / "bom.csv").read_text() == bom.bom_csv(c)
    assert (folder / "netlist.json").read_text() == c.to_json()
    assert (folder / "schematic.svg").read_text() == schematic.svg(c)
