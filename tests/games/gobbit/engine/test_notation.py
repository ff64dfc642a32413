"""The one-line state notation (its round trip over random games is in test_rules.py)."""

from __future__ import annotations

import pytest

from companion.engines.errors import NotationError
from companion.games.gobbit.engine.cards import parse_card
from companion.games.gobbit.engine.notation import format_state, parse_state
from companion.games.gobbit.engine.rules import new_game

TEXT = ("turn=2 rules=ghost,gorilla expert=yes gorilla=1 strays=- ghosts=3 out=- over=no"
        " | Mb,SyR/G | Cr/- | -/- | CbE,Sr")


def test_parse_and_format_round_trip():
    g = parse_state(TEXT)
    assert g.gorilla == 1 and g.ghosts == {3} and g.expert and g.turn == 2
    assert g.deck(1) == (parse_card("Mb"), parse_card("SyR"))
    assert g.graveyard[-1] == parse_card("Sr")
    assert format_state(g) == TEXT


def test_a_new_game_formats_with_empty_piles():
    g = new_game(2, [parse_card(c) for c in ("Sb", "Cr", "My")])
    assert format_state(g) == ("turn=1 rules=- expert=no gorilla=- strays=- ghosts=- out=- "
                               "over=no | My,Sb/- | Cr/- | -")


@pytest.mark.parametrize("text,fragment", [
    ("turn=1 | -/-", "seat sections"),
    (TEXT.replace("turn=2", "turn=9"), "turn="),
    (TEXT.replace(" over=no", ""), "over="),
    (TEXT.replace("over=no", "over=maybe"), "yes or no"),
    (TEXT.replace("ghosts=3", "ghosts=7"), "ghosts="),
    (TEXT.replace("rules=ghost", "rules=magic"), "Unknown rule"),
    (TEXT.replace("turn=2", "turn=2 colour=red"), "Unknown field"),
    (TEXT.replace("Cr/-", "Cr"), "DECK/PILE"),
    (TEXT.replace("Cr/-", "Xr/-"), "Bad card"),
    (TEXT.replace("turn=2", "turn"), "name=value"),
    (TEXT.replace("gorilla=1", "gorilla=1,2"), "one seat"),
])
def test_bad_states_are_refused_in_one_sentence(text, fragment):
    with pytest.raises(NotationError, match=fragment):
        parse_state(text)
