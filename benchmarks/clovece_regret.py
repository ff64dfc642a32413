"""Where *silný*'s moves cost it games against one opponent: every legal move of
sampled decisions scored by full-game rollouts, and the regret summed per game.

It plays the seeded two-player games of ``benchmarks/clovece_tune.py`` (each colour's own
seeded die, the random seat's own generator, the seats turned every game), *silný* (the
full level, :func:`companion.games.clovece.strong.choose`) in the ``X`` seat against
``OPPONENT`` (``random``: uniform over the legal moves; ``normal``: *normální*).  Each
decision of silný with two or more legal moves is sampled with the chance ``1/--every``
(a generator of its own, so the games stay the tuning's games).  For a sampled decision
every legal move is played and the game is played on to its end ``--rollouts`` times:
silný's seat by its own one-throw choice (``deep`` off: the fast search; ``--policy full``
plays the full level, some 25 times slower), the opponent as in the game.  Rollout ``r``
of a decision uses the same dice (each colour's own seeded die) and the same stream of
random choices for every move (common random numbers), so the moves are compared on the
same luck.

For each decision it knows every move's win chance and, paired with silný's move, the
difference and its standard error; a decision is *flagged* when another move beats
silný's by ``z >= --z`` (3).  The *regret* of a decision is the best move's win chance
minus silný's move's; the plain maximum over noisy estimates is biased up, so it is also
estimated by splitting the rollouts in halves: the best move picked on one half, its
difference to silný's move measured on the other, both ways, averaged (biased down: it is
the gain of a move picked on noisy figures, not of the best one).  A game's regret is
``--every`` times the sum over its sampled decisions (a decision that is not sampled or
has one legal move adds nothing), and its mean over the games, with the standard error
from the spread between games, estimates how many points of win share a player that took
the best move at every decision (then played on as silný) would win more — to first
order: the gains of later decisions are measured along silný's own games.

Because the noise of one decision is larger than most true differences, it also pools
every other move against silný's over all sampled decisions, grouped by what the two
moves do (a capture, entering, into the goal, fleeing a piece that could be hit next
throw, walking into such a threat; the other move's piece ahead of silný's or behind):
a group whose mean is clearly above zero is a kind of move silný undervalues.
``--lost-every`` samples the games silný loses more often (each game is first played
without looking, some 0.15 s, to know its end); a game's regret is scaled by its own
rate, so the mean over games stays fair.

    .venv/bin/python benchmarks/clovece_regret.py GAMES [--opponent random|normal]
        [--every 4] [--lost-every N] [--rollouts 200] [--z 3] [--policy fast|full]
        [--seed 1] [--first 0] [--out FILE.jsonl] [--report FILE.jsonl] [--min-group 10]

One process.  A rollout takes some 3 ms with the fast policy, so a sampled decision
with two or three moves some 1.3 s at 160 rollouts; progress is printed every ten games,
each flagged decision as it is found (the position in the engine's notation, every
move's win chance), a summary at the end.  ``--out`` writes every sampled decision as a
JSON line; ``--report FILE`` prints the summary of such a file again (give the same
GAMES, ``--first``, ``--seed`` and ``--opponent``: the games are replayed for their
outcome and number of decisions; runs over different games can be joined with ``cat``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clovece_tune import play_game  # noqa: E402  (the same seeded games as the tuning)

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.notation import format_with_roll
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    HOUSE,
    Move,
    Position,
    apply,
    legal_moves,
)
from companion.games.clovece.strong import attackers, weights_for

Policy = Callable[[Position, int], Move | None]


def fast(pos: Position, roll: int) -> Move | None:
    """silný's one-throw search (``deep`` off)."""
    return clovece_strong.choose(pos, roll, dataclasses.replace(weights_for(pos), deep=False))


def rollout(pos: Position, me: int, key: int, mine: Policy, opponent: str) -> bool:
    """Play ``pos`` to the end, ``me`` by ``mine``, the other seat as ``opponent``; the dice
    and the random choices drawn from generators seeded by ``key``.  Whether ``me`` won."""
    dice = [random.Random(key * 8 + c).random for c in range(4)]
    picks = random.Random(key * 8 + 5).random
    while pos.winner is None:
        c = pos.turn
        roll = math.floor(dice[c]() * 6) + 1
        moves = legal_moves(pos, roll)
        move = None
        if len(moves) > 1:
            if c == me:
                move = mine(pos, roll)
            elif opponent == "normal":
                move = clovece_bot.choose(pos, roll)
            else:
                move = moves[math.floor(picks() * len(moves))]
        pos, _ = apply(pos, roll, move)
    return pos.winner == me


def exposed(pos: Position, colour: int) -> int:
    """How many of ``colour``'s pieces an opponent could hit with its next throw."""
    own = pos.pieces[colour]
    assert own is not None
    return sum(1 for p in own if attackers(pos, colour, p))


def describe(pos: Position, roll: int, move: Move) -> dict[str, Any]:
    """What a move does, for finding a pattern among the flagged decisions."""
    colour = pos.turn
    after = apply(pos, roll, move)[0]
    if move.capture is not None:
        kind = "captures"
    elif move.frm == HOUSE:
        kind = "enters"
    elif move.to >= GOAL_FIRST:
        kind = "into the goal" if move.frm < GOAL_FIRST else "inside the goal"
    else:
        kind = "moves on the track"
    return {"frm": move.frm, "to": move.to, "kind": kind,
            "threatened_before": bool(attackers(pos, colour, move.frm)),
            "threatened_after": bool(after.winner is None and attackers(after, colour, move.to)),
            "exposed_after": exposed(after, colour)}


def tag(d: dict[str, Any]) -> str:
    """A short name of a described move: its kind, and whether it flees or walks into a threat."""
    risk = ("flees " if d["threatened_before"] and not d["threatened_after"] else
            "stays threatened " if d["threatened_before"] else
            "into threat " if d["threatened_after"] else "")
    return f"{risk}{d['kind']}"


@dataclasses.dataclass
class Decision:
    game: int
    index: int
    text: str
    roll: int
    moves: list[dict[str, Any]]
    chosen: int
    wins: list[list[bool]]

    def p(self, m: int, part: slice = slice(None)) -> float:
        w = self.wins[m][part]
        return sum(w) / len(w)

    def diff(self, m: int, part: slice = slice(None)) -> tuple[float, float]:
        """Move ``m``'s win chance minus silný's, and its paired standard error."""
        d = [int(a) - int(b) for a, b in zip(self.wins[m][part], self.wins[self.chosen][part],
                                              strict=True)]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)

    def best_z(self) -> tuple[int, float, float, float]:
        """The alternative with the largest z against silný's move: (move, diff, se, z)."""
        best = (self.chosen, 0.0, 0.0, 0.0)
        for m in range(len(self.moves)):
            if m == self.chosen:
                continue
            d, se = self.diff(m)
            z = d / se if se > 0 else 0.0
            if z > best[3] or best[0] == self.chosen:
                best = (m, d, se, z)
        return best

    def regret_plain(self) -> float:
        return max(self.p(m) for m in range(len(self.moves))) - self.p(self.chosen)

    def regret_split(self) -> float:
        """Best picked on one half of the rollouts, measured on the other, both ways."""
        halves = (slice(0, None, 2), slice(1, None, 2))
        total = 0.0
        for pick, measure in (halves, halves[::-1]):
            m = max(range(len(self.moves)), key=lambda k: (self.p(k, pick), k == self.chosen))
            total += self.diff(m, measure)[0]
        return total / 2


def analyse(pos: Position, roll: int, me: int, chosen: Move, key: int, args: argparse.Namespace,
            game: int, index: int) -> Decision:
    mine: Policy = fast if args.policy == "fast" else clovece_strong.choose
    moves = legal_moves(pos, roll)
    wins = []
    for m in moves:
        after = apply(pos, roll, m)[0]
        wins.append([rollout(after, me, key * 100_003 + r, mine, args.opponent)
                     for r in range(args.rollouts)])
    return Decision(game, index, format_with_roll(pos, roll), roll,
                    [describe(pos, roll, m) for m in moves], moves.index(chosen), wins)


def show(d: Decision, won: bool | None = None) -> str:
    m, diff, se, z = d.best_z()
    lines = [f"game {d.game} decision {d.index}{'' if won is None else ' (won)' if won else ' (lost)'}: "
             f"{d.text}  best other {diff:+.1%} ± {se:.1%} (z = {z:+.1f})"]
    for k, mv in enumerate(d.moves):
        mark = "silný" if k == d.chosen else "best " if k == m else "     "
        lines.append(f"   {mark} {mv['frm']:>3} → {mv['to']:>2}  {d.p(k):6.1%}  {tag(mv)}, "
                     f"{mv['exposed_after']} exposed after")
    return "\n".join(lines)


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def game_record(args: argparse.Namespace, index: int) -> tuple[bool, int]:
    """Game ``index`` played without looking: whether silný wins it and how many decisions
    with two or more moves it has (the decisions of lost games can be sampled more often)."""
    count = 0

    def silny(pos: Position, roll: int) -> Move | None:
        nonlocal count
        count += 1
        return clovece_strong.choose(pos, roll)

    won = play_game(args.seed, index, ("X", args.opponent), silny)
    return won, count


def row(d: Decision, won: bool, every: int, rollouts: int) -> dict[str, Any]:
    """A sampled decision as it is written to ``--out`` and summed up."""
    return {"game": d.game, "index": d.index, "won": won, "position": d.text,
            "moves": d.moves, "chosen": d.chosen, "wins": [sum(w) for w in d.wins],
            "rollouts": rollouts, "every": every, "diff_se_z": list(d.best_z()[1:]),
            "regret_plain": d.regret_plain(),
            "regret_split": d.regret_split()}


def analysing(args: argparse.Namespace, game: int, every: int,
              mine: list[Decision]) -> Policy:
    """silný for game ``game`` played again: its move, and every decision drawn for the
    sample (one in ``every``) analysed on the way into ``mine``."""
    sample = random.Random(args.seed * 15485863 + game).random
    index = 0

    def analysed(pos: Position, roll: int) -> Move | None:
        nonlocal index
        move = clovece_strong.choose(pos, roll)
        assert move is not None
        if sample() * every < 1:
            key = (args.seed * 1_000_003 + game) * 1009 + index
            mine.append(analyse(pos, roll, pos.turn, move, key, args, game, index))
        index += 1
        return move

    return analysed


def play(args: argparse.Namespace, out: IO[str] | None) -> int:
    seats = ("X", args.opponent)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    games: dict[int, tuple[bool, int]] = {}  # won, decisions with two or more moves
    for i in range(args.first, args.first + args.games):
        games[i] = won, _ = game_record(args, i)
        every = args.every if won else args.lost_every
        mine: list[Decision] = []
        analysed = analysing(args, i, every, mine)
        assert won == play_game(args.seed, i, seats, analysed)
        for d in mine:
            if d.best_z()[3] >= args.z:
                print(show(d, won), flush=True)
            rows.append(row(d, won, every, args.rollouts))
            if out is not None:
                out.write(json.dumps(rows[-1]) + "\n")
                out.flush()
        if len(games) % 10 == 0 or len(games) == args.games:
            print(f"[{len(games)} games, {len(rows)} decisions sampled, "
                  f"{time.perf_counter() - t0:.0f} s]", flush=True)
    summary(args, games, rows)
    return 0


def report(args: argparse.Namespace) -> int:
    """The summary of a file written by ``--out`` (the games replayed for their count)."""
    try:
        with open(args.report, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as exc:
        print(f"clovece_regret.py: error: cannot read {args.report}: {exc}", file=sys.stderr)
        return 2
    wanted = range(args.first, args.first + args.games)
    rows = [r for r in rows if r["game"] in wanted]
    if rows:
        args.rollouts = rows[0]["rollouts"]
        args.every = max(r["every"] for r in rows if r["won"]) if any(
            r["won"] for r in rows) else args.every
        args.lost_every = max((r["every"] for r in rows if not r["won"]), default=args.lost_every)
    summary(args, {i: game_record(args, i) for i in wanted}, rows)
    return 0


def best_other(r: dict[str, Any]) -> int:
    """The other move of a sampled decision that won the most rollouts."""
    return max((k for k in range(len(r["moves"])) if k != r["chosen"]), key=lambda k: r["wins"][k])


def tag_pair(r: dict[str, Any], k: int) -> tuple[str, str]:
    """Move ``k`` of a sampled decision against silný's move: their names, and whether
    ``k`` moves a piece further ahead."""
    alt, chosen = r["moves"][k], r["moves"][r["chosen"]]
    ahead = "front piece" if alt["frm"] > chosen["frm"] else "back piece"
    return f"{tag(alt)} ({ahead})", tag(chosen)


def by_chance(others: list[int], levels: tuple[float, ...], draws: int = 400) -> list[float]:
    """How many decisions would have an other move at ``z >= level`` by chance alone if all
    their moves were worth the same (each move's estimate its own noise of equal spread, so
    the z of two other moves against silný's are correlated by 1/2), for each level."""
    rng = random.Random(12345)
    counts = [0.0] * len(levels)
    for k in others:
        for _ in range(draws):
            mine = rng.gauss(0, 1)
            z = max(rng.gauss(0, 1) - mine for _ in range(k)) / math.sqrt(2)
            for i, level in enumerate(levels):
                counts[i] += z >= level
    return [c / draws for c in counts]


def summary(args: argparse.Namespace, games: dict[int, tuple[bool, int]],
            rows: list[dict[str, Any]]) -> None:
    n = len(games)
    wins = sum(w for w, _ in games.values())
    per_game = sum(k for _, k in games.values()) / n
    print(f"\n{n} games against {args.opponent}, seed {args.seed} (games {args.first}.."
          f"{args.first + n - 1}): silný won {wins} ({wins / n:.1%}); {per_game:.1f} decisions "
          f"with two or more moves a game; {len(rows)} sampled (1 in {args.every} of won "
          f"games, 1 in {args.lost_every} of lost games), {args.rollouts} rollouts a move, "
          f"policy {args.policy}")
    if not rows:
        return
    zs = [r["diff_se_z"][2] for r in rows]
    flagged = [r for r in rows if r["diff_se_z"][2] >= args.z]
    chance = by_chance([len(r["moves"]) - 1 for r in rows], (args.z, 2.0))
    print(f"flagged (another move better by z >= {args.z:g}): {len(flagged)} of {len(rows)} "
          f"(if every move were as good as silný's: {chance[0]:.1f} by chance); "
          f"z >= 2: {sum(z >= 2 for z in zs)} ({chance[1]:.1f} by chance), "
          f"z <= -2: {sum(z <= -2 for z in zs)} (the largest z of a decision's other moves)")
    pairs = Counter((tag(r["moves"][best_other(r)]), tag(r["moves"][r["chosen"]]))
                    for r in flagged)
    for (best, chosen), k in pairs.most_common():
        print(f"   {k:4d}  best: {best:34s} silný: {chosen}")
    print("every other move against silný's, pooled by what they do (win chance of the other "
          "move minus silný's, mean over the decisions, standard error between them):")
    pooled: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        mine = r["wins"][r["chosen"]] / r["rollouts"]
        for k in range(len(r["moves"])):
            if k != r["chosen"]:
                diff = r["wins"][k] / r["rollouts"] - mine
                pooled.setdefault(("all", ""), []).append(diff)
                pooled.setdefault(tag_pair(r, k), []).append(diff)
    for (alt, chosen), diffs in sorted(pooled.items(), key=lambda kv: -len(kv[1])):
        if len(diffs) >= args.min_group:
            m, se = mean_se(diffs)
            print(f"   {len(diffs):5d}  other: {alt:48s} silný: {chosen:34s} {m:+6.2%} ± "
                  f"{se:.2%}  z {m / se if se else 0.0:+.1f}")
    parts: tuple[tuple[str, bool | None], ...] = (
        ("all", None), ("won games", True), ("lost games", False))
    for name, which in parts:
        part = [r for r in rows if which is None or r["won"] == which]
        if not part:
            continue
        plain, plain_se = mean_se([r["regret_plain"] for r in part])
        split, split_se = mean_se([r["regret_split"] for r in part])
        print(f"regret a sampled decision, {name} ({len(part)}): plain max {plain:.2%} ± "
              f"{plain_se:.2%}, split halves {split:.2%} ± {split_se:.2%}")
    by_game: dict[int, list[float]] = {g: [0.0, 0.0] for g in games}
    for r in rows:
        by_game[r["game"]][0] += r["every"] * r["regret_plain"]
        by_game[r["game"]][1] += r["every"] * r["regret_split"]
    for k, name in ((0, "plain max (biased up)"), (1, "split halves (biased down)")):
        m, se = mean_se([v[k] for v in by_game.values()])
        print(f"regret a game, {name}: {m:.2%} ± {se:.2%} (standard error over {n} games)")
    lost = [g for g, (w, _) in games.items() if not w]
    if lost and args.lost_every == 1:
        first = [min((r for r in rows if r["game"] == g), key=lambda r: r["index"],
                     default=None) for g in lost]
        start = [r["wins"][r["chosen"]] / r["rollouts"] for r in first if r is not None]
        m, se = mean_se([by_game[g][1] for g in lost])
        print(f"lost games ({len(lost)}, every decision sampled): regret a lost game, split "
              f"halves, {m:.2%} ± {se:.2%}" + (
                  f"; silný's win chance after its first decision {mean_se(start)[0]:.1%}"
                  if start else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("games", type=int)
    ap.add_argument("--opponent", choices=("random", "normal"), default="random")
    ap.add_argument("--every", type=int, default=4, help="sample one decision in EVERY")
    ap.add_argument("--lost-every", type=int, default=None,
                    help="in the games silný loses, sample one decision in LOST_EVERY "
                         "(default: --every)")
    ap.add_argument("--rollouts", type=int, default=200, help="rollouts a move (even)")
    ap.add_argument("--z", type=float, default=3.0, help="flag a decision from this z")
    ap.add_argument("--policy", choices=("fast", "full"), default="fast",
                    help="silný's play in the rollouts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--out", help="write every sampled decision to this JSON-lines file")
    ap.add_argument("--report", help="only sum up a file written by --out (the same GAMES, "
                                     "--seed, --first and --opponent)")
    ap.add_argument("--min-group", type=int, default=10,
                    help="the pooled table shows groups of at least this many moves")
    args = ap.parse_args()
    if args.lost_every is None:
        args.lost_every = args.every
    if args.games < 1 or min(args.every, args.lost_every) < 1 or args.first < 0:
        ap.error("GAMES, --every and --lost-every must be at least 1, --first not negative")
    if args.rollouts < 2 or args.rollouts % 2:
        ap.error("--rollouts must be an even number of at least 2 (the rollouts are split in halves)")
    if not args.z > 0 or math.isinf(args.z):
        ap.error("--z must be a positive number")
    if args.report is not None:
        return report(args)
    if args.out is None:
        return play(args, None)
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            return play(args, out)
    except OSError as exc:
        ap.error(f"cannot write {args.out}: {exc.strerror}")


if __name__ == "__main__":
    sys.exit(main())
