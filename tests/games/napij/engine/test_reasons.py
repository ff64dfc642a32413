"""Reasons travel in the shared error family: the code of an IllegalMove is the Why."""

from __future__ import annotations

import pytest

from companion.engines.errors import GameOver, IllegalMove, RulesError
from companion.games.napij.engine.actions import Throw
from companion.games.napij.engine.reasons import Reason, Why
from companion.games.napij.engine.rules import apply
from tests.games.napij.engine.helpers import play, pos


def test_an_illegal_play_raises_the_family_error_with_the_reason_and_its_code():
    st = pos("r:m20,m23,p,p g:p,p,p,p bottle:m60 turn:r throws:3")
    with pytest.raises(IllegalMove) as exc:
        play(st, "m20=3")
    assert isinstance(exc.value, RulesError)
    assert exc.value.reason == Reason(Why.OWN_PIECE_ON_TARGET, 0, 0, 3)
    assert exc.value.code == "own-piece-on-target"


def test_after_the_end_a_throw_is_game_over():
    st = pos("r:rh1,rh2,rh3,rh4 g:m20,p,p,p bottle:m60 turn:r winner:r")
    with pytest.raises(GameOver) as exc:
        apply(st, Throw(3))
    assert exc.value.code == "game-over" and exc.value.reason.detail == 0
