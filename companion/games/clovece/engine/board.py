"""Geometry of the cross-shaped Člověče board on an 11 x 11 grid (pure data).

Used by the text board in the terminal and the mini-map on the OLED.  Column
``x`` grows to the right, row ``y`` downwards; the track runs clockwise on the
screen: red's start on the left arm, blue's on top, green's on the right,
yellow's at the bottom.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.clovece.engine.rules import GOAL_FIRST, HOUSE, START, TRACK_LEN, Position

GRID = 11

TRACK: tuple[tuple[int, int], ...] = (
    (0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0), (5, 0),
    (6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (7, 4), (8, 4), (9, 4), (10, 4), (10, 5),
    (10, 6), (9, 6), (8, 6), (7, 6), (6, 6), (6, 7), (6, 8), (6, 9), (6, 10), (5, 10),
    (4, 10), (4, 9), (4, 8), (4, 7), (4, 6), (3, 6), (2, 6), (1, 6), (0, 6), (0, 5),
)
"""Grid cell of every absolute track field 0…39."""

GOALS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 5), (2, 5), (3, 5), (4, 5)),
    ((5, 1), (5, 2), (5, 3), (5, 4)),
    ((9, 5), (8, 5), (7, 5), (6, 5)),
    ((5, 9), (5, 8), (5, 7), (5, 6)),
)
"""Grid cells of f1…f4 of each colour."""

HOUSES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (1, 0), (0, 1), (1, 1)),
    ((9, 0), (10, 0), (9, 1), (10, 1)),
    ((9, 9), (10, 9), (9, 10), (10, 10)),
    ((0, 9), (1, 9), (0, 10), (1, 10)),
)
"""Grid cells of the four house places of each colour."""


def cell_of(colour: int, progress: int, slot: int = 0) -> tuple[int, int]:
    """Grid cell of a piece; ``slot`` picks the house place for pieces at home."""
    if progress == HOUSE:
        return HOUSES[colour][slot]
    if progress >= GOAL_FIRST:
        return GOALS[colour][progress - GOAL_FIRST]
    return TRACK[(START[colour] + progress) % TRACK_LEN]


def piece_cells(pos: Position) -> Iterator[tuple[int, int, tuple[int, int]]]:
    """(colour, progress, grid cell) of every piece; pieces in a house take its places in turn."""
    for c in pos.colours:
        own = pos.pieces[c]
        assert own is not None
        slot = 0
        for p in own:
            yield c, p, cell_of(c, p, slot)
            if p == HOUSE:
                slot += 1
