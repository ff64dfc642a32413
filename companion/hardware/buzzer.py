"""The piezo buzzer: short patterns for the table, played in the background by gpiozero."""

from __future__ import annotations

import logging
from collections.abc import Callable

from gpiozero import Buzzer as GpioBuzzer

from .ports import PinFactory

log = logging.getLogger(__name__)

PATTERNS: dict[str, tuple[float, float, int]] = {
    "turn": (0.06, 0.06, 1),  # your turn: one short beep
    "six": (0.05, 0.07, 2),  # a six: two quick beeps
    "illegal": (0.45, 0.0, 1),  # not allowed: one long beep
    "win": (0.12, 0.08, 4),  # the winner: four beeps
}
"""name -> (on seconds, off seconds, repeats)."""


class Buzzer:
    def __init__(self, pin: int, pin_factory: PinFactory | None = None,
                 listener: Callable[[str], None] | None = None) -> None:
        self.device = GpioBuzzer(pin, pin_factory=pin_factory)
        self.listener = listener
        self.played: list[str] = []

    def play(self, name: str) -> None:
        if name not in PATTERNS:
            raise ValueError(f"unknown buzzer pattern {name!r}")
        on, off, n = PATTERNS[name]
        self.played.append(name)
        self.device.beep(on_time=on, off_time=off, n=n, background=True)
        if self.listener:
            self.listener(name)

    def close(self) -> None:
        self.device.close()
