"""The cross board as text, for terminals (pure).

Legend: ``r b g y`` a piece; ``R B G Y`` an empty start field of that colour;
``.`` an empty track field; ``:`` an empty goal field; ``o`` an empty house place.
"""

from __future__ import annotations

from companion.games.clovece.engine.board import GOALS, GRID, HOUSES, TRACK, cell_of
from companion.games.clovece.engine.rules import COLOURS, HOUSE, START, Position


def render(pos: Position, marks: dict[tuple[int, int], str] | None = None) -> str:
    """The board as ``GRID`` lines; ``marks`` overrides single cells (e.g. a target)."""
    grid = [["  "] * GRID for _ in range(GRID)]
    for x, y in TRACK:
        grid[y][x] = " ."
    for c in pos.colours:
        x, y = TRACK[START[c]]
        grid[y][x] = " " + COLOURS[c].upper()
        for x, y in GOALS[c]:
            grid[y][x] = " :"
        for x, y in HOUSES[c]:
            grid[y][x] = " o"
    for c in pos.colours:
        own = pos.pieces[c]
        assert own is not None
        slot = 0
        for p in own:
            x, y = cell_of(c, p, slot)
            if p == HOUSE:
                slot += 1
            grid[y][x] = " " + COLOURS[c]
    for (x, y), text in (marks or {}).items():
        grid[y][x] = text.rjust(2)[-2:]
    return "\n".join("".join(row).rstrip() for row in grid)
