"""CPU instructions per roll of Člověče's random self-play, counted by callgrind.

A machine's load moves a rate in rolls per second by a fifth between runs
(benchmarks/engine_vs_ludopy.py); the instructions the interpreter executes for a
roll do not move at all, so this is the steadier guide when a change of the
engine's hot path is weighed.  For one checkout it runs, under valgrind's
callgrind, ``--warm`` seeded four-player games of
``companion.games.clovece.selfplay.play_game`` (they make the tables) and then
``--games`` more, and subtracts the same run without the last ``--games``: what
is left is those games' instructions alone, divided by their rolls.
``--against PATH`` does the same for another checkout (the code before a change,
e.g. a ``git worktree``) in the same run and prints the ratio.

    .venv/bin/python benchmarks/engine_instructions.py [--games 40] [--against ../old]

Needs valgrind (``apt-get install valgrind``); the seeded games are the same in
both checkouts as long as their rules are.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

GAMES = """
import random, sys
sys.path.insert(0, sys.argv[1])
from companion.games.clovece.selfplay import play_game
warm, games = int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)
for _ in range(warm):
    play_game(4, frozenset(), rng)
print(sum(play_game(4, frozenset(), rng).rolls for _ in range(games)))
"""


def instructions(tree: Path, warm: int, games: int) -> tuple[int, int]:
    """(instructions, rolls) of ``games`` games after ``warm``, run in ``tree`` under callgrind."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", GAMES, str(tree), str(warm), str(games)],
        capture_output=True, text=True, check=True)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-500:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def per_roll(tree: Path, warm: int, games: int) -> tuple[float, int]:
    total, rolls = instructions(tree, warm, games)
    base, _ = instructions(tree, warm, 0)
    return (total - base) / rolls, rolls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games counted (default 40)")
    ap.add_argument("--warm", type=int, default=30, help="games before them (default 30)")
    ap.add_argument("--against", type=Path, help="another checkout to count in the same run")
    args = ap.parse_args()
    if args.games < 1 or args.warm < 0:
        ap.error("--games must be at least 1 and --warm at least 0")
    here = Path(__file__).resolve().parents[1]
    trees = [here] + ([args.against.resolve()] if args.against else [])
    for tree in trees:
        if not (tree / "companion" / "selfplay" / "clovece.py").is_file():
            ap.error(f"{tree} is not a checkout of the companion")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 2
    counts = []
    for tree in trees:
        ir, rolls = per_roll(tree, args.warm, args.games)
        counts.append(ir)
        print(f"{str(tree):40s} {ir:9,.0f} instructions a roll ({rolls:,} rolls)", flush=True)
    if len(counts) == 2:
        print(f"this checkout / --against: {counts[0] / counts[1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
