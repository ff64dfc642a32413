from __future__ import annotations

from PIL import Image, ImageDraw

from companion.ui.marks import draw_mark, shape


def test_the_four_marks_differ_at_every_size():
    for size in (3, 5, 7):
        shapes = {shape(c, size) for c in range(4)}
        assert len(shapes) == 4
        for c in range(4):
            assert all(len(row) == size for row in shape(c, size)) and len(shape(c, size)) == size


def test_draw_mark_sets_exactly_the_shape():
    im = Image.new("1", (10, 10))
    draw_mark(ImageDraw.Draw(im), 1, 2, 3, 5)
    lit = {(x, y) for y in range(10) for x in range(10) if im.getpixel((x, y))}
    want = {(2 + x, 3 + y) for y, row in enumerate(shape(1, 5)) for x, ch in enumerate(row) if ch == "#"}
    assert lit == want
