"""How long the strong level (silný) takes to decide, over the positions of seeded games,
beside the normal level and the engine's own move list on the same positions.

The positions are every decision with two or more legal moves in ``--games`` seeded
games (default 200: 100 of two players, 100 of four, every seat played by silný,
so the positions are the ones it meets).  Each decision is timed alone on a fresh
copy of the position, so that no cache of the engine's helps, twice: the wall
clock (``perf_counter``) and the thread's own CPU time (``thread_time``, which a
busy machine's other processes do not add to; the targets are checked on it and
both are printed); the three are measured in alternating halves so that machine
noise hits all alike.  Targets (docs/players/computer-players.md): median <= 5 ms,
p99 <= 50 ms on a PC (a Pi Zero 2 W is about ten times slower).

``--game napij``: the same for napij se, its games played through the generic driver
(every seat silný, bottle and cards as the level plays them); a position is every
choice between two or more plays, the peers are the normal level's decision and
the engine's ``legal_plays``.

``--json`` prints silný's figures alone (no peers) as one JSON object: ``make pi-check``
runs it under the arm64 emulation and on this machine (scripts/pi-check.py).

    .venv/bin/python benchmarks/strong_decision.py [--games 200] [--game clovece|napij] [--json]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the other benchmarks)

TARGET_MEDIAN_MS = 5.0
TARGET_P99_MS = 50.0


def positions(games: int, seed: int = 1) -> list[tuple[Any, int]]:
    """(position, roll) of every choice between two or more moves in seeded games."""
    from companion.games.clovece.engine.rules import apply, legal_moves, new_game
    from companion.games.clovece.strong import choose

    out = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        pos = new_game(2 if g % 2 == 0 else 4)
        while pos.winner is None:
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            if len(moves) > 1:
                out.append((pos, roll))
            pos, _ = apply(pos, roll, choose(pos, roll) if len(moves) > 1 else None)
    return out


def napij_positions(games: int, seed: int = 1) -> list[tuple[Any, int]]:
    """(state, 0) of every choice between two or more plays in seeded napij se games."""
    from companion.games.napij.engine.game import GAME, Setup
    from companion.games.napij.engine.rules import legal_plays
    from companion.games.napij.engine.state import Phase
    from companion.games.napij.levels import Seat
    from companion.players.levels import Level
    from companion.selfplay.driver import steps

    out = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        seat = Seat(Level.STRONG)
        for step in steps(GAME, Setup(2 if g % 2 == 0 else 4), rng, seat):
            state = step.before
            if not step.chance and state.phase is Phase.PLAY and len(legal_plays(state)) > 1:
                out.append((state, 0))
    return out


def timed(fn: Callable[[Any, int], Any], items: list[tuple[Any, int]],
          wall: list[float]) -> list[float]:
    """CPU milliseconds of each call (the wall-clock ones are added to ``wall``)."""
    ms = []
    for pos, roll in items:
        fresh = copy.copy(pos)  # a new object: the engine's one-position cache misses
        t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
        fn(fresh, roll)
        c1, t1 = time.thread_time_ns(), time.perf_counter_ns()
        ms.append((c1 - c0) / 1e6)
        wall.append((t1 - t0) / 1e6)
    return ms


@dataclass
class Measured:
    """CPU milliseconds of every decision (the peers' empty when not measured)."""

    game: str  # "Člověče" or "napij se"
    listing: str  # the engine's move list: "legal_moves" or "legal_plays"
    games: int
    strong: list[float]
    wall: list[float]
    normal: list[float] = field(default_factory=list)
    engine: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """silný's figures in milliseconds (CPU time), as ``--json`` prints them."""
        return {"game": self.game, "games": self.games, "decisions": len(self.strong),
                "median_ms": statistics.median(self.strong),
                "p90_ms": percentile(self.strong, 0.9),
                "p99_ms": percentile(self.strong, 0.99), "max_ms": max(self.strong)}


def measure(game: str, games: int, seed: int = 1, peers: bool = True) -> Measured:
    """silný's decision on every position of ``games`` seeded games of ``game`` ("clovece" or
    "napij"), and with ``peers`` the normal level's and the engine's move list on the same
    positions, in alternating halves."""
    strong: Callable[[Any, int], Any]
    normal: Callable[[Any, int], Any]
    engine: Callable[[Any, int], Any]
    if game == "napij":
        from companion.games.napij import bot as napij_bot
        from companion.games.napij import levels as napij_levels
        from companion.games.napij.engine.rules import legal_plays
        def strong(state: Any, _: int) -> Any:
            return napij_levels.strong(state)

        def normal(state: Any, _: int) -> Any:
            return napij_bot.decide(state)

        def engine(state: Any, _: int) -> Any:
            return legal_plays(state)

        items = napij_positions(games, seed)
        out = Measured("napij se", "legal_plays", games, [], [])
    else:
        from companion.games.clovece.bot import choose as normal
        from companion.games.clovece.engine.rules import legal_moves
        from companion.games.clovece.strong import choose as strong

        engine = legal_moves
        items = positions(games, seed)
        out = Measured("Člověče", "legal_moves", games, [], [])
    ignored: list[float] = []
    for half in range(2):
        part = items[half::2]
        out.strong += timed(strong, part, out.wall)
        if peers:
            out.normal += timed(normal, part, ignored)
            out.engine += timed(engine, part, ignored)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=("clovece", "napij"), default="clovece")
    ap.add_argument("--json", action="store_true",
                    help="print silný's figures only, as one JSON object (make pi-check reads it)")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    m = measure(args.game, args.games, args.seed, peers=not args.json)
    if args.json:
        print(json.dumps(m.summary(), ensure_ascii=False))
        return 0
    name, listing, strong_ms, wall = m.game, m.listing, m.strong, m.wall
    sm, sp = statistics.median(strong_ms), percentile(strong_ms, 0.99)
    nm, em = statistics.median(m.normal), statistics.median(m.engine)
    ok = sm <= TARGET_MEDIAN_MS and sp <= TARGET_P99_MS
    print(f"silný's decision ({name}), CPU time: median {sm:.3f} ms, p90 "
          f"{percentile(strong_ms, 0.9):.3f} ms, p99 {sp:.3f} ms, max {max(strong_ms):.2f} ms "
          f"over {len(strong_ms):,} decisions of {args.games} seeded games (targets median <= "
          f"{TARGET_MEDIAN_MS:g} ms, p99 <= {TARGET_P99_MS:g} ms: {'met' if ok else 'NOT met'})")
    print(f"  wall clock: median {statistics.median(wall):.3f} ms, p99 "
          f"{percentile(wall, 0.99):.3f} ms, max {max(wall):.2f} ms (with whatever else ran)")
    print(f"  peer, normální on the same positions: median {nm:.4f} ms, p99 "
          f"{percentile(m.normal, 0.99):.4f} ms; silný takes {sm / nm:.0f}x")
    print(f"  peer, the engine's {listing} alone: median {em:.4f} ms; silný takes {sm / em:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
