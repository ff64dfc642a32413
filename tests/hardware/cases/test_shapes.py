"""The solid-building helpers."""

from __future__ import annotations

import math

import pytest

from tests.hardware.cases.conftest import require_cad

require_cad()


def test_boxes_cylinders_and_rounded_boxes_have_their_volumes():
    from casecad.shapes import SEGMENTS, box, cylinder, rounded_box
    assert box(1, 2, 3, 4, 6, 8).volume() == pytest.approx(60.0)
    polygon = 0.5 * SEGMENTS * math.sin(2 * math.pi / SEGMENTS)      # inscribed, r = 1
    assert cylinder(0, 0, 0, 2, 2.0).volume() == pytest.approx(2 * polygon, rel=1e-6)
    r = 2.0
    rounded = rounded_box(0, 0, 0, 10, 10, 1, r).volume()
    assert 100 - (4 - math.pi) * r * r - 0.05 < rounded < 100 - (4 - math.pi) * r * r + 0.05


def test_mesh_round_trip_is_watertight():
    from casecad.shapes import box, cylinder, from_trimesh, to_trimesh, union
    solid = union([box(0, 0, 0, 10, 10, 10), cylinder(5, 5, 10, 15, 4)])
    mesh = to_trimesh(solid)
    assert mesh.is_watertight
    assert mesh.volume == pytest.approx(solid.volume(), rel=1e-6)
    assert from_trimesh(mesh).volume() == pytest.approx(solid.volume(), rel=1e-5)
