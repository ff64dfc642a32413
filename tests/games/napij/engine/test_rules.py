"""The rules engine of Člověče, napij se!: the seed's worked examples, every field type, the
bottle, the cards and the drink ledger.  Decisions are numbered as in docs/players/napij-rules.md."""

from __future__ import annotations

import pytest

from companion.engines.errors import GameOver, IllegalMove, RulesError
from companion.games.napij.engine.actions import (
    Choose,
    DeclareBottle,
    Drank,
    Duty,
    Later,
    Play,
    Shuffle,
    Step,
    Throw,
)
from companion.games.napij.engine.events import (
    AtJunction,
    AtTurnOff,
    BottleMoved,
    BottlePlaced,
    BottlePushed,
    Captured,
    CardDrawn,
    DeckShuffled,
    EnteredHome,
    How,
    Moved,
    MustDrink,
    Postponed,
    ReturnedToPub,
    Settled,
    ThrowAgain,
    Thrown,
    Trapped,
    TryFailed,
    TurnForfeited,
    TurnPassed,
    VoidThrow,
    Won,
)
from companion.games.napij.engine.notation import (
    NotationError,
    format_position,
    parse_play,
)
from companion.games.napij.engine.reasons import ForfeitWhy, Why
from companion.games.napij.engine.rules import (
    UNSHUFFLED,
    apply,
    legal_moves,
    legal_plays,
    needs_six,
    new_game,
    preview,
    why_not,
    why_piece,
)
from companion.games.napij.engine.state import BOTTLE, DeckMode, DrinkReason, Phase
from tests.games.napij.engine.helpers import (
    BLUE_TO_M28,
    RULES,
    G,
    kinds,
    landing,
    node,
    only,
    places,
    play,
    plays,
    pos,
    refused,
    throw,
    with_top,
)

R, B, GR, Y = 0, 1, 2, 3


# --- the seed's worked examples ---------------------------------------------------------------

def test_six_then_three_splits_as_six_and_three_or_nine_but_never_five_and_four():
    st = pos("r:m12,m30,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:6,3")
    assert plays(st) == {"m12=6 m30=3", "m12=3 m30=6", "m12=6+3", "m30=6+3"}
    assert refused(st, "m12=5 m30=4") is Why.NOT_A_THROWN_VALUE
    assert refused(st, "m12=4 m30=5") is Why.NOT_A_THROWN_VALUE
    assert refused(st, "m12=6") is Why.VALUES_UNUSED
    assert refused(st, "m12=6 m12=3") is Why.PIECE_TWICE
    after, events = play(st, "m12=9")  # the sum written as one number is "together"
    assert only(events, Moved)[0] == Moved(R, 0, node("m12"), node("m21"), (6, 3))


def test_nine_in_one_go_passes_the_junctions_at_six_and_three_and_captures_nobody():
    # m10 (3 ahead) and m13 (6 ahead) are junctions, both held by green
    st = pos("r:m7,rh4,rh3,rh2 g:m10,m13,p,p bottle:m60 turn:r throws:6,3")
    assert plays(st) == {"m7=6+3"}
    events = preview(st, legal_plays(st)[0])
    assert only(events, Moved)[0].to == node("m16")
    assert not only(events, Captured) and not only(events, AtJunction)
    after, _ = play(st, "m7=6+3")
    assert places(after, GR)[:2] == ["m10", "m13"]


def test_the_same_throws_split_do_stop_capture_and_halt_at_the_junctions():
    st = pos("r:m7,m30,rh4,rh3 g:m10,m13,p,p bottle:m60 turn:r throws:6,3")
    events = preview(st, parse_play(st, "m7=6 m30=3"))
    assert [(e.colour, G.text[e.node]) for e in only(events, Captured)] == [(GR, "m13")]
    assert {G.text[e.node] for e in only(events, AtJunction)} == {"m13", "m33"}
    events = preview(st, parse_play(st, "m7=3 m30=6"))
    assert [G.text[e.node] for e in only(events, Captured)] == ["m10"]


def test_entering_and_going_on_two_does_not_capture_on_the_start():
    st = pos("r:p,p,p,p g:m4,p,p,p bottle:m43 turn:r")
    st, events = throw(st, 6, 2)
    assert kinds(events) == ["Thrown", "ThrowAgain", "Thrown"]
    assert plays(st) == {"p=6+2"}
    after, events = play(st, "p=6+2")
    assert places(after, R) == ["m6", "p", "p", "p"]
    assert places(after, GR)[0] == "m4"
    assert not only(events, Captured)


def test_entering_with_the_six_alone_does_capture_on_the_start():
    st = pos("r:m20,p,p,p g:m4,p,p,p bottle:m43 turn:r throws:6,2")
    assert "m20=2 p=6" in plays(st)
    after, events = play(st, "p=6 m20=2")
    assert [e.colour for e in only(events, Captured)] == [GR]
    assert places(after, GR)[0] == "p"


def test_a_piece_four_from_home_cannot_use_six_then_four_and_need_not_throw_again():
    st = pos("r:m2,rh2,rh3,rh4 g:p,p,p,p bottle:m60 turn:r")
    after, events = throw(st, 6)
    assert TurnForfeited(R, ForfeitWhy.SIX_UNUSABLE) in events
    assert after.turn == GR and after.throws == ()
    assert places(after, R)[0] == "m2"
    with pytest.raises(NotationError):
        pos("r:m2,rh2,rh3,rh4 g:p,p,p,p bottle:m60 turn:r throws:6")
    # the exact four goes in (and wins)
    after, events = throw(st, 4)
    assert plays(after) == {"m2=4"}
    after, events = play(after, "m2=4")
    assert places(after, R)[0] == "rh1" and Won(R) in events


def test_the_zachytka_needs_an_exact_four_or_three_and_later_one():
    st = pos("r:c6+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:4")
    after, events = play(st, "c6=4")
    assert places(after, R)[0] == "zach+" and only(events, Trapped)
    st = pos("r:c6+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:3")
    after, _ = play(st, "c6=3")
    assert places(after, R)[0] == "zp3+i"
    st = pos("r:zp3+i,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:1")
    after, _ = play(st, "zp3=1")
    assert places(after, R)[0] == "zach+"


def test_a_throw_larger_than_the_way_left_to_the_trap_leaves_the_piece_waiting():
    st = pos("r:c6+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:5")
    assert plays(st) == {"m20=5"}
    assert why_piece(st, 0).why is Why.OVERSHOOTS_TRAP
    # its only piece in play: the turn is lost, and the piece is in play (no three tries)
    st = pos("r:zp2+i,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r")
    assert not needs_six(st)
    after, events = throw(st, 4)
    assert TurnForfeited(R, ForfeitWhy.NO_MOVE) in events and after.turn == GR


def test_a_trapped_piece_is_not_in_play_three_tries_then_six_and_the_next_throw():
    st = pos("r:zach+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r")
    assert needs_six(st)
    st, events = throw(st, 2)
    assert TryFailed(R, 1) in events
    assert why_not(st, DeclareBottle()).why is Why.BOTTLE_TOO_LATE
    st, events = throw(st, 6, 4)
    assert plays(st) == {"zach=6+4"}
    after, _ = play(st, "zach=6+4")
    assert places(after, R)[0] == "c7+"  # back on the stezka, on in its old direction (east)
    st = pos("r:zach-,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:6,4")
    after, _ = play(st, "zach=6+4")
    assert places(after, R)[0] == "c5-"  # it had come from the east: on to the west


def test_three_failed_tries_pass_the_turn():
    st = pos("r:zach+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r")
    after, events = throw(st, 1, 2, 3)
    assert TurnForfeited(R, ForfeitWhy.TRIES) in events and after.turn == GR


def test_a_trapped_piece_needs_a_six_and_the_six_alone_lifts_it_onto_the_way_back():
    st = pos("r:zach+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:3")
    assert plays(st) == {"m20=3"}
    assert why_piece(st, 0).why is Why.TRAP_NEEDS_SIX
    st = pos("r:zach+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:6,3")
    after, _ = play(st, "zach=6 m20=3")
    assert places(after, R)[:2] == ["zp3+o", "m23"]


def test_landing_on_the_turn_off_on_the_way_back_sends_the_piece_in_again():
    st = pos("r:zach+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:6,3")
    after, events = play(st, "zach=6+3")
    assert places(after, R)[0] == "c6+" and only(events, AtTurnOff)
    st = pos("r:c6+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:2")
    assert plays(st) == {"c6=2", "m20=2"}
    after, _ = play(st, "c6=2")
    assert places(after, R)[0] == "zp2+i"


def test_the_swamp_and_forest_junction_must_be_respected_on_the_way_back():
    st = pos("r:baz+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:6,1")
    after, events = play(st, "baz=6+1")
    assert places(after, R)[0] == "tj+o" and only(events, AtJunction)
    st = pos("r:tj+o,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:2")
    assert plays(st) == {"tj>bp1=2", "tj>lp1=2", "m20=2"}  # back into a trap, either one
    after, _ = play(st, "tj>lp1=2")
    assert places(after, R)[0] == "les+"
    assert refused(st, "tj=2") is Why.EXIT_NEEDED
    # passing it on the way out is fine
    st = pos("r:baz+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:6,2")
    after, _ = play(st, "baz=6+2")
    assert places(after, R)[0] == "tp1+o"


def test_a_turn_off_forces_the_next_step_into_the_trap_path():
    st = pos("r:c14-,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:2")
    assert plays(st) == {"c14=2", "m20=2"}
    after, _ = play(st, "c14=2")
    assert places(after, R)[0] == "tj-i"
    # a piece passing the turn-off goes straight on along the stezka
    st = pos("r:c13+,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:3")
    after, _ = play(st, "c13=3")
    assert places(after, R)[0] == "c16+"


def test_two_way_traffic_on_the_black_path_head_on_capture():
    st = pos("r:c8+,rh4,rh3,rh2 g:c10-,p,p,p bottle:m60 turn:r throws:2")
    after, events = play(st, "c8=2")
    assert [e.colour for e in only(events, Captured)] == [GR]
    st = pos("r:c8+,rh4,rh3,rh2 g:c10-,p,p,p bottle:m60 turn:g throws:2")
    after, events = play(st, "c10=2")
    assert [e.colour for e in only(events, Captured)] == [R]
    assert places(after, GR)[0] == "c8-"


def test_the_black_path_cuts_half_the_way_in_both_directions():
    st = pos("r:m10,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:3")
    assert plays(st) == {"m10>m11=3", "m10>c1=3"}
    after, _ = play(st, "m10>c1=3")
    assert places(after, R)[0] == "c3+"
    st = pos("r:c17+,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:4")
    after, _ = play(st, "c17=4")  # off the east end, on clockwise
    assert places(after, R)[0] == "m51"
    st = pos("r:m50,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:5")
    after, _ = play(st, "m50>c19=5")
    assert places(after, R)[0] == "c15-"
    st = pos("r:c2-,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:4")
    after, _ = play(st, "c2=4")
    assert places(after, R)[0] == "m12"


def test_a_junction_needs_an_exact_stop_and_the_choice_comes_next_turn():
    st = pos("r:m11,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:2")
    after, events = play(st, "m11=2")
    assert places(after, R)[0] == "m13" and only(events, AtJunction)
    st = pos("r:m13,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:2")
    assert plays(st) == {"m13>m14=2", "m13>sb1=2"}
    assert refused(st, "m13=2") is Why.EXIT_NEEDED
    assert refused(st, "m13>c1=2") is Why.BAD_EXIT
    after, _ = play(st, "m13>sb1=2")
    assert places(after, R)[0] == "sb2"


def test_a_shortcut_bypasses_an_arrow_so_its_colour_would_go_round_again():
    st = pos("r:m73,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:6")
    st, _ = throw(st, 1)
    after, _ = play(st, "m73>sr1=6+1")
    assert places(after, R)[0] == "m7"  # past its own arrow m3


def test_the_arrow_turns_only_its_own_colour_into_the_lane():
    st = pos("r:m1,m20,rh4,rh3 b:m61,p,p,p bottle:m60 turn:r throws:3")
    after, _ = play(st, "m1=3")
    assert places(after, R)[0] == "rl1"
    st = pos("r:m30,m20,rh4,rh3 b:m1,p,p,p bottle:m60 turn:b throws:3")
    after, _ = play(st, "m1=3")
    assert places(after, B)[0] == "m4"


def test_the_rolling_pin_sends_the_piece_back_to_its_pub():
    st = pos("r:m1,m20,rh4,rh3 g:p,p,p,p bottle:m60 turn:r throws:4")
    after, events = play(st, "m1=4")
    assert places(after, R)[0] == "p"
    assert only(events, ReturnedToPub)[0].cause == "rolling-pin"
    assert MustDrink(R, 1, DrinkReason.PUB) in events


def test_exact_count_into_the_home_and_no_jumping_inside_it():
    st = pos("r:rl1,rh2,m20,p g:p,p,p,p bottle:m60 turn:r throws:4")
    assert why_piece(st, 0).why is Why.CANNOT_JUMP_IN_HOME
    st = pos("r:rl1,rh2,m20,p g:p,p,p,p bottle:m60 turn:r throws:3")
    assert why_piece(st, 0).why is Why.OWN_PIECE_ON_TARGET
    st = pos("r:rl1,rh4,m20,p g:p,p,p,p bottle:m60 turn:r throws:6,5")
    assert why_piece(st, 0).why is Why.OVERSHOOTS_HOME
    st = pos("r:rh1,rh3,m20,p g:p,p,p,p y:p,p,p,p bottle:m60 turn:r throws:1")
    assert plays(st) == {"rh1=1", "rh3=1", "m20=1"}
    after, events = play(st, "rh1=1")
    assert places(after, R)[0] == "rh2"
    assert not only(events, EnteredHome) and not only(events, MustDrink)


def test_entering_the_home_makes_everybody_else_drink():
    st = pos("r:rl1,m20,p,p g:p,p,p,p y:p,p,p,p bottle:m60 turn:r throws:2")
    after, events = play(st, "rl1=2")
    assert places(after, R)[0] == "rh1"
    assert only(events, MustDrink) == [MustDrink(GR, 1, DrinkReason.HOME, R),
                                        MustDrink(Y, 1, DrinkReason.HOME, R)]
    assert after.owed[R] == 0 and after.owed[GR] == 1


def test_entering_is_not_a_duty_when_another_piece_is_in_play():
    st = pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:6,2")
    assert {"m20=6+2", "p=6+2", "m20=2 p=6"} <= plays(st)


def test_the_own_start_blocks_a_single_entry_but_not_one_in_one_go():
    st = pos("r:m4,m20,p,p g:p,p,p,p bottle:m60 turn:r throws:6,1")
    assert refused(st, "p=6 m20=1") is Why.START_HELD_BY_OWN
    after, _ = play(st, "m4=1 p=6")  # clear the start first, then enter
    assert places(after, R)[:3] == ["m5", "m20", "m4"]
    after, _ = play(st, "p=6+1")
    assert places(after, R)[2] == "m5" or places(after, R)[3] == "m5"


def test_a_six_throws_again_and_three_tries_need_no_piece_in_play():
    st = new_game()
    st, _ = apply(st, Drank(R))
    st, events = throw(st, 3)
    assert TryFailed(R, 1) in events and st.turn == R
    st, events = throw(st, 6)
    assert ThrowAgain(R) in events and st.phase is Phase.THROW
    st, events = throw(st, 6)
    assert st.throws == (6, 6)


def test_a_home_piece_that_can_still_move_cancels_the_three_tries():
    st = pos("r:rh1,rh4,p,p g:p,p,p,p bottle:m60 turn:r")
    assert not needs_six(st)
    after, _ = throw(st, 2)
    assert plays(after) == {"rh1=2"}
    st = pos("r:rh3,rh4,p,p g:p,p,p,p bottle:m60 turn:r")
    assert needs_six(st)


def test_without_any_play_using_every_value_the_turn_is_forfeited():
    st = pos("r:rl1,rh2,p,p g:p,p,p,p bottle:m60 turn:r")
    after, events = throw(st, 4)
    assert TurnForfeited(R, ForfeitWhy.NO_MOVE) in events
    assert TurnPassed(R, GR) in events and after.turn == GR


# --- the bottle -------------------------------------------------------------------------------

def test_the_bottle_is_placed_one_field_behind_the_first_piece_to_enter():
    st = new_game()
    st, _ = apply(st, Drank(R))
    st, _ = throw(st, 6, 1)
    after, events = play(st, "p=6+1")
    assert only(events, BottlePlaced) == [BottlePlaced(node("m3"))]
    st = new_game(first=B)
    st, _ = apply(st, Drank(B))
    st, _ = throw(st, 6, 3)
    after, _ = play(st, "p=6+3")
    assert G.text[after.bottle] == "m23" and places(after, B)[0] == "m27"
    # the second entry does not move it
    st = pos("r:m10,p,p,p b:p,p,p,p bottle:m3 turn:b throws:6,1")
    after, events = play(st, "p=6+1")
    assert not only(events, BottlePlaced) and G.text[after.bottle] == "m3"


def test_the_bottle_is_declared_before_the_throw_and_then_takes_the_whole_turn():
    st = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    assert legal_moves(st) == [DeclareBottle()]
    st, events = apply(st, DeclareBottle())
    assert st.with_bottle
    st, _ = throw(st, 5)
    assert legal_plays(st) == [Play((Step(BOTTLE, (5,)),))]
    assert refused(st, "m20=5") is Why.BOTTLE_DECLARED
    after, events = play(st, "bottle")
    assert only(events, BottleMoved) == [BottleMoved(R, node("m25"), node("m30"))]
    assert only(events, Captured)[0].how is How.BOTTLE
    assert MustDrink(GR, 1, DrinkReason.BOTTLE) in events
    assert places(after, GR)[0] == "p"


def test_the_bottle_needs_a_piece_in_play_and_a_declaration_before_the_first_throw():
    st = pos("r:p,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    assert why_not(st, DeclareBottle()).why is Why.BOTTLE_NEEDS_PIECE_IN_PLAY
    st = new_game()
    assert why_not(st, DeclareBottle()).why is Why.BOTTLE_NOT_PLACED
    st = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r throws:6")
    assert why_not(st, DeclareBottle()).why is Why.BOTTLE_TOO_LATE
    st = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r throws:3")
    assert refused(st, "bottle") is Why.BOTTLE_NOT_DECLARED


def test_the_bottle_stays_on_the_main_track_knocks_out_anyone_and_draws_no_card():
    st = pos("r:m20,p,p,p g:p,p,p,p bottle:m11 turn:r with:bottle throws:3")
    after, _ = play(st, "bottle")
    assert G.text[after.bottle] == "m14"  # straight over the junction m13
    st = pos("r:m16,m40,p,p g:p,p,p,p bottle:m11 turn:r with:bottle throws:5")
    after, events = play(st, "bottle")
    assert places(after, R)[0] == "p"  # its own player's piece too
    assert Captured(R, R, 0, node("m16"), How.BOTTLE) in events
    assert not only(events, CardDrawn)  # m16 is a card field; the bottle ignores cards
    st = pos("r:m40,p,p,p g:p,p,p,p bottle:m11 turn:r with:bottle throws:5")
    after, events = play(st, "bottle")
    assert G.text[after.bottle] == "m16" and not only(events, CardDrawn)


def test_a_piece_landing_on_the_bottle_pushes_it_behind_itself_capturing_what_is_there():
    st = pos("r:m20,p,p,p g:m24,p,p,p bottle:m25 turn:r throws:5")
    after, events = play(st, "m20=5")
    assert only(events, BottlePushed) == [BottlePushed(R, node("m25"), node("m24"))]
    assert G.text[after.bottle] == "m24" and places(after, R)[0] == "m25"
    assert places(after, GR)[0] == "p"
    assert MustDrink(R, 1, DrinkReason.BOTTLE) in events  # the pusher
    assert MustDrink(GR, 1, DrinkReason.BOTTLE) in events  # knocked out by the bottle


def test_an_immune_piece_stops_the_bottle():
    st = pos("r:m20,p,p,p g:m30*2,p,p,p bottle:m25 turn:r with:bottle")
    after, events = throw(st, 5)
    assert TurnForfeited(R, ForfeitWhy.NO_MOVE) in events
    assert G.text[after.bottle] == "m25"


# --- the drink ledger -----------------------------------------------------------------------

def test_everybody_drinks_at_the_start_and_a_debt_voids_the_next_throw():
    st = new_game(players=2)
    assert st.owed == (1, 0, 1, 0)
    after, events = throw(st, 6)
    assert VoidThrow(R, 6) in events and after.throws == () and after.turn == R
    assert after.owed[R] == 3  # cheating, delay and the drink owed
    assert [e.reason for e in only(events, MustDrink)] == [DrinkReason.CHEATING,
                                                          DrinkReason.DELAY]
    after, events = apply(after, Drank(R))
    assert events == [Settled(R, 3, 0)] and after.owed[R] == 0 and after.drunk[R] == 3
    after, events = throw(after, 6)
    assert ThrowAgain(R) in events


def test_knocked_out_pieces_and_called_duties_are_drinks():
    st = pos("r:m20,p,p,p g:m23,p,p,p bottle:m60 turn:r throws:3")
    after, events = play(st, "m20=3")
    assert MustDrink(GR, 1, DrinkReason.KNOCKED_OUT) in events
    for reason in (DrinkReason.DROPPED_DICE, DrinkReason.DELAY, DrinkReason.CHEATING,
                   DrinkReason.UPSET):
        after, events = apply(after, Duty(R, reason))
        assert events == [MustDrink(R, 1, reason)]
    assert after.owed[R] == 4
    assert why_not(after, Duty(R, DrinkReason.HOME)).why is Why.NOT_A_CALLED_DUTY
    assert why_not(after, Drank(Y)).why is Why.NOT_PLAYING
    assert why_not(st, Drank(R)).why is Why.NOTHING_OWED


def test_a_debt_from_another_players_turn_must_be_paid_before_the_next_own_throw():
    st = pos("r:m20,p,p,p g:m23,p,p,p bottle:m60 turn:r throws:3")
    after, _ = play(st, "m20=3")  # green is knocked out and now owes a drink
    assert after.turn == GR
    after, events = throw(after, 6)
    assert VoidThrow(GR, 6) in events


def test_the_winner_is_toasted_and_the_game_ends():
    st = pos("r:rl1,rh2,rh3,rh4 g:m20,p,p,p y:p,p,p,p bottle:m60 turn:r throws:2")
    after, events = play(st, "rl1=2")
    assert Won(R) in events and after.winner == R and after.phase is Phase.OVER
    assert MustDrink(GR, 1, DrinkReason.WINNER, R) in events
    assert MustDrink(Y, 1, DrinkReason.WINNER, R) in events
    with pytest.raises(GameOver):
        apply(after, Throw(3))
    after, events = apply(after, Drank(GR))  # the table still settles
    assert after.owed[GR] == 0


def test_choices_and_throws_in_the_wrong_phase_are_refused():
    after, _ = landing(BLUE_TO_M28, "m25=3", 10)
    assert why_not(after, Throw(3)).why is Why.CHOICE_PENDING
    st = pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:6")
    assert why_not(st, parse_play(pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:3"),
                                  "m20=3")).why is Why.THROW_FIRST
    assert why_not(st, Choose(GR, 0)).why is Why.NO_CHOICE_PENDING
    st = pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:3")
    assert why_not(st, Throw(3)).why is Why.NOT_THROW_PHASE
    assert why_not(st, Throw(7)).why is Why.BAD_VALUE


def test_who_starts_is_an_input_and_seats_follow_the_player_count():
    assert new_game(players=3, first=B).turn == B
    assert new_game(players=2).colours == (R, GR)
    with pytest.raises(ValueError):
        new_game(players=2, first=B)
    with pytest.raises(ValueError):
        new_game(players=5)
    with pytest.raises(ValueError):
        new_game(deck_order=[1, 2, 3])


# --- decisions not covered above (docs/players/napij-rules.md) ---------------------------------------

def test_d14_immunity_does_not_protect_against_the_rolling_pin():
    st = pos("r:m1*2,m40,p,p g:p,p,p,p bottle:m60 turn:r throws:4")
    after, events = play(st, "m1=4")
    assert places(after, R)[0] == "p" and after.immune[R][0] == 0


def test_d19_the_pushed_bottle_skips_immune_pieces():
    st = pos("r:m20,p,p,p g:m24*2,m23,p,p bottle:m25 turn:r throws:5")
    after, events = play(st, "m20=5")
    assert G.text[after.bottle] == "m23"
    assert places(after, GR) == ["m24", "p", "p", "p"]


def test_d20_a_knock_out_costs_one_drink_not_two():
    st = pos("r:m20,p,p,p g:m23,p,p,p bottle:m60 turn:r throws:3")
    _, events = play(st, "m20=3")
    assert [e for e in only(events, MustDrink) if e.colour == GR] == [
        MustDrink(GR, 1, DrinkReason.KNOCKED_OUT)]


def test_d36_pieces_in_the_pub_are_alike():
    st = pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:6,2")
    after, _ = apply(st, Play((Step(3, (6,)), Step(0, (2,)))))
    assert places(after, R) == ["m22", "m4", "p", "p"]


# --- the fast enumeration of plays against the plain statement of the rule --------------------

def outcome_key(state, play) -> tuple[object, ...]:
    """Where a play leaves the pieces, the bottle and the drinks, and in which order pieces
    will draw cards (the player may choose that order, D23)."""
    from companion.games.napij.engine.events import Entered, Released
    from companion.games.napij.engine.rules import outcome

    after = outcome(state, play)
    draws = tuple(e.to for e in preview(state, play)
                  if isinstance(e, Moved | Entered | Released) and G.is_card[e.to])
    return after.pieces, after.bottle, after.owed, draws


def all_plays_plainly(state) -> set[tuple[object, ...]]:
    """Every play the rule allows (one piece with everything, or each value to a different
    piece in any order), checked one by one; what they lead to."""
    from itertools import permutations, product

    c = state.turn
    own = state.pieces[c]
    values = state.throws

    def exits(p):
        n = own[p]
        return G.exits[c][n] if n >= 0 and len(G.exits[c][n]) > 1 else (None,)

    candidates = []
    if state.with_bottle:
        candidates.append(Play((Step(BOTTLE, values),)))
    else:
        for p in range(4):
            for e in exits(p):
                candidates.append(Play((Step(p, values, e),)))
        if len(values) > 1:
            for order in set(permutations(values)):
                for chosen in permutations(range(4), len(values)):
                    for ex in product(*(exits(q) for q in chosen)):
                        candidates.append(Play(tuple(
                            Step(q, (v,), e) for q, v, e in zip(chosen, order, ex, strict=True))))
    return {outcome_key(state, p) for p in candidates if why_not(state, p).why is Why.LEGAL}


def test_legal_plays_are_exactly_the_plays_the_rule_allows_each_outcome_once():
    import random

    from companion.games.napij.selfplay import play_steps

    checked = multi = 0
    for seed in range(3):
        for _b, _a, after, _e in play_steps(random.Random(seed)):
            if after.phase is not Phase.PLAY:
                continue
            if len(after.throws) == 1 and checked % 10:
                checked += 1
                continue  # single throws are the easy case: sample them
            keys = [outcome_key(after, p) for p in legal_plays(after)]
            assert set(keys) == all_plays_plainly(after), format_position(after)
            assert len(keys) == len(set(keys)), format_position(after)
            checked += 1
            multi += len(after.throws) > 1
    assert multi > 50


# --- chance as actions: the shuffle of a virtual deck -----------------------------------------

def test_an_unshuffled_virtual_deck_waits_for_its_shuffle_before_the_first_throw():
    st = new_game(players=2, deck_order=UNSHUFFLED)
    assert st.phase is Phase.SHUFFLE
    assert why_not(st, Throw(6)).why is Why.SHUFFLE_FIRST
    assert why_not(st, DeclareBottle()).why is Why.SHUFFLE_FIRST
    assert why_not(st, parse_play(pos("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r throws:3"),
                                  "m20=3")).why is Why.SHUFFLE_FIRST
    with pytest.raises(IllegalMove):
        apply(st, Throw(6))
    st, events = apply(st, Drank(R))  # the table may settle before the shuffle
    assert events == [Settled(R, 1, 0)] and st.phase is Phase.SHUFFLE
    order = tuple(reversed(RULES.deck.numbers))
    assert why_not(st, Shuffle(order[:-1])).why is Why.BAD_SHUFFLE
    assert why_not(st, Shuffle(order[:-1] + (order[0],))).why is Why.BAD_SHUFFLE
    after, events = apply(st, Shuffle(order))
    assert events == [DeckShuffled(32)] and after.deck == order
    assert after.phase is Phase.THROW and after.turn == R
    assert why_not(after, Shuffle(order)).why is Why.NOT_SHUFFLE_PHASE
    after, events = apply(after, Throw(6))
    assert ThrowAgain(R) in events


def test_a_physical_deck_needs_no_shuffle_and_has_no_order():
    st = new_game(deck=DeckMode.PHYSICAL)
    assert st.phase is Phase.THROW and st.deck == ()
    assert why_not(st, Shuffle(RULES.deck.numbers)).why is Why.NOT_SHUFFLE_PHASE
    with pytest.raises(RulesError):
        new_game(deck=DeckMode.PHYSICAL, deck_order=RULES.deck.numbers)
    with pytest.raises(RulesError):
        new_game(deck="shuffled")


# --- D22: when a debt is due ---------------------------------------------------------------------

def test_d22_a_debt_incurred_in_the_own_turn_does_not_void_the_throws_that_finish_it():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r")
    st, events = throw(st, 6)
    assert ThrowAgain(R) in events
    st, _ = apply(st, Duty(R, DrinkReason.DROPPED_DICE))  # the die fell between the throws
    assert st.owed[R] == 1 and st.later == 1 and st.due(R) == 0
    assert "owe:r1@dropped-dice?^" in format_position(st).split()
    st, events = throw(st, 3)
    assert not only(events, VoidThrow) and st.throws == (6, 3)
    st, _ = play(st, "m20=6+3")
    assert st.turn == GR and st.owed[R] == 1 and st.later == 0
    st, _ = throw(st, 2)
    st, _ = play(st, "m40=2")
    assert st.turn == R and st.due(R) == 1
    _, events = throw(st, 4)  # red's next turn: now the debt is due
    assert only(events, VoidThrow) == [VoidThrow(R, 4)]


def test_d22_a_duty_called_before_the_first_throw_of_the_own_turn_is_due_before_that_throw():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r")
    st, _ = apply(st, Duty(R, DrinkReason.DROPPED_DICE))
    assert st.due(R) == 1  # the turn has not begun: the throw to come is the next one
    st, events = apply(st, Later(R, DrinkReason.DROPPED_DICE))
    assert events == [Postponed(R, 1, DrinkReason.DROPPED_DICE, next_turn=False)]
    _, events = throw(st, 4)
    assert only(events, VoidThrow) == [VoidThrow(R, 4)] and Thrown(R, 4) not in events


def test_d22_a_duty_called_after_a_six_waits_for_the_next_turn():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r")
    st, _ = throw(st, 6)
    st, _ = apply(st, Duty(R, DrinkReason.DROPPED_DICE))
    st, events = apply(st, Later(R, DrinkReason.DROPPED_DICE))
    assert events == [Postponed(R, 1, DrinkReason.DROPPED_DICE, next_turn=True)]
    assert st.due(R) == 0 and st.debt(R) == 1


def test_d22_a_card_drawn_in_the_own_turn_is_due_before_the_drawers_next_turn():
    st = pos(with_top("r:m25,p,p,p g:m40,p,p,p bottle:m60 turn:r throws:3", 28))
    st, events = play(st, "m25=3")  # drink three times
    assert MustDrink(R, 3, DrinkReason.CARD) in events and st.turn == GR
    st, _ = throw(st, 2)
    st, _ = play(st, "m40=2")
    _, events = throw(st, 5)
    assert only(events, VoidThrow) == [VoidThrow(R, 5)]


def test_d22_the_penalty_of_a_void_throw_is_due_at_once():
    st = new_game(players=2)
    st, events = throw(st, 6)  # the opening drink is due: void
    assert VoidThrow(R, 6) in events and st.owed[R] == 3 and st.later == 0
    st, events = throw(st, 6)  # still owing: void again, three more
    assert VoidThrow(R, 6) in events and st.owed[R] == 5
    st, _ = apply(st, Drank(R))
    assert st.owed[R] == 0 and st.later == 0
    st, events = throw(st, 6)
    assert ThrowAgain(R) in events


def test_d22_an_out_of_turn_debt_of_another_player_is_due_at_their_next_throw():
    st = pos(with_top("r:c5+,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3", 14, 24))
    st, events = play(st, "m25=3")  # the swap puts green on m28, green draws: drink
    assert MustDrink(GR, 1, DrinkReason.CARD) in events and st.turn == GR
    assert st.due(GR) == 1 and st.later == 0
    _, events = throw(st, 3)
    assert only(events, VoidThrow) == [VoidThrow(GR, 3)]
