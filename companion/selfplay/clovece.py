"""Random self-play of Člověče: seeded, reproducible, and fast enough to benchmark."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from math import floor

from companion.engines.clovece.rules import (
    Event,
    Move,
    Position,
    apply,
    legal_moves,
    new_game,
)

MAX_ROLLS = 100_000
"""A safety net only: a random game has never come near it (see the tests)."""

Chooser = Callable[[Position, int, list[Move]], Move]


def random_chooser(rng: random.Random) -> Chooser:
    def choose(pos: Position, roll: int, moves: list[Move]) -> Move:
        return moves[int(rng.random() * len(moves))]
    return choose


@dataclass
class GameRecord:
    winner: int | None
    rolls: int
    steps: list[tuple[int, Move | None]] = field(default_factory=list)


def play_steps(players: int, variants: frozenset[str], rng: random.Random,
               choose: Chooser | None = None
               ) -> Iterator[tuple[Position, int, Move | None, Position, list[Event]]]:
    """Yield (before, roll, move, after, events) for one game until somebody wins."""
    pick = choose or random_chooser(rng)
    pos = new_game(players, variants)
    randint = rng.randint
    for _ in range(MAX_ROLLS):
        roll = randint(1, 6)
        moves = legal_moves(pos, roll)
        move = pick(pos, roll, moves) if moves else None
        after, events = apply(pos, roll, move)
        yield pos, roll, move, after, events
        pos = after
        if pos.winner is not None:
            return
    raise RuntimeError("a self-play game did not end")


def play_game(players: int, variants: frozenset[str], rng: random.Random,
              record: bool = False) -> GameRecord:
    """One random game; ``record`` keeps every (roll, move) for replays.

    The loop the benchmark measures: a uniform die, legal_moves, a uniform
    choice when there is one to make (``None`` lets apply play the only legal
    move, or the three-tries rule or the forfeit when none is legal), apply.
    ``floor(random() * n)`` draws exactly what ``int(random() * n)`` does, faster.
    """
    pos = new_game(players, variants)
    rnd = rng.random
    steps: list[tuple[int, Move | None]] = []
    for rolls in range(1, MAX_ROLLS + 1):
        roll = floor(rnd() * 6) + 1
        moves = legal_moves(pos, roll)
        n = len(moves)
        move = moves[floor(rnd() * n)] if n > 1 else None
        if record:
            steps.append((roll, move))
        pos, _ = apply(pos, roll, move)
        if pos.winner is not None:
            return GameRecord(pos.winner, rolls, steps)
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
