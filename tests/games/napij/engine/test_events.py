"""Events are frozen, slotted values that equal only events of their own kind."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest

from companion.games.napij.engine import events as ev
from companion.games.napij.engine.events import EVENT_KINDS, BottleDeclared, ThrowAgain, Won
from companion.games.napij.engine.reasons import CardWhy, ForfeitWhy
from companion.games.napij.engine.state import DrinkReason

SAMPLE = {"int": 1, "int | None": 1, "bool": True, "str": "card", "How": ev.How.PIECE,
          "CardWhy": CardWhy.BLANK, "ForfeitWhy": ForfeitWhy.TRIES,
          "DrinkReason": DrinkReason.CARD, "DrinkReason | None": DrinkReason.CARD, "tuple[int, ...]": (1,),
          "tuple[tuple[int, int], ...]": ((1, 1),)}


def sample(kind: type) -> object:
    """An event of ``kind`` whose fields are all "one" (as alike across kinds as can be)."""
    return kind(*(SAMPLE[str(f.type)] for f in dataclasses.fields(kind)))


def test_the_list_of_kinds_is_the_event_union():
    assert set(EVENT_KINDS) == set(ev.Event.__args__)  # type: ignore[attr-defined]


def test_events_of_different_kinds_never_compare_equal():
    assert ThrowAgain(1) != BottleDeclared(1)  # equal as named tuples: (1,) == (1,)
    assert Won(1) != ThrowAgain(1) and Won(1) != (1,)
    for a, b in combinations([sample(k) for k in EVENT_KINDS], 2):
        assert a != b, (a, b)


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.__name__)
def test_every_event_is_a_frozen_slotted_value(kind):
    e = sample(kind)
    assert dataclasses.is_dataclass(e) and not hasattr(e, "__dict__")
    assert e == sample(kind) and hash(e) == hash(sample(kind))
    first = dataclasses.fields(kind)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(e, first, 2)
