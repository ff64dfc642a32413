"""What several commands share: reading a die value and a number from the command line."""

from __future__ import annotations

import math

from companion.errors import UsageError


def parse_roll(text: str) -> int:
    """A die value from the command line (1 to 6); one sentence otherwise."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 6:
        raise UsageError(f"A roll is a number from 1 to 6, not {text!r}.")
    return int(text)


def seconds(text: str, what: str, *, maximum: float = 86_400.0) -> float:
    """A duration in seconds: a finite number from 0 to ``maximum``; one sentence otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number of seconds, not {text!r}.") from None
    if not math.isfinite(value) or not 0 <= value <= maximum:
        raise UsageError(f"{what} must be 0 to {maximum:g} seconds, not {text!r}.")
    return value
