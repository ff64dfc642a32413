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
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button

from companion.inputs.events import ButtonPress

from .ports import PinFactory

log = logging.getLogger(__name__)


@dataclass
class _Press:
    """One press, from the moment its button went down; ``event`` once it is decided."""

    name: str
    event: ButtonPress | None = None


class Buttons:
    def __init__(self, pins: dict[str, int], post: Callable[[ButtonPress], None], *,
                 long_press: float = 0.8, bounce: float | None = 0.02,
                 pin_factory: PinFactory | None = None) -> None:
        self._post = post
        self._held: set[str] = set()
        self._presses: list[_Press] = []
        """Presses in the order their buttons went down; reported from the front once decided."""
        self._lock = threading.Lock()
        self.buttons: dict[str, Button] = {}
        for name, pin in pins.items():
            b = Button(pin, pull_up=True, bounce_time=bounce or None, hold_time=long_press,
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
                self._decide(name, ButtonPress(name, long=True))
        return held

    def _released_cb(self, name: str) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                if name in self._held:  # its long press was reported while held
                    self._held.discard(name)
                    return
                self._decide(name, ButtonPress(name))
        return released

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
