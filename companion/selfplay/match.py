"""Matches between computer levels: seeded games through the generic driver, win shares with
their 95 % intervals.

A match seats one *kind* of player per colour (``random`` - uniformly random
among the legal actions, the driver's own chooser - or a level of
:mod:`companion.players.levels`) and plays ``games`` seeded games with
:func:`companion.selfplay.driver.play`.  Game ``i`` draws from its own generator
(:func:`game_seed`), so a match gives the same result on any number of worker
processes; with ``rotate`` the seats turn by one colour every game, so every
kind sits in every colour equally often (red starts: no kind is favoured by the
seat it was given).

A kind's share is the games won by any of its seats; its interval is Wilson's
score interval at 95 %.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from companion.engines.colours import SEATS_BY_PLAYERS
from companion.engines.game import Game
from companion.players.levels import CZECH, LEVELS, Level, level_of
from companion.selfplay.driver import play, random_chooser

RANDOM = "random"
"""The seat kind that picks uniformly at random among the legal actions."""

Kind = str
"""``"random"`` or a :class:`~companion.players.levels.Level`'s value."""

Chooser = Callable[[Any, Sequence[Any]], Any]

Z95 = 1.959963984540054


def seat_kind(text: str) -> Kind:
    """A seat of ``--seats``: ``random`` or a level (Czech or English, accents optional)."""
    if text.strip().lower() == RANDOM:
        return RANDOM
    try:
        return level_of(text).value
    except ValueError:
        raise ValueError(f"Unknown seat {text.strip()!r}: a seat is random or a level "
                         f"({', '.join(CZECH[level] for level in LEVELS)}).") from None


def kind_name(kind: Kind) -> str:
    """How a kind is printed: the level's Czech name, or ``random``."""
    return RANDOM if kind == RANDOM else CZECH[Level(kind)]


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share ``wins / n`` (95 % by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded ``seed``."""
    return seed * 1_000_003 + index


@dataclass(frozen=True)
class MatchGame:
    """What a match needs of a game: its protocol object, a setup for ``n`` players, a
    chooser for each level and one for a random seat; ``turn_of`` names the colour on turn
    at a chance node, whose chooser may say something first (its ``interject``: a bottle
    declared, a drink, a called duty).  A game with computer levels gives one through its
    plugin (:attr:`companion.plugin.GamePlugin.match`)."""

    game: Game[Any, Any, Any, Any]
    setup: Callable[[int], Any]
    level_chooser: Callable[[Level], Chooser]
    random_chooser: Callable[[random.Random], Chooser] = random_chooser
    turn_of: Callable[[Any], int | None] | None = None


def seating(kinds: Sequence[Kind], index: int, rotate: bool) -> dict[int, Kind]:
    """Which kind plays which colour in game ``index``."""
    colours = SEATS_BY_PLAYERS[len(kinds)]
    turn = index % len(kinds) if rotate else 0
    return {colours[(k + turn) % len(kinds)]: kind for k, kind in enumerate(kinds)}


MakeMatchGame = Callable[[], MatchGame]
"""The game of a match, made in each worker process (a module-level function: a worker is
handed it by name)."""


def play_one(make: MakeMatchGame, kinds: Sequence[Kind], seed: int, index: int, rotate: bool
             ) -> Kind | None:
    """Play game ``index`` of a match; the winning kind (``None``: nobody won)."""
    mg = make()
    seats = seating(kinds, index, rotate)
    rng = random.Random(game_seed(seed, index))
    by_colour: dict[int, Chooser] = {}
    shared: dict[Kind, Chooser] = {}
    for colour, kind in seats.items():
        if kind not in shared:
            shared[kind] = (mg.random_chooser(rng) if kind == RANDOM
                            else mg.level_chooser(Level(kind)))
        by_colour[colour] = shared[kind]
    game = mg.game
    fallback = shared.get(RANDOM) or mg.random_chooser(rng)

    def choose(state: Any, actions: Sequence[Any]) -> Any:
        who = game.to_move(state)
        pick = by_colour.get(who) if who is not None else None
        return (pick or fallback)(state, actions)

    interject = None
    turn_of = mg.turn_of
    if turn_of is not None:
        def interject(state: Any) -> Any:
            who = turn_of(state)
            say = getattr(by_colour.get(who) if who is not None else None, "interject", None)
            return say(state) if say is not None else None

    record = play(game, mg.setup(len(kinds)), rng, choose, interject=interject)
    winner = record.winner
    return None if winner is None else seats.get(winner)


def _play_chunk(args: tuple[MakeMatchGame, tuple[Kind, ...], int, bool, range]
                ) -> list[Kind | None]:
    make, kinds, seed, rotate, indices = args
    return [play_one(make, kinds, seed, i, rotate) for i in indices]


@dataclass
class MatchResult:
    game: str
    kinds: tuple[Kind, ...]
    games: int
    seed: int
    rotate: bool
    wins: dict[Kind, int] = field(default_factory=dict)
    unfinished: int = 0
    seconds: float = 0.0

    def seats(self, kind: Kind) -> int:
        return self.kinds.count(kind)

    def share(self, kind: Kind) -> float:
        return self.wins.get(kind, 0) / self.games if self.games else 0.0

    def interval(self, kind: Kind) -> tuple[float, float]:
        return wilson(self.wins.get(kind, 0), self.games)

    def lines(self) -> list[str]:
        """The result as the CLI and the benchmark print it."""
        players = len(self.kinds)
        head = (f"{self.game}: {self.games:,} games, {players} players "
                f"({', '.join(kind_name(k) for k in self.kinds)}), "
                f"{'seats rotated' if self.rotate else 'seats fixed'}, seed {self.seed}")
        out = [head]
        for kind in dict.fromkeys(self.kinds):
            lo, hi = self.interval(kind)
            n = self.seats(kind)
            seats = f"{n} seats, {self.share(kind) / n:.1%} a seat" if n > 1 else "1 seat"
            out.append(f"  {kind_name(kind):11s} {self.wins.get(kind, 0):7,d} wins  "
                       f"{self.share(kind):6.1%}  (95 % interval {lo:.1%}–{hi:.1%})  {seats}")
        if self.unfinished:
            out.append(f"  unfinished  {self.unfinished:7,d}")
        out.append(f"  seconds: {self.seconds:.1f}")
        return out


def default_workers() -> int:
    """One worker process per core."""
    return max(1, os.cpu_count() or 1)


def run_match(name: str, make: MakeMatchGame, kinds: Sequence[Kind], games: int,
              seed: int = 1, rotate: bool = True, workers: int | None = None,
              chunk: int = 25) -> MatchResult:
    """Play a match of the game ``name`` (``make``: its :class:`MatchGame`); ``workers``
    processes (default: one per core; 1: in this process)."""
    make()  # a game that cannot be played fails here, before any process starts
    kinds = tuple(kinds)
    if len(kinds) not in SEATS_BY_PLAYERS:
        raise ValueError(f"A match seats 2 to 4 players, not {len(kinds)}.")
    workers = default_workers() if workers is None else workers
    jobs = [(make, kinds, seed, rotate, range(i, min(i + chunk, games)))
            for i in range(0, games, chunk)]
    t0 = time.perf_counter()
    if workers <= 1:
        results = [_play_chunk(job) for job in jobs]
    else:
        with get_context("forkserver").Pool(workers) as pool:  # not fork: a threaded parent
            # (pytest, the service) can leave a lock held in a forked child for ever
            results = pool.map(_play_chunk, jobs)
    result = MatchResult(name, kinds, games, seed, rotate)
    for chunk_result in results:
        for winner in chunk_result:
            if winner is None:
                result.unfinished += 1
            else:
                result.wins[winner] = result.wins.get(winner, 0) + 1
    result.seconds = time.perf_counter() - t0
    return result
