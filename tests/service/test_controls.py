from __future__ import annotations

from companion.service.controls import ShutdownMixin, cycle


def test_cycle_moves_and_wraps():
    assert cycle(0, 3, "right") == 1
    assert cycle(2, 3, "right") == 0
    assert cycle(0, 3, "left") == 2
    assert cycle(5, 0, "left") == 0


def test_the_shutdown_question():
    class C(ShutdownMixin):
        mode = "confirm-off"
        shutdown_requested = False

    c = C()
    c._on_confirm_off("left", 0.0)
    assert c.mode == "menu" and not c.shutdown_requested
    c.mode = "confirm-off"
    c._on_confirm_off("select", 0.0)
    assert c.mode == "bye" and c.shutdown_requested


def test_pick_moves_with_the_arrows_and_picks_with_select():
    from companion.service.controls import pick

    items = ("a", "b", "c")
    assert pick(0, items, "right") == (1, None)
    assert pick(0, items, "left") == (2, None)
    assert pick(1, items, "select") == (1, "b")
    assert pick(1, items, "help") == (1, None)
    assert pick(0, (), "select") == (0, None)
