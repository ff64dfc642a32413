from __future__ import annotations

import pytest

from companion.games.clovece.engine.describe import (
    describe_event,
    explain,
    headline,
    move_words,
    path_label,
    path_words,
    piece_words,
    rank_word,
    throw_line,
)
from companion.games.clovece.engine.rules import (
    BLUE,
    GREEN,
    HOUSE,
    RED,
    Captured,
    Entered,
    EnteredGoal,
    Move,
    Moved,
    PassReason,
    Reason,
    RollAgain,
    Rolled,
    TryFailed,
    TurnPassed,
    Why,
    Won,
)
from companion.ui.fonts import load_font

CZECH = set("áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ")


def test_a_capture_reads_like_the_table_says_it():
    assert describe_event(Captured(BLUE, GREEN, 12)) == "Modrý vyhodil zeleného."


def test_a_forfeit_says_why():
    text = describe_event(TurnPassed(RED, BLUE, PassReason.FORFEIT))
    assert text == "Tah propadá: žádná figurka nemůže táhnout."


def test_the_headline_prefers_the_most_telling_event():
    events = [Moved(RED, 5, 8), Captured(RED, GREEN, 8), TurnPassed(RED, GREEN, PassReason.DONE)]
    assert headline(events) == "Červený vyhodil zeleného."
    assert headline([Moved(RED, 5, 8), TurnPassed(RED, GREEN, PassReason.DONE)]) == (
        "Červený táhl z 5. na 8. pole.")
    assert headline([Entered(RED), RollAgain(RED)]) == "Červený nasadil figurku."
    assert headline([Moved(RED, 38, 41), EnteredGoal(RED, 41), Won(RED)]) == "Červený vyhrává!"


def test_fields_are_counted_from_the_players_own_start_and_the_goal_is_czech():
    # blue's 38th field is the engine's track field 8: the table never sees engine numbers
    assert describe_event(Moved(BLUE, 38, 41)) == "Modrý táhl z 38. pole do cíle 2."
    assert describe_event(Moved(GREEN, 0, 4)) == "Zelený táhl ze startu na 4. pole."
    assert describe_event(Moved(RED, 40, 42)) == "Červený táhl z cíle 1 do cíle 3."


@pytest.mark.parametrize("frm,to,words,label", [
    (HOUSE, 0, "z domečku na start", "na start"),
    (0, 6, "ze startu na 6. pole", "start→6."),
    (5, 8, "z 5. na 8. pole", "5.→8."),
    (38, 42, "z 38. pole do cíle 3", "38.→cíl 3"),
    (40, 43, "z cíle 1 do cíle 4", "cíl 1→4"),
])
def test_a_path_in_words_and_as_a_short_label(frm, to, words, label):
    assert path_words(frm, to) == words
    assert path_label(frm, to) == label
    assert len(label) <= 10  # a row of the turn screen


def test_alike_moves_are_told_apart_by_the_pieces_place_in_the_row():
    two = (27, 5, HOUSE, HOUSE)
    assert move_words(two, Move(RED, 27, 30, BLUE)) == (
        "Přední figurka z 27. na 30. pole, vyhodí modrého.")
    assert move_words(two, Move(RED, 5, 8, None)) == "Zadní figurka z 5. na 8. pole."
    assert move_words(two, Move(RED, HOUSE, 0, None)) == "Z domečku na start."
    four = (30, 20, 10, 2)
    assert [rank_word(four, p) for p in four] == ["přední", "druhá", "třetí", "zadní"]
    three = (30, 20, 41, 2)
    assert [rank_word(three, p) for p in (30, 20, 2, 41)] == ["přední", "prostřední", "zadní",
                                                             ""]
    alone = (12, 41, 42, HOUSE)
    assert move_words(alone, Move(RED, 12, 15, None)) == "Z 12. na 15. pole."
    assert piece_words(alone, 12) == "Figurka na 12. poli"
    assert piece_words(two, 27) == "Přední figurka (27. pole)"
    assert piece_words(alone, 41) == "Figurka v cíli 2" and piece_words(alone, HOUSE) == "Domeček"


def test_the_line_after_a_throw_names_the_number_also_when_nothing_moves():
    assert throw_line(RED, 5, []) == "Červený hodil 5."
    assert throw_line(GREEN, 2, [TryFailed(GREEN, 1)], computer=True) == (
        "Zelený (PC) hodil 2, šestka nepadla.")
    assert throw_line(RED, 4, [TryFailed(RED, 3), TurnPassed(RED, GREEN, PassReason.TRIES)]) \
        == "Červený hodil 4, ani třetí pokus nevyšel."
    assert throw_line(RED, 3, [TurnPassed(RED, GREEN, PassReason.FORFEIT)]) == (
        "Červený hodil 3, žádná figurka nemůže táhnout.")


@pytest.mark.parametrize("why", list(Why))
def test_every_reason_has_a_czech_sentence_the_font_can_draw(why):
    text = explain(Reason(why, RED, 5, 6, GREEN))
    assert text.endswith(".") and text[0].isupper()
    font = load_font()
    for ch in set(text):
        if ch != " ":
            assert font.getbbox(ch)[2] > 0, ch


def test_the_overshoot_names_the_roll():
    assert explain(Reason(Why.OVERSHOOTS_GOAL, RED, 38, 6, 1)).startswith("Šestka ")
    assert explain(Reason(Why.OVERSHOOTS_GOAL, RED, 41, 3, 1)).startswith("Trojka ")


def test_event_texts_use_czech_letters():
    texts = [describe_event(e) for e in (Captured(RED, GREEN, 1), TryFailed(RED, 1),
                                         TurnPassed(RED, GREEN, PassReason.TRIES), Won(BLUE))]
    assert any(set(t) & CZECH for t in texts)


@pytest.mark.parametrize("value,word", [(1, "jedničku"), (2, "dvojku"), (3, "trojku"),
                                        (4, "čtyřku"), (5, "pětku"), (6, "šestku")])
def test_a_roll_is_said_with_the_die_value_as_the_object(value, word):
    assert describe_event(Rolled(GREEN, value)) == f"Zelený hodil {word}."
    assert headline([Rolled(RED, value)]) == f"Červený hodil {word}."
    assert headline([Rolled(RED, value), TryFailed(RED, 1)]) == "Šestka nepadla, 1. pokus ze 3."
