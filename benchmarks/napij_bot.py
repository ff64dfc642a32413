"""A computer seat's decision in napij se: ``decide(state)`` on the decisions of real games.

The states are every decision the computer player faced in seeded 4-player
games (plays to choose, cards to answer, the bottle to declare or not); each is
timed on a fresh copy of the state, so no cache of the engine helps.  That is
what the napij host asks when a computer seat is on turn.

Peers, measured in the same run on the same states: the engine listing the
legal plays alone (``legal_plays``: what any chooser must pay), and the Člověče
computer player's decision on the positions of seeded Člověče games.
Target: median <= 50 ms.

    .venv/bin/python benchmarks/napij_bot.py [--games 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the other benchmarks)

TARGET_MS = 50.0


def napij_states(games: int) -> list[Any]:
    """The states at which the computer player decided something, from seeded games."""
    from companion.games.napij.bot import decide
    from companion.games.napij.engine.actions import Drank
    from companion.games.napij.engine.game import GAME, Setup
    from companion.games.napij.engine.state import Phase

    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_game(Setup(4))
        while not GAME.is_over(state):
            chance = GAME.chance(state)
            if state.phase is Phase.THROW and state.debt(state.turn):
                action: Any = Drank(state.turn)
            elif chance is not None and chance.kind.value == "shuffle":
                order = list(range(chance.size))
                rng.shuffle(order)
                action = GAME.chance_action(state, order)
            else:
                action = None
                if state.phase in (Phase.PLAY, Phase.CHOOSE) or (
                        state.phase is Phase.THROW and not state.throws):
                    out.append(state)
                    action = decide(state)
                if action is None:
                    action = GAME.chance_action(state, rng.randint(1, 6))
            state, _ = GAME.apply(state, action)
    return out


def clovece_positions(games: int) -> list[tuple[Any, int]]:
    from companion.games.clovece.bot import choose
    from companion.games.clovece.engine.rules import apply, legal_moves, new_game

    out = []
    for seed in range(games):
        rng = random.Random(seed)
        pos = new_game(4)
        for _ in range(2000):
            if pos.winner is not None:
                break
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            if len(moves) > 1:
                out.append((pos, roll))
            move = choose(pos, roll) if moves else None
            pos, _ = apply(pos, roll, move)
    return out


def timed(fn: Any, items: list[Any]) -> list[float]:
    ms = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        ms.append((time.perf_counter() - t0) * 1000)
    return ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=6)
    args = ap.parse_args()
    from companion.games.clovece.bot import choose
    from companion.games.clovece.engine.rules import legal_moves
    from companion.games.napij.bot import decide
    from companion.games.napij.engine.rules import legal_plays
    from companion.games.napij.engine.state import Phase

    states = napij_states(args.games)
    plays = [s for s in states if s.phase is Phase.PLAY]
    positions = clovece_positions(args.games)
    fresh = [replace(s) for s in states]  # new objects: the engine's one-state caches miss
    bot: list[float] = []
    engine: list[float] = []
    peer: list[float] = []
    for half in range(2):  # alternate, so that machine noise hits all alike
        part = slice(half, None, 2)
        bot += timed(decide, fresh[part])
        engine += timed(legal_plays, [replace(s) for s in plays[part]])
        peer += timed(lambda pr: (legal_moves(*pr), choose(*pr)), positions[part])
    bot_plays = [ms for s, ms in zip(fresh[0::2] + fresh[1::2], bot, strict=True)
                 if s.phase is Phase.PLAY]
    bm = statistics.median(bot)
    print(f"a computer seat's decision (napij se): median {bm:.3f} ms, "
          f"p99 {percentile(bot, 0.99):.2f} ms, max {max(bot):.1f} ms over {len(bot)} "
          f"decisions of {args.games} games (target median <= {TARGET_MS:.0f} ms: "
          f"{'met' if bm <= TARGET_MS else 'NOT met'})")
    pm = statistics.median(bot_plays)
    print(f"  of which choosing a play: median {pm:.3f} ms, p99 {percentile(bot_plays, 0.99):.2f} "
          f"ms over {len(bot_plays)}")
    em = statistics.median(engine)
    print(f"  peer, the engine listing those plays (legal_plays): median {em:.3f} ms; "
          f"choosing costs {pm / em:.1f}x listing")
    cm = statistics.median(peer)
    print(f"  peer, the Člověče computer player (moves + choice): median {cm:.3f} ms over "
          f"{len(peer)} positions; ratio {bm / cm:.1f}x (plays: {pm / cm:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
