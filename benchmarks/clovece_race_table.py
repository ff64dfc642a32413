"""Working out the solitaire race of Člověče (``companion/players/clovece_race.py``).

For every set of one colour's pieces (149,986 of them) the expected number of its
turns to bring them all home when it plays alone and as well as it can: dynamic
programming from the finished set backwards (every move raises the sum of the
pieces' progress, so a set's successors are worked out before it).  The moves are
the engine's own (``legal_moves`` of a two-player position whose other colour
waits in its house).  A throw with no legal move ends the turn (three tries for a
six when no piece is in play), which makes a set its own successor; that is
solved exactly (the expected turns of a loop).

    .venv/bin/python benchmarks/clovece_race_table.py [--out companion/players/clovece_race.bin]

Takes about a minute on the development machine.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
import zlib
from array import array
from pathlib import Path

from companion.engines.clovece.rules import HOUSE, Position, in_play, legal_moves
from companion.players.clovece_race import DATA, FIELDS, PIECES, SCALE, SIZE, index

DONE = (40, 41, 42, 43)
_TRIES3 = 1 - (5 / 6) ** 3


def sets() -> list[tuple[int, ...]]:
    """Every set of one colour's pieces, sorted, the house as ``HOUSE``."""
    out = []
    for k in range(PIECES + 1):
        for placed in itertools.combinations(range(FIELDS), k):
            out.append((HOUSE,) * (PIECES - k) + placed)
    return out


def solve() -> tuple[list[float], list[float]]:
    """The expected turns of every set (the moves chosen to make it least) and their second
    moment (under the same choices)."""
    value = [0.0] * SIZE
    second = [0.0] * SIZE
    waiting = (HOUSE,) * PIECES
    for own in sorted(sets(), key=sum, reverse=True):
        if own == DONE:
            continue
        pos = Position(pieces=(own, None, waiting, None), turn=0)

        def cost(roll: int, move_frm: int, move_to: int,
                 own: tuple[int, ...] = own) -> tuple[float, float]:
            """The expected turns after this move, and their second moment."""
            nxt = list(own)
            nxt[nxt.index(move_frm)] = move_to
            after = tuple(sorted(nxt))
            if after == DONE:
                return 1.0, 1.0
            i = index(after)
            c = 0.0 if roll == 6 else 1.0  # a six goes on in the same turn
            return value[i] + c, second[i] + 2 * c * value[i] + c * c

        here = index(own)
        if not in_play(pos, 0):  # only a six helps, three tries a turn; it must enter
            (entry,) = legal_moves(pos, 6)
            m1, m2 = cost(6, entry.frm, entry.to)
            value[here] = v = m1 + (1 - _TRIES3) / _TRIES3
            second[here] = (_TRIES3 * m2 + (1 - _TRIES3) * (1 + 2 * v)) / _TRIES3
            continue
        total = total2 = 0.0
        stuck = 0
        for roll in range(1, 7):
            moves = legal_moves(pos, roll)
            if not moves:
                stuck += 1
                continue
            m1, m2 = min(cost(roll, m.frm, m.to) for m in moves)
            total += m1
            total2 += m2
        if stuck == 6:
            raise AssertionError(f"{own}: in play but no throw moves")
        value[here] = v = (total + stuck) / (6 - stuck)
        second[here] = (total2 + stuck * (1 + 2 * v)) / (6 - stuck)
    return value, second


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args()
    t0 = time.perf_counter()
    value, second = solve()
    spread = [math.sqrt(max(0.0, m2 - v * v)) for v, m2 in zip(value, second, strict=True)]
    table = array("H", [round(v * SCALE) for v in value] + [round(s * SCALE) for s in spread])
    if sys.byteorder != "little":
        table.byteswap()
    args.out.write_bytes(zlib.compress(table.tobytes(), 9))
    print(f"{SIZE:,} sets in {time.perf_counter() - t0:.0f} s; all in the house: "
          f"{max(value):.3f} turns (sd {spread[value.index(max(value))]:.3f}); written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
