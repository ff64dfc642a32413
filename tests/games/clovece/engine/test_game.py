"""Člověče on the game protocol: the journal's records, the pending roll, why_not, the notation."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engines.errors import GameOver, IllegalMove, NotationError
from companion.engines.game import ROLL, replay
from companion.games import find_game
from companion.games.clovece.engine.game import GAME, Roll, Setup, Source, State
from companion.games.clovece.engine.notation import format_position, parse_position
from companion.games.clovece.engine.rules import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Entered,
    Rolled,
    TryFailed,
    Why,
    legal_moves,
)
from companion.selfplay.driver import play

HEADER = GAME.setup_record(Setup(2, frozenset(), frozenset({GREEN}), RED))


def roll_record(value: int, source: str = "dice") -> dict[str, object]:
    return {"t": "roll", "v": value, "src": source}


def folded(*records: dict[str, object]) -> State:
    result = replay(GAME, [HEADER, *records])
    assert result.error is None, result.error
    return result.state


# --- the set-up --------------------------------------------------------------------------


def test_the_header_is_todays_record_and_round_trips():
    setup = Setup(3, frozenset({"safe-start"}), frozenset({BLUE}), GREEN)
    record = GAME.setup_record(setup)
    assert record == {"t": "game", "game": "clovece", "players": 3, "variants": ["safe-start"],
                      "computer": ["b"], "first": "g"}
    assert GAME.setup_from_record(record) == setup
    assert GAME.setup_from_record(GAME.setup_record(GAME.default_setup())) == Setup()


def test_a_header_without_the_optional_keys_is_a_plain_game_red_first():
    assert GAME.setup_from_record({"t": "game", "game": "clovece", "players": 2}) == Setup(2)


@pytest.mark.parametrize("record,fragment", [
    ({"t": "game", "game": "gobbit", "seats": 2}, "gobbit"),
    ({"t": "roll", "v": 6}, "header"),
    ({"t": "game", "game": "clovece"}, "players"),
    ({"t": "game", "game": "clovece", "players": 5}, "players"),
    ({"t": "game", "game": "clovece", "players": True}, "players"),
    ({"t": "game", "game": "clovece", "players": 2, "variants": ["wild"]}, "wild"),
    ({"t": "game", "game": "clovece", "players": 2, "variants": "safe-start"}, "lists"),
    ({"t": "game", "game": "clovece", "players": 2, "computer": ["x"]}, "colour"),
    ({"t": "game", "game": "clovece", "players": 2, "first": "b"}, "does not play"),
])
def test_a_foreign_or_broken_header_is_refused(record, fragment):
    with pytest.raises(NotationError, match=fragment):
        GAME.setup_from_record(record)


def test_a_journal_without_a_header_or_of_another_game_is_refused():
    with pytest.raises(NotationError):
        replay(GAME, [roll_record(6)])
    with pytest.raises(NotationError):
        replay(GAME, [{"t": "game", "game": "gobbit", "players": 2}])


def test_the_registry_names_this_game():
    assert find_game("clovece").engine() is GAME


# --- rolls and moves (the table's session, now the protocol) -----------------------------------


def test_a_new_game_waits_for_a_roll():
    state = GAME.new_game(Setup(2))
    assert GAME.chance(state) == ROLL and GAME.to_move(state) is None
    assert GAME.legal_actions(state) == [Roll(v) for v in range(1, 7)]
    assert GAME.chance_action(state, 4, Source.MANUAL) == Roll(4, Source.MANUAL)
    with pytest.raises(NotationError):
        GAME.chance_action(state, (1, 2))


def test_a_roll_without_a_legal_move_is_played_at_once():
    state = folded(roll_record(3))
    assert state.roll is None
    assert format_position(state.pos) == "r:h,h,h,h g:h,h,h,h turn:r tries:1"
    _, events = GAME.apply(GAME.new_game(Setup(2)), Roll(3))
    assert events == [Rolled(RED, 3), TryFailed(RED, 1)]


def test_a_roll_with_moves_waits_for_the_move():
    state = folded(roll_record(6))
    assert state.roll == 6 and len(GAME.legal_actions(state)) == 1
    assert GAME.chance(state) is None and GAME.to_move(state) == RED
    move = GAME.decode({"t": "move", "from": "h"}, state)
    after, events = GAME.apply(state, move)
    assert format_position(after.pos) == "r:0,h,h,h g:h,h,h,h turn:r"
    assert after.roll is None and Entered(RED) in events


def test_records_that_do_not_fit_are_refused():
    start = GAME.new_game(Setup(2))
    with pytest.raises(IllegalMove) as no_roll:
        GAME.decode({"t": "move", "from": "h"}, start)
    assert no_roll.value.code == "no-roll"
    with pytest.raises(NotationError):
        GAME.decode({"t": "roll", "v": 7}, start)
    with pytest.raises(NotationError):
        GAME.decode({"t": "roll", "v": True}, start)
    six = folded(roll_record(6))
    with pytest.raises(IllegalMove) as second:
        GAME.apply(six, GAME.decode(roll_record(2), six))
    assert second.value.code == "roll-pending"
    with pytest.raises(IllegalMove) as nobody:
        GAME.decode({"t": "move", "from": "12"}, six)
    assert nobody.value.reason.why is Why.NO_PIECE and nobody.value.code == "no-piece"
    with pytest.raises(NotationError):
        GAME.decode({"t": "move", "from": "nowhere"}, six)
    with pytest.raises(NotationError):
        GAME.decode({"t": "move"}, six)
    with pytest.raises(NotationError):
        GAME.decode({"t": "dance"}, start)


def test_apply_refuses_actions_that_do_not_fit():
    start = GAME.new_game(Setup(2))
    with pytest.raises(IllegalMove) as no_roll:
        GAME.apply(start, legal_moves(parse_position("r:h,h,h,h g:h,h,h,h turn:r"), 6)[0])
    assert no_roll.value.code == "no-roll"
    with pytest.raises(IllegalMove) as out_of_range:
        GAME.apply(start, Roll(0))
    assert out_of_range.value.code == "roll-range"
    state = GAME.parse("r:5,15,h,h g:8,h,h,h turn:r roll:3")
    blocked = GAME.parse("r:5,8,h,h g:30,h,h,h turn:r roll:3")
    with pytest.raises(IllegalMove) as own:  # 5 + 3 lands on the own piece on 8
        GAME.apply(blocked, GAME.legal_actions(state)[0])
    assert own.value.code == "own-piece-on-target"
    wrong = replace(GAME.legal_actions(state)[0], to=30)
    with pytest.raises(IllegalMove) as wrong_target:
        GAME.apply(state, wrong)
    assert wrong_target.value.code == "wrong-move"


def test_replay_keeps_the_longest_prefix_that_fits():
    records = [HEADER, roll_record(6), {"t": "move", "from": "h"}, {"t": "move", "from": "0"}]
    result = replay(GAME, records)
    assert result.used == 3 and result.state.roll is None
    assert isinstance(result.error, IllegalMove) and result.error.code == "no-roll"
    assert format_position(result.state.pos) == "r:0,h,h,h g:h,h,h,h turn:r"


def test_a_move_record_names_the_from_location():
    state = folded(roll_record(6))
    assert GAME.encode(GAME.legal_actions(state)[0]) == {"t": "move", "from": "h"}


def test_a_roll_record_keeps_its_source():
    assert GAME.encode(Roll(4, Source.MANUAL)) == {"t": "roll", "v": 4, "src": "manual"}
    assert GAME.encode(Roll(2)) == {"t": "roll", "v": 2, "src": "dice"}
    start = GAME.new_game(Setup(2))
    assert GAME.decode({"t": "roll", "v": 5, "src": "computer"}, start) == \
        Roll(5, Source.COMPUTER)
    assert GAME.decode({"t": "roll", "v": 5}, start) == Roll(5, Source.DICE)
    with pytest.raises(NotationError, match="source"):
        GAME.decode({"t": "roll", "v": 5, "src": "wind"}, start)


def test_after_the_win_nothing_more_is_played():
    state = GAME.parse("r:38,f2,f3,f4 g:8,h,h,h turn:r roll:2")
    move = GAME.legal_actions(state)[0]
    won, events = GAME.apply(state, move)
    assert GAME.is_over(won) and GAME.winners(won) == (RED,)
    assert GAME.chance(won) is None and GAME.to_move(won) is None
    assert GAME.legal_actions(won) == []
    with pytest.raises(GameOver):
        GAME.apply(won, Roll(6))
    with pytest.raises(GameOver):
        GAME.decode({"t": "move", "from": "8"}, won)
    assert GAME.winners(state) == ()


# --- why not --------------------------------------------------------------------------


def test_why_not_says_in_czech_why_an_action_is_refused():
    start = GAME.new_game(Setup(2))
    assert GAME.why_not(start, Roll(5)) is None
    six = folded(roll_record(6))
    assert GAME.why_not(six, GAME.legal_actions(six)[0]) is None
    assert GAME.why_not(six, Roll(2)) == "Kostka už padla, teď se táhne figurkou."
    assert GAME.why_not(start, GAME.legal_actions(six)[0]) == \
        "Nejdřív se hází kostkou, teprve pak se táhne."
    assert GAME.why_not(start, Roll(9)) == "Na kostce padá jen jedna až šest."
    state = GAME.parse("r:5,15,h,h g:8,h,h,h turn:r roll:3")
    blocked = GAME.parse("r:5,8,h,h g:30,h,h,h turn:r roll:3")
    assert GAME.why_not(blocked, GAME.legal_actions(state)[0]) == \
        "Trojka by figurku postavila na tvoji vlastní."
    won = GAME.parse("r:f1,f2,f3,f4 g:8,h,h,h turn:r winner:r")
    assert GAME.why_not(won, Roll(6)) == "Hra už skončila."


def test_describe_speaks_czech_about_the_roll_and_the_rules_events():
    state = GAME.new_game(Setup(2))
    assert GAME.describe(Rolled(YELLOW, 6), state) == "Žlutý hodil šestku."
    assert GAME.describe(Rolled(RED, 1), state) == "Červený hodil jedničku."
    assert GAME.describe(TryFailed(RED, 1), state) == "Šestka nepadla, 1. pokus ze 3."


# --- the notation ----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "r:5,15,h,h g:8,h,h,h turn:r roll:3",
    "r:h,h,h,h g:h,h,h,h turn:r roll:6",
    "r:h,h,h,h g:h,h,h,h turn:g tries:2",
    "r:f1,f2,f3,f4 g:8,h,h,h turn:r winner:r",
])
def test_the_notation_with_the_pending_roll_round_trips(text):
    state = GAME.parse(text)
    assert GAME.format(state) == text
    assert state.roll == (int(text.rsplit(":", 1)[1]) if "roll:" in text else None)


def test_parse_accepts_the_roll_anywhere():
    assert GAME.parse("roll:3 r:5,15,h,h g:8,h,h,h turn:r") == \
        State(parse_position("r:5,15,h,h g:8,h,h,h turn:r"), 3)


@pytest.mark.parametrize("text,fragment", [
    ("r:h,h,h,h g:h,h,h,h turn:r roll:3", "no legal move"),
    ("r:f1,f2,f3,f4 g:8,h,h,h turn:r winner:r roll:2", "over"),
    ("r:5,15,h,h g:8,h,h,h turn:r roll:7", "1 to 6"),
    ("r:5,15,h,h g:8,h,h,h turn:r roll:", "1 to 6"),
    ("r:5,15,h,h g:8,h,h,h turn:r roll:3 roll:4", "twice"),
    ("r:5,15,h,h turn:r roll:3", "two colours"),
])
def test_parse_refuses_a_roll_that_cannot_be_pending(text, fragment):
    with pytest.raises(NotationError, match=fragment):
        GAME.parse(text)


# --- whole games ---------------------------------------------------------------------------


SETUPS = [Setup(2), Setup(3, frozenset({"mandatory-capture", "safe-start"}), first=BLUE),
          Setup(4, frozenset({"voluntary-entry", "no-jump-in-goal"}), frozenset({RED}), YELLOW)]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("setup", SETUPS, ids=["2", "3-variants", "4-variants"])
def test_every_action_round_trips_and_the_journal_replays_the_game(seed, setup):
    game = play(GAME, setup, random.Random(seed))
    state = GAME.new_game(setup)
    journal = [GAME.setup_record(setup)]
    for action in game.steps:
        record = GAME.encode(action)
        assert GAME.decode(record, state) == action
        journal.append(record)
        state, _ = GAME.apply(state, action)
    result = replay(GAME, journal)
    assert result.error is None and result.used == len(journal)
    assert result.state == state == game.state
    assert GAME.format(result.state) == GAME.format(state)
    assert GAME.is_over(state) and GAME.winners(state) == game.winners
