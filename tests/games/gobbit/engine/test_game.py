"""Gobbit on the game protocol: the deal as chance, the records, why_not, the header."""

from __future__ import annotations

import random
from dataclasses import replace
from math import floor

import pytest

from companion.engines.errors import GameOver, IllegalMove, NotationError
from companion.engines.game import ChanceKind, replay
from companion.games import find_game
from companion.games.gobbit.engine.cards import standard_deck
from companion.games.gobbit.engine.game import (
    GAME,
    Setup,
    action_record,
    record_action,
    with_deal_record,
)
from companion.games.gobbit.engine.judge import Touch
from companion.games.gobbit.engine.notation import parse_state
from companion.games.gobbit.engine.rules import (
    Deal,
    Dealt,
    Discard,
    Finish,
    Flip,
    State,
    Touches,
    card_counts,
    new_game,
)
from companion.selfplay.driver import play

ALL = frozenset({"gobbit", "ghost", "gorilla"})


def dealt(setup: Setup, seed: int = 1) -> State:
    state = GAME.new_game(setup)
    chance = GAME.chance(state)
    assert chance is not None
    order = list(range(chance.size))
    random.Random(seed).shuffle(order)
    state, _ = GAME.apply(state, GAME.chance_action(state, order))
    return state


# --- the set-up ------------------------------------------------------------------------------


def test_the_header_round_trips():
    setup = Setup(5, frozenset({"ghost", "gorilla"}), True, 3)
    record = GAME.setup_record(setup)
    assert record == {"t": "game", "game": "gobbit", "seats": 5, "rules": ["ghost", "gorilla"],
                      "expert": True, "first": 3}
    assert GAME.setup_from_record(record) == setup
    assert GAME.default_setup() == Setup(4, ALL, False, 1)


def test_the_tables_header_with_its_mode_and_without_first_is_read():
    record = {"t": "game", "game": "gobbit", "mode": "virtual", "seats": 3,
              "rules": ["ghost", "gobbit", "gorilla"], "expert": False}
    assert GAME.setup_from_record(record) == Setup(3, ALL, False, 1)


@pytest.mark.parametrize("record,fragment", [
    ({"t": "game", "game": "clovece", "players": 2}, "clovece"),
    ({"t": "flip", "seat": 1}, "header"),
    ({"t": "game", "game": "gobbit"}, "seats"),
    ({"t": "game", "game": "gobbit", "seats": 9}, "2 to 8"),
    ({"t": "game", "game": "gobbit", "seats": "4"}, "seats"),
    ({"t": "game", "game": "gobbit", "seats": 4, "rules": ["magic"]}, "magic"),
    ({"t": "game", "game": "gobbit", "seats": 4, "rules": "ghost"}, "list"),
    ({"t": "game", "game": "gobbit", "seats": 4, "expert": "yes"}, "expert"),
    ({"t": "game", "game": "gobbit", "seats": 4, "first": 5}, "first"),
])
def test_a_foreign_or_broken_header_is_refused(record, fragment):
    with pytest.raises(NotationError, match=fragment):
        GAME.setup_from_record(record)
    with pytest.raises(NotationError):
        replay(GAME, [record])


def test_the_registry_names_this_game():
    assert find_game("gobbit").engine() is GAME


# --- the deal is chance ----------------------------------------------------------------------


@pytest.mark.parametrize("rules,size", [(ALL, 48), (frozenset({"ghost"}), 45)])
def test_a_new_game_is_undealt_and_waits_for_the_shuffle(rules, size):
    state = GAME.new_game(Setup(3, rules))
    chance = GAME.chance(state)
    assert chance is not None and chance.kind is ChanceKind.SHUFFLE and chance.size == size
    assert GAME.legal_actions(state) == [] and GAME.to_move(state) is None
    assert not GAME.is_over(state) and GAME.winners(state) == ()
    assert GAME.parse(GAME.format(state)) == state  # the empty table has a notation too


@pytest.mark.parametrize("seats,first,rules,expert", [
    (2, 1, ALL, False), (3, 2, frozenset(), True), (5, 5, frozenset({"gorilla"}), False)])
def test_the_deal_deals_exactly_as_new_game_does(seats, first, rules, expert):
    state = GAME.new_game(Setup(seats, rules, expert, first))
    order = list(range(len(standard_deck(rules))))
    random.Random(seats).shuffle(order)
    after, events = GAME.apply(state, GAME.chance_action(state, order))
    deck = standard_deck(rules)
    assert after == new_game(seats, [deck[i] for i in order], first, rules, expert)
    assert events == [Dealt(first, card_counts(after))]
    assert GAME.chance(after) is None and GAME.to_move(after) == first
    assert GAME.legal_actions(after)[0] == Flip(first)


def test_the_deal_is_refused_twice_or_when_it_is_not_a_permutation():
    state = GAME.new_game(Setup(2, frozenset()))
    for order, code in [(tuple(range(44)), "bad-deal"), ((0,) * 45, "bad-deal"),
                        (tuple(range(1, 46)), "bad-deal")]:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, Deal(order))
        assert err.value.code == code
    with pytest.raises(IllegalMove) as first:
        GAME.apply(state, Flip(1))
    assert first.value.code == "not-dealt"
    with pytest.raises(IllegalMove) as again:
        GAME.apply(dealt(Setup(2, frozenset())), Deal(tuple(range(45))))
    assert again.value.code == "dealt"
    with pytest.raises(NotationError):
        GAME.chance_action(state, 3)


# --- records ---------------------------------------------------------------------------------


ACTIONS = [Deal((2, 0, 1)), Flip(2), Discard(3), Finish(),
           Touches((Touch(1, 2, 0.0), Touch(2, "g", 7.5), Touch(3, 3, 12.0))), Touches(()),
           Touches((Touch(1, 2, 0.0),), 60.0)]


def test_the_records_keep_todays_shapes_and_add_the_deal():
    assert [action_record(a) for a in ACTIONS] == [
        {"t": "deal", "order": [2, 0, 1]}, {"t": "flip", "seat": 2},
        {"t": "discard", "seat": 3}, {"t": "finish"},
        {"t": "touches", "touches": [[1, 2, 0.0], [2, "g", 7.5], [3, 3, 12.0]]},
        {"t": "touches", "touches": []},
        {"t": "touches", "touches": [[1, 2, 0.0]], "uncertainty": 60.0}]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: type(a).__name__)
def test_every_action_round_trips_through_its_record(action):
    state = GAME.new_game(Setup())
    assert GAME.decode(GAME.encode(action), state) == action
    assert record_action(action_record(action)) == action


@pytest.mark.parametrize("record", [
    {"t": "dance"}, {"t": "flip"}, {"t": "flip", "seat": "2"}, {"t": "flip", "seat": True},
    {"t": "deal"}, {"t": "deal", "order": [0, "1"]}, {"t": "touches"},
    {"t": "touches", "touches": [[1, 2]]}, {"t": "touches", "touches": [[1, "x", 3.0]]},
    {"t": "touches", "touches": [[1, 2, "soon"]]},
    {"t": "touches", "touches": [], "uncertainty": -1},
    {"t": "touches", "touches": [], "uncertainty": "30"},
    {"t": "touches", "touches": [], "uncertainty": True}])
def test_a_record_that_cannot_be_read_is_a_notation_error(record):
    with pytest.raises(NotationError):
        GAME.decode(record, GAME.new_game(Setup()))


def test_an_older_journal_with_the_shuffle_in_its_header_gets_a_deal_record():
    header = {"t": "game", "game": "gobbit", "mode": "virtual", "seats": 2, "rules": [],
              "expert": False, "order": list(range(45))}
    records = with_deal_record([header, {"t": "flip", "seat": 1}])
    assert records[1] == {"t": "deal", "order": list(range(45))} and "order" not in records[0]
    assert "order" in header  # the caller's records are not changed
    result = replay(GAME, records)
    assert result.error is None and result.used == 3
    assert with_deal_record(records) == records


# --- why not ---------------------------------------------------------------------------------


def test_why_not_says_in_czech_why_an_action_is_refused():
    g = parse_state("turn=1 rules=- expert=no gorilla=- strays=- ghosts=- out=- over=no "
                    "| Mb/- | -/Cb | -")
    assert GAME.why_not(g, Flip(1)) is None
    assert GAME.why_not(g, Touches((Touch(1, 2, 0.0),))) is None
    assert GAME.why_not(g, Flip(2)) == "Hráč 2 už nemá v balíčku žádnou kartu, kterou by otočil."
    assert GAME.why_not(g, Flip(5)) == "Hráč 5 u tohoto stolu nesedí."
    assert GAME.why_not(g, Discard(1)) == \
        "Hráč 1 neotočil žádnou kartu mimo pořadí, nemá co dát na hřbitov."
    assert GAME.why_not(g, Finish()) == "Hráč 1 ještě může otáčet, hra tedy pokračuje."
    undealt = GAME.new_game(Setup(2))
    assert GAME.why_not(undealt, Flip(1)) == "Karty ještě nejsou rozdané."
    assert GAME.why_not(undealt, Deal((0, 1))) == \
        "Zamíchaný balíček musí obsahovat každou z 48 karet právě jednou."
    assert GAME.why_not(g, Deal((0,))) == "Karty už jsou rozdané, podruhé se nerozdává."
    over = replace(g, over=True)
    assert GAME.why_not(over, Flip(1)) == "Hra už skončila."
    with pytest.raises(GameOver):
        GAME.apply(over, Flip(1))


def test_describe_speaks_czech_about_the_deal():
    state = dealt(Setup(3, first=2))
    assert GAME.describe(Dealt(2, card_counts(state)), state) == \
        "Karty jsou rozdané, první otáčí hráč 2."


# --- whole games -----------------------------------------------------------------------------


def toucher(rng: random.Random):
    """Flips as the driver's random chooser does, and now and then a moment of random touches."""
    def choose(state: State, actions):
        if rng.random() < 0.3:
            targets = [*state.seats, "g"]
            return Touches(tuple(
                Touch(rng.choice(state.seats), rng.choice(targets), float(rng.randrange(30)))
                for _ in range(rng.randrange(1, 4))))
        return actions[floor(rng.random() * len(actions))]
    return choose


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("setup", [Setup(2, frozenset()), Setup(3, ALL, True, 2), Setup(5, ALL)],
                         ids=["2-plain", "3-expert", "5-all"])
def test_a_seeded_game_replays_from_its_journal(seed, setup):
    rng = random.Random(seed)
    game = play(GAME, setup, rng, toucher(rng), max_actions=20_000)
    assert isinstance(game.steps[0], Deal) and game.chances == 1
    state = GAME.new_game(setup)
    journal = [GAME.setup_record(setup)]
    for action in game.steps:
        record = GAME.encode(action)
        assert GAME.decode(record, state) == action
        journal.append(record)
        state, _ = GAME.apply(state, action)
    result = replay(GAME, journal)
    assert result.error is None and result.used == len(journal)
    assert result.state == state == game.state and GAME.is_over(state)
    assert GAME.parse(GAME.format(state)) == state


def test_d28_the_uncertainty_of_a_moment_is_journaled_and_replays_alike():
    # Seat 1 attacks seat 2's pile 20 ms before seat 2 defends it.  Exact times: the attack
    # won; with the pads' 30 ms uncertainty the two are simultaneous and the owner keeps it.
    state = parse_state("turn=1 rules=- expert=no gorilla=- strays=- ghosts=- out=- over=no"
                        " | Sb,Sb/Sb | Sb,Sb/Cb | -")
    touches = (Touch(1, 2, 0.0), Touch(2, 2, 20.0))
    exact, _ = GAME.apply(state, Touches(touches))
    unsure, _ = GAME.apply(state, Touches(touches, 30.0))
    assert len(exact.pile(2)) == 0 and len(exact.deck(1)) == 3
    assert len(unsure.pile(2)) == 0 and len(unsure.deck(2)) == 3
    record = GAME.encode(Touches(touches, 30.0))
    assert record["uncertainty"] == 30.0
    assert GAME.apply(state, GAME.decode(record, state))[0] == unsure
