"""Random self-play of Člověče: seeded, reproducible, and fast enough to benchmark.

The fast path under the protocol: :func:`play_game` calls the rules'
``legal_moves`` and ``apply`` directly (what ``benchmarks/engine_vs_ludopy.py``
measures).  Its record and its random chooser are the generic driver's
(:mod:`companion.selfplay.driver`), and it draws exactly as the driver does, so
``driver.play(GAME, setup, Random(seed))`` plays the same game; a recorded
game's steps are protocol actions (:class:`~companion.games.clovece.engine.game.Roll`
and the moves) that :func:`companion.engines.game.replay` folds back.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import floor

from companion.games.clovece.engine.game import Action, Roll, State
from companion.games.clovece.engine.rules import (
    Event,
    Move,
    Position,
    apply,
    legal_moves,
    new_game,
)
from companion.selfplay.driver import GameRecord as GameRecord
from companion.selfplay.driver import random_chooser as random_chooser
from companion.selfplay.match import MatchGame

MAX_ROLLS = 100_000
"""A safety net only: a random game has never come near it (see the tests)."""

Chooser = Callable[[State, Sequence[Move]], Move]
"""``choose(State(pos, roll), moves) -> move``, as the driver's choosers."""

_ROLLS = tuple(Roll(v) for v in range(1, 7))


def play_steps(players: int, variants: frozenset[str], rng: random.Random,
               choose: Chooser | None = None
               ) -> Iterator[tuple[Position, int, Move | None, Position, list[Event]]]:
    """Yield (before, roll, move, after, events) for one game until somebody wins."""
    pick: Chooser = choose or random_chooser(rng)
    pos = new_game(players, variants)
    rnd = rng.random
    for _ in range(MAX_ROLLS):
        roll = floor(rnd() * 6) + 1
        moves = legal_moves(pos, roll)
        move = pick(State(pos, roll), moves) if moves else None
        after, events = apply(pos, roll, move)
        yield pos, roll, move, after, events
        pos = after
        if pos.winner is not None:
            return
    raise RuntimeError("a self-play game did not end")


def play_game(players: int, variants: frozenset[str], rng: random.Random,
              record: bool = False) -> GameRecord[State, Action, Event]:
    """One random game; ``record`` keeps every action (the rolls and the moves) for replays.

    The loop the benchmark measures: a uniform die, legal_moves, a uniform
    choice when there is one to make (``None`` lets apply play the only legal
    move, or the three-tries rule or the forfeit when none is legal), apply.
    ``floor(random() * n)`` draws exactly what ``int(random() * n)`` does, faster.
    """
    pos = new_game(players, variants)
    rnd = rng.random
    steps: list[Action] = []
    if record:
        for rolls in range(1, MAX_ROLLS + 1):
            roll = floor(rnd() * 6) + 1
            moves = legal_moves(pos, roll)
            n = len(moves)
            move = moves[floor(rnd() * n)] if n > 1 else None
            steps.append(_ROLLS[roll - 1])
            if n:
                steps.append(moves[0] if move is None else move)
            pos, _ = apply(pos, roll, move)
            if pos.winner is not None:
                return GameRecord((pos.winner,), rolls, steps, state=State(pos))
    else:  # the same loop without the record: the one the benchmark measures
        for rolls in range(1, MAX_ROLLS + 1):
            roll = floor(rnd() * 6) + 1
            moves = legal_moves(pos, roll)
            n = len(moves)
            pos, _ = apply(pos, roll, moves[floor(rnd() * n)] if n > 1 else None)
            if pos.winner is not None:
                return GameRecord((pos.winner,), rolls, steps, state=State(pos))
    raise RuntimeError("a self-play game did not end")


@dataclass
class SelfplayResult:
    games: int
    rolls: int
    seconds: float
    wins: dict[int, int]

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def rolls_per_s(self) -> float:
        return self.rolls / self.seconds if self.seconds else float("inf")


def selfplay(games: int, seed: int, players: int = 4,
             variants: frozenset[str] = frozenset()) -> SelfplayResult:
    rng = random.Random(seed)
    wins: dict[int, int] = {}
    rolls = 0
    t0 = time.perf_counter()
    for _ in range(games):
        rec = play_game(players, variants, rng)
        rolls += rec.rolls
        assert rec.winner is not None
        wins[rec.winner] = wins.get(rec.winner, 0) + 1
    return SelfplayResult(games, rolls, time.perf_counter() - t0, wins)


def match_game() -> MatchGame:
    """What a match between computer levels plays (:mod:`companion.selfplay.match`)."""
    from companion.games.clovece.engine.game import GAME, Setup
    from companion.games.clovece.levels import chooser

    return MatchGame(GAME, lambda n: Setup(n), chooser)
