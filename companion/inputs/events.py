"""What the adapters post to the service loop (from their own threads)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.inputs.pads import PadSignal


class Receipt:
    """Whether the table took an input from the dice (it is in the journal) or refused it.

    The loop settles it after the input was handled; the dice reader waits for it before it
    acknowledges the roll to the dice (a refused roll is sent again by the dice)."""

    def __init__(self) -> None:
        self._settled = threading.Event()
        self.taken = True

    def refuse(self) -> None:
        """The input could not be kept (the journal refused it): do not acknowledge it."""
        self.taken = False

    def settle(self) -> None:
        self._settled.set()

    def wait(self, timeout: float) -> bool | None:
        """``True`` taken, ``False`` refused, ``None`` not settled within ``timeout`` seconds."""
        return self.taken if self._settled.wait(timeout) else None


class Button(StrEnum):
    """The table's buttons: ◀ ▶ ● on every box; the OLED Bonnet's five-button layout adds
    its menu and help keys."""

    LEFT = "left"
    RIGHT = "right"
    SELECT = "select"
    MENU = "menu"
    HELP = "help"


@dataclass(frozen=True)
class ButtonPress:
    """A button was pressed and released; ``long`` when held past the long-press time."""

    name: Button
    long: bool = False


@dataclass(frozen=True)
class Rolled:
    """A roll arrived from the electronic dice."""

    value: int
    seq: int = 0
    receipt: Receipt | None = field(default=None, compare=False, repr=False)
    boot: str = field(default="", compare=False)
    """The dice's boot id: with ``seq``, the roll's mark in the journal (never taken twice)."""


@dataclass(frozen=True)
class Dropped:
    """The dice fell (free fall)."""

    seq: int = 0
    receipt: Receipt | None = field(default=None, compare=False, repr=False)
    boot: str = field(default="", compare=False)


@dataclass(frozen=True)
class DiceLink:
    """The dice connected (``up``) or was lost."""

    up: bool
    detail: str = ""


@dataclass(frozen=True)
class DiceNotice:
    """One line about the dice for the table (shown, and spoken when the voice is on): a
    throw landed crooked, the die fell asleep or left the radio's range, its battery is low."""

    line: str


@dataclass(frozen=True)
class PadEvent:
    """Something from the slap pads (a slap-pad game): a touch, a stuck pad, a release."""

    event: PadSignal


@dataclass(frozen=True)
class VoiceLink:
    """The voice can be heard again (``available``) or not: espeak-ng or the sound card is
    missing (``reason`` is the announcer's short code)."""

    available: bool
    reason: str = ""


@dataclass(frozen=True)
class Quit:
    """Stop the loop (Ctrl-C in the simulator, SIGTERM from systemd)."""


Input = ButtonPress | Rolled | Dropped | DiceLink | DiceNotice | PadEvent | VoiceLink | Quit
