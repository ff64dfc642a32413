"""Exactly solved smaller Člověče games: how far silný is from the best play against a random
player.

A two-player game (red, colour 0, throws first; green, colour 2) in which the deepest goal
fields of both colours are already taken by parked pieces that can never move again (one free
piece: f2, f3, f4 parked; two free pieces: f3, f4 parked) is a smaller game the engine plays
natively.  This script

1. enumerates every position of that game reachable from the start (the free pieces in the
   house, red to throw): the pieces, who throws and the failed tries of the three-tries rule,
   everything the engine's ``Position`` holds; every transition is the engine's own
   ``legal_moves``/``apply`` (a six throws again, the duties to enter and to clear the start,
   three tries while no piece is in play, the exact throw into the goal);
2. solves it by value iteration (numpy, the successors of every position and roll in flat
   arrays): the best possible chance to win of a player ("hero") facing an opponent that
   chooses uniformly at random among its legal moves, for each seat (red, moving first; green,
   moving second), and the exact chance of the random player itself and of *normální*
   (``clovece_bot.choose``, policy evaluation over every position, it is fast);
3. silný (``clovece_strong.choose``, some 2 ms a decision) is too slow to ask in each of the
   millions of positions, so its gap is measured by the performance-difference lemma:
   ``--games`` games of silný against the random player are simulated in the small game and
   at every own decision with two or more legal moves the regret ``Q*(best) − Q*(silný's
   move)`` is added up, ``Q*`` being the solved chance to win after the move; the mean of a
   game's sum is exactly ``V*(start) − V_silný(start)``, so silný's chance is ``V*`` minus it
   (with a 95 % interval).  The same estimate for normální, whose chance is known exactly,
   checks the method.  The decisions that cost silný the most (regret times how often silný's
   games reach them) are printed.

Run::

    .venv/bin/python benchmarks/clovece_solve.py [--free 1|2] [--games 4000] [--seed 1]
        [--top 25] [--weights '{"goal": 8}'] [--tol 1e-11]
        [--compare '{"goal": 3}' --compare '{"risk": 1.2}' ...]

``--compare`` (given any number of times): after the report, silný's gap with each of these
changes of ``--weights`` too, one line each, on the same seeded games (a sweep over weights; with
``--cache`` some 25 s a set).  ``--weights``: silný's weights changed by these ``Weights`` fields
(JSON), to see whether a
change closes the gap.  One process; with two free pieces 1,496,698 positions, some 8 minutes
and 1.3 GB (``--cache`` reads a saved solution back instead).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
import zipfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.rules import (
    GOAL_LAST,
    HOUSE,
    SIX,
    Move,
    Position,
    apply,
    legal_moves,
    occupancy,
)

RED, GREEN = 0, 2
COLOURS = (RED, GREEN)
NAMES = {RED: "red", GREEN: "green"}

Chooser = Callable[[Position, int], Move | None]


@dataclass
class Game:
    """The reduced game with ``free`` free pieces a colour, every reachable position numbered.

    ``codes[i]`` is position i's code (:meth:`encode`); ``turn[i]`` its colour on turn.  The
    successors of position i and roll r (1…6) are ``succ[ptr[g]:ptr[g + 1]]`` with
    ``g = 6 i + r − 1``, in the order of ``legal_moves`` (one successor when no move is legal);
    ``n`` and ``n + 1`` stand for "red has won" and "green has won".  ``normal[g]`` is the
    successor normální plays there."""

    free: int
    codes: list[int]
    index: dict[int, int]
    turn: np.ndarray
    ptr: np.ndarray
    succ: np.ndarray
    normal: np.ndarray

    @property
    def n(self) -> int:
        return len(self.codes)

    def parked(self) -> tuple[int, ...]:
        return tuple(range(GOAL_LAST - 3 + self.free, GOAL_LAST + 1))

    def encode(self, pos: Position) -> int:
        """The position's number: the free pieces of both colours (sorted), who throws, tries."""
        code = 0
        for c in COLOURS:
            own = pos.pieces[c]
            assert own is not None
            free = sorted(own, reverse=True)[4 - self.free:]
            for p in free:
                code = code * 64 + p + 1
        return (code * 4 + pos.turn) * 3 + pos.tries

    def decode(self, code: int) -> Position:
        tries = code % 3
        code //= 3
        turn = code % 4
        code //= 4
        parked = self.parked()
        own: dict[int, tuple[int, ...]] = {}
        for c in reversed(COLOURS):
            free = []
            for _ in range(self.free):
                free.append(code % 64 - 1)
                code //= 64
            own[c] = (*sorted(free, reverse=True), *parked)
        pieces = (own[RED], None, own[GREEN], None)
        return Position(pieces, turn, tries, frozenset(), None, occupancy(pieces))

    def start(self) -> Position:
        pieces = ((HOUSE,) * self.free + self.parked(), None,
                  (HOUSE,) * self.free + self.parked(), None)
        return Position(pieces, RED, 0, frozenset(), None, occupancy(pieces))

    def canon(self, pos: Position) -> Position:
        """The same position with its pieces in this game's order (what :meth:`decode` makes)."""
        return self.decode(self.encode(pos))

    def node(self, pos: Position) -> int:
        """The number of a position reached in play (a won one: n or n + 1)."""
        if pos.winner is not None:
            return self.n + (pos.winner == GREEN)
        return self.index[self.encode(pos)]


def successors(pos: Position, roll: int) -> list[tuple[Move | None, Position]]:
    """Every (move, position after it) of ``roll``, by the engine; (None, …) when none is legal."""
    moves = legal_moves(pos, roll)
    if not moves:
        return [(None, apply(pos, roll)[0])]
    return [(m, apply(pos, roll, m)[0]) for m in moves]


def enumerate_game(free: int, log: Callable[[str], None]) -> Game:
    """Every position reachable from the start, and its successors by roll (breadth first)."""
    game = Game(free, [], {}, np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0))
    start = game.start()
    game.codes.append(game.encode(start))
    game.index[game.codes[0]] = 0
    succ: list[int] = []
    counts: list[int] = []
    normal: list[int] = []
    turns: list[int] = []
    won = {RED: -1, GREEN: -2}
    i = 0
    t0 = time.perf_counter()
    while i < len(game.codes):
        pos = game.decode(game.codes[i])
        turns.append(pos.turn)
        for roll in range(1, SIX + 1):
            after = successors(pos, roll)
            pick = 0
            if len(after) > 1:
                chosen = clovece_bot.choose(pos, roll)
                pick = next(k for k, (m, _) in enumerate(after) if m == chosen)
            normal.append(len(succ) + pick)
            counts.append(len(after))
            for _, nxt in after:
                if nxt.winner is not None:
                    succ.append(won[nxt.winner])
                    continue
                code = game.encode(nxt)
                j = game.index.get(code)
                if j is None:
                    j = game.index[code] = len(game.codes)
                    game.codes.append(code)
                succ.append(j)
        i += 1
        if i % 500_000 == 0:
            log(f"  {i:,} positions expanded, {len(game.codes):,} found "
                f"[{time.perf_counter() - t0:.0f} s]")
    n = len(game.codes)
    s = np.array(succ, dtype=np.int64)
    s[s == -1] = n
    s[s == -2] = n + 1
    game.succ = s.astype(np.int32)
    game.ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    game.turn = np.array(turns, dtype=np.int8)
    game.normal = np.array(normal, dtype=np.int64)
    return game


@dataclass
class Side:
    """The positions where one colour throws, with their successors laid out for a sweep."""

    states: np.ndarray
    """Their numbers."""
    groups: np.ndarray
    """Their (position, roll) groups, 6 a position, in order."""
    succ: np.ndarray
    """The successors of those groups, one after another."""
    starts: np.ndarray
    """Where each group's successors start in ``succ``."""
    weight: np.ndarray
    """1 / (6 × the group's size) for every successor: the uniform-random player's mean."""


def side(game: Game, colour: int) -> Side:
    states = np.nonzero(game.turn == colour)[0]
    groups = (states[:, None] * SIX + np.arange(SIX)).ravel()
    counts = np.diff(game.ptr)[groups]
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    offset = np.repeat(game.ptr[groups] - starts, counts)
    succ = game.succ[np.arange(int(counts.sum())) + offset]
    return Side(states, groups, succ, starts, np.repeat(1.0 / (SIX * counts), counts))


def solve(game: Game, hero: int, policy: np.ndarray | None, tol: float,
          hero_random: bool = False) -> tuple[np.ndarray, int, float]:
    """The hero's chance to win from every position against a uniform-random opponent: the
    best play (``policy`` None), the random player's (``hero_random``) or the fixed
    ``policy`` (``policy[g]``: the index in ``succ`` the hero plays in group g).  Value
    iteration from 0, the hero's positions then the opponent's in each sweep (Gauss-Seidel by
    colour), until no value moves by ``tol``; returns (values with the two won positions at
    the end, sweeps, last change)."""
    n = game.n
    mine, theirs = side(game, hero), side(game, 2 - hero)
    v = np.zeros(n + 2)
    v[n + (hero == GREEN)] = 1.0
    fixed = None if policy is None else game.succ[policy[mine.groups]]
    sweeps, change = 0, math.inf
    while change > tol:
        old = v[:n].copy()
        if hero_random:
            v[mine.states] = np.add.reduceat(mine.weight * v[mine.succ], mine.starts[::SIX])
        elif fixed is None:
            best = np.maximum.reduceat(v[mine.succ], mine.starts)
            v[mine.states] = best.reshape(-1, SIX).mean(axis=1)
        else:
            v[mine.states] = v[fixed].reshape(-1, SIX).mean(axis=1)
        v[theirs.states] = np.add.reduceat(theirs.weight * v[theirs.succ], theirs.starts[::SIX])
        change = float(np.max(np.abs(v[:n] - old)))
        sweeps += 1
    return v, sweeps, change


def bellman_error(game: Game, v: np.ndarray, hero: int, sample: int, seed: int) -> float:
    """The largest difference between a value and its Bellman backup worked out afresh by the
    engine (the best move for the hero, the mean for the random opponent), over ``sample``
    positions drawn at random."""
    rng = random.Random(seed)
    worst = 0.0
    for i in rng.sample(range(game.n), min(sample, game.n)):
        pos = game.decode(game.codes[i])
        total = 0.0
        for roll in range(1, SIX + 1):
            q = [v[game.node(nxt)] for _, nxt in successors(pos, roll)]
            total += max(q) if pos.turn == hero else sum(q) / len(q)
        worst = max(worst, abs(total / SIX - v[i]))
    return worst


@dataclass
class Regret:
    """What the performance-difference lemma's simulation found for one chooser."""

    games: int
    wins: int
    per_game: list[float]
    decisions: int
    by_decision: dict[tuple[int, int], list[float]]
    """(position code, roll) → [summed regret, visits, chosen frm, best frm]."""

    def mean(self) -> float:
        return sum(self.per_game) / self.games

    def half_width(self) -> float:
        m = self.mean()
        var = sum((x - m) ** 2 for x in self.per_game) / max(1, self.games - 1)
        return 1.96 * math.sqrt(var / self.games)


def regret_games(game: Game, v: np.ndarray, hero: int, choose: Chooser, games: int,
                 seed: int) -> Regret:
    """``games`` seeded games of ``choose`` (the hero) against the uniform-random player, the
    regret of every hero decision against the solved values ``v``."""
    cache: dict[tuple[int, int], int] = {}
    out = Regret(games, 0, [], 0, defaultdict(lambda: [0.0, 0, 0, 0]))
    for k in range(games):
        rng = random.Random(seed * 1_000_003 + k)
        pos = game.start()
        total = 0.0
        while pos.winner is None:
            roll = rng.randrange(SIX) + 1
            moves = legal_moves(pos, roll)
            move: Move | None = None
            if len(moves) > 1:
                if pos.turn == hero:
                    code = game.encode(pos)
                    key = (code, roll)
                    pick = cache.get(key)
                    if pick is None:
                        chosen = choose(pos, roll)
                        pick = cache[key] = moves.index(chosen)  # type: ignore[arg-type]
                    q = [v[game.node(apply(pos, roll, m)[0])] for m in moves]
                    best = max(range(len(q)), key=q.__getitem__)
                    r = q[best] - q[pick]
                    total += r
                    out.decisions += 1
                    entry = out.by_decision[key]
                    entry[0] += r
                    entry[1] += 1
                    entry[2] = moves[pick].frm
                    entry[3] = moves[best].frm
                    move = moves[pick]
                else:
                    move = moves[rng.randrange(len(moves))]
            pos = apply(pos, roll, move)[0]
            if pos.winner is None:
                pos = game.canon(pos)
        out.wins += pos.winner == hero
        out.per_game.append(total)
    return out


def by_piece(game: Game, reg: Regret, hero: int) -> list[tuple[str, float]]:
    """The regret a game (the gap's share) by which piece the chooser moved (the front one:
    the furthest ahead of the free pieces; the back one), and whether after a six."""
    out: dict[str, float] = defaultdict(float)
    for (code, roll), (total, _, frm, best) in reg.by_decision.items():
        if frm == best:
            continue
        own = game.decode(code).pieces[hero]
        assert own is not None
        kind = "the front piece" if frm == max(own[:game.free]) else "the back piece"
        out[kind + (" after a six" if roll == SIX else "")] += total / reg.games
    return sorted(out.items(), key=lambda kv: -kv[1])


def describe(game: Game, code: int, hero: int) -> str:
    pos = game.decode(code)
    me, them = pos.pieces[hero], pos.pieces[2 - hero]
    assert me is not None and them is not None

    def show(own: tuple[int, ...]) -> str:
        return ",".join("h" if p == HOUSE else f"f{p - 39}" if p >= 40 else str(p)
                        for p in own[:game.free])

    opp_abs = [p if p < 0 or p >= 40 else (p + 20) % 40 for p in them[:game.free]]
    return (f"own {show(me)}  opponent {show(them)} (in own progress: "
            f"{','.join('h' if p == HOUSE else 'goal' if p >= 40 else str(p) for p in opp_abs)})"
            f"{'  tries ' + str(pos.tries) if pos.tries else ''}")


def save(path: str, game: Game, values: dict[str, np.ndarray]) -> None:
    arrays = {"free": np.array(game.free), "codes": np.array(game.codes, dtype=np.int64),
              "turn": game.turn, "ptr": game.ptr, "succ": game.succ, "normal": game.normal,
              **values}
    np.savez(path, **arrays)  # type: ignore[arg-type]


def load(path: str, free: int) -> tuple[Game, dict[str, np.ndarray]] | None:
    """The game and values :func:`save` kept in ``path``; None when there is no such file or it
    holds another game; ValueError when it cannot be read as one."""
    try:
        data = np.load(path)
        if int(data["free"]) != free:
            return None
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, AttributeError):
        raise ValueError(f"{path} is not a file this script saved.") from None
    codes = [int(c) for c in data["codes"]]
    game = Game(free, codes, {c: i for i, c in enumerate(codes)}, data["turn"], data["ptr"],
                data["succ"], data["normal"])
    return game, {k: data[k] for k in data.files if k[:-1] in ("best", "random", "normal")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--free", type=int, choices=(1, 2), default=2,
                    help="free pieces a colour (the others parked deepest in the goal)")
    ap.add_argument("--games", type=int, default=4000,
                    help="simulated games a seat for the regret of silný and normální (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=25, help="costliest decisions of silný to list")
    ap.add_argument("--weights", default="{}", help="silný's weights changed (JSON)")
    ap.add_argument("--compare", action="append", default=[], metavar="JSON",
                    help="after the report, silný's gap with these weights changed too "
                         "(JSON; any number of times)")
    ap.add_argument("--tol", type=float, default=1e-11, help="value iteration stops below it")
    ap.add_argument("--sample", type=int, default=2000,
                    help="positions whose Bellman equation is checked afresh by the engine")
    ap.add_argument("--cache", metavar="FILE.npz",
                    help="keep the solved game here and read it back next time (it is made "
                         "when missing)")
    args = ap.parse_args()
    if args.games < 0:
        ap.error("--games must be 0 or more.")
    if args.top < 0 or args.sample < 0:
        ap.error("--top and --sample must be 0 or more.")
    if not (math.isfinite(args.tol) and 0 < args.tol < 0.01):
        ap.error("--tol must be a number above 0 and below 0.01.")
    try:
        weights = changed(clovece_strong.WEIGHTS[2], args.weights)
    except (ValueError, TypeError):
        ap.error("--weights must be a JSON object of silný's Weights fields.")
    try:
        compare = [(text, changed(weights, text)) for text in args.compare]
    except (ValueError, TypeError):
        ap.error("--compare must be a JSON object of silný's Weights fields.")
    if compare and not args.games:
        ap.error("--compare needs games (--games 1 or more).")

    def log(line: str) -> None:
        print(line, flush=True)

    t0 = time.perf_counter()
    try:
        cached = load(args.cache, args.free) if args.cache else None
    except ValueError as exc:
        ap.error(str(exc))
    game = cached[0] if cached else enumerate_game(args.free, log)
    values: dict[str, np.ndarray] = cached[1] if cached else {}
    groups = len(game.ptr) - 1
    choices = int(np.sum(np.diff(game.ptr) > 1))
    log(f"{args.free} free piece(s) a colour: {game.n:,} positions, {len(game.succ):,} "
        f"transitions, {choices:,} of {groups:,} (position, roll) with a choice "
        f"[{time.perf_counter() - t0:.0f} s]")

    def strong(pos: Position, roll: int) -> Move | None:
        return clovece_strong.choose(pos, roll, weights)

    rows = []
    for hero in COLOURS:
        seat = f"{NAMES[hero]} ({'first' if hero == RED else 'second'})"
        t1 = time.perf_counter()
        if f"best{hero}" in values:
            best, rnd, nor = (values[f"{k}{hero}"] for k in ("best", "random", "normal"))
            log(f"{seat}: solved values read from {args.cache}")
        else:
            best, sweeps, change = solve(game, hero, None, args.tol)
            rnd, _, _ = solve(game, hero, None, args.tol, hero_random=True)
            nor, _, _ = solve(game, hero, game.normal, args.tol)
            values.update({f"best{hero}": best, f"random{hero}": rnd, f"normal{hero}": nor})
            log(f"{seat}: solved in {sweeps} sweeps (last change {change:.1e}) "
                f"[{time.perf_counter() - t1:.0f} s]")
        err = bellman_error(game, best, hero, args.sample, args.seed)
        log(f"{seat}: the largest Bellman error on {min(args.sample, game.n):,} positions "
            f"checked afresh by the engine: {err:.1e}")
        row = {"seat": seat, "best": best[0], "random": rnd[0], "normal": nor[0]}
        if args.games:
            t1 = time.perf_counter()
            nreg = regret_games(game, best, hero, clovece_bot.choose, args.games, args.seed)
            sreg = regret_games(game, best, hero, strong, args.games, args.seed)
            row.update(strong=best[0] - sreg.mean(), strong_hw=sreg.half_width(),
                       strong_mc=sreg.wins / args.games, normal_pdl=best[0] - nreg.mean(),
                       normal_hw=nreg.half_width(), decisions=sreg.decisions / args.games)
            log(f"{seat}: {args.games:,} games each of silný and normální against random "
                f"[{time.perf_counter() - t1:.0f} s]")
            log(f"{seat}: silný's regret by the piece it moved where the best move is "
                f"another piece's: " + "; ".join(
                    f"{kind} {pts * 100:.2f} pts" for kind, pts in by_piece(game, sreg, hero)))
            ranked = sorted(sreg.by_decision.items(), key=lambda kv: -kv[1][0])
            log(f"{seat}: silný's costliest decisions (share of the gap, regret × visits / "
                f"games; frm -1 = enter):")
            gap = sreg.mean() or 1.0
            for (code, roll), (tot, visits, frm, bfrm) in ranked[:args.top]:
                log(f"  {tot / args.games * 100:6.3f} pts ({tot / args.games / gap:5.1%})  "
                    f"regret {tot / visits * 100:5.2f} × {visits:4d}  roll {roll}: "
                    f"silný moves {frm}, best {bfrm}  |  {describe(game, code, hero)}")
        rows.append(row)
        if args.cache and not cached and hero == COLOURS[-1]:
            save(args.cache, game, values)

    log("")
    log(f"win chance of the hero against one uniform-random player, {args.free} free piece(s)"
        f" (f{args.free + 1}–f4 parked):")
    keys = ["best", "random", "normal"] + (["strong"] if args.games else [])
    for row in rows:
        extra = ""
        if args.games:
            extra = (f"  silný {row['strong']:.2%} ±{row['strong_hw']:.2%} (its own wins "
                     f"{row['strong_mc']:.1%}); gap {100 * (row['best'] - row['strong']):.2f} pts"
                     f"; normální by the same estimate {row['normal_pdl']:.2%} "
                     f"±{row['normal_hw']:.2%}; {row['decisions']:.1f} choices a game")
        log(f"  {row['seat']:15s} optimal {row['best']:.4%}  random {row['random']:.4%}  "
            f"normální {row['normal']:.4%}{extra}")
    mean = {k: sum(r[k] for r in rows) / 2 for k in keys}
    log(f"  {'mean of seats':15s} " + "  ".join(f"{k} {mean[k]:.3%}" for k in keys)
        + (f"  gap optimal − silný {100 * (mean['best'] - mean['strong']):.2f} pts, "
           f"optimal − normální {100 * (mean['best'] - mean['normal']):.2f} pts"
           if args.games else ""))
    for text, other in compare:
        t1 = time.perf_counter()
        gaps = [strong_gap(game, values[f"best{hero}"], hero, other, args.games, args.seed)
                for hero in COLOURS]
        log(f"  silný with {text}: gap " + "  ".join(
            f"{NAMES[hero]} {100 * g:.3f} ±{100 * hw:.2f} pts"
            for hero, (g, hw) in zip(COLOURS, gaps, strict=True))
            + f"  mean {100 * sum(g for g, _ in gaps) / 2:.3f} pts"
            f" [{time.perf_counter() - t1:.0f} s]")
    log(f"[{time.perf_counter() - t0:.0f} s]")
    return 0


def changed(weights: clovece_strong.Weights, text: str) -> clovece_strong.Weights:
    """``weights`` with the fields of the JSON object ``text`` changed (ValueError or
    TypeError for anything else)."""
    fields = json.loads(text)
    if not isinstance(fields, dict):
        raise TypeError(text)
    return dataclasses.replace(weights, **fields)


def strong_gap(game: Game, v: np.ndarray, hero: int, weights: clovece_strong.Weights,
               games: int, seed: int) -> tuple[float, float]:
    """Silný's gap to the best play with ``weights`` (the hero's seat, solved values ``v``):
    the mean regret a game of ``games`` seeded games and its 95 % half width."""
    reg = regret_games(game, v, hero, lambda pos, roll: clovece_strong.choose(pos, roll, weights),
                       games, seed)
    return reg.mean(), reg.half_width()


if __name__ == "__main__":
    sys.exit(main())
