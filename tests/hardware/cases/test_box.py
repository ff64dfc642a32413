"""The box: its openings over the HAT's parts (read from the fixture board file and from the
project's), its fit around the Pi and the HAT, its walls."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.hardware.cases.conftest import FIXTURE, require_cad

require_cad()


def _inside(solid, points):  # type: ignore[no-untyped-def]
    from casecad.shapes import to_trimesh
    return to_trimesh(solid).contains(np.asarray(points, dtype=float))


def test_no_two_parts_overlap(box_parts):
    from casecad.checks import overlapping_pairs
    assert overlapping_pairs({**box_parts.printed, **box_parts.bought}) == []


def test_every_printed_part_is_watertight_with_walls_of_2_mm(box_parts):
    from casecad.checks import thinnest_wall
    from casecad.shapes import to_trimesh
    for name, solid in box_parts.printed.items():
        assert to_trimesh(solid).is_watertight, name
        thickness, where = thinnest_wall(solid)
        assert thickness >= 2.0 - 0.01, (name, thickness, where)


def test_a_hole_in_the_lid_over_each_switch(box_parts, layout):
    from casecad.box import CAP_HOLE_D, LID_T, LID_Z
    z = LID_Z + LID_T / 2
    lid = box_parts.printed["box_lid"]
    for n, (x, y) in enumerate(layout.buttons, start=1):
        r = CAP_HOLE_D / 2 + 0.5
        ring = [(x + r * math.cos(a), y + r * math.sin(a), z) for a in np.linspace(0, 6, 8)]
        assert not _inside(lid, [(x, y, z)])[0], f"SW{n}: no hole"
        assert _inside(lid, ring).all(), f"SW{n}: the hole is not centred on the switch"
        cap = box_parts.printed[f"box_button_{n}"]
        x0, y0, _, x1, y1, _ = cap.bounding_box()
        assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((x, y), abs=1e-3)


def test_the_window_over_the_oled_module_above_j2(box_parts, layout):
    from casecad.box import LID_T, LID_Z, OLED_ACTIVE, OLED_ACTIVE_V
    (jx, jy), (nx, ny) = layout.oled_connector, layout.towards_board
    centre = (jx + nx * OLED_ACTIVE_V, jy + ny * OLED_ACTIVE_V)
    x0, y0, x1, y1 = box_parts.window
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx(centre, abs=1e-6)
    w, h = OLED_ACTIVE
    if layout.oled_row[1]:                   # the pin row runs along y: the module turned
        w, h = h, w
    assert x1 - x0 >= w and y1 - y0 >= h
    z = LID_Z + LID_T - 0.5
    lid = box_parts.printed["box_lid"]
    assert not _inside(lid, [(centre[0], centre[1], z)])[0]
    assert _inside(lid, [(x0 - 0.5, centre[1], z), (x1 + 0.5, centre[1], z),
                         (centre[0], y0 - 0.5, z), (centre[0], y1 + 0.5, z)]).all()


def test_moving_a_switch_in_the_board_file_moves_its_hole(tmp_path):
    from casecad.box import build_box
    from casecad.hat_layout import layout_from_board
    from casecad.kicad_board import read_board
    text = FIXTURE.read_text()
    assert text.count("(at 114.75 124.75)") == 1          # SW1's origin in the fixture
    moved = tmp_path / "moved.kicad_pcb"
    moved.write_text(text.replace("(at 114.75 124.75)", "(at 110.75 124.75)"))
    layout = layout_from_board(read_board(moved))
    assert layout.buttons[0] == pytest.approx((14.0, 9.0))
    lid = build_box(layout).printed["box_lid"]
    assert not _inside(lid, [(14.0, 9.0, 35.8)])[0]
    assert _inside(lid, [(18.0 + 5.6, 9.0, 35.8)])[0]       # where the old hole's edge was


def test_the_connectors_can_be_reached(box_parts, layout):
    from casecad.box import HAT_TOP, IN_X0, IN_X1, IN_Y0, PI_T, PI_Z, WALL
    base = box_parts.printed["box_base"]
    usb_c = (11.2, IN_Y0 - WALL / 2, PI_Z + PI_T + 1.6)
    usb_eth = [(IN_X1 + WALL / 2, y, PI_Z + PI_T + 8) for y in (9.0, 27.0, 45.75)]
    sd = (IN_X0 - WALL / 2, 28.0, PI_Z - 0.5)
    cables = [(IN_X0 - WALL / 2, y, HAT_TOP + 5) for _, y in layout.cable_connectors]
    assert layout.cable_connectors
    assert not _inside(base, [usb_c, *usb_eth, sd, *cables]).any()


def test_the_lid_screws_meet_the_hats_holes(box_parts, layout):
    from casecad.box import LID_T, LID_Z
    lid = box_parts.printed["box_lid"]
    points = [(x, y, LID_Z + LID_T / 2) for x, y in layout.holes]
    assert len(points) == 4 and not _inside(lid, points).any()
