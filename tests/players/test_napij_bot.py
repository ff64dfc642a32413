"""The computer player: pure, legal, and sensible in the obvious cases."""

from __future__ import annotations

import random

from companion.engines.napij.actions import Choose, DeclareBottle
from companion.engines.napij.notation import format_play
from companion.engines.napij.reasons import Why
from companion.engines.napij.rules import legal_plays, why_not
from companion.engines.napij.state import Phase
from companion.players.napij_bot import choose_target, decide, value, wants_bottle
from companion.selfplay.napij import play_steps
from tests.engines.napij.helpers import play, pos, with_top


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
