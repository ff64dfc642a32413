from __future__ import annotations

import random

from companion.games.clovece.engine.rules import new_game
from companion.games.clovece.selfplay import play_game, selfplay


def test_selfplay_counts_games_rolls_and_wins():
    result = selfplay(6, seed=4, players=3)
    assert result.games == 6
    assert sum(result.wins.values()) == 6
    assert set(result.wins) <= set(new_game(3).colours)
    assert result.rolls > 6 * 50  # nobody wins a random game in under 50 rolls
    assert result.games_per_s > 0


def test_recorded_games_differ_between_seeds():
    a = play_game(4, frozenset(), random.Random(1), record=True)
    b = play_game(4, frozenset(), random.Random(2), record=True)
    assert a.steps != b.steps
