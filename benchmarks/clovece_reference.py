"""A slow reference player of Člověče for two players, with no time budget: how far a deeper
search that knows its opponent gets beyond *silný*.

Not a product level: it takes 10 to 40 ms a decision on average (seconds with
``--extra 2 --inner 2``).  It answers whether the two-player targets of
docs/players/computer-players.md (90 % against one random player, 60 % head to head against
*normální*) are within reach of a better choice of moves under these rules.

**The search** (:class:`Search`) is an expectimax over the dice that models the one
opponent *exactly* (``--model``, by default the opponent it plays): the random
player's uniform choice among the legal moves, or *normální*'s own deterministic
choice (:func:`companion.games.clovece.bot.choose`); a six throws again and a
colour with no piece in play has three tries, both as the engine plays them
(``apply``).  With ``--plies 3`` it looks at the reference's move, the rest of its
turn (``--extra`` more throws after a six, the best move of each roll), the
opponent's whole turn (every roll, its move; ``--inner`` more throws after its
six), the reference's next turn (every roll, the best move), and only then scores
the position, where the opponent is to move: the same kind of position the plain
one-throw search scores, so that every leaf means the same.  ``--plies 1`` is
silný's own search (the check that both agree, move value for move value),
``--plies 2`` stops after the opponent's turn, with the reference on turn at the
leaf, as the earlier 2-ply attempt did.  Beyond ``--extra``/``--inner`` throws a
turn is cut off with the score.  A leaf is scored by silný's evaluation
(``--leaf fields``: :func:`companion.games.clovece.strong.evaluate`) or by that
evaluation as a chance to win (``--leaf chance``:
:func:`companion.games.clovece.strong.win_chance`, with the weights fitted for
the modelled opponent, :data:`CHANCE`); an expectimax averages its leaves, which
is only right for a value that is a chance.

    .venv/bin/python benchmarks/clovece_reference.py OPPONENT GAMES [--plies 3]
        [--leaf fields|chance] [--model random|normal] [--extra 1] [--inner 0]
        [--seed 1] [--first 0]

OPPONENT is ``random`` or ``normal``; the games are those of
``benchmarks/clovece_tune.py`` (each colour's own seeded die, each random seat's own
generator, the seats turned every game), played twice: by plain silný (its
one-throw search, ``deep`` off) and by the reference in silný's seat.  It prints
both shares with Wilson's 95 % interval, the sign test on the games only one of
them won, how often the reference chose otherwise than plain silný, and what the
differing moves did.  One process; progress every 50 games (``--first`` resumes a
run at a later game, so runs can be pooled).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clovece_tune import play_game  # noqa: E402  (the same seeded games as the tuning)

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    HOUSE,
    Move,
    Position,
    apply,
    legal_moves,
)
from companion.games.clovece.strong import Weights, evaluate, weights_for, win_chance

Reply = Callable[[Position, int, list[Move]], list[Move]]
"""The opponent's model: the moves it may play with a roll, each equally likely."""

_LOST = -1e6


def reply_random(pos: Position, roll: int, moves: list[Move]) -> list[Move]:
    """The random player: any legal move alike."""
    return moves


def reply_normal(pos: Position, roll: int, moves: list[Move]) -> list[Move]:
    """*normální*: its one deterministic choice."""
    move = clovece_bot.choose(pos, roll)
    assert move is not None
    return [move]


REPLIES: dict[str, Reply] = {"random": reply_random, "normal": reply_normal}

CHANCE: dict[str, tuple[float, float]] = {"random": (0.2956, 0.4954), "normal": (0.2932, 0.0234)}
"""``(chance_lead, chance_left)`` of :func:`win_chance` by the modelled opponent, fitted by
logistic regression on 73,602 positions (the opponent on turn) of 3,000 seeded games of
silný against each opponent (docs/dev/research/computer-players-tuning.md): a lead counts more
the fewer fields are left, and the stronger player's edge grows with the fields left."""


class Search:
    """The expectimax for colour ``me`` against one opponent modelled by ``reply``."""

    def __init__(self, me: int, reply: Reply, w: Weights, plies: int, extra: int,
                 inner: int, chance: tuple[float, float] | None = None) -> None:
        self.me, self.reply, self.plies = me, reply, plies
        self.chance = chance is not None
        self.w = w if chance is None else dataclasses.replace(
            w, chance_lead=chance[0], chance_left=chance[1])
        self.won, self.lost = (1.0, 0.0) if chance else (-_LOST, _LOST)
        self.extra, self.inner = extra, inner
        self.leaves = 0
        self.memo: dict[tuple[Position, int, int], float] = {}
        """A throw's value by position, stage and throws left: the five rolls of a failed
        try lead to one position, and moves in another order often meet again."""

    def leaf(self, pos: Position) -> float:
        self.leaves += 1
        if self.chance:
            return win_chance(pos, self.me, self.w)
        return evaluate(pos, self.me, self.w)

    def after(self, pos: Position, stage: int, extra: int) -> float:
        """The value of ``pos`` reached in ``stage`` (0: the reference's first turn, 1: the
        opponent's turn, 2: the reference's next turn), ``extra`` throws left for the rest of
        the turn on the same colour."""
        if pos.winner is not None:
            return self.won if pos.winner == self.me else self.lost
        mover = self.me if stage % 2 == 0 else -1
        same = pos.turn == self.me if mover == self.me else pos.turn != self.me
        if same:  # a six or a failed try: the same colour throws again
            if extra <= 0:
                return self.leaf(pos)
            return self.turn(pos, stage, extra - 1)
        if stage + 1 >= self.plies:
            return self.leaf(pos)
        return self.turn(pos, stage + 1, self.inner)

    def turn(self, pos: Position, stage: int, extra: int) -> float:
        """A throw of the colour on turn in ``stage``, averaged over the six rolls."""
        key = (pos, stage, extra)
        known = self.memo.get(key)
        if known is not None:
            return known
        total = 0.0
        for roll in range(1, 7):
            moves = legal_moves(pos, roll)
            if not moves:
                total += self.after(apply(pos, roll)[0], stage, extra)
            elif pos.turn == self.me:
                total += max(self.after(apply(pos, roll, m)[0], stage, extra) for m in moves)
            else:
                options = self.reply(pos, roll, moves)
                total += sum(self.after(apply(pos, roll, m)[0], stage, extra)
                             for m in options) / len(options)
        self.memo[key] = total / 6
        return total / 6

    def value(self, pos: Position, roll: int, move: Move) -> float:
        return self.after(apply(pos, roll, move)[0], 0, self.extra)


def choose(pos: Position, roll: int, opponent: str, plies: int = 3, extra: int = 1,
           inner: int = 0, leaf: str = "fields") -> Move | None:
    """The reference's move (ties: the piece further ahead, as silný)."""
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    w = weights_for(pos)
    chance = CHANCE[opponent] if leaf == "chance" else None
    search = Search(pos.turn, REPLIES[opponent], w, plies, extra, inner, chance)
    front = w.front if chance is None else w.front * 1e-3
    return max(moves, key=lambda m: search.value(pos, roll, m) + front * m.frm)


def situation(pos: Position, roll: int, move: Move) -> str:
    """A coarse name of what a move does, for the table of differing choices."""
    if move.capture is not None:
        return "captures"
    if move.frm == HOUSE:
        return "enters"
    if move.to >= GOAL_FIRST:
        return "into the goal" if move.frm < GOAL_FIRST else "inside the goal"
    return "moves on the track"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("opponent", choices=sorted(REPLIES))
    ap.add_argument("games", type=int)
    ap.add_argument("--plies", type=int, default=3, choices=(1, 2, 3))
    ap.add_argument("--extra", type=int, default=1)
    ap.add_argument("--inner", type=int, default=0)
    ap.add_argument("--leaf", choices=("fields", "chance"), default="fields")
    ap.add_argument("--model", choices=sorted(REPLIES), default=None,
                    help="the opponent the search assumes (default: the one it plays)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    args = ap.parse_args()
    if args.games < 1 or min(args.extra, args.inner, args.first) < 0:
        ap.error("GAMES must be at least 1, --extra, --inner and --first not negative")
    seats = ("X", args.opponent)
    model = args.model or args.opponent
    decisions = Counter[str]()
    differ = Counter[tuple[str, str]]()
    spent = 0.0

    def plain(pos: Position, roll: int) -> Move | None:
        return clovece_strong.choose(pos, roll, dataclasses.replace(weights_for(pos), deep=False))

    def reference(pos: Position, roll: int) -> Move | None:
        nonlocal spent
        t = time.perf_counter()
        move = choose(pos, roll, model, args.plies, args.extra, args.inner, args.leaf)
        spent += time.perf_counter() - t
        usual = plain(pos, roll)
        decisions["all"] += 1
        if move != usual:
            assert move is not None and usual is not None
            decisions["differ"] += 1
            differ[situation(pos, roll, move), situation(pos, roll, usual)] += 1
        return move

    t0 = time.perf_counter()
    a: list[bool] = []
    b: list[bool] = []
    for i in range(args.first, args.first + args.games):
        a.append(play_game(args.seed, i, seats, plain))
        b.append(play_game(args.seed, i, seats, reference))
        if len(a) % 50 == 0 or len(a) == args.games:
            only_a = sum(x and not y for x, y in zip(a, b, strict=True))
            only_b = sum(y and not x for x, y in zip(a, b, strict=True))
            z = (only_b - only_a) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
            n = len(a)
            la, ha = wilson(sum(a), n)
            lb, hb = wilson(sum(b), n)
            print(f"games {args.first}..{args.first + n - 1} vs {args.opponent}, seed {args.seed}, "
                  f"model {model}, plies {args.plies}, extra {args.extra}/{args.inner}, leaf {args.leaf}: silný {sum(a)}/{n} {sum(a) / n:.1%} ({la:.1%}–{ha:.1%})  "
                  f"reference {sum(b)}/{n} {sum(b) / n:.1%} ({lb:.1%}–{hb:.1%})  "
                  f"only silný {only_a}, only reference {only_b}: z = {z:+.2f}  "
                  f"choices differ {decisions['differ']}/{decisions['all']}  "
                  f"{spent / max(decisions['all'], 1) * 1000:.0f} ms a decision  "
                  f"[{time.perf_counter() - t0:.0f} s]", flush=True)
    print("differing choices (reference's move, silný's move): " + ", ".join(
        f"{r} / {s}: {k}" for (r, s), k in differ.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
