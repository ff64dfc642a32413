"""The pad islands' trays (one per seat count) and their cover."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.hardware.cases.conftest import require_cad

require_cad()


def test_trays_and_cover_fit(pad_parts):
    from casecad.checks import overlapping_pairs, thinnest_wall
    from casecad.pads import SEATS
    from casecad.shapes import to_trimesh
    cover = pad_parts.printed["pad_cover"]
    for n in SEATS:
        assert overlapping_pairs({"tray": pad_parts.printed[f"pad_tray_{n}"],
                                  "cover": cover}) == []
    for name, solid in pad_parts.printed.items():
        assert to_trimesh(solid).is_watertight, name
        thickness, where = thinnest_wall(solid)
        assert thickness >= 2.0 - 0.01, (name, thickness, where)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_one_sector_per_seat_facing_it_with_guard_gaps(pad_parts, seats):
    from casecad.pads import seat_angle
    sectors = pad_parts.sectors[seats]
    assert len(sectors) == seats
    solids = {name: s.extrude(1.0) for name, s in sectors.items()}
    for a, b in itertools.combinations(solids.values(), 2):
        assert a.min_gap(b, 30.0) >= 10.0 - 1e-6
    for n, (name, sector) in enumerate(sectors.items(), start=1):
        assert sector.area() >= 1100.0, name                     # 11 cm² or more
        x0, y0, x1, y1 = sector.bounds()
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        a = math.radians(seat_angle(n, seats))
        assert cx * math.cos(a) + cy * math.sin(a) > 0, name    # on its seat's side


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_channel_from_every_sector_out_through_the_rim(pad_parts, seats):
    from casecad.pads import FLOOR, HALF, SECTOR_IN, exit_route, seat_angle
    from casecad.shapes import to_trimesh
    tray = to_trimesh(pad_parts.printed[f"pad_tray_{seats}"])
    z = FLOOR - 0.6
    points = []
    for n in range(1, seats + 1):
        a = math.radians(seat_angle(n, seats))
        points += [(r * math.cos(a), r * math.sin(a)) for r in np.linspace(0, SECTOR_IN, 5)]
    route = exit_route(seats)
    for (ax, ay), (bx, by) in zip(route, route[1:], strict=False):
        points += [(ax + t * (bx - ax), ay + t * (by - ay)) for t in np.linspace(0, 1, 12)]
    x, y = route[-1]
    outside = (x * (HALF - 0.5) / max(abs(x), 1e-9) if abs(x) > abs(y) else x,
               y * (HALF - 0.5) / max(abs(y), 1e-9) if abs(y) >= abs(x) else y)
    points.append(outside)                                       # the notch in the rim
    assert not tray.contains(np.array([(px, py, z) for px, py in points])).any()
