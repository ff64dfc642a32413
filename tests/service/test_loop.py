"""The service loop: inputs in order, timers, frames only when something changed, a screen's
animation from when it appears - and it never dies of a failing handler, timer, frame or panel."""

from __future__ import annotations

import queue
import threading
import time

from luma.core.device import dummy

from companion.devices.display import Screen
from companion.inputs.events import ButtonPress, Input, Receipt, Rolled
from companion.service.loop import FAULT, Service
from companion.ui.screens import render
from companion.ui.views import ListView, MessageView, View


class Controller:
    """A controller whose parts fail on command."""

    def __init__(self) -> None:
        self.handled: list[object] = []
        self.notes: list[str] = []
        self.fail_handle = self.fail_tick = self.fail_view = False
        self.quit_requested = self.shutdown_requested = False
        self.contrast = 255
        self.ticks = 0

    def begin(self, now: float) -> None:
        return None

    def handle(self, event: object, now: float) -> None:
        if self.fail_handle:
            raise RuntimeError("a bug in a handler")
        self.handled.append(event)
        if event == ButtonPress("menu"):
            self.quit_requested = True

    def tick(self, now: float) -> None:
        self.ticks += 1
        if self.fail_tick:
            raise RuntimeError("a bug in a timer")

    def view(self) -> View:
        if self.fail_view:
            raise RuntimeError("a bug in a screen")
        return MessageView("Test", (f"{len(self.handled)} handled",))

    def next_deadline(self) -> float | None:
        return None

    def animated(self) -> bool:
        return False

    def notify(self, line: str) -> None:
        self.notes.append(line)


def run(service: Service) -> threading.Thread:
    th = threading.Thread(target=service.run, daemon=True)
    th.start()
    return th


def settle(service: Service) -> None:
    end = time.monotonic() + 3
    while not service.queue.empty() and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(0.1)


def test_a_failing_handler_timer_or_frame_is_logged_shown_and_survived():
    c = Controller()
    s = Service(c, Screen(dummy(width=128, height=64, mode="1")))
    th = run(s)
    try:
        c.fail_handle = True
        s.post(ButtonPress("left"))
        settle(s)
        c.fail_handle, c.fail_tick = False, True
        s.post(ButtonPress("right"))
        settle(s)
        c.fail_tick, c.fail_view = False, True
        s.post(ButtonPress("select"))
        settle(s)
        c.fail_view = False
        s.post(ButtonPress("left"))
        settle(s)
        assert th.is_alive() and s.faults >= 3 and FAULT in c.notes
        assert c.handled == [ButtonPress("right"), ButtonPress("select"), ButtonPress("left")]
        assert s.last_view == MessageView("Test", ("3 handled",))
    finally:
        s.stop()
        th.join(3)


def test_a_receipt_is_settled_only_after_its_input_was_handled():
    c = Controller()
    s = Service(c, Screen(dummy(width=128, height=64, mode="1")))
    receipt = Receipt()
    assert receipt.wait(0) is None
    th = run(s)
    try:
        s.post(Rolled(4, 1, receipt))
        assert receipt.wait(3) is True
        assert c.handled == [Rolled(4, 1)]
    finally:
        s.stop()
        th.join(3)


class FlakyPanel(dummy):  # type: ignore[misc]
    """luma's dummy device whose bus fails while ``broken``."""

    broken = False

    def display(self, image):
        if self.broken:
            raise OSError(121, "Remote I/O error")
        super().display(image)


def test_the_game_goes_on_without_the_panel_and_it_gets_the_frame_when_back():
    c = Controller()
    panel = FlakyPanel(width=128, height=64, mode="1")
    screen = Screen(panel, reopen=lambda: panel, reopen_every=0.05)
    s = Service(c, screen)
    th = run(s)
    try:
        settle(s)
        panel.broken = True
        s.post(ButtonPress("left"))
        settle(s)
        assert th.is_alive() and not screen.present
        s.post(ButtonPress("right"))  # inputs still count while the panel is gone
        settle(s)
        panel.broken = False
        end = time.monotonic() + 3
        while not screen.present and time.monotonic() < end:
            s.post(ButtonPress("select"))
            time.sleep(0.1)
        settle(s)
        assert screen.present and len(c.handled) >= 3

        assert panel.image.convert("1").tobytes() == render(c.view()).tobytes()
    finally:
        s.stop()
        th.join(3)


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
    service = Service(controller, panel, clock=lambda: 0.0,  # type: ignore[arg-type]
                      frame_time=lambda view, now: 4.0)
    service.draw(0.0)
    assert panel.frames[-1] == render(ListView("B", LONG), 4.0).tobytes()


def test_the_loop_is_busy_from_an_input_until_its_frame_is_drawn():
    """What the phone view's server reads to let the table go first."""
    c = Controller()
    s = Service(c, Screen(dummy(width=128, height=64, mode="1")))
    seen: list[bool] = []
    drawn: list[bool] = []
    real_handle = c.handle

    def handle(event: object, now: float) -> None:
        seen.append(s.busy)
        real_handle(event, now)

    c.handle = handle  # type: ignore[method-assign]
    s.on_view.append(lambda view: drawn.append(s.busy))
    idle: list[bool] = []
    s.on_idle.append(lambda: idle.append(s.busy))
    assert not s.busy
    s.post(ButtonPress("left"))
    assert s.busy  # an input waiting
    th = run(s)
    try:
        settle(s)
        assert seen == [True] and drawn[-1] is True and idle and idle[-1] is False
        assert not s.busy
    finally:
        s.stop()
        th.join(3)


def test_the_hooks_and_the_inbox_given_when_the_loop_is_made_are_used():
    """The devices put inputs into the inbox they were given; the started hook runs once,
    after the first frame; the view hook sees every frame; the idle hook runs when the
    inbox is empty."""
    c = Controller()
    screen = Screen(dummy(width=128, height=64, mode="1"))
    inbox: queue.Queue[Input] = queue.Queue()
    events: list[str] = []
    s = Service(c, screen, inbox=inbox, on_started=[lambda: events.append(f"started {screen.frames}")],
                on_view=[lambda view: events.append("view")], on_idle=[lambda: events.append("idle")])
    inbox.put(ButtonPress("left"))
    th = run(s)
    try:
        settle(s)
        assert c.handled == [ButtonPress("left")]
        assert events[:2] == ["view", "started 1"] and events.count("started 1") == 1
        assert events.index("idle") > events.index("started 1") and events.count("view") >= 2
    finally:
        s.stop()
        th.join(3)
