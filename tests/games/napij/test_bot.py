"""The computer player: pure, legal, and sensible in the obvious cases."""

from __future__ import annotations

import random

from companion.games.napij.bot import choose_target, decide, value, wants_bottle
from companion.games.napij.engine.actions import Choose, DeclareBottle, Decline, Offer
from companion.games.napij.engine.notation import format_play
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import legal_plays, why_not
from companion.games.napij.engine.state import Phase
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import landing, play, pos, with_top


def test_every_decision_is_legal_and_the_same_twice():
    n = 0
    for _b, _a, after, _e in play_steps(random.Random(4)):
        action = decide(after)
        if action is None:
            assert after.phase in (Phase.THROW, Phase.OVER)
            continue
        assert action == decide(after)
        assert why_not(after, action).why is Why.LEGAL
        n += 1
        if n > 300:
            break
    assert n > 100


def test_it_captures_when_it_can():
    state = pos("r:m20,m40,p,p g:m23,p,p,p bottle:m60 turn:r throws:3")
    assert format_play(state, decide(state)) == "m20=3"


def test_it_avoids_the_rolling_pin_and_goes_home():
    state = pos("r:m1,m40,p,p g:p,p,p,p bottle:m60 turn:r throws:4")  # m1+4 = rolling pin
    assert format_play(state, decide(state)) == "m40=4"
    state = pos("r:m1,m40,p,p g:p,p,p,p bottle:m60 turn:r throws:5")  # m1+5 = home
    assert format_play(state, decide(state)) == "m1=5"


def test_it_knocks_out_the_opponent_closest_to_home():
    state = pos(with_top("r:m41,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3", 10))
    after, _ = play(state, "m25=3")
    # red on m41 is nearer its home than green on m50 is to its own
    assert choose_target(after) == Choose(0, 0)


def test_it_plays_the_bottle_when_two_opponents_stand_just_ahead():
    state = pos("r:m20,p,p,p g:m27,m29,p,p bottle:m25 turn:r")
    assert wants_bottle(state) and decide(state) == DeclareBottle()
    state = pos("r:m26,p,p,p g:m27,m29,p,p bottle:m25 turn:r")
    assert not wants_bottle(state)


def test_value_prefers_progress():
    near = pos("r:m1,p,p,p g:p,p,p,p bottle:m60 turn:r")
    far = pos("r:m40,p,p,p g:p,p,p,p bottle:m60 turn:r")
    assert value(near, 0) > value(far, 0)
    assert legal_plays(pos("r:m1,m40,p,p g:p,p,p,p bottle:m60 turn:r throws:5"))


def test_offered_a_knock_out_it_takes_it_with_the_piece_that_gains_most():
    state, _ = landing("r:m40,m10,p,p b:m25,p,p,p bottle:m60 turn:b throws:3", "m25=3", 27)
    assert decide(state) == Choose(0, 1)  # m10 -> m28 is progress, m40 -> m28 a step back


def test_offered_a_swap_that_helps_the_drawer_more_it_declines():
    state, _ = landing("r:m40,m10,p,p b:m25,p,p,p bottle:m60 turn:b throws:3", "m25=3", 31)
    assert decide(state) == Decline(0)  # blue on m10 would stand just before its lane


def test_it_offers_a_deal_to_the_co_player_it_helps_least():
    # red on m12 would jump 16 fields ahead; green on m30 would step back
    state, _ = landing("r:m12,p,p,p b:m25,p,p,p g:m30,p,p,p bottle:m60 turn:b throws:3",
                       "m25=3", 27)
    assert decide(state) == Offer(2)
    # green on m50 has passed its lane: m28 would bring it 35 fields nearer home
    state, _ = landing("r:m12,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3",
                       "m25=3", 27)
    assert decide(state) == Offer(0)
