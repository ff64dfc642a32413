"""Fits :func:`companion.games.clovece.strong.win_chance`: silný's evaluation as a chance to
win, by logistic regression on the outcomes of seeded two-player games.

Games ``0 … GAMES-1`` (seed ``1000 + g``): silný's one-throw search (``deep`` off, the
level the evaluation was made for) against a random player (even ``g``) or *normální*
(odd ``g``), silný red or green by turns.  After every throw that leaves the opponent on
turn, three positions in ten are kept with the evaluation ``e`` of silný's colour, the
fields ``R`` both colours still have to go (a piece in the house 54) and whether silný won
the game.  For each opponent it fits ``P(win) = 1 / (1 + exp(-(a * e / sqrt(R + 20) + b * R
/ 100)))`` by Newton's method and prints ``a`` (``chance_lead``) and ``b``
(``chance_left``) with the mean log loss, beside the loss of ``e`` alone with a constant.
With 3,000 games (73,602 positions; some 20 s) it gave the weights of ``clovece_strong``
(against *normální*) and of ``benchmarks/clovece_reference.py``'s ``CHANCE`` on the evaluation
before two players' ``convex`` became 0.5. On today's evaluation it gives other weights
(against *normální* 0.2029 and 0.0771), which measured no better in paired games, so the
level keeps the first ones (docs/dev/research/computer-players-tuning.md).

    .venv/bin/python benchmarks/clovece_chance_fit.py [GAMES]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.rules import apply, legal_moves, new_game

Row = tuple[float, float, float]
"""Two features and the outcome (1.0 won)."""


def positions(games: int) -> dict[str, list[tuple[float, int, float]]]:
    """(evaluation, fields left, won) of the kept positions, by opponent."""
    out: dict[str, list[tuple[float, int, float]]] = {"random": [], "normal": []}
    plain = dataclasses.replace(clovece_strong.WEIGHTS[2], deep=False)
    for g in range(games):
        rng = random.Random(1000 + g)
        opponent = ("random", "normal")[g % 2]
        me = g % 4 // 2 * 2
        pos = new_game(2)
        kept = []
        while pos.winner is None:
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            move = None
            if len(moves) > 1:
                if pos.turn == me:
                    move = clovece_strong.choose(pos, roll, plain)
                else:
                    move = rng.choice(moves) if opponent == "random" else clovece_bot.choose(pos, roll)
            pos, _ = apply(pos, roll, move)
            if pos.winner is None and pos.turn != me and rng.random() < 0.3:
                kept.append((clovece_strong.evaluate(pos, me), clovece_strong.fields_left(pos)))
        won = 1.0 if pos.winner == me else 0.0
        out[opponent] += [(e, left, won) for e, left in kept]
    return out


def fit(rows: list[Row]) -> tuple[float, float, float]:
    """Logistic regression without a constant on two features: (a, b, mean log loss)."""
    a = b = 0.0
    for _ in range(30):
        ga = gb = haa = hab = hbb = 0.0
        for x1, x2, y in rows:
            p = 1 / (1 + math.exp(-(a * x1 + b * x2)))
            ga += (y - p) * x1
            gb += (y - p) * x2
            v = p * (1 - p)
            haa += v * x1 * x1
            hab += v * x1 * x2
            hbb += v * x2 * x2
        det = haa * hbb - hab * hab
        a += (hbb * ga - hab * gb) / det
        b += (haa * gb - hab * ga) / det
    loss = 0.0
    for x1, x2, y in rows:
        p = min(max(1 / (1 + math.exp(-(a * x1 + b * x2))), 1e-9), 1 - 1e-9)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return a, b, loss / len(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=3000,
                    help="seeded games to fit on (default 3000)")
    games = ap.parse_args().games
    if games < 2:
        ap.error("GAMES must be at least 2")
    for opponent, rows in positions(games).items():
        a, b, loss = fit([(e / math.sqrt(left + 20), left / 100, won) for e, left, won in rows])
        _, _, plain_loss = fit([(e, 1.0, won) for e, _, won in rows])
        print(f"against {opponent}: {len(rows):,} positions, chance_lead {a:.4f}, "
              f"chance_left {b:.4f}, log loss {loss:.4f} (the evaluation alone with a "
              f"constant: {plain_loss:.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
