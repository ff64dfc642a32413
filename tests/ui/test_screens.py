from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from companion.games.clovece.engine.board import cell_of
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import BLUE, RED
from companion.games.clovece.minimap import CELL
from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.ui.fonts import body_font, heading_font
from companion.ui.screens import (
    HEIGHT,
    WIDTH,
    Painter,
    blink_on,
    fit,
    line_height,
    render,
    renderer,
    scrolled,
    wrap,
)
from companion.ui.screens import render as render_view
from companion.ui.views import Choice, ListView, MessageView

POS = parse_position("r:5,17,h,f1 b:12,30,h,f2 g:22,h,h,h y:31,h,h,h turn:b")


def turn_view(**kw) -> CloveceTurnView:
    base = dict(position=POS, colour=BLUE, player="Modrý", computer=False, roll=5,
                prompt="◀▶ vyber, ● ok",
                choices=(Choice("12→17", True), Choice("30→35")), selected=0,
                event="Modrý vyhodil zeleného.", blink=(cell_of(BLUE, 2), cell_of(BLUE, 7)))
    base.update(kw)
    return CloveceTurnView(**base)


def lit(image, box) -> int:
    return image.crop(box).convert("L").histogram()[255]


def test_frames_are_128_by_64_one_bit():
    im = render(turn_view())
    assert im.size == (WIDTH, HEIGHT) and im.mode == "1"


def test_the_same_view_at_the_same_time_is_the_same_frame():
    assert render(turn_view(), 0.1).tobytes() == render(turn_view(), 0.1).tobytes()


def test_the_moving_piece_blinks():
    on, off = render(turn_view(), 0.0), render(turn_view(), 0.6)
    assert blink_on(0.0) and not blink_on(0.6)
    x, y = cell_of(BLUE, 2)
    box = (x * CELL, y * CELL, x * CELL + CELL, y * CELL + CELL)
    assert lit(on, box) > 0 and lit(off, box) == 0
    tx, ty = cell_of(BLUE, 7)
    tbox = (tx * CELL, ty * CELL, tx * CELL + CELL, ty * CELL + CELL)
    assert lit(off, tbox) > lit(on, tbox)  # the target shows its frame


def test_the_selected_choice_is_inverted():
    a = render(turn_view(selected=0))
    b = render(turn_view(selected=1))
    assert a.tobytes() != b.tobytes()
    # the inverted bar is mostly lit
    row0 = (58, 16, 127, 24)  # under the name and the roll
    assert lit(a, row0) > lit(b, row0)


def test_a_long_event_line_scrolls_and_a_short_one_stays():
    font = body_font()
    long = "Tah propadá: žádná figurka nemůže táhnout."
    assert scrolled(font, long, WIDTH, 0.0) != scrolled(font, long, WIDTH, 4.0)
    assert scrolled(font, "Krátce.", WIDTH, 9.0) == "Krátce."
    assert font.getlength(scrolled(font, long, WIDTH, 3.0)) <= WIDTH


def test_fit_and_wrap():
    font = body_font()
    assert fit(font, "x" * 40, 50).endswith("…") and font.getlength(fit(font, "x" * 40, 50)) <= 50
    assert wrap(font, "jedna dvě tři čtyři pět šest sedm osm devět deset jedenáct", 60)[0] == "jedna dvě"


def test_every_view_type_renders():
    for view in (turn_view(manual_roll=3, roll=None, choices=()),
                 ListView("Nabídka", ("a", "b", "c", "d", "e", "f", "g", "h"), 7, "pata"),
                 CloveceWinView(RED, "Červený", POS),
                 MessageView("Vypnout?", ("Hra zůstane uložena.",), "● ano")):
        im = render(view, 0.3)
        assert im.getbbox() is not None


def test_a_list_keeps_the_selected_item_in_view():
    items = tuple(f"Položka {i}" for i in range(12))
    top = render(ListView("T", items, 0))
    bottom = render(ListView("T", items, 11))
    assert top.tobytes() != bottom.tobytes()


def test_the_screen_says_when_the_dice_is_missing_or_lost():
    from PIL import Image, ImageDraw

    from companion.ui.screens import DICE_LOST, DICE_MISSING, line_height

    font = body_font()
    lh = line_height(font)
    x, y = 58, HEIGHT - 2 * lh

    def status_row(im: Image.Image) -> bytes:
        return im.crop((x, y, WIDTH, y + lh)).tobytes()

    for dice, label in (("missing", DICE_MISSING), ("lost", DICE_LOST)):
        assert fit(font, label, WIDTH - x) == label  # fits without an ellipsis
        want = Image.new("1", (WIDTH, HEIGHT))
        d = ImageDraw.Draw(want)
        d.fontmode = "1"
        d.text((x, y), label, font=font, fill=1)
        im = render(turn_view(roll=None, choices=(), manual_roll=2, dice=dice))
        assert status_row(im) == status_row(want)


def test_every_turn_prompt_fits_the_panel_without_an_ellipsis():
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2]
              / "companion/games/clovece/host.py").read_text()
    prompts = re.findall(r'prompt = "([^"]+)"', source)
    assert len(prompts) >= 6
    for p in prompts:
        assert fit(body_font(), p, WIDTH - 58) == p, p


# --- the layout check (what the every-screen test runs on every screen) -------------------


def test_layout_reports_texts_marks_and_bars_and_a_tidy_screen_has_no_problems():
    from companion.ui.screens import layout, problems

    image, inks = layout(ListView("Nabídka", tuple(f"Řádek {i}" for i in range(9)), 8, "pata"))
    kinds = {i.kind for i in inks}
    assert {"text", "bar", "mark"} <= kinds
    assert image.tobytes() == render(ListView("Nabídka", tuple(f"Řádek {i}" for i in range(9)),
                                              8, "pata")).tobytes()
    assert problems(inks) == []


def test_the_check_finds_a_mark_on_a_selection_bar_and_on_a_text():
    from companion.ui.screens import Ink, problems

    bar = Ink("bar", (0, 14, 128, 22))
    mark = Ink("mark", (122, 14, 127, 22), "▼", "▼")
    text = Ink("text", (1, 30, 125, 37), "Povinné vyhazování: ne", "Povinné vyhazování: ne")
    on_text = Ink("mark", (120, 30, 125, 37), "▼", "▼")
    found = problems([bar, mark, text, on_text])
    assert any("selection bar" in f for f in found)
    assert any("overlaps a mark" in f for f in found)


@dataclass(frozen=True)
class ClippedMessage(MessageView):
    """A message drawn as MessageView was before it wrapped: each line cut with an ellipsis,
    lines beyond the panel without room (what a careless game's own screen may do)."""


@renderer(ClippedMessage)
def _clipped(p: Painter, v: ClippedMessage, t: float) -> None:
    head, font = heading_font(), body_font()
    p.text((0, 0), v.title, head)
    y = line_height(head) + 2
    for line in v.lines:
        if y + line_height(font) > HEIGHT:
            p.lost(line)
            continue
        p.text((0, y), fit(font, line, WIDTH), font, whole=line)
        y += line_height(font)


LONG_LINE = "Tahle věta je na jeden řádek displeje opravdu příliš dlouhá."


def test_the_check_finds_an_ellipsis_a_lost_line_and_a_glyph_at_the_edge():
    from companion.ui.screens import layout, problems

    cut = problems(layout(ClippedMessage("Nadpis", (LONG_LINE,)))[1])
    assert any("shown cut" in f for f in cut)
    lost = problems(layout(ClippedMessage("Nadpis", ("řádek",) * 9))[1])
    assert any("no room" in f for f in lost)
    edge = problems(layout(turn_view(roll=None, choices=(), prompt="Táhni za PC, ●"))[1])
    assert any("edge" in f for f in edge)


def test_a_message_wraps_its_long_lines_and_turns_its_pages_never_cutting_a_word():
    """The shell's sentences (a refused write, a voice gone silent) and any game's long line
    in a message: wrapped over lines, and over pages that turn by themselves when there are
    more than the screen holds; every word is shown whole on some page."""
    from companion.service.shell import VOICE_LOST
    from companion.ui.screens import MESSAGE_PAGE_SECONDS, layout, message_pages, moves, problems

    short = MessageView("Nadpis", ("Krátký řádek.",), "● dál")
    assert not moves(short) and message_pages(short) == [("Krátký řádek.",)]
    one = MessageView("Závod", ("Hráč 1: pole 3 z 12", VOICE_LOST["no-espeak"]), "● dál")
    assert problems(layout(one)[1]) == [] and not moves(one)
    shown = " ".join(i.text for i in layout(one)[1] if i.kind == "text")
    assert VOICE_LOST["no-espeak"].split()[-1] in shown and "…" not in shown
    many = MessageView("Nadpis", (LONG_LINE,) * 4 + ("Nezlomitelnéslovonadelkuceléhodispleje.",),
                       "● dál")
    pages = message_pages(many)
    assert len(pages) > 1 and moves(many)
    words: list[str] = []
    for k in range(len(pages)):
        image, inks = layout(many, k * MESSAGE_PAGE_SECONDS + 0.1)
        assert problems(inks) == [], k
        assert any(i.text == f"{k + 1}/{len(pages)}" for i in inks)
        words += " ".join(i.text for i in inks if i.kind == "text" and i.box[1] > 12).split()
    assert " ".join(words).count("dlouhá.") == 4 and "…" not in " ".join(words)
    assert render(many, 0.1) != render(many, MESSAGE_PAGE_SECONDS + 0.1)


def test_a_scrolling_line_is_not_cut():
    from companion.ui.screens import layout, problems

    long = "Tah propadá: žádná figurka nemůže táhnout, hraje modrý."
    assert problems(layout(turn_view(event=long), 3.0)[1]) == []


def test_a_long_note_under_a_list_scrolls_instead_of_being_cut():
    """The set-up's note "Hlas mlčí: chybí zvuková karta." is wider than the panel."""
    from companion.service.shell import VOICE_LOST
    from companion.ui.screens import layout, problems

    note = VOICE_LOST["no-sound-card"]
    view = ListView("Nová hra: Člověče", ("Hra: Člověče", "Hráči: 4", "▶ Začít hru"), 0, note)
    image, inks = layout(view, 0.0)
    assert problems(inks) == []
    foot = [i for i in inks if i.whole == note]
    assert len(foot) == 1 and foot[0].scrolls and "…" not in foot[0].text
    assert render(view, 0.0) != render(view, 4.0)  # it moves
    texts = {i.text for t in (0.0, 2.0, 4.0, 6.0, 8.0) for i in layout(view, t)[1]
             if i.whole == note}
    assert any("karta" in text for text in texts)  # the end of the note comes into view


def test_a_view_of_a_new_kind_registers_its_drawing_and_screens_name_no_game():
    from dataclasses import dataclass
    from pathlib import Path

    import pytest

    import companion.ui.screens as screens
    from companion.ui.screens import renderer
    from companion.ui.views import View

    @dataclass(frozen=True)
    class Dot(View):
        x: int

    with pytest.raises(TypeError, match="No drawing is registered for Dot"):
        render_view(Dot(3))

    @renderer(Dot)
    def draw_dot(p: Painter, v: Dot, t: float) -> None:
        p.line((v.x, 10, v.x + 1, 11))

    image = render_view(Dot(3))
    assert image.getpixel((3, 10)) and image.getbbox() == (3, 10, 4, 11)
    source = Path(screens.__file__).read_text(encoding="utf-8").lower()
    for word in ("clovece", "napij", "gobbit", "člověče", "minimap", "referee"):
        assert word not in source, word


def test_a_line_stamped_from_its_kept_mask_is_the_line_drawn_afresh():
    """Painter.text draws each line's glyphs once and stamps the kept mask after: every
    pixel as ImageDraw.text draws it, on the panel's edges and on a lit bar too."""
    texts = ["", " ", "Hod: 6", "Žluťoučký kůň ▶", "◀ ● ▶", "Vrátit hod 5?", "jg ÁŽ", "x" * 40]
    places = [(0, 0), (1, 7), (-5, -3), (120, 58), (60, 50), (-30, 20)]
    for font in (body_font(), heading_font(), heading_font(bold=True)):
        for text in texts:
            for xy in places:
                for fill, ground in ((1, 0), (0, 1)):
                    fresh = Image.new("1", (128, 64), ground)
                    d = ImageDraw.Draw(fresh)
                    d.fontmode = "1"
                    d.text(xy, text, font=font, fill=fill)
                    for _ in range(2):  # the first time drawn, then from the kept mask
                        stamped = Image.new("1", (128, 64), ground)
                        p = ImageDraw.Draw(stamped)
                        p.fontmode = "1"
                        Painter(p).text(xy, text, font, fill=fill)
                        assert stamped.tobytes() == fresh.tobytes(), (text, xy, fill)
