"""Actions are frozen, slotted values that equal only actions of their own kind."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest

from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Later,
    Offer,
    Play,
    Shuffle,
    Step,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.state import DrinkReason

ONE_OF_EACH = [Throw(1), Shuffle((1,)), Draw(1), DeclareBottle(), Play((Step(1, (1,)),)),
               Choose(1, 1), Offer(1), Decline(1), Drank(1), Later(1, DrinkReason.CARD), ThrowOwing(),
               Duty(1, DrinkReason.UPSET)]


def test_one_of_each_kind_is_listed():
    assert {type(a) for a in ONE_OF_EACH} == set(Action.__args__)  # type: ignore[attr-defined]


def test_actions_of_different_kinds_never_compare_equal():
    assert Throw(1) != Draw(1) and Drank(1) != Throw(1) and Drank(1) != (1,)
    assert Offer(2) != Decline(2) != Drank(2)
    assert Choose(1, 1) != (1, 1)
    for a, b in combinations(ONE_OF_EACH, 2):
        assert a != b, (a, b)


@pytest.mark.parametrize("action", ONE_OF_EACH, ids=lambda a: type(a).__name__)
def test_every_action_is_a_frozen_slotted_hashable_value(action):
    assert dataclasses.is_dataclass(action) and not hasattr(action, "__dict__")
    assert {action, dataclasses.replace(action)} == {action}
    fields = dataclasses.fields(action)
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(action, fields[0].name, 2)


def test_a_step_leaves_the_exit_out_by_default():
    assert Step(0, (6, 3)) == Step(0, (6, 3), None) != Step(0, (6, 3), 5)
