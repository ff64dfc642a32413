"""companion.dice.pixels.tracker: every throw once, nothing from duplicates or handling."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.dice.pixels.messages import RollState as S
from companion.dice.pixels.tracker import Crooked, Landed, RollTracker


def feed(tracker: RollTracker, states: list[tuple[S, int]]) -> list[object]:
    return [out for s, f in states if (out := tracker.seen(s, f)) is not None]


def test_a_throw_is_one_roll() -> None:
    t = RollTracker()
    got = feed(t, [(S.ON_FACE, 0), (S.HANDLING, 0), (S.ROLLING, 3), (S.ROLLING, 1), (S.ROLLED, 4)])
    assert got == [Landed(4, 1)]


def test_a_repeated_landing_is_not_a_second_roll() -> None:
    t = RollTracker()
    got = feed(t, [(S.ROLLING, 3), (S.ROLLED, 4), (S.ROLLED, 4), (S.ROLLED, 4)])
    assert got == [Landed(4, 1)] and t.duplicates == 2


def test_the_state_after_a_reconnection_is_no_roll_unless_a_throw_was_under_way() -> None:
    t = RollTracker()
    assert feed(t, [(S.ROLLING, 3), (S.ROLLED, 2)]) == [Landed(2, 1)]
    assert feed(t, [(S.ROLLED, 2)]) == []  # who-are-you after the link came back
    assert feed(t, [(S.HANDLING, 2)]) == []  # the link goes mid-throw ...
    assert feed(t, [(S.ROLLED, 5)]) == [Landed(5, 2)]  # ... and the die is heard again


def test_picked_up_and_put_down_is_no_throw() -> None:
    t = RollTracker()
    assert feed(t, [(S.HANDLING, 1), (S.ON_FACE, 1), (S.ROLLED, 1)]) == []


def test_a_crooked_landing_is_said_once_and_is_no_roll() -> None:
    t = RollTracker()
    got = feed(t, [(S.ROLLING, 1), (S.CROOKED, 2), (S.CROOKED, 2), (S.ROLLING, 1), (S.ROLLED, 3)])
    assert got == [Crooked(2), Landed(3, 1)]


throws = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), max_size=40)


@given(throws)
def test_duplicated_messages_never_make_more_rolls(plan: list[tuple[int, int]]) -> None:
    clean, noisy = RollTracker(), RollTracker()
    for face, repeats in plan:
        states = [(S.HANDLING, 0), (S.ROLLING, (face + 2) % 6), (S.ROLLED, face)]
        feed(clean, states)
        feed(noisy, [x for x in states for _ in range(repeats + 1)])
    assert clean.seq == noisy.seq == len(plan)
