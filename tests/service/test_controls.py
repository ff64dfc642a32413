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
