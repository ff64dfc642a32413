"""Shared helpers for the Člověče tests: speak the notation, compare moves as text."""

from __future__ import annotations

from companion.games.clovece.engine.notation import format_position, location_text, parse_position
from companion.games.clovece.engine.rules import COLOURS, Move, Position, apply, legal_moves


def P(text: str) -> Position:
    return parse_position(text)


def as_text(move: Move) -> tuple[str, str, str | None]:
    cap = COLOURS[move.capture] if move.capture is not None else None
    return (location_text(move.colour, move.frm), location_text(move.colour, move.to), cap)


def moves(text: str, roll: int) -> set[tuple[str, str, str | None]]:
    return {as_text(m) for m in legal_moves(P(text), roll)}


def play(text: str, roll: int, frm: str | None = None) -> tuple[str, list]:
    pos = P(text)
    move = None
    if frm is not None:
        [move] = [m for m in legal_moves(pos, roll) if location_text(m.colour, m.frm) == frm]
    after, events = apply(pos, roll, move)
    return format_position(after), events
