"""How many turns one Člověče colour needs to bring all its pieces home, playing alone.

The *solitaire race*: a colour with nobody else on the board (nobody hits it, nobody
stands in its way), playing the official rules - a six throws again, a colour with
no piece in play throws three times for a six, a six must enter a piece and a piece
on the start must clear it, a piece needs the exact throw into the goal and no field
takes two pieces - and choosing every move so as to finish soonest.  :func:`turns`
is the expected number of its turns from a set of its pieces (counting the turn that
is about to start), worked out once by dynamic programming over all 149,986 sets
(``benchmarks/clovece_race_table.py``) and read from ``clovece_race.bin`` beside this
module (unsigned 16-bit thousandths of a turn, little-endian, zlib-compressed).

The strong level (:mod:`companion.players.clovece_strong`) scores a two-player
race with it: a piece in the house, a piece one throw short of a goal field that
only an exact throw fills, a goal with a hole that blocks the last piece - each
costs what it costs in turns, not in fields.
"""

from __future__ import annotations

import zlib
from array import array
from functools import cache
from math import comb
from pathlib import Path

HOUSE = -1
FIELDS = 44
"""Progress 0…43: the track 0…39 and the goal 40…43."""
PIECES = 4
SCALE = 1000
"""Turns are stored in thousandths."""

DATA = Path(__file__).with_name("clovece_race.bin")

_OFFSET = [sum(comb(FIELDS, j) for j in range(k)) for k in range(PIECES + 2)]
SIZE = _OFFSET[PIECES + 1]
"""The number of sets: 0 to 4 pieces on the 44 fields, the rest in the house."""


def index(own: tuple[int, ...] | list[int]) -> int:
    """The place of a colour's set of pieces (any order; ``HOUSE`` for a piece in the house)
    in the table."""
    placed = sorted(p for p in own if p != HOUSE)
    k = len(placed)
    i = _OFFSET[k]
    for j, p in enumerate(placed):
        i += comb(p, j + 1)
    return i


@cache
def table() -> array[int]:
    """The table of :func:`turns`, read once."""
    out = array("H")
    out.frombytes(zlib.decompress(DATA.read_bytes()))
    if out.itemsize != 2 or len(out) != 2 * SIZE:
        raise ValueError(f"{DATA.name} does not hold {SIZE} sets' turns and spreads")
    if array("H", [1]).tobytes() != b"\x01\x00":  # the file is little-endian
        out.byteswap()
    return out


def turns(own: tuple[int, ...] | list[int]) -> float:
    """The expected number of turns a colour with the pieces ``own`` needs to finish alone
    (0.0 when all four are in the goal)."""
    return table()[index(own)] / SCALE


def spread(own: tuple[int, ...] | list[int]) -> float:
    """The standard deviation of those turns (playing as :func:`turns` assumes)."""
    return table()[SIZE + index(own)] / SCALE
