"""Random self-play of Člověče, napij se! against our Člověče engine, side by side in one run.

Both play four-player games with uniformly random choices among the legal
decisions, through their public drivers (``companion.games.napij.selfplay.play_game``
and the peer ``companion.games.clovece.selfplay.play_game``).  They are measured in
alternating rounds so that machine noise hits both alike; the figure that
counts is the ratio of the median rates.  A napij game is much longer and
richer than a Člověče game (a bigger board, cards, drinks, plays that split
the throws), so the ratio of games/s is far below 1; throws/s compares the cost
of one throw.

    .venv/bin/python benchmarks/napij_selfplay.py [--rounds 5] [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable


def napij(seconds: float, seed: int) -> tuple[int, int, float]:
    from companion.games.napij.selfplay import play_game

    rng = random.Random(seed)
    games = throws = 0
    t0 = time.perf_counter()
    while True:
        rec = play_game(4, rng)
        games += 1
        throws += rec.throws
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games, throws, elapsed


def clovece(seconds: float, seed: int) -> tuple[int, int, float]:
    from companion.games.clovece.selfplay import play_game

    rng = random.Random(seed)
    games = throws = 0
    t0 = time.perf_counter()
    while True:
        rec = play_game(4, frozenset(), rng)
        games += 1
        throws += rec.rolls
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games, throws, elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0, help="per engine per round")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    runners: dict[str, Callable[[float, int], tuple[int, int, float]]] = {
        "napij": napij, "clovece": clovece}
    rates: dict[str, list[tuple[float, float]]] = {k: [] for k in runners}
    for r in range(args.rounds):
        for name, run in runners.items():
            games, throws, elapsed = run(args.seconds, args.seed + r)
            rates[name].append((games / elapsed, throws / elapsed))
            print(f"round {r + 1}: {name:8s} {games / elapsed:9.2f} games/s "
                  f"{throws / elapsed:10.0f} throws/s ({throws / games:.0f} throws/game)",
                  flush=True)
    med = {k: (statistics.median(g for g, _ in v), statistics.median(t for _, t in v))
           for k, v in rates.items()}
    for name, (g, t) in med.items():
        print(f"median {name:8s} {g:9.2f} games/s {t:10.0f} throws/s")
    ratio_g = med["napij"][0] / med["clovece"][0]
    ratio_t = med["napij"][1] / med["clovece"][1]
    print(f"ratio napij/clovece: {ratio_g:.4f}x games/s, {ratio_t:.3f}x throws/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
