"""The drink ledger's debts: each says why, a duty just announced waits for the table's answer
("vypito" or "later"), and the decisions D42-D46 of docs/players/napij-rules.md."""

from __future__ import annotations

import pytest

from companion.engines.errors import IllegalMove
from companion.games.napij.engine.actions import Drank, Duty, Later, Throw, ThrowOwing
from companion.games.napij.engine.describe import debt_reason, debts_text, describe_event
from companion.games.napij.engine.events import MustDrink, OwingThrow, Postponed, Settled, VoidThrow
from companion.games.napij.engine.notation import format_position
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import apply, new_game, why_not
from companion.games.napij.engine.state import Debt, DrinkReason
from tests.games.napij.engine.helpers import play, pos, throw, with_top

R, B, GR, Y = 0, 1, 2, 3


def test_d46_every_debt_says_why_with_the_card_and_the_player_it_is_about():
    st = pos("r:m20,p,p,p g:m23,p,p,p bottle:m60 turn:r throws:3")
    after, _ = play(st, "m20=3")  # red knocks green out
    assert after.debts == (Debt(GR, 1, DrinkReason.KNOCKED_OUT, R, None, False, False),)
    assert debt_reason(after.debts[0]) == "vyhození červeným"
    carded = pos(with_top("r:m25,p,p,p g:m40,p,p,p bottle:m60 turn:r throws:3", 28))
    after, events = play(carded, "m25=3")  # card 28: drink three times
    assert MustDrink(R, 3, DrinkReason.CARD) in events
    [debt] = after.debts
    assert (debt.reason, debt.card, debt.drinks) == (DrinkReason.CARD, 28, 3)
    assert debt_reason(debt) == "karta č. 28" and not debt.answered


def test_the_reasons_read_at_a_glance():
    d = Debt(R, 1, DrinkReason.DROPPED_DICE)
    assert debt_reason(d) == "spadlá kostka"
    assert debt_reason(Debt(R, 1, DrinkReason.BOTTLE)) == "odsunutá láhev"
    assert debt_reason(Debt(R, 1, DrinkReason.BOTTLE, B)) == "vyhození lahví"
    assert debt_reason(Debt(R, 1, DrinkReason.PUB)) == "váleček"
    assert debt_reason(Debt(R, 1, DrinkReason.PUB, card=5)) == "karta č. 5"
    assert debt_reason(Debt(R, 1, DrinkReason.HOME, GR)) == "přípitek: zelený doma"
    assert debt_reason(Debt(R, 1, DrinkReason.GLASS, card=9)) == "karta č. 9: sklenice"
    assert debt_reason(Debt(R, 1)) == "dluh z dřívějška"
    void = [Debt(R, 1, DrinkReason.CARD, card=23), Debt(R, 1, DrinkReason.CHEATING),
            Debt(R, 1, DrinkReason.DELAY)]
    assert debts_text(void) == "karta č. 23, švindl a zdržování"
    assert debts_text([Debt(R, 1, DrinkReason.DELAY), Debt(R, 2, DrinkReason.DELAY)]) == \
        "3× zdržování"


def test_d46_equal_duties_of_one_action_are_one_debt():
    st = pos("r:m20,p,p,p g:m23,p,p,p bottle:m60 turn:g")
    st, _ = apply(st, Duty(R, DrinkReason.UPSET))
    st, _ = apply(st, Duty(R, DrinkReason.UPSET))  # two actions: two debts
    assert [d.drinks for d in st.debts] == [1, 1]


def test_d42_a_duty_waits_for_the_tables_answer_drank_or_later():
    st = new_game(players=2)
    assert [(d.reason, d.answered) for d in st.debts] == [(DrinkReason.START, False)] * 2
    st, events = apply(st, Drank(R, DrinkReason.START))  # "vypito" on the banner, for red
    assert events == [Settled(R, 1, 0, DrinkReason.START)] and st.drunk[R] == 1
    st, events = apply(st, Later(GR, DrinkReason.START))  # green drinks it later
    assert events == [Postponed(GR, 1, DrinkReason.START)]
    assert st.debts == (Debt(GR, 1, DrinkReason.START, answered=True),)
    assert st.debt(GR) == 1 and st.unanswered() == ()
    for action in (Later(GR, DrinkReason.START), Drank(GR, DrinkReason.START)):
        assert why_not(st, action).why is Why.NOTHING_ANNOUNCED  # answered already
        with pytest.raises(IllegalMove):
            apply(st, action)
    assert why_not(st, Drank(GR)).why is Why.LEGAL  # the debt itself is drunk as a whole
    assert "owe:g1@start" in format_position(st).split()


def test_d42_drinking_what_was_announced_leaves_an_older_debt_alone():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r owe:g1@card.5")
    st, _ = apply(st, Duty(GR, DrinkReason.UPSET))
    st, events = apply(st, Drank(GR, DrinkReason.UPSET))
    assert events == [Settled(GR, 1, 0, DrinkReason.UPSET)]
    assert st.debts == (Debt(GR, 1, DrinkReason.CARD, card=5),)
    assert describe_event(events[0]) == "Zelený se napil (rozčilování)."


def test_d43_the_opening_toast_left_for_later_is_drunk_before_the_players_first_throw():
    st = new_game(players=2)
    for c in (R, GR):
        st, _ = apply(st, Later(c, DrinkReason.START))
    assert st.due(R) == 1 and st.due(GR) == 1
    st, events = apply(st, Throw(6))  # red throws without drinking: void
    assert VoidThrow(R, 6) in events


def test_d44_a_postponed_debt_is_asked_for_at_the_next_turn_and_cannot_wait_again():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:g owe:r1@dropped-dice")
    st, _ = throw(st, 2)
    st, _ = play(st, "m40=2")  # red's turn comes
    assert st.turn == R and st.due(R) == 1
    assert why_not(st, Later(R, DrinkReason.DROPPED_DICE)).why is Why.NOTHING_ANNOUNCED
    st, events = apply(st, Drank(R))
    assert events == [Settled(R, 1, 0)] and st.due(R) == 0


def test_d45_throwing_anyway_is_said_first_and_the_throw_after_it_is_void():
    st = pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r owe:r1@card.23")
    st, events = apply(st, ThrowOwing())
    assert events == [OwingThrow(R)] and st.anyway
    assert why_not(st, ThrowOwing()).why is Why.THROW_FIRST
    st, events = apply(st, Throw(5))
    assert VoidThrow(R, 5) in events and not st.anyway and st.throws == ()
    assert debts_text(st.debts_of(R)) == "karta č. 23, švindl a zdržování"
    assert why_not(pos("r:m20,p,p,p g:m40,p,p,p bottle:m60 turn:r"), ThrowOwing()).why is \
        Why.NOTHING_OWED
