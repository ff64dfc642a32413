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
    # napij se: every drinking duty has a pattern of its own (heard with the banner and voice)
    "drink-start": (0.15, 0.05, 3),
    "drink-knocked-out": (0.05, 0.05, 3),
    "drink-bottle": (0.1, 0.05, 2),
    "drink-pub": (0.05, 0.1, 3),
    "drink-card": (0.03, 0.03, 5),
    "drink-glass": (0.25, 0.05, 2),
    "drink-everybody": (0.08, 0.08, 4),
    "drink-home": (0.03, 0.05, 6),
    "drink-winner": (0.2, 0.05, 3),
    "drink-dropped-dice": (0.3, 0.05, 1),
    "drink-delay": (0.6, 0.0, 1),
    "drink-cheating": (0.05, 0.2, 2),
    "drink-upset": (0.02, 0.1, 4),
    "void-throw": (0.3, 0.1, 2),  # a throw made while owing: void, two more drinks
    "debt": (0.1, 0.1, 1),  # the player on turn owes: drink first
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
