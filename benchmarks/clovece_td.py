"""Learning the two-player evaluation of Člověče's strong level by temporal differences.

The learner plays seeded two-player games with the strong level's search (every
move of the roll, after a six the best move of every next roll averaged) scoring
positions by the learnt chance to win (:mod:`companion.players.clovece_learnt`).
Its opponent is, game by game, itself, a random player or the normal level.
After each of its turns the position it leaves (the opponent to throw) is a step
of TD(λ): the chance it gave the position before moves towards the chance of this
one, and at the end towards the result (1 won, 0 lost); the gradient is that of
the logit (logistic TD).  Starts from the hand-made evaluation alone (weight 1 on
it, in units of 50 fields), so the first games play as the strong level does.

    .venv/bin/python benchmarks/clovece_td.py [--games 20000] [--alpha 0.01]
        [--lam 0.7] [--seed 1] [--out companion/players/clovece_td_weights.py]

Writes the weights as a Python module (the default: the one the level reads).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

from companion.engines.clovece.rules import SEATS_BY_PLAYERS, apply, legal_moves, new_game
from companion.players import clovece_bot, clovece_learnt, clovece_strong

HAND = dataclasses.replace(clovece_strong.WEIGHTS[2], learnt=0.0)


def value(pos: object, me: int, w: list[float]) -> tuple[float, dict[int, float] | None]:
    """The learnt chance that ``me`` wins ``pos`` (and its features; ``None`` when over)."""
    if pos.winner is not None:  # type: ignore[attr-defined]
        return (1.0 if pos.winner == me else 0.0), None  # type: ignore[attr-defined]
    hand = clovece_strong.evaluate(pos, me, HAND)  # type: ignore[arg-type]
    f = clovece_learnt.features(pos, me, hand)  # type: ignore[arg-type]
    return clovece_learnt.squash(clovece_learnt.logit(f, w)), f


def move_value(pos: object, roll: int, move: object, w: list[float]) -> float:
    me = pos.turn  # type: ignore[attr-defined]
    after, _ = apply(pos, roll, move)  # type: ignore[arg-type]
    if after.winner is None and after.turn == me:
        total = 0.0
        for r in range(1, 7):
            moves = legal_moves(after, r)
            if not moves:
                total += value(apply(after, r)[0], me, w)[0]
                continue
            total += max(value(apply(after, r, m)[0], me, w)[0] for m in moves)
        return total / 6
    return value(after, me, w)[0]


def choose(pos: object, roll: int, w: list[float]) -> object:
    moves = legal_moves(pos, roll)  # type: ignore[arg-type]
    if len(moves) <= 1:
        return moves[0] if moves else None
    best, best_v = moves[0], -1.0
    for m in moves:
        v = move_value(pos, roll, m, w) + 1e-6 * m.frm
        if v > best_v:
            best, best_v = m, v
    return best


def train(games: int, alpha: float, lam: float, seed: int, mix: tuple[float, float],
          w: list[float]) -> None:
    rng = random.Random(seed)
    colours = SEATS_BY_PLAYERS[2]
    t0 = time.perf_counter()
    wins = {"self": [0, 0], "random": [0, 0], "normal": [0, 0]}
    for g in range(games):
        a = alpha * (1 - 0.8 * g / games)
        learner = colours[g % 2]
        other = colours[1 - g % 2]
        u = rng.random()
        kind = "self" if u < mix[0] else "random" if u < mix[0] + mix[1] else "normal"
        learning = {learner} | ({other} if kind == "self" else set())
        trace = {c: [0.0] * clovece_learnt.SIZE for c in learning}
        last: dict[int, tuple[float, dict[int, float]]] = {}
        pos = new_game(2, first=colours[rng.randrange(2)])
        while pos.winner is None:
            c = pos.turn
            roll = rng.randint(1, 6)
            moves = legal_moves(pos, roll)
            move = None
            if len(moves) > 1:
                if c in learning:
                    move = choose(pos, roll, w)
                elif kind == "random":
                    move = moves[rng.randrange(len(moves))]
                else:
                    move = clovece_bot.choose(pos, roll)
            pos, _ = apply(pos, roll, move)
            if c in learning and pos.winner is None and pos.turn != c:
                v, f = value(pos, c, w)
                assert f is not None
                if c in last:
                    _step(w, trace[c], last[c], v, a, lam)
                last[c] = (v, f)
        for c in learning:
            if c in last:
                _step(w, trace[c], last[c], 1.0 if pos.winner == c else 0.0, a, lam)
        wins[kind][0] += pos.winner == learner
        wins[kind][1] += 1
        if (g + 1) % 1000 == 0:
            shares = "  ".join(f"{k} {n / max(1, t):.1%} of {t}" for k, (n, t) in wins.items())
            print(f"{g + 1} games, {time.perf_counter() - t0:.0f} s: {shares}", flush=True)
            wins = {"self": [0, 0], "random": [0, 0], "normal": [0, 0]}


def _step(w: list[float], e: list[float], prev: tuple[float, dict[int, float]], target: float,
          alpha: float, lam: float) -> None:
    """One TD(λ) step from the previous position ``prev`` towards ``target``."""
    v, f = prev
    for i in range(len(e)):
        e[i] *= lam
    for k, x in f.items():
        e[k] += x
    delta = alpha * (target - v)
    for i in range(len(e)):
        if e[i]:
            w[i] += delta * e[i]


def write(w: list[float], out: Path, note: str) -> None:
    rows = ",\n".join("    " + ", ".join(f"{x:.6g}" for x in w[i:i + 6])
                      for i in range(0, len(w), 6))
    out.write_text(
        '"""The learnt weights of :mod:`companion.players.clovece_learnt` (made by\n'
        f'``benchmarks/clovece_td.py``: {note}; do not edit by hand)."""\n\n'
        f"WEIGHTS: tuple[float, ...] = (\n{rows},\n)\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--alpha", type=float, default=0.01)
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--self", dest="self_share", type=float, default=0.4)
    ap.add_argument("--random", dest="random_share", type=float, default=0.3)
    ap.add_argument("--start", type=Path, default=None,
                    help="start from the weights of this module (default: the hand evaluation)")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent.parent
                    / "companion/players/clovece_td_weights.py")
    args = ap.parse_args()
    w = [0.0] * clovece_learnt.SIZE
    w[clovece_learnt.HAND] = 1.0
    if args.start is not None:
        scope: dict[str, object] = {}
        exec(args.start.read_text(), scope)  # noqa: S102 - our own generated module
        w = list(scope["WEIGHTS"])  # type: ignore[call-overload]
    train(args.games, args.alpha, args.lam, args.seed, (args.self_share, args.random_share), w)
    note = (f"--games {args.games} --alpha {args.alpha} --lam {args.lam} --seed {args.seed} "
            f"--self {args.self_share} --random {args.random_share}")
    write(w, args.out, note)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
