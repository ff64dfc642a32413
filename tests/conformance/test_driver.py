"""Every registered game, played by the generic driver: seeded games of each (40 in make test,
200 in make test-long) from its
default set-up end, replay exactly from their journal records, and every action survives
``encode``/``decode`` (the protocol of :mod:`companion.engines.game`).

The game list is the registry's (:data:`companion.games.GAMES`), read when the tests are
collected, and the tiny game of ``tests/tinygame`` (:mod:`.games`): a game added to the
registry is checked here without a line of its own.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.engines.game import replay
from companion.games import GAMES
from companion.selfplay.driver import steps
from tests.conformance.games import TINY, entries

GAMES_PLAYED = 200
QUICK_GAMES = 40


def test_every_registered_game_is_checked_and_so_is_the_tiny_one():
    checked = [info.name for info in entries()]
    assert {p.name for p in GAMES} | {TINY.name} == set(checked) and len(checked) == len(set(checked))
    assert TINY.name not in {p.name for p in GAMES}  # added by its tests only, and gone after them


@pytest.mark.parametrize("played", [QUICK_GAMES, pytest.param(GAMES_PLAYED, marks=pytest.mark.long)])
def test_seeded_games_end_replay_from_their_records_and_every_action_round_trips(entry, played):
    game = entry.engine()
    setup = game.default_setup()
    header = json.loads(json.dumps(game.setup_record(setup)))
    assert game.setup_record(game.setup_from_record(header)) == header
    games = set()
    for seed in range(played):
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
    # the seeds play games of their own (a tiny game may repeat a short one now and then)
    assert len(games) >= played * 0.95, len(games)
