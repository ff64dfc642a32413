"""The HAT's footprints turned into box coordinates (the Pi's drawing)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from tests.hardware.cases.conftest import FIXTURE, FIXTURE_PADS, require_cad

require_cad()

# the fixture board's top-left corner is at (100, 80) on KiCad's page, y down; a HAT on a Pi
# has its top edge (the header's) at the Pi's y = 56
def _pi(x: float, y: float) -> tuple[float, float]:
    return x - 100.0, 56.0 - (y - 80.0)


def _pad_centre(pads):  # type: ignore[no-untyped-def]
    xs, ys = [p[0] for p in pads], [p[1] for p in pads]
    return _pi((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def test_buttons_and_connector_from_the_board(fixture_layout):
    pads = json.loads(FIXTURE_PADS.read_text())
    for n, got in enumerate(fixture_layout.buttons, start=1):
        assert got == pytest.approx(_pad_centre(pads[f"SW{n}"]))
    assert fixture_layout.oled_connector == pytest.approx(_pad_centre(pads["J2"]))
    assert fixture_layout.oled_row == (1.0, 0.0)
    assert fixture_layout.towards_board == (0.0, -1.0)      # J2 is near the header's edge
    assert fixture_layout.outline == pytest.approx((0.0, -0.5, 65.0, 56.0))
    np.testing.assert_allclose(sorted(fixture_layout.holes),
                               sorted([(3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5)]),
                               atol=1e-6)


def test_a_board_drawn_turned_gives_the_same_box(fixture_layout):
    from casecad.hat_layout import layout_from_board
    from casecad.kicad_board import Board, read_board
    board = read_board(FIXTURE)

    def turn(p):  # type: ignore[no-untyped-def]  # a half turn about (0, 0)
        return -p[0], -p[1]

    turned = Board({ref: dataclasses.replace(fp, x=-fp.x, y=-fp.y,
                                             pads=tuple(turn(p) for p in fp.pads))
                    for ref, fp in board.footprints.items()},
                   (-board.outline[2], -board.outline[3], -board.outline[0], -board.outline[1]))
    layout = layout_from_board(turned)
    assert layout.rotation == 180
    np.testing.assert_allclose(layout.buttons, fixture_layout.buttons, atol=1e-6)
    assert layout.oled_connector == pytest.approx(fixture_layout.oled_connector)


def test_a_header_off_its_place_is_refused():
    from casecad.hat_layout import LayoutError, layout_from_board
    from casecad.kicad_board import read_board
    board = read_board(FIXTURE)
    j1 = board.footprint("J1")
    moved = dataclasses.replace(j1, pads=tuple((x - 24.0, y) for x, y in j1.pads))
    with pytest.raises(LayoutError, match="HAT's place"):
        layout_from_board(dataclasses.replace(board, footprints={**board.footprints, "J1": moved}))


def test_a_missing_switch_is_named():
    from casecad.hat_layout import LayoutError, layout_from_board
    from casecad.kicad_board import read_board
    board = read_board(FIXTURE)
    rest = {k: v for k, v in board.footprints.items() if k != "SW3"}
    with pytest.raises(LayoutError, match="SW3"):
        layout_from_board(dataclasses.replace(board, footprints=rest))
