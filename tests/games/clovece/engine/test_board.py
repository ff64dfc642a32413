from __future__ import annotations

from companion.games.clovece.engine.board import GOALS, GRID, HOUSES, TRACK, cell_of
from companion.games.clovece.engine.rules import BLUE, GREEN, HOUSE, RED, START, YELLOW


def test_the_track_is_a_closed_loop_of_forty_neighbouring_cells():
    assert len(TRACK) == 40 and len(set(TRACK)) == 40
    for a, b in zip(TRACK, TRACK[1:] + TRACK[:1], strict=True):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_cells_never_overlap_and_stay_on_the_grid():
    cells = list(TRACK) + [c for g in GOALS for c in g] + [c for h in HOUSES for c in h]
    assert len(cells) == len(set(cells)) == 72
    assert all(0 <= x < GRID and 0 <= y < GRID for x, y in cells)


def test_each_goal_starts_next_to_the_colours_last_track_field_and_leads_inwards():
    for c in (RED, BLUE, GREEN, YELLOW):
        last = TRACK[(START[c] - 1) % 40]
        f1 = GOALS[c][0]
        assert abs(last[0] - f1[0]) + abs(last[1] - f1[1]) == 1
        assert GOALS[c][3] in ((4, 5), (5, 4), (6, 5), (5, 6))  # f4 touches the centre


def test_clockwise_on_screen_red_left_blue_top_green_right_yellow_bottom():
    assert TRACK[START[RED]][0] == 0
    assert TRACK[START[BLUE]][1] == 0
    assert TRACK[START[GREEN]][0] == GRID - 1
    assert TRACK[START[YELLOW]][1] == GRID - 1


def test_cell_of_pieces():
    assert cell_of(RED, HOUSE, 2) == HOUSES[RED][2]
    assert cell_of(BLUE, 0) == TRACK[10]
    assert cell_of(GREEN, 41) == GOALS[GREEN][1]


def test_piece_cells_give_each_house_piece_its_own_place():
    from companion.games.clovece.engine.board import HOUSES, cell_of, piece_cells
    from companion.games.clovece.engine.notation import parse_position

    cells = list(piece_cells(parse_position("r:h,5,h,f1 g:h,h,h,h turn:r")))
    red = [cell for c, _p, cell in cells if c == 0]
    assert red[0] == HOUSES[0][0] and red[2] == HOUSES[0][1]
    assert red[1] == cell_of(0, 5) and len(set(red)) == 4
    assert len(cells) == 8
