"""What several commands share: reading a die value and a number from the command line."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

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


def seconds_arg(maximum: float = 86_400.0) -> Callable[[str], float]:
    """An argparse ``type`` for a duration: a finite number of seconds from 0 to ``maximum``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
        if not math.isfinite(value) or not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"0 to {maximum:g} seconds, not {text!r}")
        return value
    parse.__name__ = "seconds"
    return parse


def count_arg(minimum: int = 0, maximum: int = 2**31 - 1) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``minimum`` to ``maximum``."""
    def parse(text: str) -> int:
        text = text.strip()
        digits = text.lstrip("+-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
            raise argparse.ArgumentTypeError(f"a whole number, not {text[:20]!r}")
        value = int(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{minimum} to {maximum}, not {value}")
        return value
    parse.__name__ = "number"
    return parse
