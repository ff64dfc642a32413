"""Drawing a board: every field where its data says, in the colours of its kind."""

from __future__ import annotations

from PIL import Image

from companion.games.napij.engine.board import default_board
from companion.games.napij.engine.draw import RGB, STEZKA, draw, field_pixel, render


def test_the_default_board_is_drawn_with_fields_where_the_data_puts_them():
    board = default_board()
    img = render(board, 30)
    assert img.size == (846, 1008)  # (27.4 + 2 * 1.6) x (27.4 + 3.2 + 2 + 3.4) units of 30 px

    def near(fid: str, colour: tuple[int, int, int]) -> bool:
        x, y = field_pixel(board, fid, 30)
        # the field's name is written in the middle: look a little off centre
        return any(img.getpixel((x + dx, y + dy)) == colour
                   for dx in (-8, 8) for dy in (-8, 8))

    assert near("m4", RGB["r"]) and near("m24", RGB["b"]) and near("yh2", RGB["y"])
    assert near("c3", STEZKA)
    assert not near("m5", RGB["r"])


def test_draw_writes_a_png(tmp_path):
    size = draw(default_board(), tmp_path / "x.png", 12)
    with Image.open(tmp_path / "x.png") as img:
        assert img.size == size and img.format == "PNG"


def test_the_picture_in_the_docs_is_the_drawing_of_the_default_board():
    from pathlib import Path

    board = default_board()
    path = Path(__file__).resolve().parents[4] / "docs" / "img" / "napij-board.png"
    fresh = render(board)
    with Image.open(path) as img:
        assert img.size == fresh.size
        rgb = img.convert("RGB")
        for fid, colour in (("m4", RGB["r"]), ("m44", RGB["g"]), ("c10", STEZKA)):
            x, y = field_pixel(board, fid)
            assert rgb.getpixel((x - 10, y - 10)) == fresh.getpixel((x - 10, y - 10)) == colour


def test_the_arrow_head_points_at_the_lane():
    from companion.games.napij.engine.draw import arrow_head

    tip, left, right = arrow_head(0.0, 0.0, 10.0, (100.0, 0.0))
    assert tip[0] > left[0] and tip[0] > right[0] and abs(tip[1]) < 1e-9
    assert left[1] == -right[1] != 0
    up = arrow_head(0.0, 0.0, 10.0, (0.0, -50.0))[0]
    assert up[1] < 0 and abs(up[0]) < 1e-9


def test_a_fields_label_is_written_under_it():
    from companion.games.napij.engine.board import default_board_text, parse_board

    text = default_board_text().replace(
        'm17 = { kind = "normal", at = [0, 3], next = "m18" }',
        'm17 = { kind = "normal", at = [0, 3], next = "m18", label = "Studna" }')
    plain, labelled = render(default_board(), 30), render(parse_board(text, "l.toml"), 30)
    x, y = field_pixel(default_board(), "m17", 30)
    box = (x - 40, y + 12, x + 40, y + 30)  # just under the field
    assert plain.crop(box).tobytes() != labelled.crop(box).tobytes()
    far = (x + 200, y + 200, x + 260, y + 240)
    assert plain.crop(far).tobytes() == labelled.crop(far).tobytes()
