from __future__ import annotations

from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.textboard import render


def test_pieces_starts_and_goals_are_drawn_where_they_stand():
    text = render(parse_position("r:0,f2,h,h g:25,h,h,h turn:r"))
    rows = [row.ljust(22) for row in text.splitlines()]
    assert len(rows) == 11
    cell = lambda x, y: rows[y][2 * x: 2 * x + 2]  # noqa: E731
    assert cell(0, 4) == " r"  # red on its start
    assert cell(2, 5) == " r"  # red on f2
    assert cell(1, 5) == " :"  # f1 empty
    assert cell(10, 6) == " G"  # green's empty start
    assert cell(6, 7) == " g"  # green on 25
    # two red pieces wait in the house, two places are empty
    assert [cell(0, 0), cell(1, 0), cell(0, 1), cell(1, 1)] == [" r", " r", " o", " o"]
    assert cell(4, 10) == " ."  # yellow does not play: its start is plain track
    assert cell(0, 10) == "  "  # and it has no house
