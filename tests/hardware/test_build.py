"""``make hardware`` (hardware/boards/build.py, pcb.py): every output regenerated into a
temporary folder; the boards pass KiCad's design rules check with no violation and no
unconnected pad at the fab's rules, have their outlines' sizes and two copper layers, and
the committed outputs (board files, Gerber zips, pick-and-place, pictures, BOMs) are the
regenerated ones byte for byte (the plots carry no dates)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from boards import build, hat

from tests.hardware.conftest import HARDWARE

MADE = [n for n, m in build.BOARDS.items() if hasattr(m, "placement")]


def test_fab_rules_are_a_common_fabs_or_coarser() -> None:
    r = build.RULES
    assert r["track"] >= 0.15 and r["clearance"] >= 0.15 and r["drill"] >= 0.3
    assert r["route_track"] >= r["track"] and r["route_clearance"] >= r["clearance"]


@pytest.mark.parametrize("name", MADE)
def test_drc_clean_at_its_size(regenerated: tuple[Path, dict], name: str) -> None:
    _, summary = regenerated
    s = summary[name]
    assert (s["erc_errors"], s["drc_violations"], s["unconnected"]) == (0, 0, 0)
    module = build.BOARDS[name]
    assert s["size"] == pytest.approx([module.WIDTH, module.HEIGHT], abs=0.15)
    assert s["layers"] == 2


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", list(build.BOARDS))
def test_committed_outputs_are_the_regenerated_ones(regenerated: tuple[Path, dict], name: str) -> None:
    out, _ = regenerated
    fresh = sorted(p.relative_to(out / name) for p in (out / name).rglob("*") if p.is_file())
    committed = sorted(p.relative_to(HARDWARE / name) for p in (HARDWARE / name).rglob("*")
                       if p.is_file())
    assert fresh == committed
    differ = [str(p) for p in fresh if _digest(out / name / p) != _digest(HARDWARE / name / p)]
    assert differ == []


def test_committed_summary_and_box_bom(regenerated: tuple[Path, dict]) -> None:
    out, summary = regenerated
    assert json.loads((HARDWARE / "boards.json").read_text()) == json.loads(
        (out / "boards.json").read_text())
    assert (HARDWARE / "bom-box.csv").read_text() == (out / "bom-box.csv").read_text()


def test_hat_file_has_the_parts_the_case_reads() -> None:
    """The case reads the buttons and connectors from hardware/hat/hat.kicad_pcb."""
    text = (HARDWARE / "hat" / "hat.kicad_pcb").read_text()
    refs = set(re.findall(r'\(fp_text reference "([^"]+)"', text))
    assert {"SW1", "SW2", "SW3", "J1", "J2", "H1", "H2", "H3", "H4"} <= refs
    holes = {tuple(float(v) for v in m) for m in re.findall(
        r'\(footprint "MountingHole:[^"]+"[^(]*\(layer "F.Cu"\)[^(]*(?:\([^()]*\)\s*)*?\(at ([\d.]+) ([\d.]+)\)',
        text)}
    assert holes == {tuple(h) for h in hat.HOLES}
