"""The buttons: gpiozero ``Button``s with pull-ups, a short press and a long press.

The reference scheme has three buttons (◀ ● ▶; a long ● opens the menu); the
five-button layout adds "menu" and "help".  A press is reported on release;
a long press (held past ``long_press`` seconds) is reported once while held and
swallows its release.  Tests use gpiozero's ``MockFactory``.

No press is lost and none overtakes another: presses are reported in the order
the buttons went down.  While a button is down and not yet decided (it may
still become a long press), the presses of the other buttons wait behind it and
follow as soon as it is decided: held long enough, its long press comes first
(so ▶ ▶ pressed while ● is held for the menu move the menu's selection);
released early, its short press comes first.

◀ and ▶ (``repeat``) have no long press: held, they **run**, like a keyboard's key.
Held past ``repeat_delay`` seconds a button reports one press, then more while it is
down, each sooner than the last (:func:`repeat_gaps`: from 0.25 s down to 0.04 s, 25
steps a second), so a number far away is reached by holding, not by counting presses;
its release is swallowed.  While ``long_when(name)`` says so (the voice mode: a held ◀
reads the whole situation aloud), a held ◀ or ▶ gives one long press instead of running.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gpiozero import Button

from companion.devices.ports import PinFactory
from companion.inputs.events import Button as Key
from companion.inputs.events import ButtonPress

log = logging.getLogger(__name__)

REPEAT = ("left", "right")
"""The buttons that run when held (instead of a long press)."""
REPEAT_DELAY = 0.4
"""Seconds ◀ or ▶ is held before it runs."""
FIRST_GAP, SHORTEST_GAP, SPEED_UP = 0.25, 0.04, 0.85


def repeat_gaps() -> Iterator[float]:
    """The pauses between the presses of a held button: each ``SPEED_UP`` times the one
    before, from ``FIRST_GAP`` down to ``SHORTEST_GAP`` seconds."""
    gap = FIRST_GAP
    while True:
        yield gap
        gap = max(SHORTEST_GAP, gap * SPEED_UP)


@dataclass
class _Press:
    """One press, from the moment its button went down; ``event`` once it is decided."""

    name: str
    event: ButtonPress | None = None


class Buttons:
    def __init__(self, pins: dict[str, int], post: Callable[[ButtonPress], None], *,
                 long_press: float = 0.8, bounce: float | None = 0.02,
                 pin_factory: PinFactory | None = None, repeat: tuple[str, ...] = REPEAT,
                 repeat_delay: float = REPEAT_DELAY,
                 long_when: Callable[[str], bool] | None = None) -> None:
        self._post = post
        self.long_when = long_when
        self._held: set[str] = set()
        self._running: dict[str, threading.Event] = {}
        """Held buttons that run, each with the event that stops it (set on release)."""
        self.repeat = repeat
        self._presses: list[_Press] = []
        """Presses in the order their buttons went down; reported from the front once decided."""
        self._lock = threading.Lock()
        self.buttons: dict[str, Button] = {}
        for name, pin in pins.items():
            b = Button(pin, pull_up=True, bounce_time=bounce or None,
                       hold_time=repeat_delay if name in repeat else long_press,
                       pin_factory=pin_factory)
            b.when_pressed = self._pressed_cb(name)
            b.when_held = self._held_cb(name)
            b.when_released = self._released_cb(name)
            self.buttons[name] = b

    def _pending(self, name: str) -> _Press | None:
        return next((p for p in self._presses if p.name == name and p.event is None), None)

    def _decide(self, name: str, event: ButtonPress) -> None:
        """Settle ``name``'s open press (or add a decided one) and report what is ready, in
        order; called with the lock held, so that two threads never interleave reports."""
        press = self._pending(name)
        if press is None:  # its going down was not seen (pressed before we started)
            self._presses.append(_Press(name, event))
        else:
            press.event = event
        while self._presses and self._presses[0].event is not None:
            ready = self._presses.pop(0).event
            assert ready is not None
            self._post(ready)

    def _pressed_cb(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:
                if self._pending(name) is None:
                    self._presses.append(_Press(name))
        return pressed

    def _held_cb(self, name: str) -> Callable[[], None]:
        def held() -> None:
            with self._lock:
                self._held.add(name)
                if name not in self.repeat or (self.long_when is not None
                                               and self.long_when(name)):
                    self._decide(name, ButtonPress(Key(name), long=True))
                    return
                self._decide(name, ButtonPress(Key(name)))  # the first step of a run
                stop = threading.Event()
                self._running[name] = stop
            threading.Thread(target=self._run, args=(name, stop), name=f"run-{name}",
                             daemon=True).start()
        return held

    def _run(self, name: str, stop: threading.Event) -> None:
        """A held ◀ or ▶: a press after each gap of :func:`repeat_gaps` until released."""
        for gap in repeat_gaps():
            if stop.wait(gap):
                return
            with self._lock:
                if stop.is_set():
                    return
                self._decide(name, ButtonPress(Key(name)))

    def _released_cb(self, name: str) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                stop = self._running.pop(name, None)
                if stop is not None:
                    stop.set()
                if name in self._held:  # its long press (or its run) was reported while held
                    self._held.discard(name)
                    return
                self._decide(name, ButtonPress(Key(name)))
        return released

    def close(self) -> None:
        with self._lock:
            for stop in self._running.values():
                stop.set()
            self._running.clear()
        for b in self.buttons.values():
            b.close()
