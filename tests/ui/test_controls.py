from __future__ import annotations

from companion.ui.controls import cycle


def test_cycle_moves_and_wraps():
    assert cycle(0, 3, "right") == 1
    assert cycle(2, 3, "right") == 0
    assert cycle(0, 3, "left") == 2
    assert cycle(5, 0, "left") == 0


def test_pick_moves_with_the_arrows_and_picks_with_select():
    from companion.ui.controls import pick

    items = ("a", "b", "c")
    assert pick(0, items, "right") == (1, None)
    assert pick(0, items, "left") == (2, None)
    assert pick(1, items, "select") == (1, "b")
    assert pick(1, items, "help") == (1, None)
    assert pick(0, (), "select") == (0, None)
