"""Shared helpers of the napij tests: positions from text, throws and plays in one line."""

from __future__ import annotations

from companion.engines.napij.notation import format_play, parse_play, parse_position
from companion.engines.napij.rules import (
    Event,
    Play,
    State,
    Throw,
    apply,
    default_rules,
    legal_plays,
)

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


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def only(events: list[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def places(state: State, colour: int) -> list[str]:
    own = state.pieces[colour]
    assert own is not None
    return ["p" if n < 0 else G.text[n] for n in own]


__all__ = ["G", "Play", "RULES", "legal_plays", "node", "only", "places", "play", "plays",
           "pos", "throw", "with_top", "kinds"]
