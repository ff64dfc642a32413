from __future__ import annotations

import pytest

from companion.engines.clovece.describe import describe_event, explain, headline
from companion.engines.clovece.rules import (
    BLUE,
    GREEN,
    RED,
    Captured,
    Entered,
    EnteredGoal,
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
        "Červený táhl z 5 na 8.")
    assert headline([Entered(RED), RollAgain(RED)]) == "Červený nasadil figurku."
    assert headline([Moved(RED, 38, 41), EnteredGoal(RED, 41), Won(RED)]) == "Červený vyhrává!"


def test_goal_fields_are_named_in_moves():
    assert describe_event(Moved(BLUE, 38, 41)) == "Modrý táhl z 8 na f2."


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
