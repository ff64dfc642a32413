"""The pictures: something is drawn, in the colour asked, and what faces away is left out."""

from __future__ import annotations

import numpy as np

from tests.hardware.cases.conftest import require_cad

require_cad()


def test_a_red_cube_is_drawn(tmp_path):
    from casecad.render import render
    from casecad.shapes import box, to_trimesh
    from PIL import Image
    path = tmp_path / "cube.png"
    render([(to_trimesh(box(0, 0, 0, 10, 10, 10)), "#ff0000")], path, "cube", size=3)
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    red = (pixels[..., 0] > 60) & (pixels[..., 1] < 40) & (pixels[..., 2] < 40)
    assert red.mean() > 0.05
    white = (pixels > 240).all(axis=-1)
    assert white.mean() > 0.3
