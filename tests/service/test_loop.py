"""The service loop's animation time: a screen's blinking and scrolling start when it appears."""

from __future__ import annotations

from companion.service.loop import Service
from companion.ui.screens import render
from companion.ui.views import ListView, MessageView, View


class Still:
    """A controller whose view the test sets."""

    quit_requested = shutdown_requested = False
    contrast = 255

    def __init__(self, view: View) -> None:
        self.shown = view

    def begin(self, now: float) -> None: ...
    def handle(self, event, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def next_deadline(self) -> float | None: return None
    def animated(self) -> bool: return True
    def view(self) -> View: return self.shown


class Panel:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def contrast(self, level: int) -> None: ...

    def show(self, image) -> bool:
        self.frames.append(image.tobytes())
        return True


LONG = ("Tohle je řádek, který se na displej nevejde, a proto musí rolovat.",)  # selected


def test_a_new_screen_scrolls_from_the_start_of_its_lines_whenever_it_appears():
    first = MessageView("A", ("krátce",))
    second = ListView("B", LONG)
    controller, panel = Still(first), Panel()
    service = Service(controller, panel, clock=lambda: 0.0)  # type: ignore[arg-type]
    service.draw(0.0)
    service.draw(500.0)  # a long time on the first screen
    controller.shown = second
    service.draw(500.1)
    assert panel.frames[-1] == render(second, 0.0).tobytes()  # not 500 s into its scroll
    service.draw(504.1)
    assert panel.frames[-1] == render(second, 4.0).tobytes()
    assert render(second, 4.0).tobytes() != render(second, 0.0).tobytes()


def test_a_frame_time_given_by_the_caller_wins():
    controller, panel = Still(ListView("B", LONG)), Panel()
    service = Service(controller, panel, clock=lambda: 0.0)  # type: ignore[arg-type]
    service.frame_time = lambda view, now: 4.0
    service.draw(0.0)
    assert panel.frames[-1] == render(ListView("B", LONG), 4.0).tobytes()
