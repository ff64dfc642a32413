"""Czech sentences: every event, verdict reason and ruling has one, in whole sentences."""

from __future__ import annotations

import pytest

from companion.games.gobbit.engine.cards import Card, Condition, parse_card
from companion.games.gobbit.engine.describe import (
    CONDITION_LABEL,
    CONDITION_SENTENCE,
    call_sentences,
    card_acc,
    card_name,
    describe_event,
    game_over_sentence,
    kind_word,
    ms_text,
    refusal_sentence,
    ruling_sentences,
    why_sentence,
)
from companion.games.gobbit.engine.judge import Kind, Touch, Verdict, Why, judge, parse_situation
from companion.games.gobbit.engine.rules import (
    BecameGhost,
    ConditionChanged,
    Dealt,
    DeckCardBuried,
    Flipped,
    FlippedOutOfTurn,
    Fouled,
    GameEnded,
    GobbitWon,
    GorillaAttack,
    GorillaDiscarded,
    Judged,
    LeftGame,
    PileMoved,
    Reason,
    Refused,
    StrayDiscarded,
)

ENGLISH = ("the ", " and ", "seat", "pile", "foul ", "graveyard", "snake", "mosquito")


def is_sentence(text: str) -> bool:
    return (text[:1].isupper() and text.rstrip()[-1] in ".!" and "  " not in text
            and not any(word in text.lower() for word in ENGLISH))


def test_card_names_agree_in_gender_and_case():
    assert card_name(parse_card("Sb")) == "modrý had"
    assert card_acc(parse_card("Sb")) == "modrého hada"
    assert card_acc(parse_card("Cr")) == "červeného chameleona"
    assert card_acc(parse_card("My")) == "žlutého komára"
    assert card_name(parse_card("G")) == "gorila" and card_acc(parse_card("G")) == "gorilu"
    assert card_name(parse_card("Cr"), short=True) == "červ. chameleon"
    assert card_name(None) == "-"


CARD = Card("S", "b")
EVENTS = [Dealt(1, (16, 16, 16)), Flipped(2, CARD), FlippedOutOfTurn(2, CARD), GorillaAttack(1),
          GorillaDiscarded(1, Card("G", None)), StrayDiscarded(3, CARD), Fouled(2, Why.GRAVEYARD),
          PileMoved(2, 1, 3), PileMoved(2, 2, 3), PileMoved(2, "graveyard", 3),
          DeckCardBuried(1, CARD), GobbitWon(3), BecameGhost(2), LeftGame(2),
          ConditionChanged(Condition.REVERSED), ConditionChanged(None), GameEnded((1,), (3, 0)),
          Judged(judge(parse_situation("1:Sb 2:Cb t1>2@0")))]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_is_one_czech_sentence(event):
    assert is_sentence(describe_event(event)), describe_event(event)


def test_some_sentences_word_for_word():
    assert describe_event(Flipped(2, CARD)) == "Hráč 2 otočil modrého hada."
    assert describe_event(PileMoved(3, 1, 4)) == "Hráč 1 bere kupičku hráče 3."
    assert describe_event(BecameGhost(4)) == "Hráč 4 už nemá karty a stává se duchem."
    assert game_over_sentence((1, 3)) == "Konec hry, remíza hráčů 1 a 3."
    assert game_over_sentence((1, 2, 4)) == "Konec hry, remíza hráčů 1, 2 a 4."
    assert game_over_sentence(()) == "Konec hry: nikdo už nemá žádné karty."


@pytest.mark.parametrize("why", list(Why))
def test_every_reason_has_a_sentence(why):
    kind = Kind.FOUL if why in (Why.CANNOT_EAT, Why.NO_CARD, Why.EMPTY) else Kind.IGNORED
    v = Verdict(Touch(2, 1, 0.0), kind, why, True)
    assert is_sentence(why_sentence(v, {1: Card("C", "r"), 2: CARD})), why


def test_cannot_eat_names_both_animals():
    v = Verdict(Touch(2, 1, 0.0), Kind.FOUL, Why.CANNOT_EAT)
    assert why_sentence(v, {1: Card("C", "r"), 2: CARD}) == (
        "Modrý had nesmí sežrat červeného chameleona.")


def test_kind_words_fit_a_row():
    for kind in Kind:
        for decisive in (True, False):
            assert 1 <= len(kind_word(Verdict(Touch(1, 1, 0.0), kind, Why.CHAIN, decisive))) <= 8


@pytest.mark.parametrize("text,expected", [
    ("1:Sb 2:Cb t1>2@0", ["Hráč 1 bere kupičku hráče 2."]),
    ("1:Sb 2:Cb t2>2@0", ["Hráč 2 se ubránil a bere si svou kupičku."]),
    ("1:Sb 2:Cr t1>2@0", ["Hráč 1 fauloval, jeho kupička jde na hřbitov."]),
    ("1:- 2:Cr t1>2@0", ["Hráč 1 fauloval bez otočených karet, vrchní kartu balíčku dá na "
                         "hřbitov."]),
    ("1:Sb 2:Cr", ["Žádná kupička se nehýbe."]),
    ("1:Sb 2:Cb 3:Sr t2>3@0 t1>2@30", ["Hráč 2 fauloval, ale jeho kupičku dřív získal hráč 1."]),
    ("1:G 2:Cr rules:gorilla gorilla:1 t1>2@0", ["Gorila poslala kupičku hráče 2 na hřbitov."]),
    ("ghost:1 2:Cr 3:Cr rules:ghost t1>2@0", ["Kupička hráče 2 byla dvojice a jde na hřbitov."]),
    ("ghost:1 2:Cr 3:Cy rules:ghost t1>2@0", ["Duch se spletl, hráč 2 si bere svou kupičku."]),
    ("1:Mb 2:Mr 3:My graveyard:Sb rules:gobbit t2>g@0",
     ["Gobbit! Na hřbitov sáhl první hráč 2.", "Všichni si berou své kupičky a hráč 2 začíná."]),
    ("1:Mb 2:Mr 3:My graveyard:Sb rules:gobbit",
     ["Platí Gobbit: počítá se jen dotek hřbitova."]),
    ("1:Mb 2:Mr 3:My graveyard:Sb rules:gobbit uncertainty:30 t2>g@0 t1>g@12",
     ["Gobbit! Hráči 1 a 2 sáhli na hřbitov současně, přednost má nižší číslo: "
      "vyhrává hráč 1.", "Všichni si berou své kupičky a hráč 1 začíná."]),
])
def test_ruling_sentences(text, expected):
    assert ruling_sentences(judge(parse_situation(text))) == expected


def test_condition_labels_fit_the_screen_and_sentences_are_whole():
    for cond in Condition:
        assert len(CONDITION_LABEL[cond]) <= 21
        assert is_sentence(CONDITION_SENTENCE[cond])


@pytest.mark.parametrize("why", list(Refused))
def test_every_refusal_is_one_czech_sentence(why):
    text = refusal_sentence(Reason(why, 2, 45))
    assert is_sentence(text), text


def test_refusals_name_the_seat_and_the_deck():
    assert refusal_sentence(Reason(Refused.STRAY_FIRST, 3)) == (
        "Hráč 3 musí nejdřív dát kartu otočenou mimo pořadí na hřbitov.")
    assert "45 karet" in refusal_sentence(Reason(Refused.BAD_DEAL, None, 45))


# --- D28: how a close call was decided ------------------------------------------------------


def _calls(text: str, target) -> list[str]:
    return call_sentences(judge(parse_situation(text)), target)


def test_ms_text_is_a_tenth_with_a_decimal_comma():
    assert [ms_text(x) for x in (7.0, 7.44, 0.993, 47.0, -12.25, 1234.5)] == [
        "7", "7,4", "1", "47", "12,2", "1234,5"]


def test_a_gap_inside_the_uncertainty_is_said_to_be_simultaneous_and_precedence_named():
    lines = _calls("1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0 t3>3@7", 3)
    assert lines == ["7 ms – pod přesností čidel (±30 ms): současně.",
                     "Při současných dotecích má přednost majitel kupičky."]
    lines = _calls("1:Sb 2:Cb 3:Sb uncertainty:30 t1>2@10 t3>2@30", 2)
    assert lines[0].startswith("20 ms – pod přesností") and "hodinových" in lines[1]
    race = _calls("1:Mb 2:Mr 3:My graveyard:Sb rules:gobbit uncertainty:30 t3>g@0 t2>g@12", "g")
    assert race[0].startswith("12 ms") and "nižším číslem" in race[1]


def test_a_clear_gap_is_given_with_its_margin():
    assert _calls("1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0 t3>3@47.5", 3) == [
        "47,5 ms – nad přesností čidel (±30 ms) o 17,5 ms: první byl hráč 2."]
    assert _calls("1:Cr 2:Sb 3:Cb t2>3@0 t3>3@7", 3) == ["Hráč 2 byl první o 7 ms."]
    assert _calls("1:Cr 2:Sb 3:Cb t2>3@0 t3>3@0", 3)[0] == "Doteky přišly přesně ve stejnou chvíli."


def test_nothing_to_say_about_a_target_nobody_contested():
    assert _calls("1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0", 3) == []
    assert _calls("1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0", 1) == []


def test_a_touch_that_lost_a_tie_says_so_honestly():
    ruling = judge(parse_situation("1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0 t3>3@7"))
    attack = next(v for v in ruling.verdicts if v.touch.seat == 2)
    assert attack.tied and not attack.decisive
    assert kind_word(attack) == "současně"
    assert "současně" in why_sentence(attack) and "rychlejší" not in why_sentence(attack)
