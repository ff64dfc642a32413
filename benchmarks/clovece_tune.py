"""Tuning the strong level of Člověče: two sets of weights, the same seeded games, paired.

How the weights of ``companion.games.clovece.strong.WEIGHTS`` were chosen.  A
change to one weight moves the win share by a point or two, less than the noise
of 4,000 independent games, so the two candidates play *the same* games: every
colour throws from its own seeded die (its k-th throw is the same whatever was
played before) and every random seat draws its choices from its own generator.
The games then differ only where the candidates choose differently, and most
games end the same way for both; what counts are the games only one of them
won (a sign test on those: ``z``).  This is a tuning tool, fast rather than
general: it plays the rules' fast path (``legal_moves``/``apply``), not the
generic driver that ``benchmarks/levels.py`` measures the levels with.

    .venv/bin/python benchmarks/clovece_tune.py SEATS GAMES A B [--seed 1] [--workers 2]

SEATS names the seats in colour order with ``X`` for the candidate (``X,random``,
``X,random,random,random``, ``X,normal``); A and B are JSON objects of
``Weights`` fields (``{}``: the weights the level plays for that many players).
Example: ``benchmarks/clovece_tune.py X,random,random,random 2000 '{}'
'{"convex": 2.0}'``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from typing import Any

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.rules import (
    SEATS_BY_PLAYERS,
    Move,
    Position,
    apply,
    legal_moves,
    new_game,
)


def play_game(seed: int, index: int, seats: tuple[str, ...],
              candidate: Callable[[Position, int], Move | None]) -> bool:
    """Game ``index`` of ``seed``: whether the candidate (the ``X`` seat, playing
    ``candidate(pos, roll)`` whenever it has two or more legal moves) won it."""
    n = len(seats)
    colours = SEATS_BY_PLAYERS[n]
    turn = index % n  # the seats turn by one colour every game
    kinds = {colours[(k + turn) % n]: kind for k, kind in enumerate(seats)}
    me = next(c for c, kind in kinds.items() if kind == "X")
    dice = {c: random.Random(seed * 7919 + index * 31 + c).random for c in colours}
    picks = {c: random.Random(seed * 104729 + index * 37 + c).random for c in colours}
    pos = new_game(n)
    while pos.winner is None:
        c = pos.turn
        roll = math.floor(dice[c]() * 6) + 1
        moves = legal_moves(pos, roll)
        move = None
        if len(moves) > 1:
            kind = kinds[c]
            if kind == "X":
                move = candidate(pos, roll)
            elif kind == "normal":
                move = clovece_bot.choose(pos, roll)
            elif kind == "strong":
                move = clovece_strong.choose(pos, roll)
            else:
                move = moves[math.floor(picks[c]() * len(moves))]
        pos, _ = apply(pos, roll, move)
    return pos.winner == me


def one_game(args: tuple[int, int, tuple[str, ...], dict[str, Any]]) -> bool:
    """Game ``index``: whether the candidate (``X``, silný with the weights ``fields``) won it."""
    seed, index, seats, fields = args
    weights = dataclasses.replace(clovece_strong.WEIGHTS[len(seats)], **fields)
    return play_game(seed, index, seats, lambda pos, roll: clovece_strong.choose(pos, roll, weights))


def play(seats: tuple[str, ...], fields: dict[str, Any], games: int, seed: int,
         workers: int) -> list[bool]:
    jobs = [(seed, i, seats, fields) for i in range(games)]
    if workers <= 1:
        return [one_game(job) for job in jobs]
    with get_context("forkserver").Pool(workers) as pool:
        return pool.map(one_game, jobs, chunksize=25)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("seats", help="e.g. X,random,random,random")
    ap.add_argument("games", type=int)
    ap.add_argument("a", help="weights A as JSON")
    ap.add_argument("b", help="weights B as JSON")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    seats = tuple(args.seats.split(","))
    if seats.count("X") != 1 or not 2 <= len(seats) <= 4:
        print("SEATS names 2 to 4 seats, one of them X.", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    a = play(seats, json.loads(args.a), args.games, args.seed, args.workers)
    b = play(seats, json.loads(args.b), args.games, args.seed, args.workers)
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    z = (only_b - only_a) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
    print(f"{args.seats}, {args.games:,} paired games, seed {args.seed}: "
          f"A {sum(a) / args.games:.1%}  B {sum(b) / args.games:.1%}  "
          f"won by A only {only_a}, by B only {only_b}: z = {z:+.2f} "
          f"({'B better' if z > 1.96 else 'A better' if z < -1.96 else 'no clear difference'})"
          f"  [{time.perf_counter() - t0:.0f} s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
