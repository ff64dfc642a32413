"""The position notation (round trips, clear errors) and the play and action syntax."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.errors import IllegalMove
from companion.games.napij.engine.actions import (
    Choose,
    DeclareBottle,
    Drank,
    Draw,
    Duty,
    Play,
    Shuffle,
    Step,
    Throw,
)
from companion.games.napij.engine.notation import (
    NotationError,
    format_action,
    format_play,
    format_position,
    parse_action,
    parse_choice,
    parse_place,
    parse_play,
    parse_position,
)
from companion.games.napij.engine.rules import apply, new_game
from companion.games.napij.engine.state import BOTTLE, DeckMode, DrinkReason, Phase
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import RULES, node, pos, with_top

CANONICAL = [
    "r:p,p,p,p b:p,p,p,p g:p,p,p,p y:p,p,p,p turn:r owe:r1@start?,b1@start?,g1@start?,y1@start?",
    "r:m12*3,p,p,rh4 g:c5+,zach-,p,p bottle:m3 turn:g owe:r1 drunk:g2",
    "r:m20,m30,p,p g:p,p,p,p bottle:m60 turn:r throws:6,6,3",
    "r:zach+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r tries:2",
    "r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r with:bottle",
    "r:rh1,rh2,rh3,rh4 g:m20,p,p,p bottle:m60 turn:r owe:g1,g1@glass.12 drunk:r9 winner:r",
    "r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:g owe:g1@knocked-out.r,r1@bottle?,g1@home.r?",
    "r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r owe:r1@card.14,r1@delay throw:owing",
    "r:zp2-i,tj+o,p,p b:m25,p,p,p bottle:m60 turn:r throws:2",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_positions_round_trip(text):
    assert format_position(parse_position(text)) == text


def test_a_position_waiting_for_a_card_choice_round_trips():
    state = pos(with_top("r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3", 10))
    after, _ = apply(state, parse_play(state, "m25=3"))
    text = format_position(after)
    assert "card:10@b1#1" in text.split()
    assert format_position(parse_position(text)) == text
    assert parse_position(text) == after


def test_the_start_position_is_the_new_game():
    assert parse_position(CANONICAL[0]) == new_game()


@pytest.mark.parametrize("text,words", [
    ("", "empty"),
    ("r:p,p,p,p turn:r", "at least two colours"),
    ("r:p,p,p,p g:p,p,p,p", "nobody's turn"),
    ("r:p,p,p g:p,p,p,p turn:r", "exactly 4 places"),
    ("r:p,p,p,p g:p,p,p,p turn:b", "does not play"),
    ("r:m1,m1,p,p g:p,p,p,p bottle:m60 turn:r", "two pieces on m1"),
    ("r:c5,p,p,p g:p,p,p,p bottle:m60 turn:r", "needs its heading"),
    ("r:x9,p,p,p g:p,p,p,p turn:r", "Unknown place"),
    ("r:m1,p,p,p g:p,p,p,p turn:r", "bottle is on it too"),
    ("r:m1,p,p,p g:p,p,p,p bottle:c5+ turn:r", "only on the main track"),
    ("r:gh1,p,p,p g:p,p,p,p bottle:m60 turn:r", "lane of g"),
    ("r:m1,p,p,p g:p,p,p,p bottle:m60 turn:r throws:3,6", "Only a six throws again"),
    ("r:m1,p,p,p g:p,p,p,p bottle:m60 turn:r tries:1", "tries counts only"),
    ("r:p*2,p,p,p g:p,p,p,p turn:r", "immune in the pub"),
    ("r:m1*7,p,p,p g:p,p,p,p bottle:m60 turn:r", "Bad immunity"),
    ("r:p,p,p,p g:p,p,p,p turn:r owe:b1", "does not play"),
    ("r:p,p,p,p g:p,p,p,p turn:r owe:r", "Bad owe entry"),
    ("r:p,p,p,p g:p,p,p,p turn:r deck:1,2,3", "every card"),
    ("r:p,p,p,p g:p,p,p,p turn:r winner:r", "does not have all four"),
    ("r:rh1,rh2,rh3,rh4 g:p,p,p,p bottle:m60 turn:r", "is not the winner"),
    ("r:rh1,p,p,p g:m20,p,p,p bottle:m25 turn:r with:bottle", "piece in play"),
    ("r:p,p,p,p g:p,p,p,p turn:r with:bottle", "piece in play"),
    ("r:p,p,p,p g:p,p,p,p turn:r card:10@r1#1", "main track"),
    ("r:p,p,p,p g:p,p,p,p turn:r queue:r1@m1", "queue goes only with card"),
    ("r:p,p,p,p g:p,p,p,p turn:r turn:g", "appears twice"),
    ("r:p,p,p,p g:p,p,p,p turn:r colour:r", "Unknown token"),
    ("r:p,p,p,p g:p,p,p,p turn", "key:value"),
    ("r:rl1,rh2,p,p g:p,p,p,p bottle:m60 turn:r throws:4", "No play uses all"),
])
def test_wrong_positions_are_refused_with_one_clear_sentence(text, words):
    with pytest.raises(NotationError) as exc:
        parse_position(text)
    message = str(exc.value)
    assert words in message and message.endswith(".") and "\n" not in message


def test_places():
    assert parse_place(RULES, "p") == -1
    assert parse_place(RULES, "zp2-o") == node("zp2-o")
    with pytest.raises(NotationError):
        parse_place(RULES, "zp2")


def test_play_syntax():
    state = pos("r:m12,m10,p,p g:p,p,p,p bottle:m60 turn:r throws:6,3")
    assert parse_play(state, "m12=6 m10>c1=3") == \
        Play((Step(0, (6,)), Step(1, (3,), node("c1+"))))
    assert parse_play(state, "m12=6,p=3") == Play((Step(0, (6,)), Step(2, (3,))))
    assert parse_play(state, "m12=9") == parse_play(state, "m12=6+3") == \
        parse_play(state, "m12=all") == Play((Step(0, (6, 3)),))
    assert parse_play(state, "m12=10") == Play((Step(0, (10,)),))  # refused later: not thrown
    assert format_play(state, Play((Step(1, (3,), node("c1+")), Step(0, (6,))))) == \
        "m10>c1=3 m12=6"
    for bad in ("", "m12", "m12=x", "12=6", "m12=6=3", "zz=6"):
        with pytest.raises(NotationError):
            parse_play(state, bad)
    with pytest.raises(IllegalMove):
        parse_play(state, "m40=3")  # nobody there
    with pytest.raises(IllegalMove):
        parse_play(state, "m12>sb1=3")  # no such way from m12
    bottle = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r with:bottle throws:5")
    assert parse_play(bottle, "bottle") == Play((Step(BOTTLE, (5,)),))
    assert format_play(bottle, parse_play(bottle, "bottle")) == "bottle"


def test_action_syntax_round_trips():
    state = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    for action in (Throw(4), DeclareBottle(), Drank(2), Duty(0, DrinkReason.UPSET)):
        assert parse_action(state, format_action(state, action)) == action
    assert parse_choice(state, "m30") == Choose(2, 0)
    assert format_action(state, Choose(2, 0)) == "choose m30"
    for bad in ("", "throw 7", "throw", "jump 3", "duty r angry", "drank x"):
        with pytest.raises(NotationError):
            parse_action(state, bad)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_position_of_a_random_game_round_trips(seed):
    rng = random.Random(seed)
    for k, (before, action, after, _events) in enumerate(play_steps(rng)):
        if k % 7:
            continue  # a sample keeps the test fast; every step is checked in test_selfplay
        text = format_position(after)
        assert parse_position(text) == after
        assert format_position(parse_position(text)) == text
        assert parse_action(before, format_action(before, action)) is not None


# --- deck modes, draws and the chance actions --------------------------------------------------

DECK_MODES = [
    "r:p,p,p,p g:p,p,p,p turn:r deck:unshuffled owe:r1,g1",
    "r:p,p,p,p g:p,p,p,p turn:r deck:unshuffled drunk:r1,g1",
    "r:m20,p,p,p g:m30,p,p,p bottle:m60 turn:r throws:6,3 deck:physical",
    "r:m40,p,p,p b:m28,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:physical draw:b1@m28#0",
    "r:m28,p,p,p b:m48,p,p,p g:m40,p,p,p bottle:m60 turn:b deck:physical draw:r1@m28#1 "
    "queue:b1@m48",
]


@pytest.mark.parametrize("text", DECK_MODES)
def test_deck_modes_and_draws_round_trip(text):
    assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("text,words", [
    ("r:m1,p,p,p g:p,p,p,p bottle:m60 turn:r deck:unshuffled", "start of the game"),
    ("r:p,p,p,p g:p,p,p,p turn:r throws:6 deck:unshuffled", "start of the game"),
    ("r:m28,p,p,p g:p,p,p,p bottle:m60 turn:r draw:r1@m28#0", "physical deck"),
    ("r:m28,p,p,p g:p,p,p,p bottle:m60 turn:r deck:physical draw:r1@m27#0", "card field"),
    ("r:m28,p,p,p g:p,p,p,p bottle:m60 turn:r deck:physical draw:r1", "CP@PLACE#K"),
    ("r:m28,p,p,p g:p,p,p,p bottle:m60 turn:r deck:physical draw:r1@m28#0 throws:3",
     "nobody throws"),
    ("r:m28,p,p,p g:p,p,p,p bottle:m60 turn:r deck:physical draw:r1@m28#40", "At most 32"),
])
def test_wrong_deck_and_draw_tokens_are_refused_with_one_sentence(text, words):
    with pytest.raises(NotationError) as exc:
        parse_position(text)
    message = str(exc.value)
    assert words in message and message.endswith(".") and "\n" not in message


def test_shuffle_and_draw_actions_round_trip():
    state = pos("r:p,p,p,p g:p,p,p,p turn:r deck:unshuffled")
    order = tuple(reversed(RULES.deck.numbers))
    for action in (Shuffle(order), Draw(17)):
        assert parse_action(state, format_action(state, action)) == action
    assert format_action(state, Draw(17)) == "draw 17"
    for bad in ("shuffle 1,x", "draw x", "draw", "shuffle"):
        with pytest.raises(NotationError):
            parse_action(state, bad)


@pytest.mark.parametrize("deck", [DeckMode.VIRTUAL, DeckMode.PHYSICAL])
def test_every_position_of_a_game_in_each_deck_mode_round_trips(deck):
    phases = set()
    for k, (before, action, after, _events) in enumerate(
            play_steps(random.Random(11), 3, deck=deck)):
        phases.add(after.phase)
        if k % 5 and after.phase not in (Phase.DRAW, Phase.CHOOSE, Phase.SHUFFLE):
            continue
        text = format_position(after)
        assert parse_position(text) == after, text
        assert parse_action(before, format_action(before, action)) == action
    wanted = {Phase.THROW, Phase.PLAY, Phase.OVER}
    wanted |= {Phase.DRAW} if deck is DeckMode.PHYSICAL else set()
    assert wanted <= phases


def test_the_debt_incurred_in_this_turn_round_trips_and_must_fit_the_debt():
    text = "r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r throws:6 owe:r1@card.3^,r1@glass.9^,r1"
    state = parse_position(text)
    assert format_position(state) == text and state.due(0) == 1 and state.later == 2
    assert state.owed[0] == 2 and state.glasses[0] == 1
    older = parse_position("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r owe:r2 glass:r1")
    assert format_position(older).endswith("owe:r2,r1@glass") and older.debt(0) == 3
    for bad, words in (("owe:g1^", "not theirs"), ("owe:r0", "at least one drink"),
                       ("owe:r1@beer", "Unknown reason"), ("owe:r1@start x", "key:value"),
                       ("glass:r1@card", "Bad glass entry"), ("throw:owing", "without a due"),
                       ("throw:now", "throw:owing")):
        with pytest.raises(NotationError) as exc:
            parse_position("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r " + bad)
        assert words in str(exc.value)


def test_a_card_offered_to_a_co_player_round_trips_and_is_checked():
    state = pos(with_top("r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3", 27))
    waiting, _ = apply(state, parse_play(state, "m25=3"))
    text = format_position(waiting)
    assert text.split()[-1] == "card:27@b1#1" and parse_position(text) == waiting
    answering, _ = apply(waiting, parse_action(waiting, "offer g"))
    text = format_position(answering)
    assert text.split()[-2:] == ["card:27@b1#1", "offer:g"] and parse_position(text) == answering
    assert format_action(answering, parse_action(answering, "decline g")) == "decline g"
    assert parse_action(answering, "choose m50") == Choose(2, 0)
    for bad, words in ((text.replace("offer:g", "offer:b"), "co-player"),
                       (text.replace("offer:g", "offer:y"), "co-player"),
                       (text.replace(" card:27@b1#1", ""), "offer goes only with card"),
                       (text.replace("card:27@", "card:10@"), "offers a deal")):
        with pytest.raises(NotationError) as exc:
            parse_position(bad)
        assert words in str(exc.value), bad
