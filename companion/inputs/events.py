"""What the adapters post to the service loop (from their own threads)."""

from __future__ import annotations

from dataclasses import dataclass

from .pads import PadSignal


@dataclass(frozen=True)
class ButtonPress:
    """A button was pressed and released; ``long`` when held past the long-press time."""

    name: str
    long: bool = False


@dataclass(frozen=True)
class Rolled:
    """A roll arrived from the electronic dice."""

    value: int
    seq: int = 0


@dataclass(frozen=True)
class Dropped:
    """The dice fell (free fall)."""


@dataclass(frozen=True)
class DiceLink:
    """The dice connected (``up``) or was lost."""

    up: bool
    detail: str = ""


@dataclass(frozen=True)
class PadEvent:
    """Something from the slap pads (Gobbit): a touch, a stuck pad, a release."""

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


Input = ButtonPress | Rolled | Dropped | DiceLink | PadEvent | VoiceLink | Quit
