"""How much a better napij se policy can win: how often silný chooses differently from
normální, and what those choices are worth.

Part 1 (``--games``): seeded games of silný against normální (two players, seats
turned every game, as ``benchmarks/levels.py``); at every decision of a play, by
either seat, it counts the decisions with two or more legal plays, those where the
best play scores at least 1 (3) fields more than the second by silný's evaluation,
and those where silný's play differs from normální's.

Part 2 (``--positions``, 0 to skip): at positions of silný's seat where the two
differ (up to 3 drawn from each game of more seeded games), the win chance of each
one's play by ``--rollouts`` rollouts to the end of the game, normální in both seats
afterwards, the deck reshuffled (silný does not peek at it) and the same rollout
seeds for both plays; it prints the mean difference (silný's play minus normální's)
with its standard error.

    .venv/bin/python benchmarks/napij_choices.py [--games 100] [--seed 7]
        [--positions 60] [--rollouts 200] [--rollout-seed 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import replace
from typing import Any

from companion.games.napij import bot as napij_bot
from companion.games.napij import levels
from companion.games.napij.engine import game as napij
from companion.games.napij.engine.rules import apply, legal_plays, outcome
from companion.games.napij.engine.state import Phase, State
from companion.players.levels import Level
from companion.selfplay.driver import play, sample
from companion.selfplay.match import game_seed, seating

GAME = napij.GAME
KINDS = ("strong", "normal")


def _seats(index: int) -> dict[int, levels.Seat]:
    return {c: levels.Seat(Level(k)) for c, k in seating(KINDS, index, True).items()}


def _play(seed: int, index: int, seats: dict[int, levels.Seat], look: Any) -> None:
    def choose(state: State, actions: Any) -> Any:
        seat = seats[GAME.to_move(state)]  # type: ignore[index]
        if state.phase is Phase.PLAY:
            look(state, seat)
        return seat(state, actions)

    play(GAME, napij.Setup(2), random.Random(game_seed(seed, index)), choose,
         interject=lambda s: seats[s.turn].interject(s))


def choices(games: int, seed: int) -> Counter[str]:
    count: Counter[str] = Counter()

    def look(state: State, _seat: levels.Seat) -> None:
        count["plays"] += 1
        plays = legal_plays(state)
        if len(plays) < 2:
            return
        count["two or more"] += 1
        c = state.turn
        scores = sorted((levels.strong_value(outcome(state, p), c) for p in plays), reverse=True)
        count["best by >= 1 field"] += scores[0] - scores[1] >= 1
        count["best by >= 3 fields"] += scores[0] - scores[1] >= 3
        count["silný differs"] += levels.strong_play(state) != napij_bot.choose_play(state)

    for i in range(games):
        _play(seed, i, _seats(i), look)
    return count


def _rollout(state: State, play_: Any, rng: random.Random, normal: levels.Seat) -> int | None:
    order = list(range(len(state.deck)))
    rng.shuffle(order)
    s, _ = apply(replace(state, deck=tuple(state.deck[i] for i in order)), play_)
    while not GAME.is_over(s):
        chance = GAME.chance(s)
        said = normal.interject(s) if chance is not None else None
        if said is not None:
            action = said
        elif chance is not None:
            action = GAME.chance_action(s, sample(chance, rng))
        else:
            action = normal(s, GAME.legal_actions(s))
        s, _ = GAME.apply(s, action)
    return s.winner


def worth(positions: int, rollouts: int, seed: int) -> list[float]:
    pick = random.Random(seed)
    found: list[tuple[State, Any, Any]] = []
    index = 0
    while len(found) < positions:
        here: list[tuple[State, Any, Any]] = []

        def look(state: State, seat: levels.Seat, here: list[tuple[State, Any, Any]] = here
                 ) -> None:
            if seat.level is Level.STRONG and len(legal_plays(state)) > 1:
                mine, theirs = levels.strong_play(state), napij_bot.choose_play(state)
                if mine != theirs:
                    here.append((state, mine, theirs))

        _play(seed, index, _seats(index), look)
        index += 1
        pick.shuffle(here)
        found += here[:3]
    normal = levels.Seat(Level.NORMAL)
    diffs = []
    t0 = time.perf_counter()
    for k, (state, mine, theirs) in enumerate(found[:positions]):
        won = []
        for p in (mine, theirs):
            won.append(sum(_rollout(state, p, random.Random(seed * 7919 + k * 1000 + r), normal)
                           == state.turn for r in range(rollouts)) / rollouts)
        diffs.append(won[0] - won[1])
        print(f"  position {k + 1}: silný's play {won[0]:.3f}, normální's {won[1]:.3f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--rollout-seed", type=int, default=5)
    args = ap.parse_args()
    if args.games < 0 or args.positions < 0:
        ap.error("--games and --positions are counts: 0 or more")
    if args.rollouts < 1:
        ap.error("--rollouts must be at least 1")
    if args.games:
        count = choices(args.games, args.seed)
        multi = count["two or more"]
        print(f"{args.games} games of silný against normální, seed {args.seed}: "
              f"{count['plays']:,} decisions of a play")
        print(f"  two or more plays     {multi:7,d}  {multi / count['plays']:6.1%} of them")
        for key in ("best by >= 1 field", "best by >= 3 fields", "silný differs"):
            print(f"  {key:21s} {count[key]:7,d}  {count[key] / multi:6.1%} of those with two or more")
    if args.positions:
        diffs = worth(args.positions, args.rollouts, args.rollout_seed)
        se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
        print(f"{len(diffs)} positions where they differ, {args.rollouts} rollouts a play: "
              f"silný's play wins {statistics.mean(diffs):+.2%} more often than normální's "
              f"(standard error {se:.2%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
