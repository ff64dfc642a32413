"""The race on the phones: its facts (a frozen value the host hands over), which build its page
snapshot and answer the voice with the defaults (:mod:`companion.service.hosts.facts`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.service.hosts.facts import Spoken
from companion.web.snapshot import Snapshot
from companion.web.svg import Drawing
from tests.tinygame.engine import NAMES, State


@dataclass(frozen=True)
class RaceFacts(Spoken):
    state: State
    events: tuple[str, ...] = ()

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        return page(self, rules)


def page(facts: RaceFacts, rules: Sequence[tuple[str, str]] = ()) -> Snapshot:
    s = facts.state
    if s.winner is not None:
        status = f"Závod skončil, vyhrál {NAMES[s.winner]}."
    else:
        status = f"Na tahu je {NAMES[s.turn]}, pole {s.pawns[0]} a {s.pawns[1]} z {s.goal}."
    return Snapshot("race", "Závod", status, Drawing("", ""), events=facts.events,
                    rules=tuple(rules), over=s.winner is not None)
