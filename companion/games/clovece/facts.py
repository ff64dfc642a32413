"""Člověče's facts for the phone view and the voice (:mod:`companion.service.hosts.facts`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.service.hosts.facts import Spoken

if TYPE_CHECKING:  # types only: the host imports this when the game is chosen
    from companion.games.clovece.engine.rules import Move, Position
    from companion.web.snapshot import Snapshot


@dataclass(frozen=True)
class CloveceFacts(Spoken):
    """The position, the throw of the turn (pending or just played), the last move."""

    pos: Position
    throws: tuple[int, ...] = ()
    moved: Move | None = None
    computer: frozenset[int] = frozenset()
    events: tuple[str, ...] = ()
    levels: tuple[tuple[int, str], ...] = ()
    """The computer seats' levels in Czech: (colour, "silný")."""

    def on_turn(self) -> int | None:
        return self.pos.turn

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        from companion.games.clovece.phone import from_facts

        return from_facts(self, rules)

    def whole_game(self) -> str:
        from companion.games.clovece.voice import situation

        return situation(self)
