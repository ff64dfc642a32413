"""How each kind of screen is read aloud (the voice mode)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.games.gobbit.screens import RefereeView
from companion.games.napij.views import Banner, NapijView, Row
from companion.ui.reading import Reading, read, sentence
from companion.ui.referee import Screen
from companion.ui.views import Choice, ListView, MessageView, View


def test_sentences_end_once():
    assert sentence("Nabídka", "", "Zpět.", "Hod: 5") == "Nabídka. Zpět. Hod: 5."


def test_a_list_reads_its_heading_and_the_selected_row_and_all_on_a_long_press():
    r = read(ListView("Nastavení", ("Zvuk: zapnutý", "Zpět"), 1, "dlouze ● = zpět"))
    assert r.new_screen() == "Nastavení. Zpět, řádek 2 z 2."
    assert r.whole == "Nastavení. Zvuk: zapnutý. Zpět. dlouze ● = zpět."
    assert r.key == read(ListView("Nastavení", ("Zvuk: vypnutý", "Zpět"), 0)).key


def test_a_turn_screen_reads_who_the_throw_what_to_do_and_the_move_in_words():
    pos = parse_position("r:h,h,h,5 b:h,h,h,h turn:r")
    v = CloveceTurnView(position=pos, colour=0, player="Červený", computer=False, roll=4,
                 prompt="◀▶ vyber, ● ok", choices=(Choice("5.→9."), Choice("na start")),
                 selected=1, words="Z domečku na start.")
    r = read(v)
    assert r.heading == "Červený. Hod: 4. ◀▶ vyber, ● ok."
    assert r.row == "Tah 2 z 2: Z domečku na start."
    other = read(CloveceTurnView(position=pos, colour=0, player="Červený", computer=False, roll=4,
                          prompt="", choices=v.choices, selected=0, words="Z 5. na 9. pole."))
    assert other.key == r.key and other.row != r.row  # ◀ ▶: the same screen, another row


def test_messages_referee_screens_wins_and_napij_banners():
    page = read(MessageView("Cíl hry 1/2", ("Každý hráč má", "čtyři figurky."), "◀ ▶"))
    assert page.new_screen() == "Cíl hry 1/2. Každý hráč má čtyři figurky."
    assert read(CloveceWinView(2, "Zelený", parse_position("r:h,h,h,h b:h,h,h,h turn:r"))
                ).new_screen() == "Vyhrává Zelený! ● nová hra."
    verdict = read(RefereeView(Screen("Verdikt", ("Hráč 1 bere", "kupičku hráče 2."))))
    assert verdict.new_screen() == "Verdikt. Hráč 1 bere kupičku hráče 2."
    banner = read(NapijView("Červený", banner=Banner("Napij se!", ("Červený", "shodil kostku")),
                            prompt="● vypito"))
    assert banner.new_screen() == "Napij se! Červený, shodil kostku. ● vypito."
    rows = read(NapijView("Dluhy", rows=(Row("Červený 2"), Row("Zpět")), selected=0))
    assert rows.row == "Červený 2, řádek 1 z 2"


@dataclass(frozen=True)
class Score(View):
    """A new game's own view, read by :func:`read_score` of this module."""

    points: int

    def reading(self) -> Reading:
        return read_score(self)


def read_score(view: Score) -> Reading:
    return Reading(("score", view.points), f"Body: {view.points}")


def test_a_view_of_a_new_kind_names_how_it_is_read_and_reading_names_no_game():
    """A game's own view is read without an edit of companion/ui/reading.py: its class says
    how it is read."""
    import companion.ui.reading as reading

    assert read(Score(3)).new_screen() == "Body: 3."
    assert read(Score(3)).key == ("score", 3)

    @dataclass(frozen=True)
    class Mute(View):
        pass

    assert read(Mute()).heading == ""  # it says nothing: its kind, no words
    source = Path(reading.__file__).read_text(encoding="utf-8").lower()
    for word in ("clovece", "napij", "gobbit", "referee", "člověče"):
        assert word not in source, word
