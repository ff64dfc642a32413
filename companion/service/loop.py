"""The service loop: one thread feeds the controller and draws; adapters post from theirs.

Adapters (buttons, dice reader, pads) call :meth:`Service.post` from their own
threads; the loop takes one input at a time, hands it to the controller with
the time, lets the controller's timers fire, and draws the controller's view
whenever it changed (or, for blinking and scrolling, a few times a second).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Protocol

from companion.devices.display import Screen
from companion.inputs.events import Input, Quit
from companion.ui.picture import AnyView, frame

log = logging.getLogger(__name__)

ANIMATION_PERIOD = 0.25
FAULT = "Něco se pokazilo, hra jde dál."


class Controller(Protocol):
    def begin(self, now: float) -> None:
        """Called once before the first frame: resume a journaled game, arm its timers."""
        ...
    @property
    def quit_requested(self) -> bool: ...
    @property
    def shutdown_requested(self) -> bool: ...

    def handle(self, event: Input, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def view(self) -> AnyView: ...
    def next_deadline(self) -> float | None: ...
    def animated(self) -> bool: ...
    def notify(self, line: str) -> None:
        """Show one line to the table (a failure the loop survived)."""
        ...
    @property
    def contrast(self) -> int: ...


class Service:
    """The loop of one table: ``controller`` and ``screen``; inputs arrive in ``inbox`` (the
    devices put them there from their threads: :meth:`post`).  ``on_started``: called once,
    right after the first frame is on the display; ``on_idle``: whenever the loop has
    nothing to do; ``on_view``: with every view drawn (the lists stay open to observers)."""

    def __init__(self, controller: Controller, screen: Screen, *,
                 inbox: queue.Queue[Input] | None = None,
                 on_started: Iterable[Callable[[], object]] = (),
                 on_idle: Iterable[Callable[[], None]] = (),
                 on_view: Iterable[Callable[[AnyView], None]] = (),
                 frame_time: Callable[[AnyView, float], float] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.controller = controller
        self.screen = screen
        self.clock = clock
        self.queue: queue.Queue[Input] = queue.Queue() if inbox is None else inbox
        self.t0 = clock()
        self.last_view: AnyView | None = None
        self.stopped = False
        self.faults = 0
        """Steps that failed (each logged and shown; the loop went on)."""
        self.on_idle = list(on_idle)
        self.on_view = list(on_view)
        self.on_started = list(on_started)
        self.frame_time = frame_time
        """The animation time of a frame (blinking, scrolling); default: seconds since the
        screen last changed, so a new line scrolls from its start and a new choice blinks
        from its "on" phase.  ``companion demo`` counts views instead (the same GIF per seed)."""
        self._since: tuple[AnyView | None, float] = (None, self.t0)
        self._handling = False

    @property
    def busy(self) -> bool:
        """Whether the loop has an input to handle or is handling one (until its frame is
        drawn); read from other threads (the phone view's server waits while it is)."""
        return self._handling or not self.queue.empty()

    def post(self, event: Input) -> None:
        """Thread-safe: hand an input to the loop."""
        self.queue.put(event)

    def draw(self, now: float) -> None:
        view = self.controller.view()
        self.screen.contrast(self.controller.contrast)
        if self.frame_time is not None:
            t = self.frame_time(view, now)
        else:
            if view != self._since[0]:
                self._since = (view, now)
            t = now - self._since[1]
        self.screen.show(frame(view, t))
        for cb in self.on_view:
            cb(view)
        self.last_view = view  # published last: once seen, its frame is on the display

    def _guarded(self, what: str, action: Callable[[], object]) -> bool:
        """Run one step of the loop; a failure is logged and shown, and the loop goes on."""
        try:
            action()
        except Exception:  # never lose the game to one bad input, timer or frame
            self.faults += 1
            log.exception("%s failed; the service goes on", what)
            try:
                self.controller.notify(FAULT)
            except Exception:
                log.exception("the fault could not be shown")
            return False
        return True

    def run(self) -> None:
        """Run until a Quit input or a quit/shutdown request."""
        next_frame = self.clock()
        self._guarded("resuming the game", partial(self.controller.begin, next_frame))
        self._guarded("drawing", partial(self.draw, next_frame))
        for cb in self.on_started:
            cb()
        while not self.stopped:
            now = self.clock()
            deadline = self.controller.next_deadline()
            wait = next_frame + ANIMATION_PERIOD - now
            if deadline is not None:
                wait = min(wait, deadline - now)
            try:
                event: Input | None = self.queue.get(timeout=max(0.0, min(wait, ANIMATION_PERIOD)))
            except queue.Empty:
                event = None
            now = self.clock()
            dirty = False
            if isinstance(event, Quit):
                break
            if event is not None:
                self._handling = True
                self._guarded(f"input {event!r}", partial(self.controller.handle, event, now))
                receipt = getattr(event, "receipt", None)
                if receipt is not None:
                    receipt.settle()  # the dice reader acknowledges only now
                dirty = True
            before = self.controller.next_deadline()
            self._guarded("a timer", partial(self.controller.tick, now))
            if self.controller.next_deadline() != before:
                dirty = True
            if self.screen.poll(now):
                dirty = True  # the panel is back: it gets the current frame at once
            if dirty or (self.controller.animated() and now >= next_frame + ANIMATION_PERIOD):
                self._guarded("drawing", partial(self.draw, now))
                next_frame = now
            if self.controller.quit_requested or self.controller.shutdown_requested:
                self._guarded("drawing", partial(self.draw, now))
                break
            self._handling = False
            if self.queue.empty():
                for cb in self.on_idle:
                    self._guarded("an idle task", cb)
        self.stopped = True

    def stop(self) -> None:
        self.post(Quit())
