"""The cards: drawing in order, every effect's handler, choices, chains, and the physical deck
whose cards come in as actions.  Decisions are numbered as in docs/players/napij-rules.md."""

from __future__ import annotations

import random

from companion.games.napij.engine.actions import Choose, Decline, Draw, Offer, Throw
from companion.games.napij.engine.board import default_board_text, parse_board
from companion.games.napij.engine.deck import Effect, parse_deck
from companion.games.napij.engine.effects import HANDLERS
from companion.games.napij.engine.events import (
    BottlePushed,
    Captured,
    CardChainStopped,
    CardDrawn,
    CardNoEffect,
    ChoiceNeeded,
    DrawDue,
    How,
    ImmunityEnded,
    ImmunityGranted,
    Moved,
    MustDrink,
    Offered,
    OfferNeeded,
    ReturnedToPub,
    Swapped,
    Trapped,
    Won,
)
from companion.games.napij.engine.notation import format_position, parse_play, parse_position
from companion.games.napij.engine.playout import shorter_heading
from companion.games.napij.engine.reasons import CardWhy, Why
from companion.games.napij.engine.rules import apply, chooser, legal_moves, problems, why_not
from companion.games.napij.engine.state import DeckMode, DrinkReason, Phase, Rules
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import (
    BLUE_TO_M28,
    RULES,
    G,
    landing,
    node,
    only,
    places,
    play,
    pos,
    refused,
    with_top,
)

R, B, GR, Y = 0, 1, 2, 3


def test_every_effect_has_one_handler():
    assert set(HANDLERS) == set(Effect)
    assert all(callable(h) for h in HANDLERS.values())


# --- drawing and the effects (moved here from test_rules with the code) ----------------------

def test_a_card_field_draws_the_top_card_which_goes_to_the_bottom():
    st = pos(with_top(BLUE_TO_M28, 23))
    after, events = play(st, "m25=3")
    assert only(events, CardDrawn) == [CardDrawn(B, 0, 23, False)]
    assert after.deck[-1] == 23 and after.deck[0] == st.deck[1]
    assert MustDrink(B, 1, DrinkReason.CARD) in events


def test_forward_moves_towards_home_and_stays_put_when_it_would_overshoot():
    after, events = landing(BLUE_TO_M28, "m25=3", 4)  # forward 3
    assert places(after, B)[0] == "m31"
    after, events = landing("r:m79,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:2",
                            "m79=2", 9)  # forward 6 would jump rh2
    assert CardNoEffect(R, 9, CardWhy.OVERSHOOT) in events
    assert places(after, R)[0] == "m1"
    after, events = landing("r:m79,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r throws:2",
                            "m79=2", 8)  # forward 5: exactly into the home
    assert places(after, R)[0] == "rh1" and Won(R) in events


def test_back_and_pub_cards():
    after, _ = landing(BLUE_TO_M28, "m25=3", 19)  # back 3
    assert places(after, B)[0] == "m25"
    after, events = landing(BLUE_TO_M28, "m25=3", 21)
    assert places(after, B)[0] == "p"
    assert only(events, ReturnedToPub)[0].cause == "card"
    assert MustDrink(B, 1, DrinkReason.PUB) in events


def test_knock_out_a_chosen_opponent_on_the_main_track():
    after, events = landing(BLUE_TO_M28, "m25=3", 10)
    assert after.phase is Phase.CHOOSE and only(events, ChoiceNeeded)
    assert set(legal_moves(after)) == {Choose(R, 0), Choose(GR, 0)}
    assert "card:10@b1#1" in format_position(after).split()
    done, events = apply(after, Choose(GR, 0))
    assert places(done, GR)[0] == "p" and Captured(B, GR, 0, node("m50"), How.CARD) in events
    assert MustDrink(GR, 1, DrinkReason.KNOCKED_OUT) in events
    assert done.turn == GR and done.phase is Phase.THROW
    assert why_not(after, Choose(B, 0)).why is Why.BAD_CHOICE
    # one target only: no question asked; pieces off the main track are left out
    after, events = landing("r:c5+,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3",
                            "m25=3", 10)
    assert places(after, GR)[0] == "p" and places(after, R)[0] == "c5+"


def test_swap_puts_the_opponent_on_the_card_field_and_it_draws_out_of_turn():
    text = "r:c5+,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3"
    after, events = landing(text, "m25=3", 14, 24)
    assert Swapped(B, 0, GR, 0) in events
    assert places(after, B)[0] == "m50" and places(after, GR)[0] == "m28"
    assert only(events, CardDrawn) == [CardDrawn(B, 0, 14, False), CardDrawn(GR, 0, 24, True)]
    assert MustDrink(GR, 1, DrinkReason.CARD) in events


def test_catch_up_goes_to_the_nearest_opponent_ahead_and_knocks_it_out():
    text = "r:m35,p,p,p b:m25,p,p,p g:m31*2,p,p,p bottle:m60 turn:b throws:3"
    after, events = landing(text, "m25=3", 12)
    assert places(after, B)[0] == "m35"  # green on m31 is immune: skipped
    assert places(after, R)[0] == "p" and places(after, GR)[0] == "m31"


def test_immunity_protects_for_four_rounds_of_its_owner():
    after, events = landing(BLUE_TO_M28, "m25=3", 16)
    assert ImmunityGranted(B, 0, 4) in events and after.immune[B][0] == 4
    # blue's next turns count it down; it ends when blue's fourth turn begins
    st = pos("r:m20,p,p,p b:m28*1,p,p,p bottle:m60 turn:r throws:3")
    after, events = play(st, "m20=3")
    assert ImmunityEnded(B, 0) in events and after.immune[B][0] == 0


def test_immune_pieces_cannot_be_knocked_out_nor_sent_to_the_pub_by_a_card():
    st = pos("r:m20,m40,p,p g:m23*2,p,p,p bottle:m60 turn:r throws:3")
    assert refused(st, "m20=3") is Why.IMMUNE_ON_TARGET
    after, events = landing("r:m40,p,p,p b:m25*3,p,p,p g:m50*1,p,p,p bottle:m60 turn:b "
                            "throws:3", "m25=3", 21)
    assert CardNoEffect(B, 21, CardWhy.IMMUNE) in events and places(after, B)[0] == "m28"
    after, events = landing("r:m40*2,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b "
                            "throws:3", "m25=3", 10)
    assert places(after, GR)[0] == "p"  # the only target that is not immune


def test_the_zachytka_card_takes_the_shorter_way_home():
    assert shorter_heading(G, B) == -1 and shorter_heading(G, R) == 1
    after, events = landing(BLUE_TO_M28, "m25=3", 22)
    assert places(after, B)[0] == "zach-" and only(events, Trapped)
    after, _ = landing("r:m79,p,p,p b:m20,p,p,p bottle:m60 turn:r throws:2", "m79=2", 22)
    assert places(after, R)[0] == "zach+"


def test_drink_glass_everybody_and_blank_cards():
    after, events = landing(BLUE_TO_M28, "m25=3", 28)
    assert MustDrink(B, 3, DrinkReason.CARD) in events and after.owed[B] == 3
    after, events = landing(BLUE_TO_M28, "m25=3", 29)
    assert after.glasses[B] == 1 and MustDrink(B, 1, DrinkReason.GLASS) in events
    after, events = landing(BLUE_TO_M28, "m25=3", 30)
    assert {e.colour for e in only(events, MustDrink)} == {R, B, GR}
    after, events = landing(BLUE_TO_M28, "m25=3", 32)
    assert CardNoEffect(B, 32, CardWhy.BLANK) in events


def _board_with_card_on_a_shortcut() -> Rules:
    text = default_board_text().replace('sb3 = { kind = "normal"', 'sb3 = { kind = "card"')
    return Rules(parse_board(text), RULES.deck)


def test_a_piece_on_a_shortcut_takes_no_part_in_moving_cards_but_still_drinks():
    rules = _board_with_card_on_a_shortcut()
    st = parse_position(with_top("r:m40,p,p,p b:sb2,p,p,p bottle:m60 turn:b throws:1", 9, 23),
                        rules)
    after, events = apply(st, parse_play(st, "sb2=1"))
    assert CardNoEffect(B, 9, CardWhy.OFF_MAIN) in events
    st = parse_position(with_top("r:m40,p,p,p b:sb2,p,p,p bottle:m60 turn:b throws:1", 23),
                        rules)
    after, events = apply(st, parse_play(st, "sb2=1"))
    assert MustDrink(B, 1, DrinkReason.CARD) in events


def test_an_endless_card_chain_stops_after_one_pass_through_the_deck():
    cards = "\n".join(
        f'[[card]]\nnumber = {i}\ntext = "Jdi."\neffect = "{"forward" if i % 2 else "back"}"\n'
        f"n = 7\n" for i in range(1, 33))
    rules = Rules(RULES.board, parse_deck(cards))
    st = parse_position("r:m40,p,p,p b:m79,p,p,p bottle:m60 turn:b throws:2", rules)
    after, events = apply(st, parse_play(st, "m79=2"))
    assert len(only(events, CardDrawn)) == 32
    assert only(events, CardChainStopped) == [CardChainStopped(32)]
    assert not problems(after) and after.turn == R


def test_d23_a_piece_knocked_off_its_card_field_before_the_draws_does_not_draw():
    st = pos("r:m14,m11,p,p g:p,p,p,p bottle:m17 turn:r throws:6,2")
    _, events = play(st, "m14=2 m11=6")  # the pushed bottle lands on m16 and knocks it out
    assert Captured(R, R, 0, node("m16"), How.BOTTLE) in events
    assert not only(events, CardDrawn)
    _, events = play(st, "m11=6 m14=2")  # the other order: it stays and draws
    assert only(events, CardDrawn)[0].piece == 0


def test_d27_a_card_move_onto_an_own_piece_leaves_it_where_it_is():
    after, events = landing("r:m40,p,p,p b:m24,m25,p,p g:m50,p,p,p bottle:m60 turn:b "
                            "throws:4", "m24=4", 19)  # back 3 onto its own m25
    assert CardNoEffect(B, 19, CardWhy.BLOCKED) in events and places(after, B)[0] == "m28"


def test_d29_swap_ignores_immunity():
    after, events = landing("r:c5+,p,p,p b:m25,p,p,p g:m50*2,p,p,p bottle:m60 turn:b "
                            "throws:3", "m25=3", 15, 23)
    assert Swapped(B, 0, GR, 0) in events and places(after, GR)[0] == "m28"




# --- a physical deck: every card drawn comes in as an action ---------------------------------

def physical(text: str) -> str:
    return text + " deck:physical"


def test_a_physical_deck_waits_for_the_card_drawn_then_resolves_it():
    st = pos(physical(BLUE_TO_M28))
    after, events = play(st, "m25=3")
    assert after.phase is Phase.DRAW and events[-1] == DrawDue(B, 0, False)
    assert not only(events, CardDrawn) and after.turn == B
    assert "draw:b1@m28#0" in format_position(after).split()
    assert why_not(after, Throw(3)).why is Why.DRAW_PENDING
    assert why_not(after, Draw(33)).why is Why.NOT_A_CARD
    assert why_not(after, Choose(R, 0)).why is Why.NO_CHOICE_PENDING
    done, events = apply(after, Draw(4))  # forward 3, as with the virtual deck
    assert only(events, CardDrawn) == [CardDrawn(B, 0, 4, False)]
    assert places(done, B)[0] == "m31" and done.turn == GR and done.phase is Phase.THROW
    assert why_not(done, Draw(4)).why is Why.NO_DRAW_PENDING


def test_a_physical_swap_makes_the_co_player_draw_out_of_turn_from_the_table():
    st = pos(physical("r:c5+,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3"))
    st, _ = play(st, "m25=3")
    st, events = apply(st, Draw(14))  # swap: green is the only target on the main track
    assert Swapped(B, 0, GR, 0) in events and events[-1] == DrawDue(GR, 0, True)
    assert st.phase is Phase.DRAW and st.turn == B
    done, events = apply(st, Draw(24))
    assert only(events, CardDrawn) == [CardDrawn(GR, 0, 24, True)]
    assert MustDrink(GR, 1, DrinkReason.CARD) in events and done.turn == GR


def test_a_physical_choice_card_waits_for_the_choice_and_then_for_the_next_draw():
    st = pos(physical("r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3"))
    st, _ = play(st, "m25=3")
    st, events = apply(st, Draw(15))  # swap, two candidates: blue chooses
    assert st.phase is Phase.CHOOSE and only(events, ChoiceNeeded)
    assert format_position(st).split()[-1] == "card:15@b1#1"
    st, events = apply(st, Choose(GR, 0))  # green lands on m28 and must draw
    assert st.phase is Phase.DRAW and DrawDue(GR, 0, True) in events
    text = format_position(st)
    assert "draw:g1@m28#1" in text.split() and parse_position(text) == st


def test_the_physical_and_the_virtual_deck_play_the_same_game():
    # the virtual deck's first action is its shuffle; the printed pile is shuffled alike
    for seed in (3, 8):
        virtual = [after for _b, _a, after, _e in play_steps(random.Random(seed), 2)]
        table = [after for _b, _a, after, _e in play_steps(random.Random(seed), 2,
                                                          deck=DeckMode.PHYSICAL)]
        same = [(s.pieces, s.owed, s.glasses, s.drunk, s.winner) for s in virtual[1:]]
        drawn = [(s.pieces, s.owed, s.glasses, s.drunk, s.winner) for s in table
                 if s.phase is not Phase.DRAW]
        assert drawn == same and len(table) > len(virtual)


def test_the_card_chain_cap_holds_with_a_physical_deck_too():
    cards = "\n".join(
        f'[[card]]\nnumber = {i}\ntext = "Jdi."\neffect = "{"forward" if i % 2 else "back"}"\n'
        f"n = 7\n" for i in range(1, 33))
    rules = Rules(RULES.board, parse_deck(cards))
    st = parse_position("r:m40,p,p,p b:m79,p,p,p bottle:m60 turn:b throws:2 deck:physical",
                        rules)
    st, _ = apply(st, parse_play(st, "m79=2"))
    drawn = 0
    while st.phase is Phase.DRAW:
        st, events = apply(st, Draw(1 + drawn % 32))
        drawn += 1
    assert drawn == 32 and only(events, CardChainStopped) == [CardChainStopped(32)]
    assert not problems(st) and st.turn == R


def test_d38_a_physical_draw_may_be_any_card_of_the_deck_even_the_one_just_drawn():
    st = pos(physical("r:m22,m38,p,p b:m50,p,p,p bottle:m60 turn:r throws:6,3"))
    st, _ = play(st, "m22=6 m38=3")  # both pieces stop on card fields: m28, then m41
    st, events = apply(st, Draw(24))
    assert only(events, CardDrawn) == [CardDrawn(R, 0, 24, False)]
    assert st.phase is Phase.DRAW and events[-1] == DrawDue(R, 1, False)
    assert why_not(st, Draw(24)).why is Why.LEGAL  # the card just drawn, drawn again
    st, events = apply(st, Draw(24))
    assert only(events, CardDrawn) == [CardDrawn(R, 1, 24, False)] and st.owed[R] == 2


# --- «zařazování»: getting in line (D39) ---------------------------------------------------------

def test_d39_line_up_goes_right_behind_the_nearest_opponent_ahead_and_knocks_nobody_out():
    after, events = landing(BLUE_TO_M28, "m25=3", 25)  # red on m40 is the nearest ahead
    assert only(events, Moved)[-1] == Moved(B, 0, node("m28"), node("m39"), ())
    assert places(after, B)[0] == "m39" and places(after, R)[0] == "m40"
    assert not only(events, Captured)
    after, _ = landing("r:m40,p,p,p b:m25,m30,p,p g:m33*2,p,p,p bottle:m60 turn:b throws:3",
                       "m25=3", 25)  # own pieces are passed; an immune opponent counts
    assert places(after, B)[:2] == ["m32", "m30"] and places(after, GR)[0] == "m33"


def test_d39_line_up_stays_in_line_blocked_or_without_anybody_ahead():
    _, events = landing("r:m29,p,p,p b:m25,p,p,p bottle:m60 turn:b throws:3", "m25=3", 25)
    assert CardNoEffect(B, 25, CardWhy.IN_LINE) in events
    _, events = landing("r:m40,p,p,p b:m25,m39,p,p bottle:m60 turn:b throws:3", "m25=3", 25)
    assert CardNoEffect(B, 25, CardWhy.BLOCKED) in events
    _, events = landing("r:c5+,p,p,p b:m25,p,p,p bottle:m60 turn:b throws:3", "m25=3", 25)
    assert CardNoEffect(B, 25, CardWhy.NO_TARGET) in events


def test_d39_lining_up_on_a_card_field_draws_again_and_on_the_bottle_pushes_it():
    after, events = landing("r:m37,p,p,p b:m25,p,p,p bottle:m60 turn:b throws:3",
                            "m25=3", 25, 24)  # behind red on m37 is the card field m36
    assert [e.card for e in only(events, CardDrawn)] == [25, 24]
    assert places(after, B)[0] == "m36" and MustDrink(B, 1, DrinkReason.CARD) in events
    after, events = landing("r:m40,p,p,p b:m25,p,p,p bottle:m39 turn:b throws:3", "m25=3", 25)
    assert only(events, BottlePushed) and G.text[after.bottle] == "m38"


# --- a co-player offered a knock-out or a swap, drawing out of turn (D40, D41) -------------------

TWO = "r:m40,m10,p,p b:m25,p,p,p bottle:m60 turn:b throws:3"
THREE = "r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3"


def test_d40_an_offered_knock_out_is_taken_by_the_co_players_piece_which_then_draws():
    st, events = landing(TWO, "m25=3", 27, 24)  # red is the only co-player: no question
    assert Offered(B, 27, R) in events and st.phase is Phase.CHOOSE
    assert chooser(st) == R and st.turn == B
    assert legal_moves(st) == [Choose(R, 0), Choose(R, 1), Decline(R)]
    assert format_position(st).split()[-2:] == ["card:27@b1#1", "offer:r"]
    after, events = apply(st, Choose(R, 1))  # red's piece on m10 jumps onto m28
    assert Captured(R, B, 0, node("m28"), How.CARD) in events
    assert MustDrink(B, 1, DrinkReason.KNOCKED_OUT) in events
    assert places(after, R)[:2] == ["m40", "m28"] and places(after, B)[0] == "p"
    assert only(events, CardDrawn) == [CardDrawn(R, 1, 24, True)]  # out of turn
    assert after.turn == R and after.later == 0 and after.due(B) == 1


def test_d40_an_offer_may_be_declined():
    st, _ = landing(TWO, "m25=3", 27)
    after, events = apply(st, Decline(R))
    assert CardNoEffect(B, 27, CardWhy.DECLINED) in events
    assert places(after, B)[0] == "m28" and after.turn == R


def test_d40_the_drawer_chooses_whom_to_offer_when_several_co_players_could_take_it():
    st, events = landing(THREE, "m25=3", 31)
    assert OfferNeeded(B, 31, (R, GR)) in events and chooser(st) == B
    assert legal_moves(st) == [Offer(R), Offer(GR)]
    assert why_not(st, Offer(B)).why is Why.BAD_CHOICE
    assert why_not(st, Choose(GR, 0)).why is Why.BAD_CHOICE
    assert why_not(st, Decline(GR)).why is Why.NOT_YOUR_CHOICE
    st, events = apply(st, Offer(GR))
    assert Offered(B, 31, GR) in events and chooser(st) == GR
    assert why_not(st, Decline(R)).why is Why.NOT_YOUR_CHOICE
    assert why_not(st, Choose(R, 0)).why is Why.BAD_CHOICE
    after, events = apply(st, Choose(GR, 0))
    assert Swapped(B, 0, GR, 0) in events  # the swap: blue to m50, green onto the card field
    assert places(after, B)[0] == "m50" and st.deck[0] == 1  # green draws "forward 1"
    assert only(events, CardDrawn) == [CardDrawn(GR, 0, 1, True)]
    assert places(after, GR)[0] == "m29"


def test_d41_an_immune_drawer_cannot_be_offered_for_a_knock_out_but_may_swap():
    text = "r:m40,p,p,p b:m25*2,p,p,p bottle:m60 turn:b throws:3"
    _, events = landing(text, "m25=3", 27)
    assert CardNoEffect(B, 27, CardWhy.IMMUNE) in events
    st, events = landing(text, "m25=3", 31)
    assert Offered(B, 31, R) in events


def test_d40_nobody_to_offer_to_and_a_drawer_off_the_main_track():
    _, events = landing("r:c5+,p,p,p b:m25,p,p,p bottle:m60 turn:b throws:3", "m25=3", 27)
    assert CardNoEffect(B, 27, CardWhy.NO_TARGET) in events
    rules = _board_with_card_on_a_shortcut()
    st = parse_position(with_top("r:m40,p,p,p b:sb2,p,p,p bottle:m60 turn:b throws:1", 31),
                        rules)
    _, events = apply(st, parse_play(st, "sb2=1"))
    assert CardNoEffect(B, 31, CardWhy.OFF_MAIN) in events


def test_a_physical_deck_offer_makes_the_co_player_wait_for_its_own_card():
    st = pos(physical(TWO))
    st, _ = play(st, "m25=3")
    st, _ = apply(st, Draw(31))
    st, events = apply(st, Choose(R, 0))  # red's piece from m40 swaps onto m28
    assert Swapped(B, 0, R, 0) in events and events[-1] == DrawDue(R, 0, True)
    assert st.phase is Phase.DRAW and "draw:r1@m28#1" in format_position(st).split()
