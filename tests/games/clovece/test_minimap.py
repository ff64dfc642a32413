from __future__ import annotations

from PIL import Image, ImageDraw

from companion.games.clovece.engine.board import TRACK
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.minimap import CELL, SIZE, draw_board


def draw(text: str, **kw) -> Image.Image:
    im = Image.new("1", (SIZE, SIZE))
    draw_board(ImageDraw.Draw(im), parse_position(text), **kw)
    return im


def cell_pixels(im: Image.Image, cell) -> int:
    x, y = cell
    return im.crop((x * CELL, y * CELL, x * CELL + CELL, y * CELL + CELL)).convert("L").histogram()[255]


def test_a_piece_fills_more_of_its_cell_than_an_empty_field():
    empty = draw("r:h,h,h,h g:h,h,h,h turn:r")
    one = draw("r:12,h,h,h g:h,h,h,h turn:r")
    assert cell_pixels(one, TRACK[12]) > cell_pixels(empty, TRACK[12]) == 1


def test_the_map_fits_left_of_the_panel():
    assert SIZE == 55


def test_blinking_hides_the_piece_on_the_off_phase():
    text = "r:12,h,h,h g:h,h,h,h turn:r"
    on = draw(text, blink=(TRACK[12], TRACK[15]), phase_on=True)
    off = draw(text, blink=(TRACK[12], TRACK[15]), phase_on=False)
    assert cell_pixels(on, TRACK[12]) > cell_pixels(off, TRACK[12])
    assert cell_pixels(off, TRACK[15]) > cell_pixels(on, TRACK[15])
