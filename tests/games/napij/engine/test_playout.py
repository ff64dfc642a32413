"""The play-out: where a piece would end (pure), the working copy, passing the turn."""

from __future__ import annotations

from companion.games.napij.engine.events import ImmunityEnded, TurnPassed
from companion.games.napij.engine.playout import (
    PlayOut,
    next_colour,
    occupancy,
    pass_turn,
    target_of,
    walk,
)
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.state import PUB
from tests.games.napij.engine.helpers import G, node, pos

R, B, GR, Y = 0, 1, 2, 3


def test_where_a_piece_would_end_or_why_not():
    st = pos("r:m4,m12,m13,p g:m8,p,p,p bottle:m60 turn:r")
    occ = occupancy(st)
    imm = st.immune
    assert target_of(G, occ, imm, R, PUB, (6,), None) is Why.START_HELD_BY_OWN
    assert target_of(G, occ, imm, R, PUB, (6, 2), None) == node("m6")
    assert target_of(G, occ, imm, R, PUB, (3,), None) is Why.PUB_NEEDS_SIX
    assert target_of(G, occ, imm, R, node("m4"), (4,), None) == node("m8")  # a capture
    assert target_of(G, occ, imm, R, node("m4"), (1,), None) == node("m5")
    assert target_of(G, occ, imm, R, node("m12"), (1,), None) is Why.OWN_PIECE_ON_TARGET
    assert target_of(G, occ, imm, R, node("m13"), (2,), None) is Why.EXIT_NEEDED
    assert target_of(G, occ, imm, R, node("m13"), (2,), node("sb1")) == node("sb2")
    assert target_of(G, occ, imm, R, node("m13"), (2,), node("c1+")) is Why.BAD_EXIT


def test_walking_into_the_home_needs_an_exact_count_and_no_jumps():
    st = pos("r:rl1,rh2,m20,p g:p,p,p,p bottle:m60 turn:r")
    occ = occupancy(st)
    first = G.through[R][node("rl1")]
    assert walk(G, occ, R, first, 2) == node("rh1")
    assert walk(G, occ, R, first, 4) is Why.CANNOT_JUMP_IN_HOME
    empty = occupancy(pos("r:rl1,m20,p,p g:p,p,p,p bottle:m60 turn:r"))
    assert walk(G, empty, R, first, 9) is Why.OVERSHOOTS_HOME


def test_occupancy_maps_fields_to_pieces():
    st = pos("r:m4,p,p,p g:p,m8,p,p bottle:m60 turn:r")
    occ = occupancy(st)
    assert occ[G.field[node("m4")]] == 4 * R + 0
    assert occ[G.field[node("m8")]] == 4 * GR + 1
    assert sum(1 for o in occ if o >= 0) == 2


def test_an_untouched_working_copy_freezes_into_the_same_state():
    st = pos("r:m4*2,p,p,p g:p,m8,p,p bottle:m60 turn:r throws:6,6 owe:g1 drunk:r2")
    assert PlayOut(st).freeze(st.turn, st.throws, st.tries, st.with_bottle) == st


def test_passing_the_turn_skips_absent_colours_and_counts_immunity_down():
    st = pos("r:m4,p,p,p g:m8*1,m9*3,p,p bottle:m60 turn:r")
    assert next_colour(st) == GR and next_colour(st, GR) == R
    events: list[object] = []
    after = pass_turn(st, events)  # type: ignore[arg-type]
    assert after.turn == GR and after.immune[GR] == (0, 2, 0, 0)
    assert events == [ImmunityEnded(GR, 0), TurnPassed(R, GR)]
