"""The table-driven hot path of the engine against the rules stated plainly.

legal_moves and apply answer the official rules from precomputed tables, a
packed occupancy and a one-entry memory of the last question (see rules.py).
These tests state what a move does in plain words and check the fast path
against it, and check that the memory can never change an answer.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.errors import AmbiguousMove, IllegalMove, RulesError
from companion.games.clovece.engine import rules
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    GOAL_LAST,
    HOUSE,
    START,
    Captured,
    Entered,
    EnteredGoal,
    Event,
    Move,
    Moved,
    PassReason,
    Position,
    RollAgain,
    TryFailed,
    TurnPassed,
    Won,
    apply,
    in_play,
    legal_moves,
    new_game,
    next_colour,
    occupancy,
    track_field,
)
from companion.games.clovece.selfplay import play_steps
from tests.games.clovece.engine.helpers import P
from tests.games.clovece.engine.test_properties import positions


def plain_apply(pos: Position, roll: int, move: Move | None) -> tuple[Position, list[Event]]:
    """What a roll does, in plain words (the move, if any, is taken as legal)."""
    c = pos.turn
    if move is None:
        if in_play(pos):
            return Position(pos.pieces, next_colour(pos), 0, pos.variants), [
                TurnPassed(c, next_colour(pos), PassReason.FORFEIT)]
        if pos.tries + 1 < rules.TRIES:
            return Position(pos.pieces, c, pos.tries + 1, pos.variants), [TryFailed(c, pos.tries + 1)]
        return Position(pos.pieces, next_colour(pos), 0, pos.variants), [
            TurnPassed(c, next_colour(pos), PassReason.TRIES)]
    pieces = list(pos.pieces)
    own = list(pieces[c] or ())
    own[own.index(move.frm)] = move.to  # the first piece standing there moves
    pieces[c] = tuple(own)
    events: list[Event] = [Entered(c) if move.frm == HOUSE else Moved(c, move.frm, move.to)]
    if move.capture is not None:
        field = track_field(c, move.to)
        victim = list(pieces[move.capture] or ())
        victim[victim.index((field - START[move.capture]) % 40)] = HOUSE
        pieces[move.capture] = tuple(victim)
        events.append(Captured(c, move.capture, field))
    elif move.frm < GOAL_FIRST <= move.to:
        events.append(EnteredGoal(c, move.to))
    if all(p >= GOAL_FIRST for p in own):
        return Position(tuple(pieces), c, 0, pos.variants, c), [*events, Won(c)]
    if roll == 6:
        return Position(tuple(pieces), c, 0, pos.variants), [*events, RollAgain(c)]
    nxt = next_colour(pos)
    return Position(tuple(pieces), nxt, 0, pos.variants), [*events, TurnPassed(c, nxt, PassReason.DONE)]


def check_against_plain(pos: Position, roll: int) -> None:
    moves = legal_moves(pos, roll)
    choices: list[Move | None] = list(moves) if len(moves) > 1 else [None]
    for move in choices:
        played = move if move is not None or not moves else moves[0]  # the only legal one
        expected, expected_events = plain_apply(pos, roll, played)
        legal_moves(pos, roll)  # as a game asks: legal_moves, then apply
        after, events = apply(pos, roll, move)
        assert after == expected
        assert events == expected_events
        assert [type(e) for e in events] == [type(e) for e in expected_events]
        assert after.occ == occupancy(after.pieces)


@settings(max_examples=400, deadline=None)
@given(pos=positions(), roll=st.integers(1, 6))
def test_apply_does_what_the_rules_say_on_random_positions(pos, roll):
    check_against_plain(pos, roll)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_apply_does_what_the_rules_say_in_random_games(seed, players):
    # random games reach what random placements rarely do: tries, goal
    # endings, wins, captures on the start
    for before, roll, _move, _after, _events in play_steps(players, frozenset(), random.Random(seed)):
        check_against_plain(before, roll)


def test_the_stuck_table_is_exactly_not_in_play():
    # every mix of house and goal pieces, plus one on the track, either way of no-jump
    locations = (HOUSE, 5, *range(GOAL_FIRST, GOAL_LAST + 1))
    for own in itertools.product(locations, repeat=4):
        if any(own.count(g) > 1 for g in (5, *range(GOAL_FIRST, GOAL_LAST + 1))):
            continue
        pieces = (own, None, (HOUSE,) * 4, None)
        for variants in (frozenset(), frozenset({"no-jump-in-goal"})):
            pos = Position(pieces, 0, 0, variants, None, occupancy(pieces))
            assert (own not in rules._STUCK) == in_play(pos), own


def test_apply_without_asking_legal_moves_first_gives_the_same():
    pos = P("r:5,h,12,f2 b:h,h,h,h g:3,h,h,h y:20,22,h,f1 turn:r")
    asked = apply(pos, 3, legal_moves(pos, 3)[1])
    legal_moves(pos, 4)  # another roll was asked last
    assert apply(pos, 3, legal_moves(pos, 3)[1]) == asked
    legal_moves(P("r:0,h,h,h g:h,h,h,h turn:r"), 3)  # another position was asked last
    assert apply(pos, 3, Move(0, 12, 15, None)) == asked
    assert apply(replace(pos, occ=None), 3, Move(0, 12, 15, None)) == asked


def test_an_equal_position_built_anew_is_answered_alike():
    text = "r:h,h,h,h g:5,h,h,h turn:r tries:1"
    legal_moves(P(text), 2)
    after, events = apply(P(text), 2)
    assert after == P("r:h,h,h,h g:5,h,h,h turn:r tries:2")
    assert events == [TryFailed(0, 2)]


def test_changing_the_returned_list_does_not_change_what_apply_accepts():
    pos = P("r:5,h,12,f2 b:h,h,h,h g:3,h,h,h y:20,22,h,f1 turn:r")
    moves = legal_moves(pos, 3)
    assert len(moves) == 2
    first = moves.pop(0)
    moves.append(Move(0, 5, 9, None))  # made up
    with pytest.raises(AmbiguousMove):
        apply(pos, 3)
    with pytest.raises(IllegalMove):
        apply(pos, 3, Move(0, 5, 9, None))
    after, _ = apply(pos, 3, first)
    assert after.pieces[0] == (8, HOUSE, 12, GOAL_FIRST + 1)


@pytest.mark.parametrize("roll", [0, 7, -1, 2.5, "3", None, [3]])
def test_anything_but_one_to_six_is_refused_as_a_roll(roll):
    with pytest.raises(RulesError):
        legal_moves(new_game(4), roll)
    with pytest.raises(RulesError):
        apply(new_game(4), roll)


def test_occupancy_knows_track_and_goal_fields():
    pieces = ((0, 39, GOAL_FIRST, HOUSE), None, (5, GOAL_LAST, HOUSE, HOUSE), None)
    occ = occupancy(pieces)
    assert rules._occupant(occ, 0) == 0
    assert rules._occupant(occ, 39) == 0
    assert rules._occupant(occ, 25) == 2
    assert rules._occupant(occ, 1) is None
    # goal fields are slots of their own, apart from the track
    assert occ >> (3 * rules._slot(0, GOAL_FIRST)) & 7 == 1
    assert occ >> (3 * rules._slot(2, GOAL_LAST)) & 7 == 3
    assert occ >> (3 * rules._slot(2, GOAL_FIRST)) & 7 == 0
    assert occupancy(new_game(4).pieces) == 0


def test_every_prebuilt_move_carries_its_own_effect():
    """Each move of the tables carries its effect; apply reads it there."""
    moves = []
    for c in range(4):
        for r in range(1, 7):
            _lands, moves_of = rules._table(c, r)
            for by_occupant in moves_of:
                for move in by_occupant:
                    if move is None:
                        continue
                    moves.append(move)
                    effect = move.effect
                    assert effect is not None and effect == rules._effect(move)
                    frm, to, sent_home, _delta, first, second = effect
                    assert (frm, to) == (move.frm, move.to)
                    if move.capture is None:
                        assert sent_home is None
                    else:  # the victim's own progress on the field where the move lands
                        victim, hit = sent_home
                        assert victim == move.capture
                        assert track_field(victim, hit) == track_field(c, to)
                        assert isinstance(second, Captured) and second.field == track_field(c, to)
                    assert isinstance(first, Entered if move.frm == HOUSE else Moved)
                    assert second is None or isinstance(second, Captured | EnteredGoal)
    assert len(set(moves)) == len(moves) > 3000


def test_positions_and_moves_from_the_hot_path_are_frozen_values_of_one_kind():
    """What apply builds through _PositionSlots is an ordinary frozen Position; moves are
    values too, their effect no part of their value."""
    rng = random.Random(3)
    pos = new_game(4)
    seen = 0
    while pos.winner is None and seen < 400:
        roll = rng.randint(1, 6)
        moves = legal_moves(pos, roll)
        for m in moves:
            assert type(m) is Move and dataclasses.is_dataclass(m)
            assert m != (m.colour, m.frm, m.to, m.capture)  # never equal to a plain tuple
            assert m == Move(m.colour, m.frm, m.to, m.capture)
            assert hash(m) == hash(Move(m.colour, m.frm, m.to, m.capture))
            assert repr(m) == repr(Move(m.colour, m.frm, m.to, m.capture))
            assert m.effect is not None and dataclasses.replace(m).effect is None
        chosen = moves[rng.randrange(len(moves))] if moves else None
        after, events = apply(pos, roll, chosen)
        if chosen is not None:  # an equal move made anew (not the table's) plays the same
            anew = Move(chosen.colour, chosen.frm, chosen.to, chosen.capture)
            assert anew.effect is None
            again = apply(pos, roll, anew)
            assert again == (after, events) and again[0].occ == after.occ
            copied = apply(pos, roll, dataclasses.replace(chosen))
            assert copied == (after, events) and copied[0].occ == after.occ
        assert type(after) is Position and not hasattr(after, "__dict__")
        built = Position(after.pieces, after.turn, after.tries, after.variants, after.winner)
        assert after == built and hash(after) == hash(built) and {after, built} == {built}
        assert after != (after.pieces, after.turn, after.tries, after.variants, after.winner,
                         after.occ)
        with pytest.raises(dataclasses.FrozenInstanceError):
            after.turn = 0  # type: ignore[misc]
        if moves:
            with pytest.raises(dataclasses.FrozenInstanceError):
                moves[0].to = 0  # type: ignore[misc]
        assert dataclasses.replace(after, occ=None) == after
        pos = after
        seen += 1
    assert seen > 100
