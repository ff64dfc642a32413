"""The napij se screens: layout, the strip map's blinking, moves and pages taking turns, the
banner, and reference images (regenerate with COMPANION_UPDATE_REFERENCES=1, then look)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.ui.napij_screens import (
    BANNER_BOTTOM,
    BANNER_TOP,
    CELL_TOP,
    MAX_CELLS,
    PAGE_SECONDS,
    PITCH,
    STRIP_BOTTOM,
    STRIP_SECONDS,
)
from companion.ui.napij_views import BOTTLE, Banner, Cell, Move, NapijView, Row, Strip
from companion.ui.screens import HEIGHT, WIDTH, render

HERE = Path(__file__).parent / "reference"
RED, BLUE, GREEN = 0, 1, 2

CELLS = (Cell("pub", piece=RED), Cell("start", RED), Cell("normal"), Cell("normal", piece=BLUE),
         Cell("card"), Cell("junction", branch=True), Cell("normal", piece=BOTTLE),
         Cell("arrow", BLUE), Cell("start", BLUE, GREEN), Cell("normal"))
STRIP = Strip(CELLS, moving=0, target=8)
TURN = NapijView("Červený", RED, throws=(6, 6, 3), moves=(
    Move("6: z hospody → na svém stanovišti", STRIP),
    Move("9: 2 pole za rozcestím → na modrém stanovišti, vyhodí zeleného",
         Strip(CELLS[2:], moving=0, target=6))),
    prompt="◀▶ tah 2/17, ● ok", event="Červený hodil šestku a hází znovu.")


def lit(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    return image.crop(box).convert("L").histogram()[255]


def cell_box(strip: Strip, i: int) -> tuple[int, int, int, int]:
    x0 = (WIDTH - len(strip.cells) * PITCH + 1) // 2 + i * PITCH
    return (x0, CELL_TOP, x0 + 7, CELL_TOP + 7)


def test_a_napij_frame_is_128_by_64_one_bit_and_pure():
    a, b = render(TURN, 0.3), render(TURN, 0.3)
    assert a.size == (WIDTH, HEIGHT) and a.mode == "1"
    assert ImageChops.difference(a, b).getbbox() is None


def test_the_target_blinks_and_the_moving_piece_hides_in_the_off_phase():
    on, off = render(TURN, 0.0), render(TURN, 0.6)
    target, moving = cell_box(STRIP, 8), cell_box(STRIP, 0)
    assert ImageChops.difference(on.crop(target), off.crop(target)).getbbox() is not None
    empty = Strip((Cell("normal", piece=RED), Cell("normal"), Cell("normal")), 0, 2)
    view = NapijView("Červený", RED, moves=(Move("1: …", empty),))
    box = cell_box(empty, 2)
    assert lit(render(view, 0.0), box) == 49 and lit(render(view, 0.6), box) == 24  # filled
    assert lit(on, moving) > lit(off, moving)
    # the other cells do not blink
    assert lit(on, cell_box(STRIP, 3)) == lit(off, cell_box(STRIP, 3))


def test_the_moves_of_a_split_play_take_turns():
    first, second = render(TURN, 0.0), render(TURN, STRIP_SECONDS)
    words = (0, STRIP_BOTTOM, WIDTH, STRIP_BOTTOM + 8)
    assert ImageChops.difference(first.crop(words), second.crop(words)).getbbox() is not None
    above_event = (0, 0, WIDTH, HEIGHT - 8)  # the event line scrolls meanwhile
    assert ImageChops.difference(first.crop(above_event),
                                 render(TURN, 2 * STRIP_SECONDS).crop(above_event)).getbbox() \
        is None


def test_a_strip_never_draws_more_cells_than_fit():
    long = Strip(tuple(Cell("normal") for _ in range(40)), moving=0, target=39)
    image = render(NapijView("Modrý", BLUE, moves=(Move("x", long),)), 0.0)
    assert image.size == (WIDTH, HEIGHT)
    assert MAX_CELLS * PITCH <= WIDTH


def test_the_banner_covers_the_middle_and_keeps_the_header_and_the_event_line():
    plain = NapijView("Modrý", BLUE, rows=(Row("Hoď kostkou"),), prompt="Hoď kostkou",
                      event="Modrý hodil trojku.")
    banner = NapijView("Modrý", BLUE, rows=plain.rows, prompt=plain.prompt, event=plain.event,
                       banner=Banner("Modrý: napij se 2×", ("za vyhozenou figurku",), (BLUE,)))
    a, b = render(plain, 0), render(banner, 0)
    header, event = (0, 0, WIDTH, BANNER_TOP), (0, BANNER_BOTTOM + 1, WIDTH, HEIGHT)
    for box in (header, event):
        assert ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is None
    assert ImageChops.difference(a, b).getbbox() is not None


def test_a_long_text_shows_page_by_page():
    rows = tuple(Row(f"řádek {i}") for i in range(9))
    v = NapijView("Karta 27", rows=rows, prompt="● dál")
    first, second = render(v, 0.0), render(v, PAGE_SECONDS)
    assert ImageChops.difference(first, second).getbbox() is not None
    assert ImageChops.difference(first, render(v, 2 * PAGE_SECONDS)).getbbox() is None


def test_a_selected_row_is_inverted():
    v = NapijView("Dluhy", rows=(Row("Červený  0  2", RED), Row("Zpět")), selected=0)
    image = render(v, 0.0)
    assert lit(image, (0, 9, WIDTH, 17)) > lit(image, (0, 17, WIDTH, 25)) * 2


CASES: dict[str, tuple[NapijView, float]] = {
    "napij-turn": (TURN, 0.0),
    "napij-debt": (NapijView("Červený", RED, rows=(
        Row("Červený dluží 2:", RED), Row("napij se, pak hoď."), Row("Hod dřív neplatí!")),
        prompt="vypij a stiskni ●", event="Zelený vyhodil červeného."), 0.0),
    "napij-banner": (NapijView("Na zdraví!", banner=Banner(
        "Na zdraví!", ("všichni kromě červeného", "Červený má figurku doma"),
        (BLUE, GREEN, 3)), event="Červený dovedl figurku do domku."), 0.0),
    "napij-choice": (NapijView("Modrý", BLUE, rows=(
        Row("Koho karta zasáhne?"), Row("Červený: 4 pole za kartou", RED),
        Row("Zelený: na rozcestí", GREEN), Row("Zelený: 2 pole za rozcestím", GREEN)),
        selected=2, prompt="◀▶ vyber, ● ok", event="Karta 10: Ve tmě jsi do někoho vrazil."),
        0.0),
    "napij-ledger": (NapijView("Dluhy", note="dluží  vypil", rows=(
        Row(f"{'Červený':<9}{2:>4}{3:>7}", RED), Row(f"{'Zelený':<9}{0:>4}{5:>7}", GREEN),
        Row("Zpět")), selected=0, prompt="● vypil, co dlužil"), 0.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_napij_screen_matches_its_reference_image(name):
    view, t = CASES[name]
    image = render(view, t).convert("1")
    path = HERE / f"{name}.png"
    if os.environ.get("COMPANION_UPDATE_REFERENCES"):
        HERE.mkdir(exist_ok=True)
        image.save(path)
    reference = Image.open(path).convert("1")
    diff = ImageChops.difference(image.convert("L"), reference.convert("L"))
    assert diff.getbbox() is None, f"{name} differs from {path} in {diff.getbbox()}"
