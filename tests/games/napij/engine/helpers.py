"""Shared helpers of the napij tests: positions from text, throws and plays in one line."""

from __future__ import annotations

import pytest

from companion.engines.errors import IllegalMove
from companion.games.napij.engine.actions import Play, Throw
from companion.games.napij.engine.events import Event
from companion.games.napij.engine.notation import format_play, parse_play, parse_position
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import apply, legal_plays
from companion.games.napij.engine.state import State, default_rules

RULES = default_rules()
G = RULES.graph


def pos(text: str) -> State:
    return parse_position(text, RULES)


def node(text: str) -> int:
    return G.by_text[text]


def throw(state: State, *values: int) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for v in values:
        state, new = apply(state, Throw(v))
        events += new
    return state, events


def play(state: State, spec: str) -> tuple[State, list[Event]]:
    return apply(state, parse_play(state, spec))


def plays(state: State) -> set[str]:
    """The legal plays as canonical text, step order ignored."""
    return {" ".join(sorted(format_play(state, p).split())) for p in legal_plays(state)}


def with_top(text: str, *cards: int) -> str:
    """A position text whose deck starts with ``cards`` (the rest in file order)."""
    rest = [n for n in RULES.deck.numbers if n not in cards]
    return text + " deck:" + ",".join(map(str, [*cards, *rest]))


BLUE_TO_M28 = "r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b throws:3"
"""Blue's piece on m25 with a 3 to play: it lands on the card field m28."""


def landing(text: str, spec: str, *cards: int) -> tuple[State, list[Event]]:
    """Play ``spec`` from ``text`` with ``cards`` on top of the deck."""
    return play(pos(with_top(text, *cards)), spec)


def refused(state: State, spec: str) -> Why:
    """Why the rules refuse the play ``spec`` (it must be refused)."""
    with pytest.raises(IllegalMove) as exc:
        play(state, spec)
    assert exc.value.reason is not None
    why: Why = exc.value.reason.why
    return why


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def only(events: list[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def places(state: State, colour: int) -> list[str]:
    own = state.pieces[colour]
    assert own is not None
    return ["p" if n < 0 else G.text[n] for n in own]


__all__ = ["BLUE_TO_M28", "G", "Play", "RULES", "kinds", "landing", "legal_plays", "node", "only",
           "places", "play", "plays", "pos", "refused", "throw", "with_top"]
