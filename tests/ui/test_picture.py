"""A whole-frame screen (the QR code of "Telefon") beside the drawn views, and ``frame``."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from companion.ui.picture import Picture, frame
from companion.ui.screens import HEIGHT, WIDTH, render
from companion.ui.views import MessageView


def checkers() -> Image.Image:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    for y in range(0, HEIGHT, 4):
        for x in range((y // 4) % 2 * 4, WIDTH, 8):
            draw.rectangle((x, y, x + 3, y + 3), fill=1)
    return img


def test_a_picture_gives_back_its_pixels_exactly():
    img = checkers()
    pic = Picture.of("Vzor", img)
    assert pic.title == "Vzor" and len(pic.bits) == WIDTH * HEIGHT // 8
    back = pic.image()
    assert back.mode == "1" and back.size == (WIDTH, HEIGHT)
    assert back.tobytes() == img.tobytes()


def test_a_picture_of_another_mode_is_made_one_bit():
    grey = checkers().convert("L")
    assert Picture.of("x", grey).image().tobytes() == checkers().tobytes()


@pytest.mark.parametrize("size", [(64, 64), (128, 32), (256, 128)])
def test_a_picture_of_the_wrong_size_is_refused_with_one_sentence(size):
    with pytest.raises(ValueError) as err:
        Picture.of("x", Image.new("1", size))
    text = str(err.value)
    assert "128x64" in text and "\n" not in text and text.endswith(".")


def test_pictures_compare_and_hash_by_value_like_views():
    a, b = Picture.of("x", checkers()), Picture.of("x", checkers())
    other = Picture.of("x", Image.new("1", (WIDTH, HEIGHT), 1))
    assert a == b and hash(a) == hash(b) and a != other
    assert len({a, b, other}) == 2


def test_frame_draws_a_view_and_passes_a_picture_through_whatever_the_time():
    pic = Picture.of("x", checkers())
    for t in (0.0, 0.7, 31.0):
        assert frame(pic, t).tobytes() == checkers().tobytes()
    view = MessageView("Telefon", ("jeden", "dva"), "● zpět")
    assert frame(view, 0.3).tobytes() == render(view, 0.3).tobytes()
