"""Napij se's facts for the phone view and the voice (:mod:`companion.service.hosts.facts`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.service.hosts.facts import Spoken

if TYPE_CHECKING:  # types only: the host imports this when the game is chosen
    from companion.games.napij.engine.state import State
    from companion.web.snapshot import Snapshot


@dataclass(frozen=True)
class NapijFacts(Spoken):
    """The state (ledger included), the fields the last play left and reached, the card
    drawn last, the drinks per colour since the box was switched on ("Účet", from the
    host's tally)."""

    state: State
    throws: tuple[int, ...] = ()
    """The turn's throws so far, or the last turn's once it was played."""
    moved: tuple[str, ...] = ()
    card: int | None = None
    tonight: tuple[int, ...] = ()
    computer: frozenset[int] = frozenset()
    events: tuple[str, ...] = ()
    levels: tuple[tuple[int, str], ...] = ()
    """The computer seats' levels in Czech: (colour, "silný")."""
    said: tuple[bool, ...] = ()
    """For each event line, whether the host's own voice has said it (a throw and the play
    said before it was taken): the table's voice does not say it twice."""

    def on_turn(self) -> int | None:
        return self.state.turn

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        from companion.games.napij.phone import from_facts

        return from_facts(self, rules)

    def whole_game(self) -> str:
        from companion.games.napij.voice import situation

        return situation(self)

    def unsaid(self, new: tuple[str, ...]) -> tuple[str, ...]:
        lines = self.events
        if not new or len(self.said) != len(lines):
            return new
        said = self.said[len(lines) - len(new):]  # the new lines are the latest
        return tuple(x for x, done in zip(new, said, strict=True) if not done)
