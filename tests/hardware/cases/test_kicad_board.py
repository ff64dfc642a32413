"""The board reader against what KiCad's own pcbnew says (hat_fixture_pads.json, written by
make_fixture.py beside the fixture board)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.hardware.cases.conftest import FIXTURE, FIXTURE_PADS, require_cad

require_cad()


def test_every_pad_where_pcbnew_puts_it():
    from casecad.kicad_board import read_board
    board = read_board(FIXTURE)
    expected = json.loads(FIXTURE_PADS.read_text())
    assert set(board.footprints) == set(expected)
    for ref, pads in expected.items():
        got = sorted(board.footprint(ref).pads)
        want = sorted(tuple(p) for p in pads)
        assert len(got) == len(want), ref
        for (gx, gy), (wx, wy) in zip(got, want, strict=True):
            assert gx == pytest.approx(wx, abs=1e-4) and gy == pytest.approx(wy, abs=1e-4), ref


def test_sides_rotations_and_outline():
    from casecad.kicad_board import read_board
    board = read_board(FIXTURE)
    assert board.footprint("J1").side == "B"
    assert board.footprint("SW2").rotation == 90
    assert board.outline == pytest.approx((100.0, 80.0, 165.0, 136.5))
    assert board.footprint("SW2").centre() == pytest.approx((132.5, 127.5))


def test_kicad8_reference_property():
    from casecad.kicad_board import parse_board
    text = """(kicad_pcb (version 20240108)
      (gr_rect (start 10 10) (end 75 66.5) (layer "Edge.Cuts"))
      (footprint "Button_Switch_THT:SW_PUSH_6mm" (layer "F.Cu") (at 20 30 90)
        (property "Reference" "SW7" (at 0 0 0) (layer "F.SilkS"))
        (pad "1" thru_hole circle (at 0 0 90) (size 2 2) (layers "*.Cu"))
        (pad "2" thru_hole circle (at 6.5 0 90) (size 2 2) (layers "*.Cu"))))"""
    board = parse_board(text)
    assert board.outline == (10.0, 10.0, 75.0, 66.5)
    sw = board.footprint("SW7")
    # turned a quarter counter-clockwise on screen (y down): +x becomes -y
    np.testing.assert_allclose(sorted(sw.pads), sorted([(20.0, 30.0), (20.0, 23.5)]),
                               atol=1e-9)


def test_errors_name_the_problem():
    from casecad.kicad_board import parse_board
    with pytest.raises(ValueError, match="Edge.Cuts"):
        parse_board("(kicad_pcb (version 1))")
    with pytest.raises(ValueError, match="not a KiCad board"):
        parse_board("(kicad_sch (version 1))")
    from casecad.kicad_board import read_board
    with pytest.raises(KeyError, match="no footprint SW9"):
        read_board(FIXTURE).footprint("SW9")

