"""The exact solver of smaller Člověče games (benchmarks/clovece_solve.py) on its smallest game,
one free piece a colour (f2–f4 parked): every position is found, the values satisfy the Bellman
equation worked out afresh by the engine, and an end game it reaches has the value counted by
hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.games.clovece.engine.rules import Position, occupancy
from companion.games.clovece.strong import WEIGHTS
from tests.script_loader import load_script

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "clovece_solve.py"


@pytest.fixture(scope="module")
def solver():
    return load_script(SCRIPT, "clovece_solve")


@pytest.fixture(scope="module")
def game(solver):
    return solver.enumerate_game(1, lambda line: None)


def test_every_position_of_one_free_piece_is_found_once(solver, game):
    assert len(set(game.codes)) == game.n == len(game.index)
    assert all(game.encode(game.decode(c)) == c for c in game.codes[:500])
    # one free piece never has two legal moves
    assert int(np.max(np.diff(game.ptr))) == 1
    assert 3000 < game.n < 42 * 42 * 2 * 3


def test_the_values_satisfy_the_bellman_equation_and_the_seats_share_every_game(solver, game):
    red, sweeps, change = solver.solve(game, solver.RED, None, 1e-12)
    green, _, _ = solver.solve(game, solver.GREEN, None, 1e-12, hero_random=True)
    assert change <= 1e-12 and sweeps > 10
    assert solver.bellman_error(game, red, solver.RED, game.n, 1) < 1e-10
    # one piece each: no choice, so red's and green's chances add up to 1 everywhere
    assert np.allclose(red[:game.n] + green[:game.n], 1.0, atol=1e-9)
    assert 0.5 < red[0] < 0.6  # throwing first is an advantage


def test_two_pieces_on_their_last_field_win_six_times_in_eleven(solver, game):
    # both on progress 39, f1 the only free goal field: a 1 wins, anything else passes the turn
    # (in play, so no three tries); red throws: 1/6 / (1 − (5/6)²) = 6/11
    pieces = ((39, 41, 42, 43), None, (39, 41, 42, 43), None)
    pos = Position(pieces, 0, 0, frozenset(), None, occupancy(pieces))
    red, _, _ = solver.solve(game, solver.RED, None, 1e-13)
    assert red[game.node(pos)] == pytest.approx(6 / 11, abs=1e-10)


def test_a_player_with_no_choice_has_no_gap_whatever_its_weights(solver, game):
    # one free piece a colour: never two legal moves, so silný with any weights plays the best
    red, _, _ = solver.solve(game, solver.RED, None, 1e-12)
    weights = solver.changed(WEIGHTS[2], '{"goal": 3, "convex": 2.0}')
    assert weights.goal == 3 and weights.convex == 2.0 and weights.deep
    assert solver.strong_gap(game, red, solver.RED, weights, 30, 1) == (0.0, 0.0)
    with pytest.raises(TypeError):
        solver.changed(WEIGHTS[2], "[1]")
