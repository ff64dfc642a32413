"""The buttons: gpiozero ``Button``s with pull-ups, a short press and a long press.

The reference scheme has three buttons (◀ ● ▶; a long ● opens the menu); the
five-button layout adds "menu" and "help".  A press is reported on release;
a long press (held past ``long_press`` seconds) is reported once while held and
swallows its release.  Tests use gpiozero's ``MockFactory``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from gpiozero import Button

from companion.inputs.events import ButtonPress

from .ports import PinFactory

log = logging.getLogger(__name__)


class Buttons:
    def __init__(self, pins: dict[str, int], post: Callable[[ButtonPress], None], *,
                 long_press: float = 0.8, bounce: float | None = 0.02,
                 pin_factory: PinFactory | None = None) -> None:
        self._post = post
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self.buttons: dict[str, Button] = {}
        for name, pin in pins.items():
            b = Button(pin, pull_up=True, bounce_time=bounce or None, hold_time=long_press,
                       pin_factory=pin_factory)
            b.when_held = self._held_cb(name)
            b.when_released = self._released_cb(name)
            self.buttons[name] = b

    def _held_cb(self, name: str) -> Callable[[], None]:
        def held() -> None:
            with self._lock:
                self._held.add(name)
            self._post(ButtonPress(name, long=True))
        return held

    def _released_cb(self, name: str) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                was_held = name in self._held
                self._held.discard(name)
            if not was_held:
                self._post(ButtonPress(name))
        return released

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
