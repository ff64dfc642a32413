"""The four colours of the table as letters, shared by the games that use them."""

from __future__ import annotations

COLOURS = ("r", "b", "g", "y")
"""Colour letters in clockwise order; the index is the colour's number."""


class NotationError(ValueError):
    """A position or notation text that cannot be read; the message is one sentence."""


def colour_index(letter: str) -> int:
    """The number of the colour ``letter``; :class:`NotationError` for anything else."""
    try:
        return COLOURS.index(letter)
    except ValueError:
        raise NotationError(f"Unknown colour {letter!r}: use r, b, g or y.") from None
