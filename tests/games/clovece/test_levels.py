"""Člověče's computer seat at each level: legal moves, pure choices, the beginner's captures."""

from __future__ import annotations

import random

import pytest

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.game import GAME, Setup, State
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import apply, legal_moves, new_game
from companion.games.clovece.levels import BEGINNER_CAPTURES, beginner, choose, chooser
from companion.players.levels import LEVELS, Level
from companion.selfplay.driver import play


def positions(games: int, players: int, seed: int, variants: frozenset[str] = frozenset()
              ) -> list[tuple[object, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = new_game(players, variants)
        while pos.winner is None:
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            out.append((pos, roll))
            pos, _ = apply(pos, roll, rng.choice(moves) if moves else None)
    return out


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variants", [frozenset(), frozenset({"mandatory-capture", "safe-start"}),
                                      frozenset({"voluntary-entry", "no-jump-in-goal"})])
def test_every_level_plays_a_legal_move_and_the_same_one_twice(level, variants):
    for pos, roll in positions(2, 4, 11, variants)[::3]:
        moves = legal_moves(pos, roll)
        move = choose(level, pos, roll)
        assert (move is None) == (not moves)
        assert move is None or move in moves
        assert choose(level, pos, roll) == move


def test_normal_is_the_heuristic_the_table_always_had_and_strong_the_search():
    for pos, roll in positions(2, 2, 3)[::5]:
        assert choose(Level.NORMAL, pos, roll) == clovece_bot.choose(pos, roll)
        assert choose(Level.STRONG, pos, roll) == clovece_strong.choose(pos, roll)


def test_the_beginner_takes_a_capture_only_some_of_the_time():
    chances = [(pos, roll) for pos, roll in positions(40, 4, 5)
               if len(legal_moves(pos, roll)) > 1
               and any(m.capture is not None for m in legal_moves(pos, roll))
               and not all(m.capture is not None for m in legal_moves(pos, roll))]
    assert len(chances) > 200
    took = sum(beginner(pos, roll).capture is not None for pos, roll in chances)
    share = took / len(chances)
    assert BEGINNER_CAPTURES * 0.8 < share < 0.95  # more than its coin, never every time


def test_the_beginner_picks_different_moves_in_different_positions():
    picks = [legal_moves(pos, roll).index(beginner(pos, roll))
             for pos, roll in positions(20, 4, 8) if len(legal_moves(pos, roll)) == 3]
    assert set(picks) == {0, 1, 2}


def test_the_chooser_answers_the_protocols_moves_like_choose():
    pos = parse_position("r:5,15,f1,f2 g:8,h,h,h turn:r")
    state = State(pos, 3)
    for level in LEVELS:
        assert chooser(level)(state, GAME.legal_actions(state)) == choose(level, pos, 3)
    record = play(GAME, Setup(2), random.Random(4), chooser(Level.STRONG))
    assert record.winner is not None


def test_the_chooser_refuses_an_empty_list():
    with pytest.raises(ValueError):
        chooser(Level.NORMAL)(State(new_game(2), 3), [])
