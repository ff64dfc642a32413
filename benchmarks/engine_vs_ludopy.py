"""Random self-play: this Člověče engine against LUDOpy, side by side in one run.

Both engines play four-player games with uniformly random choices among the
legal moves, through their public APIs (ours: ``legal_moves`` + ``apply``, as
``companion.games.clovece.selfplay.play_game`` calls them, every event produced;
LUDOpy: ``get_observation`` + ``answer_observation``, which rolls its own die
with numpy and records its history, as its API always does).  Both drivers
pick a move the same way, ``floor(random() * n)`` from a ``random.Random``
seeded alike (no draw when only one move is legal), and our die is ``floor(random() * 6) + 1`` from the same
generator.  The two are measured in alternating rounds, the one that goes first
switching every round, so that machine noise and any order effect hit both
alike; the ratio of the median rates is the figure that counts.  The seconds are the
process's CPU time (``--clock wall``: the wall clock), so that on a shared
machine the other processes' share of the cores does not move one round's rate.  The headline is
dice rolls per second (target: >= 20x LUDOpy's rolls/s, docs/PRODUCT's table):
the two rule sets make games of different lengths (ours about 500 rolls,
LUDOpy's about 385: our three tries for a six hold whenever no piece is in play,
not only in the first round), so games/s compares unequal work; it is printed
too.  One LUDOpy observation answered is one roll of its die.

    .venv/bin/pip install -e '.[bench]'      # LUDOpy, for the benchmark only
    .venv/bin/python benchmarks/engine_vs_ludopy.py [--rounds 5] [--seconds 3] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from math import floor

CLOCK: Callable[[], float] = time.process_time
"""What a round's seconds are counted in (``--clock``): the process's CPU time by default, which
the other processes of a shared machine do not add to; ``wall`` for ``perf_counter``."""


def ours(seconds: float, seed: int) -> tuple[int, int, float]:
    from companion.games.clovece.selfplay import play_game

    rng = random.Random(seed)
    games = rolls = 0
    t0 = CLOCK()
    while True:
        rec = play_game(4, frozenset(), rng)
        games += 1
        rolls += rec.rolls
        elapsed = CLOCK() - t0
        if elapsed >= seconds:
            return games, rolls, elapsed


def ludopy_games(seconds: float, seed: int) -> tuple[int, int, float]:
    import ludopy  # type: ignore[import-untyped]
    import numpy as np

    np.random.seed(seed)
    rng = random.Random(seed)
    game = ludopy.Game()
    games = steps = 0
    t0 = CLOCK()
    while True:
        game.reset()
        done = False
        while not done:
            (_dice, movable, _pp, _ep, _won, _any), _player = game.get_observation()
            n = len(movable)
            piece = movable[floor(rng.random() * n)] if n > 1 else movable[0] if n else -1
            *_, done = game.answer_observation(piece)
            steps += 1
        games += 1
        elapsed = CLOCK() - t0
        if elapsed >= seconds:
            return games, steps, elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0, help="per engine per round")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="count a round's seconds in CPU time (default) or on the wall clock")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    try:
        import ludopy  # noqa: F401
    except ImportError:
        print("LUDOpy is not installed: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
        return 2
    runners: dict[str, Callable[[float, int], tuple[int, int, float]]] = {
        "companion": ours, "ludopy": ludopy_games}
    rates: dict[str, list[tuple[float, float]]] = {k: [] for k in runners}
    for r in range(args.rounds):
        order = list(runners.items()) if r % 2 == 0 else list(runners.items())[::-1]
        for name, run in order:
            games, turns, elapsed = run(args.seconds, args.seed + r)
            rates[name].append((games / elapsed, turns / elapsed))
            print(f"round {r + 1}: {name:9s} {turns / elapsed:10.0f} rolls/s "
                  f"{games / elapsed:9.1f} games/s ({turns / games:.0f} rolls/game)", flush=True)
    med = {k: (statistics.median(g for g, _ in v), statistics.median(t for _, t in v))
           for k, v in rates.items()}
    for name, (g, t) in med.items():
        print(f"median {name:9s} {t:10.0f} rolls/s {g:9.1f} games/s")
    ratio_g = med["companion"][0] / med["ludopy"][0]
    ratio_t = med["companion"][1] / med["ludopy"][1]
    print(f"ratio companion/ludopy ({args.clock} time): {ratio_t:.1f}x rolls/s "
          f"(target >= 20x rolls/s: {'met' if ratio_t >= 20 else 'NOT met'}); "
          f"{ratio_g:.1f}x games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
