from __future__ import annotations

import random

from companion.games.clovece.bot import choose, choose_action
from companion.games.clovece.engine.game import GAME, Roll, Setup, State
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import GREEN, RED, apply, legal_moves, new_game
from companion.selfplay.driver import play


def test_the_bot_takes_a_capture():
    pos = parse_position("r:5,15,f1,f2 g:8,h,h,h turn:r")
    move = choose(pos, 3)
    assert move is not None and move.capture == GREEN


def test_the_bot_brings_a_piece_home():
    pos = parse_position("r:38,15,f2,f3 g:30,h,h,h turn:r")
    move = choose(pos, 2)
    assert move is not None and (move.frm, move.to) == (38, 40)


def test_the_bot_has_no_move_when_none_is_legal():
    assert choose(parse_position("r:h,h,h,h g:h,h,h,h turn:r"), 3) is None


def test_the_bot_always_plays_a_legal_move_and_beats_random_play_often():
    rng = random.Random(5)
    bot_wins = 0
    for _ in range(30):
        pos = new_game(2)
        while pos.winner is None:
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            if pos.turn == RED:
                move = choose(pos, roll)
                assert (move is None) == (not moves)
                assert move is None or move in moves
            else:
                move = rng.choice(moves) if moves else None
            pos, _ = apply(pos, roll, move)
        bot_wins += pos.winner == RED
    assert bot_wins >= 18  # a strategy at all: clearly better than a coin toss over 30 games


def test_over_the_protocol_the_bot_chooses_what_choose_does():
    pos = parse_position("r:5,15,f1,f2 g:8,h,h,h turn:r")
    state = State(pos, 3)
    assert choose_action(state, GAME.legal_actions(state)) == choose(pos, 3)
    game = play(GAME, Setup(2), random.Random(8), choose_action)
    assert game.winner is not None
    states = [GAME.new_game(Setup(2))]
    for action in game.steps:
        states.append(GAME.apply(states[-1], action)[0])
    for before, action in zip(states, game.steps, strict=False):
        if not isinstance(action, Roll):  # every move is the one choose() picks
            assert action == choose(before.pos, before.roll)
