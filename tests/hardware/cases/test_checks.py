"""The measurements behind the cases' tests catch what they are meant to catch."""

from __future__ import annotations

import pytest

from tests.hardware.cases.conftest import require_cad

require_cad()


def test_thin_plate_reads_its_thickness():
    from casecad.checks import thinnest_wall
    from casecad.shapes import box
    for t in (1.5, 2.5):
        thickness, _ = thinnest_wall(box(0, 0, 0, 40, 30, t))
        assert thickness == pytest.approx(t, abs=1e-3)


def test_a_thin_rib_on_a_thick_block_is_found():
    from casecad.checks import thinnest_wall
    from casecad.shapes import box
    solid = box(0, 0, 0, 30, 30, 10) + box(10, 0, 10, 11.2, 30, 20)
    thickness, where = thinnest_wall(solid)
    assert thickness == pytest.approx(1.2, abs=1e-3)
    assert 10 <= where[0] <= 11.2


def test_a_rounded_edge_is_not_a_thin_wall():
    from casecad.checks import thinnest_wall
    from casecad.shapes import rounded_box
    solid = rounded_box(0, 0, 0, 30, 30, 10, 4.0).rotate((90, 0, 0))
    thickness, _ = thinnest_wall(solid)
    assert thickness >= 9.9


def test_overlaps_and_gaps():
    from casecad.checks import gap, overlapping_pairs
    from casecad.shapes import box
    parts = {"a": box(0, 0, 0, 10, 10, 10), "b": box(9, 0, 0, 20, 10, 10),
             "c": box(23, 0, 0, 30, 10, 10)}
    assert [(a, b) for a, b, _ in overlapping_pairs(parts)] == [("a", "b")]
    assert overlapping_pairs(parts)[0][2] == pytest.approx(100.0)
    assert gap(parts["b"], parts["c"]) == pytest.approx(3.0)
