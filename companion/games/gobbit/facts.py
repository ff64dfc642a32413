"""Gobbit's facts for the phone view and the voice (:mod:`companion.service.hosts.facts`):
the virtual deck's game, and referee mode's (real cards)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.service.hosts.facts import Spoken

if TYPE_CHECKING:  # types only: the host imports this when the game is chosen
    from companion.games.gobbit.engine.cards import Card
    from companion.games.gobbit.engine.judge import Ruling, Situation, Touch
    from companion.games.gobbit.engine.rules import State
    from companion.web.snapshot import Snapshot

FLIP = re.compile(r"^Hráč \d+ otočil ")
"""A flip of the virtual deck (its event line, :func:`companion.games.gobbit.engine.describe.
describe_event`): shown on the panel, said only in the voice mode."""


@dataclass(frozen=True)
class GobbitFacts(Spoken):
    """The virtual deck: the game, the latest moment's touches and the judge's ruling on them
    (``provisional`` while the moment goes on; each call of the ruling keeps the pads'
    timing uncertainty it was judged with, D28)."""

    state: State
    touches: tuple[Touch, ...] = ()
    ruling: Ruling | None = None
    provisional: bool = False
    uncertainty_ms: float = 0.0
    events: tuple[str, ...] = ()
    judged_tops: tuple[tuple[int, Card | None], ...] = ()
    """Each seat's top card when the ruling was judged (the foul's reason names them, as the
    panel's verdict does); empty: the state's own."""

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        from companion.games.gobbit.phone import from_facts

        return from_facts(self, rules)

    def whole_game(self) -> str:
        from companion.games.gobbit.voice import situation

        return situation(self)

    def settled_ruling(self, calls: bool) -> tuple[object, str] | None:
        if self.ruling is None or self.provisional:
            return None
        from companion.games.gobbit.voice import ruling_words

        return self.ruling, ruling_words(self, calls)

    def told(self, new: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(x for x in new if not FLIP.match(x))

    def after_ruling(self, new: tuple[str, ...], ruling: str | None) -> tuple[str, ...]:
        if ruling is None:
            return new
        return tuple(x for x in new if x not in ruling)  # said with it


@dataclass(frozen=True)
class RefereeFacts(Spoken):
    """Referee mode (real cards): the touch log, the latest moment and the situation the
    judge would rule it in (the cards the players entered, the pads' uncertainty).  The
    ruling itself is left to whoever shows it (the judge is pure)."""

    seats: int
    log: tuple[Touch, ...]
    moment: tuple[Touch, ...]
    situation: Situation
    graveyard: bool = False
    events: tuple[str, ...] = ()
    """The rulings the table confirmed, latest last."""
    ruling: tuple[str, ...] = ()
    """The ruling the verdict screen shows now, in sentences (how the first touch was
    decided, what happens), or ``()`` off the verdict screens: the voice says it."""
    ruling_of: tuple[float, int, str] | None = None
    """The moment that ruling is about (its first touch: ms, seat, target)."""
    summary: str = ""
    """The whole situation in sentences (a held ◀ in the voice mode)."""

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        from companion.games.gobbit.phone import from_referee_facts

        return from_referee_facts(self, rules)

    def whole_game(self) -> str:
        return self.summary

    def settled_ruling(self, calls: bool) -> tuple[object, str] | None:
        if not self.ruling:
            return None
        return (self.ruling_of, self.ruling), " ".join(self.ruling)

    def after_ruling(self, new: tuple[str, ...], ruling: str | None) -> tuple[str, ...]:
        return ()  # the rulings the table confirmed: said as they were shown
