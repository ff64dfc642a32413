"""The napij se screens: layout, the strip map's blinking, moves and pages taking turns, the
banner, and reference images (regenerate with COMPANION_UPDATE_REFERENCES=1, then look)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.games.napij.screens import (
    BANNER_BOTTOM,
    BANNER_TOP,
    CELL_TOP,
    MAX_CELLS,
    PAGE_SECONDS,
    PITCH,
    STRIP_BOTTOM,
    STRIP_SECONDS,
    schedule,
)
from companion.games.napij.views import BOTTLE, Banner, Cell, Move, NapijView, Row, Strip
from companion.ui.screens import HEIGHT, WIDTH, layout, problems, render

HERE = Path(__file__).resolve().parents[2] / "ui" / "reference"
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
    starts, round_ = schedule(TURN)
    assert starts[0] == 0.0 and starts[1] == STRIP_SECONDS and round_ > 2 * STRIP_SECONDS
    first, second = render(TURN, 0.0), render(TURN, STRIP_SECONDS)
    words = (0, STRIP_BOTTOM, WIDTH, STRIP_BOTTOM + 8)
    assert ImageChops.difference(first.crop(words), second.crop(words)).getbbox() is not None
    # after one round the first move is back (the strip blinks, the event line scrolls)
    below_strip = (0, STRIP_BOTTOM, WIDTH, HEIGHT - 8)
    assert ImageChops.difference(first.crop(below_strip),
                                 render(TURN, round_).crop(below_strip)).getbbox() is None


def words_of(view: NapijView, t: float) -> list[str]:
    """The lines of a move's words on show at ``t`` (between the strip and the prompt)."""
    _, inks = layout(view, t)
    return [i.text for i in inks if i.kind == "text" and i.box[1] >= STRIP_BOTTOM
            and i.box[3] <= HEIGHT - 16]


def test_words_longer_than_their_room_wrap_inside_the_panel_and_page_never_cut():
    """The second move of TURN needs four lines and has room for three: they show three,
    then the rest on a page of their own (▼ ▲ say there is more), none cut or scrolled."""
    starts, round_ = schedule(TURN)
    assert len(starts) == 3 and starts[2] - starts[1] == PAGE_SECONDS
    shown: list[str] = []
    for t in starts[1:]:
        _, inks = layout(TURN, t)
        assert problems(inks) == []
        assert not any(i.scrolls for i in inks if i.kind == "text" and i.box[3] <= HEIGHT - 8)
        shown += words_of(TURN, t)
    assert " ".join(shown) == ("2/2 9: 2 pole za rozcestím → na modrém stanovišti, vyhodí "
                               "zeleného")
    assert all(i.box[2] <= WIDTH - 1 for i in layout(TURN, starts[1])[1] if i.kind == "text")


def test_a_move_of_the_reported_evening_wraps_its_field_and_names_the_card():
    view = NapijView("Červený", RED, throws=(6, 1), moves=(Move(
        "7: z 1. pole před rozcestím ke stezce na červené straně → na 3. poli, bere kartu",
        STRIP),), prompt="● táhni", event="Červený hodil 6 a 1.")
    starts, _ = schedule(view)
    shown = [line for t in starts for line in words_of(view, t)]
    assert " ".join(shown).endswith("→ na 3. poli, bere kartu")
    assert all(problems(layout(view, t)[1]) == [] for t in starts)


def test_every_text_and_mark_of_a_napij_screen_is_reported_to_the_clipping_check():
    image, inks = layout(CASES["napij-choice"][0], 0.0)
    kinds = [i.kind for i in inks]
    assert kinds.count("mark") == 1 + 3  # the header's and three rows'
    assert kinds.count("bar") == 1 and any(i.kind == "mark" and i.on_bar for i in inks)
    texts = {i.whole for i in inks if i.kind == "text"}
    assert {"Modrý", "Koho karta zasáhne?", "Zelený: na rozcestí", "◀▶ vyber, ● ok"} <= texts
    assert problems(inks) == []
    _, strip = layout(TURN, 0.0)
    assert any(i.kind == "board" for i in strip) and problems(strip) == []


def test_the_check_finds_a_cut_banner_line_and_text_left_half_under_the_banner():
    cut = NapijView("Modrý", BLUE, banner=Banner("Modrý: napij se", ("x" * 30,)))
    assert any("is shown cut" in p for p in problems(layout(cut, 0.0)[1]))
    many = NapijView("Modrý", BLUE, banner=Banner("Modrý", ("a", "b", "c")))
    assert any("no room for 'c'" in p for p in problems(layout(many, 0.0)[1]))
    image, inks = layout(NapijView("Modrý", BLUE, rows=(Row("pod banerem"),), prompt="● ok",
                                   banner=Banner("Modrý: napij se")), 0.0)
    assert problems(inks) == []  # wholly under the banner: hidden, not overlapping
    assert not any(i.kind == "text" and i.whole == "pod banerem" for i in inks)


def test_a_scrolling_list_keeps_its_marks_off_the_selection_bar():
    rows = tuple(Row(f"Hráč {i}", i % 4) for i in range(7))
    for sel in range(7):
        image, inks = layout(NapijView("Kdo?", rows=rows, selected=sel, prompt="● ok"), 0.0)
        assert problems(inks) == [], (sel, problems(inks))


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
