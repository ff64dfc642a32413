"""Every rule of seeds 001/002 and every variant, stated as positions and rolls."""

from __future__ import annotations

import pytest

from companion.engines.errors import AmbiguousMove, GameOver, IllegalMove, RulesError
from companion.games.clovece.engine.rules import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Captured,
    Entered,
    EnteredGoal,
    Move,
    PassReason,
    RollAgain,
    TryFailed,
    TurnPassed,
    Why,
    Won,
    apply,
    goal_piece_can_move,
    in_play,
    legal_moves,
    new_game,
    next_colour,
    why_not,
)
from tests.games.clovece.engine.helpers import P, moves, play

# --- set-up ------------------------------------------------------------------


def test_two_players_are_red_and_green_three_are_red_blue_green():
    assert new_game(2).colours == (RED, GREEN)
    assert new_game(3).colours == (RED, BLUE, GREEN)
    assert new_game(4).colours == (RED, BLUE, GREEN, YELLOW)


def test_red_starts_and_the_turn_goes_clockwise_over_present_colours():
    pos = new_game(2)
    assert pos.turn == RED
    assert next_colour(pos) == GREEN
    assert next_colour(pos, GREEN) == RED
    three = new_game(3)
    assert [next_colour(three, c) for c in (RED, BLUE, GREEN)] == [BLUE, GREEN, RED]


def test_new_game_refuses_one_or_five_players_and_unknown_variants():
    for n in (1, 5):
        with pytest.raises(RulesError):
            new_game(n)
    with pytest.raises(RulesError):
        new_game(4, {"flying-pieces"})


def test_a_roll_outside_one_to_six_is_refused():
    with pytest.raises(RulesError):
        legal_moves(new_game(2), 7)
    with pytest.raises(RulesError):
        legal_moves(new_game(2), 0)


# --- entering -------------------------------------------------------------------


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_a_piece_leaves_the_house_only_on_a_six(roll):
    assert moves("r:h,h,h,h g:h,h,h,h turn:r", roll) == set()


def test_a_six_enters_a_piece_onto_the_start_field():
    assert moves("r:h,h,h,h g:h,h,h,h turn:r", 6) == {("h", "0", None)}
    after, events = play("r:h,h,h,h g:h,h,h,h turn:r", 6)
    assert after == "r:0,h,h,h g:h,h,h,h turn:r"
    assert Entered(RED) in events and RollAgain(RED) in events


def test_blue_enters_on_field_ten_green_on_twenty_yellow_on_thirty():
    assert moves("r:5,h,h,h b:h,h,h,h turn:b", 6) == {("h", "10", None)}
    assert moves("r:5,h,h,h g:h,h,h,h turn:g", 6) == {("h", "20", None)}
    assert moves("r:5,h,h,h y:h,h,h,h turn:y", 6) == {("h", "30", None)}


def test_entering_is_a_duty_on_a_six_while_the_start_is_free_of_own_pieces():
    # the piece on 15 could move six, but the waiting piece must come out
    assert moves("r:15,h,h,h g:h,h,h,h turn:r", 6) == {("h", "0", None)}


def test_no_entry_while_an_own_piece_holds_the_start():
    # the six moves the piece off the start instead (clearing it)
    assert moves("r:0,15,h,h g:h,h,h,h turn:r", 6) == {("0", "6", None)}


def test_a_six_with_every_piece_out_moves_any_piece():
    assert moves("r:3,15,f1,f4 g:h,h,h,h turn:r", 6) == {("3", "9", None), ("15", "21", None)}


# --- clearing the start ---------------------------------------------------------


def test_the_piece_on_the_start_moves_first_while_pieces_wait_in_the_house():
    assert moves("r:0,15,h,h g:h,h,h,h turn:r", 3) == {("0", "3", None)}


def test_clearing_the_start_gives_way_when_the_roll_does_not_let_that_piece_move():
    # 0 + 3 lands on the own piece on 3, so the other piece may move
    assert moves("r:0,3,h,h g:h,h,h,h turn:r", 3) == {("3", "6", None)}


def test_no_duty_to_clear_the_start_once_the_house_is_empty():
    assert moves("r:0,15,f1,f2 g:h,h,h,h turn:r", 3) == {("0", "3", None), ("15", "18", None),
                                                         ("f1", "f4", None)}


# --- six, three tries, forfeit --------------------------------------------------


def test_after_a_six_and_a_move_the_same_colour_rolls_again():
    after, events = play("r:5,h,h,h g:10,h,h,h turn:r", 6)
    # must enter on a six
    assert after == "r:5,0,h,h g:10,h,h,h turn:r"
    after, events = play("r:5,f1,f2,f3 g:10,h,h,h turn:r", 6)
    assert after == "r:11,f1,f2,f3 g:10,h,h,h turn:r"
    assert RollAgain(RED) in events


def test_after_any_other_roll_the_turn_passes_clockwise():
    after, events = play("r:5,h,h,h b:h,h,h,h g:10,h,h,h turn:r", 2)
    assert after == "r:7,h,h,h b:h,h,h,h g:10,h,h,h turn:b"
    assert TurnPassed(RED, BLUE, PassReason.DONE) in events


def test_three_tries_for_a_six_when_no_piece_is_in_play():
    pos = "r:h,h,h,h g:5,h,h,h turn:r"
    after, events = play(pos, 3)
    assert after == "r:h,h,h,h g:5,h,h,h turn:r tries:1"
    assert events == [TryFailed(RED, 1)]
    after, events = play(after, 1)
    assert after == "r:h,h,h,h g:5,h,h,h turn:r tries:2"
    after, events = play(after, 5)
    assert after == "r:h,h,h,h g:5,h,h,h turn:g"
    assert events == [TurnPassed(RED, GREEN, PassReason.TRIES)]


def test_a_six_on_the_third_try_enters():
    after, _ = play("r:h,h,h,h g:5,h,h,h turn:r tries:2", 6)
    assert after == "r:0,h,h,h g:5,h,h,h turn:r"


def test_pieces_stuck_in_the_goal_do_not_count_as_in_play():
    pos = P("r:f4,f3,h,h g:5,h,h,h turn:r")
    assert not in_play(pos)
    after, _ = play("r:f4,f3,h,h g:5,h,h,h turn:r", 2)
    assert after == "r:f4,f3,h,h g:5,h,h,h turn:r tries:1"


def test_a_goal_piece_that_can_still_move_is_in_play():
    # f2 can still go to f3 or f4 on a small roll, so a five is simply forfeited
    pos = P("r:f2,h,h,h g:5,h,h,h turn:r")
    assert in_play(pos)
    after, events = play("r:f2,h,h,h g:5,h,h,h turn:r", 5)
    assert after == "r:f2,h,h,h g:5,h,h,h turn:g"
    assert events == [TurnPassed(RED, GREEN, PassReason.FORFEIT)]


def test_a_goal_piece_boxed_in_behind_an_own_piece_can_move_only_by_jumping():
    own = (40, 41, -1, -1)  # f1 and f2: f1 can reach f3 or f4 only over f2
    assert goal_piece_can_move(own, 40, no_jump=False)
    assert not goal_piece_can_move(own, 40, no_jump=True)
    assert goal_piece_can_move(own, 41, no_jump=True)
    assert not goal_piece_can_move((43, -1, -1, -1), 43, no_jump=False)


def test_a_turn_with_no_legal_move_is_forfeited_even_after_a_six():
    # the track piece would overshoot the goal, the goal pieces are stuck, the house is empty
    after, events = play("r:38,f2,f3,f4 g:5,h,h,h turn:r", 6)
    assert after == "r:38,f2,f3,f4 g:5,h,h,h turn:g"
    assert events == [TurnPassed(RED, GREEN, PassReason.FORFEIT)]


# --- capturing -------------------------------------------------------------------


def test_landing_on_an_opponent_sends_it_home():
    assert moves("r:5,h,h,h g:8,h,h,h turn:r", 3) == {("5", "8", "g")}
    after, events = play("r:5,h,h,h g:8,h,h,h turn:r", 3)
    assert after == "r:8,h,h,h g:h,h,h,h turn:g"
    assert Captured(RED, GREEN, 8) in events


def test_entering_onto_the_start_captures_an_opponent_standing_there():
    assert moves("r:h,h,h,h g:0,h,h,h turn:r", 6) == {("h", "0", "g")}
    after, _ = play("r:h,h,h,h g:0,h,h,h turn:r", 6)
    assert after == "r:0,h,h,h g:h,h,h,h turn:r"


def test_a_piece_on_its_own_start_field_can_be_captured():
    after, _ = play("r:17,h,h,h g:20,h,h,h turn:r", 3)
    assert after == "r:20,h,h,h g:h,h,h,h turn:g"


def test_the_captured_piece_is_the_one_on_the_field_not_another_of_its_colour():
    after, _ = play("r:17,h,h,h g:20,25,f1,h turn:r", 3)
    assert after == "r:20,h,h,h g:h,25,f1,h turn:g"


def test_no_move_onto_an_own_piece():
    assert moves("r:5,8,f1,f2 g:h,h,h,h turn:r", 3) == {("8", "11", None), ("f1", "f4", None)}


def test_jumping_over_any_piece_is_allowed_and_captures_nobody():
    assert moves("r:5,6,f1,f4 g:7,h,h,h turn:r", 3) == {("5", "8", None), ("6", "9", None)}
    after, events = play("r:5,f2,f1,f4 g:6,7,h,h turn:r", 3)
    assert after == "r:8,f2,f1,f4 g:6,7,h,h turn:g"
    assert not any(isinstance(e, Captured) for e in events)


def test_the_track_wraps_from_39_to_0_for_colours_other_than_red():
    after, _ = play("r:h,h,h,h b:38,h,h,h turn:b", 4)
    assert after == "r:h,h,h,h b:2,h,h,h turn:r"


# --- the goal ------------------------------------------------------------------------


def test_seed_002_worked_example_entering_the_goal():
    # one track field left before the goal (red on 38): a two reaches f1, a five f4,
    # a six would go past the end of the goal
    pos = "r:38,f2,f3,h g:10,h,h,h turn:r"
    assert moves(pos, 1) == {("38", "39", None), ("f3", "f4", None)}
    assert ("38", "f1", None) in moves(pos, 2)
    assert ("38", "f4", None) in moves("r:38,h,h,f1 g:10,h,h,h turn:r", 5)
    assert all(m[0] != "38" for m in moves("r:38,h,h,f1 g:10,h,h,h turn:r", 6))
    # and with an own piece already on f4 not even the five helps
    assert all(m[0] != "38" for m in moves("r:38,f4,h,h g:10,h,h,h turn:r", 5))


def test_why_the_six_cannot_move_the_piece_of_the_worked_example():
    reason = why_not(P("r:38,f1,f2,f3 g:10,h,h,h turn:r"), 6, 38)
    assert reason.why is Why.OVERSHOOTS_GOAL


def test_other_colours_never_enter_a_foreign_goal():
    # green passes red's goal entrance (after field 39) and keeps going on the track
    after, _ = play("r:5,h,h,h g:38,h,h,h turn:g", 4)
    assert after == "r:5,h,h,h g:2,h,h,h turn:r"


def test_blue_turns_into_its_goal_after_field_nine():
    after, events = play("r:5,h,h,h b:8,f2,f3,f4 turn:b", 2)
    assert after == "r:5,h,h,h b:f1,f2,f3,f4 turn:b winner:b"
    assert EnteredGoal(BLUE, 40) in events and Won(BLUE) in events


def test_moving_and_jumping_inside_the_goal():
    assert moves("r:f1,f2,20,30 g:10,h,h,h turn:r", 2) >= {("f1", "f3", None), ("f2", "f4", None)}


def test_no_landing_on_an_own_goal_piece():
    assert ("f1", "f2", None) not in moves("r:f1,f2,20,30 g:10,h,h,h turn:r", 1)


def test_the_game_ends_when_one_colour_has_all_four_in_the_goal():
    after, events = play("r:38,f2,f3,f4 g:10,h,h,h turn:r", 2)
    assert after == "r:f1,f2,f3,f4 g:10,h,h,h turn:r winner:r"
    assert events[-1] == Won(RED)
    pos = P(after)
    assert legal_moves(pos, 3) == []
    with pytest.raises(GameOver):
        apply(pos, 3)


def test_a_winning_six_does_not_roll_again():
    after, events = play("r:34,f2,f3,f4 g:10,h,h,h turn:r", 6)
    assert after.endswith("winner:r")
    assert RollAgain(RED) not in events


# --- choosing moves ---------------------------------------------------------------------


def test_the_only_legal_move_is_taken_by_itself():
    after, _ = play("r:5,h,h,h g:10,h,h,h turn:r", 3)
    assert after == "r:8,h,h,h g:10,h,h,h turn:g"


def test_several_legal_moves_need_a_choice():
    with pytest.raises(AmbiguousMove):
        apply(P("r:5,15,f1,f2 g:10,h,h,h turn:r"), 1)


def test_an_illegal_move_is_refused_with_its_reason():
    with pytest.raises(IllegalMove) as err:
        apply(P("r:5,8,f1,f2 g:10,h,h,h turn:r"), 3, Move(RED, 5, 8, None))
    assert err.value.reason is not None
    assert err.value.reason.why is Why.OWN_PIECE_ON_TARGET
    assert err.value.code == "own-piece-on-target"  # the family's machine-readable name


def test_a_move_made_up_for_another_roll_is_refused():
    pos = P("r:5,15,h,h g:10,h,h,h turn:r")
    with pytest.raises(IllegalMove):
        apply(pos, 2, Move(RED, 5, 8, None))


# --- why ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,roll,frm,why", [
    ("r:5,h,h,h g:10,h,h,h turn:r", 3, -1, Why.HOUSE_NEEDS_SIX),
    ("r:0,h,h,h g:10,h,h,h turn:r", 6, -1, Why.START_HELD_BY_OWN),
    ("r:5,8,f1,f2 g:10,h,h,h turn:r", 3, 5, Why.OWN_PIECE_ON_TARGET),
    ("r:38,f1,f2,f3 g:10,h,h,h turn:r", 6, 38, Why.OVERSHOOTS_GOAL),
    ("r:5,15,h,h g:10,h,h,h turn:r", 6, 5, Why.MUST_ENTER),
    ("r:0,15,h,h g:10,h,h,h turn:r", 2, 15, Why.MUST_CLEAR_START),
    ("r:5,15,f1,f2 g:8,h,h,h turn:r variants:mandatory-capture", 3, 15, Why.MUST_CAPTURE),
    ("r:f1,f2,5,h g:10,h,h,h turn:r variants:no-jump-in-goal", 2, 40, Why.CANNOT_JUMP_IN_GOAL),
    ("r:17,f1,f2,f3 g:20,h,h,h turn:r variants:safe-start", 3, 17, Why.SAFE_ON_START),
    ("r:5,15,f1,f2 g:10,h,h,h turn:r", 3, 20, Why.NO_PIECE),
    ("r:5,15,f1,f2 g:10,h,h,h turn:r", 3, 5, Why.LEGAL),
    ("r:f1,f2,f3,f4 g:10,h,h,h turn:r winner:r", 3, 40, Why.GAME_OVER),
])
def test_why_a_piece_cannot_move(text, roll, frm, why):
    assert why_not(P(text), roll, frm).why is why


# --- variants ----------------------------------------------------------------------------------


def test_mandatory_capture_forces_the_capturing_move():
    pos = "r:5,15,f1,f2 g:8,h,h,h turn:r variants:mandatory-capture"
    assert moves(pos, 3) == {("5", "8", "g")}
    assert len(moves("r:5,15,f1,f2 g:8,h,h,h turn:r", 3)) == 3


def test_mandatory_capture_yields_to_entering_and_clearing_the_start():
    # entering comes first even though 2 -> 8 would capture
    assert moves("r:2,h,h,h g:8,h,h,h turn:r variants:mandatory-capture", 6) == {("h", "0", None)}
    # clearing the start comes first even though 5 -> 8 would capture
    assert moves("r:0,5,h,h g:8,h,h,h turn:r variants:mandatory-capture", 3) == {("0", "3", None)}


def test_mandatory_capture_without_a_capture_leaves_every_move():
    assert len(moves("r:5,15,f1,f2 g:30,h,h,h turn:r variants:mandatory-capture", 3)) == 3


def test_voluntary_entry_makes_entering_a_choice():
    pos = "r:15,h,h,h g:30,h,h,h turn:r variants:voluntary-entry"
    assert moves(pos, 6) == {("h", "0", None), ("15", "21", None)}


def test_voluntary_entry_lifts_the_duty_to_clear_the_start():
    pos = "r:0,15,h,h g:30,h,h,h turn:r variants:voluntary-entry"
    assert moves(pos, 3) == {("0", "3", None), ("15", "18", None)}


def test_voluntary_entry_with_mandatory_capture_prefers_the_capture():
    pos = "r:2,h,h,h g:8,h,h,h turn:r variants:mandatory-capture,voluntary-entry"
    assert moves(pos, 6) == {("2", "8", "g")}


def test_no_jump_in_goal_forbids_jumping_inside_the_goal():
    pos = "r:f1,f2,5,h g:10,h,h,h turn:r variants:no-jump-in-goal"
    assert ("f1", "f3", None) not in moves(pos, 2)
    assert ("f2", "f3", None) in moves(pos, 1)


def test_no_jump_in_goal_forbids_jumping_when_entering_the_goal():
    pos = "r:38,f1,f4,h g:10,h,h,h turn:r variants:no-jump-in-goal"
    assert ("38", "f2", None) not in moves(pos, 3)
    assert ("38", "f2", None) in moves("r:38,f1,f4,h g:10,h,h,h turn:r", 3)


def test_safe_start_protects_a_piece_on_its_own_start_only():
    assert ("17", "20", "g") not in moves("r:17,f1,f2,f3 g:20,h,h,h turn:r variants:safe-start", 3)
    # a green piece on red's start is not on its own start: entering still captures it
    assert moves("r:h,h,h,h g:0,h,h,h turn:r variants:safe-start", 6) == {("h", "0", "g")}
