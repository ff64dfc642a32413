"""The four colours of the table and the seats they take, shared by the games that use them."""

from __future__ import annotations

from companion.engines.errors import NotationError as NotationError

COLOURS = ("r", "b", "g", "y")
"""Colour letters in clockwise order; the index is the colour's number."""

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3

SEATS_BY_PLAYERS: dict[int, tuple[int, ...]] = {
    2: (RED, GREEN), 3: (RED, BLUE, GREEN), 4: (RED, BLUE, GREEN, YELLOW)}
"""Who plays in a game of 2, 3 or 4 (the seeds: two players sit opposite)."""


def colour_index(letter: str) -> int:
    """The number of the colour ``letter``; :class:`NotationError` for anything else."""
    try:
        return COLOURS.index(letter)
    except ValueError:
        raise NotationError(f"Unknown colour {letter!r}: use r, b, g or y.") from None


def seats(players: int) -> tuple[int, ...]:
    """The colours of a ``players``-player game; :class:`NotationError` unless 2 to 4."""
    try:
        return SEATS_BY_PLAYERS[players]
    except (KeyError, TypeError):
        raise NotationError(f"A game is played by 2 to 4 players, not {players!r}.") from None
