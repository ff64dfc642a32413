"""The die: its size, its compartments, its walls and its balance."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hardware.cases.conftest import require_cad

require_cad()


def test_sixty_millimetres_and_no_overlaps(die_parts):
    from casecad.checks import overlapping_pairs
    from casecad.shapes import union
    assert overlapping_pairs({**die_parts.printed, **die_parts.bought}) == []
    shell = union(die_parts.printed.values())
    x0, y0, z0, x1, y1, z1 = shell.bounding_box()
    assert (x1 - x0, y1 - y0, z1 - z0) == pytest.approx((60.0, 60.0, 60.0), abs=1e-3)


def test_printed_parts_watertight_with_walls_of_2_mm(die_parts):
    from casecad.checks import thinnest_wall
    from casecad.shapes import to_trimesh
    for name, solid in die_parts.printed.items():
        assert to_trimesh(solid).is_watertight, name
        thickness, where = thinnest_wall(solid)
        assert thickness >= 2.0 - 0.01, (name, thickness, where)


def test_the_cell_is_padded_and_away_from_the_boards(die_parts):
    from casecad.checks import gap
    from casecad.die import FOAM
    cell, foam = die_parts.bought["cell"], die_parts.bought["foam"]
    for board in ("pico_w", "imu", "charger", "switch"):
        assert gap(cell, die_parts.bought[board]) >= 3.0, board
    # the foam wraps the cell on every side, FOAM thick
    cx0, cy0, cz0, cx1, cy1, cz1 = cell.bounding_box()
    fx0, fy0, fz0, fx1, fy1, fz1 = foam.bounding_box()
    assert (cx0 - fx0, cy0 - fy0, cz0 - fz0, fx1 - cx1, fy1 - cy1, fz1 - cz1) == pytest.approx(
        (FOAM,) * 6)
    assert FOAM >= 1.5


def test_centre_of_mass_within_half_a_millimetre(die_parts):
    from casecad.die import centre_of_mass, mass_items
    items = mass_items(die_parts)
    offset = float(np.linalg.norm(centre_of_mass(items)))
    assert offset <= 0.5
    bare = [(m, c) for (m, c), name in zip(items, [*die_parts.printed, *die_parts.bought,
                                                   *["screw"] * 4], strict=True)
            if not name.startswith("counterweight")]
    assert float(np.linalg.norm(centre_of_mass(bare))) > offset   # the balls do their work
    assert sum(die_parts.balls.values()) > 0


def test_the_balls_chosen_are_the_best_filling():
    from casecad.die import BALL_MASS, _ball_centres, _tube_sites, centre_of_mass, choose_balls
    # 50 g whose centre is 1.5 mm towards +z and 1 mm towards +x
    items = [(50.0, np.array([1.0, 0.0, 1.5]))]
    balls = choose_balls(items)
    sites = _tube_sites()
    filled = items + [(BALL_MASS, c) for name, k in balls.items()
                      for c in _ball_centres(sites[name], k)]
    assert float(np.linalg.norm(centre_of_mass(filled))) < 0.2
    below = sum(BALL_MASS * c[2] for name, k in balls.items()
                for c in _ball_centres(sites[name], k))
    assert below < 0                                  # the balls' moment pulls down
    assert BALL_MASS == pytest.approx(0.888, abs=0.001)


def test_face_chances_from_the_offset():
    from casecad.die import face_probabilities
    even = face_probabilities(np.zeros(3))
    assert sum(even.values()) == pytest.approx(1.0)
    assert all(v == pytest.approx(1 / 6) for v in even.values())
    heavy_five = face_probabilities(np.array([0.0, 0.0, 1.0]))   # towards the five (+z)
    assert sum(heavy_five.values()) == pytest.approx(1.0)
    assert heavy_five[2] > 1 / 6 > heavy_five[5]        # the five lands down, the two shows
    assert heavy_five[1] == pytest.approx(heavy_five[6]) == pytest.approx(heavy_five[3])


def test_opposite_faces_add_to_seven_and_the_pico_usb_socket_is_open(die_parts):
    from casecad.die import FACES, IN, USB_Y, WALL, pip_points
    from casecad.shapes import to_trimesh
    for (axis, sign), value in FACES.items():
        assert value + FACES[(axis, -sign)] == 7
    assert len(pip_points()) == 21
    box = to_trimesh(die_parts.printed["die_box"])
    # the Pico W's micro-USB socket, in the four's face (-x)
    assert not box.contains([[-IN - WALL / 2, USB_Y, 0.0]])[0]
    assert box.contains([[-IN - WALL / 2, USB_Y + 6.0, 0.0]])[0]
    pico = die_parts.bought["pico_w"]
    x0, y0, z0, _, y1, z1 = pico.bounding_box()
    assert x0 == pytest.approx(-IN + 0.1)                 # the socket reaches the wall
    assert y0 < USB_Y < y1 and z0 < 0.0 < z1
