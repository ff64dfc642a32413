"""The pad island's tray and cover."""

from __future__ import annotations

import itertools
import math

import numpy as np

from .conftest import require_cad

require_cad()


def test_tray_and_cover_fit(pad_parts):
    from casecad.checks import overlapping_pairs, thinnest_wall
    from casecad.shapes import to_trimesh
    assert overlapping_pairs(pad_parts.printed) == []
    for name, solid in pad_parts.printed.items():
        assert to_trimesh(solid).is_watertight, name
        thickness, where = thinnest_wall(solid)
        assert thickness >= 2.0 - 0.01, (name, thickness, where)


def test_guard_gaps_of_a_centimetre_between_sectors(pad_parts):
    def distance(a, b):  # type: ignore[no-untyped-def]
        dx = max(a[0] - b[2], b[0] - a[2], 0.0)
        dy = max(a[1] - b[3], b[1] - a[3], 0.0)
        return math.hypot(dx, dy)

    sectors = list(pad_parts.sectors.values())
    assert len(sectors) == 4
    for a, b in itertools.combinations(sectors, 2):
        assert distance(a, b) >= 10.0


def test_a_channel_from_every_sector_to_the_rim(pad_parts):
    from casecad.pads import EXIT_X, FLOOR, HALF, SECTOR, SECTOR_OUT
    from casecad.shapes import to_trimesh
    tray = to_trimesh(pad_parts.printed["pad_tray"])
    z = FLOOR - 0.6
    inner = SECTOR_OUT - SECTOR[1]
    path = [(0.0, -inner + 0.5), (0.0, inner - 0.5), (-inner + 0.5, 0.0), (inner - 0.5, 0.0),
            (0.0, 0.0), (EXIT_X / 2, -EXIT_X / 2), (EXIT_X, -EXIT_X), (EXIT_X, -HALF + 1.0)]
    assert not tray.contains(np.array([(x, y, z) for x, y in path])).any()
    assert tray.contains([[EXIT_X + 5.0, -HALF + 1.0, z]])[0]       # the rim beside the notch
