"""Every registered game, played by the generic driver: 200 seeded games of each from its
default set-up end, replay exactly from their journal records, and every action survives
``encode``/``decode`` (the protocol of :mod:`companion.engines.game`).

The game list is the registry's (:data:`companion.registry.GAMES`), read when the tests are
collected: a game added to the registry is checked here without a line of its own.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.engines.game import replay
from companion.registry import GAMES
from companion.selfplay.driver import steps

GAMES_PLAYED = 200
NAMES = sorted(GAMES)


def test_every_registered_game_is_here():
    assert {"clovece", "napij", "gobbit"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_seeded_games_end_replay_from_their_records_and_every_action_round_trips(name):
    game = GAMES[name].game()
    setup = game.default_setup()
    header = json.loads(json.dumps(game.setup_record(setup)))
    assert game.setup_record(game.setup_from_record(header)) == header
    games = set()
    for seed in range(GAMES_PLAYED):
        records = [header]
        state = None
        for step in steps(game, setup, random.Random(seed)):
            record = json.loads(json.dumps(game.encode(step.action)))
            assert game.decode(record, step.before) == step.action, (seed, record)
            records.append(record)
            state = step.after
        assert state is not None and game.is_over(state), seed
        folded = replay(game, records)
        assert folded.error is None and folded.used == len(records), (seed, folded.error)
        assert folded.state == state and game.winners(folded.state) == game.winners(state)
        games.add(json.dumps(records))
    assert len(games) == GAMES_PLAYED  # every seed plays a game of its own
