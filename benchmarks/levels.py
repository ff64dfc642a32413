"""The computer levels' strength: seeded matches through the generic driver, every win share
with its 95 % interval, against the targets of docs/players/computer-players.md.

Each figure is one match of ``companion selfplay GAME --seats ... --rotate`` (the
same code: :func:`companion.selfplay.match.run_match`): the seats turn by one
colour every game, so no level is favoured by its colour, and game ``i`` of a
match draws from its own seeded generator, so a figure is the same on any number
of worker processes.  The peer of a level is the other level (or the random
player) in the same games.

    .venv/bin/python benchmarks/levels.py [--game clovece|napij|all] [--games 4000]
        [--seed 1] [--workers 2] [--only NAME]

A target is "met" when the share reaches it; the interval says how sure that is
("clear" when even its lower bound does).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    game: str
    seats: tuple[str, ...]
    kind: str
    """The kind whose share the target is about."""
    target: float | None
    """The share it must reach; ``None``: printed only; negative: it must stay below -target."""


FIGURES = (
    Figure("clovece-strong-vs-random", "clovece", ("strong", "random"), "strong", 0.90),
    Figure("clovece-strong-vs-3-random", "clovece", ("strong", "random", "random", "random"),
           "strong", 0.62),
    Figure("clovece-strong-vs-normal", "clovece", ("strong", "normal"), "strong", 0.60),
    Figure("clovece-beginner-vs-normal", "clovece", ("beginner", "normal"), "beginner", -0.40),
    Figure("clovece-normal-vs-random", "clovece", ("normal", "random"), "normal", None),
    Figure("clovece-normal-vs-3-random", "clovece", ("normal", "random", "random", "random"),
           "normal", None),
    Figure("clovece-beginner-vs-random", "clovece", ("beginner", "random"), "beginner", None),
    Figure("napij-strong-vs-normal", "napij", ("strong", "normal"), "strong", 0.60),
    Figure("napij-strong-vs-random", "napij", ("strong", "random"), "strong", None),
    Figure("napij-strong-vs-3-random", "napij", ("strong", "random", "random", "random"),
           "strong", None),
    Figure("napij-normal-vs-random", "napij", ("normal", "random"), "normal", None),
    Figure("napij-beginner-vs-normal", "napij", ("beginner", "normal"), "beginner", -0.40),
)
"""Every figure; a beginner "loses clearly" to normal: below 40 % of the games."""


def verdict(share: float, low: float, high: float, target: float | None) -> str:
    if target is None:
        return "printed only"
    if target < 0:
        bound = -target
        ok, sure = share < bound, high < bound
        return f"target < {bound:.0%}: " + ("met, clear" if sure else "met" if ok else "NOT met")
    ok, sure = share >= target, low >= target
    return f"target >= {target:.0%}: " + ("met, clear" if sure else "met" if ok else "NOT met")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--game", choices=("clovece", "napij", "all"), default="all")
    ap.add_argument("--games", type=int, default=4000, help="games per figure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: per core)")
    ap.add_argument("--only", action="append", default=[],
                    help="play only this figure (repeatable): " + ", ".join(f.name for f in FIGURES))
    args = ap.parse_args()
    from companion.games import find_game
    from companion.selfplay.match import kind_name, run_match

    chosen = [f for f in FIGURES if (args.game in ("all", f.game))
              and (not args.only or f.name in args.only)]
    summary = []
    for f in chosen:
        make = find_game(f.game).match
        if make is None:
            print(f"{f.name}: skipped ({f.game!r} has no computer levels)", flush=True)
            continue
        result = run_match(f.game, make, f.seats, args.games, args.seed, rotate=True,
                           workers=args.workers)
        print("\n".join(result.lines()), flush=True)
        low, high = result.interval(f.kind)
        share = result.share(f.kind)
        summary.append(f"{f.name:28s} {kind_name(f.kind):11s} {share:6.1%} "
                       f"({low:.1%}–{high:.1%}, {args.games:,} games)  "
                       f"{verdict(share, low, high, f.target)}")
    print("\nsummary (share of the named level, 95 % interval):")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
