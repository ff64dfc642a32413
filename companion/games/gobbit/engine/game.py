"""Gobbit on the game protocol (:mod:`companion.engines.game`).

The state is the engine's :class:`~.rules.State`.  A new game is the empty
table of :func:`~.rules.undealt`: chance waits for the shuffle
(:data:`~companion.engines.game.ChanceKind.SHUFFLE`, a permutation of the
deck's cards), which comes in as a :class:`~.rules.Deal` and deals exactly as
:func:`~.rules.new_game` does.  Then the players' actions: :class:`~.rules.Flip`,
:class:`~.rules.Touches` (one judged moment), :class:`~.rules.Discard` and
:class:`~.rules.Finish`.  Touches cannot be listed, so ``legal_actions`` gives
the flips, discards and the finish only; a ``Touches`` is legal whenever the
cards are dealt and the game runs.

Journal records (:func:`action_record` / :func:`record_action`):

* ``{"t": "game", "game": "gobbit", "seats": 4, "rules": ["ghost", "gobbit"],
  "expert": false, "first": 1}`` - the header (:class:`Setup`; other keys, such
  as the table's ``"mode"``, are the host's and are ignored here);
* ``{"t": "deal", "order": [17, 3, ...]}`` - the shuffle;
* ``{"t": "flip", "seat": 2}``, ``{"t": "discard", "seat": 2}``, ``{"t": "finish"}``;
* ``{"t": "touches", "touches": [[seat, target, ms], ...]}`` - ``target`` a seat
  number or ``"g"`` (the graveyard), ``ms`` the touch time in milliseconds; with
  ``"uncertainty": MS`` when the pads' timing uncertainty was not zero (D28).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engines.errors import NotationError, RulesError
from companion.engines.game import HEADER, Chance, ChanceKind, Game, Record, Source, check_header
from companion.games.gobbit.engine import rules
from companion.games.gobbit.engine.cards import RULE_ORDER
from companion.games.gobbit.engine.describe import describe_event, refusal_sentence
from companion.games.gobbit.engine.judge import GRAVEYARD, Touch
from companion.games.gobbit.engine.notation import format_state, parse_state
from companion.games.gobbit.engine.rules import (
    MAX_SEATS,
    MIN_SEATS,
    Action,
    Deal,
    Discard,
    Event,
    Finish,
    Flip,
    Reason,
    State,
    Touches,
    dealt,
    deck_size,
    on_turn,
)


@dataclass(frozen=True, slots=True)
class Setup:
    """Seats (2 to 8), the additional rules, the expert variant, the seat that flips first.

    The default is what the table offers first: four seats, every additional rule.
    """

    seats: int = 4
    rules: frozenset[str] = frozenset(RULE_ORDER)
    expert: bool = False
    first: int = 1


def _int(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise NotationError(f"A Gobbit record needs a whole number for {what}, not {value!r}.")


def action_record(action: Action) -> Record:
    """The journal record of an action."""
    if isinstance(action, Deal):
        return {"t": "deal", "order": list(action.order)}
    if isinstance(action, Flip):
        return {"t": "flip", "seat": action.seat}
    if isinstance(action, Discard):
        return {"t": "discard", "seat": action.seat}
    if isinstance(action, Finish):
        return {"t": "finish"}
    record: Record = {"t": "touches", "touches": [[t.seat, t.target, t.ms] for t in action.touches]}
    if action.uncertainty_ms:
        record["uncertainty"] = action.uncertainty_ms
    return record


def _touch(item: Any) -> Touch:
    if not isinstance(item, list | tuple) or len(item) != 3:
        raise NotationError(f"A touch is written [seat, target, ms], not {item!r}.")
    seat, target, ms = item
    if target != GRAVEYARD:
        target = _int(target, "a touched pile")
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        raise NotationError(f"A touch time is a number of milliseconds, not {ms!r}.")
    return Touch(_int(seat, "a seat"), target, float(ms))


def record_action(record: Mapping[str, Any]) -> Action:
    """The action of a journal record; :class:`NotationError` when it cannot be read."""
    kind = record.get("t")
    if kind == "deal":
        order = record.get("order")
        if not isinstance(order, list):
            raise NotationError("A deal record lists the shuffled order of the cards.")
        return Deal(tuple(_int(i, "a card of the deal") for i in order))
    if kind == "flip":
        return Flip(_int(record.get("seat"), "the seat"))
    if kind == "discard":
        return Discard(_int(record.get("seat"), "the seat"))
    if kind == "finish":
        return Finish()
    if kind == "touches":
        touches = record.get("touches")
        if not isinstance(touches, list):
            raise NotationError("A touches record lists its touches.")
        within = record.get("uncertainty", 0.0)
        if (not isinstance(within, int | float) or isinstance(within, bool)
                or not math.isfinite(within) or within < 0):
            raise NotationError(f"A touches record's uncertainty is milliseconds, not {within!r}.")
        return Touches(tuple(_touch(t) for t in touches), float(within))
    raise NotationError(f"Unknown Gobbit record {kind!r}.")


def with_deal_record(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An older virtual-deck journal kept its shuffle in the header (``"order"``); the same
    journal with that order as a deal record after the header (others are returned as is)."""
    out = [dict(r) for r in records]
    if out and out[0].get("t") == HEADER and "order" in out[0]:
        order = out[0].pop("order")
        out.insert(1, {"t": "deal", "order": order})
    return out


class GobbitGame:
    """The :class:`~companion.engines.game.Game` of Gobbit (:data:`GAME`)."""

    name = "gobbit"
    title = "Gobbit"

    # --- set-up ---------------------------------------------------------------

    def default_setup(self) -> Setup:
        return Setup()

    def setup_record(self, setup: Setup) -> Record:
        return {"t": HEADER, "game": self.name, "seats": setup.seats,
                "rules": sorted(setup.rules), "expert": setup.expert, "first": setup.first}

    def setup_from_record(self, record: Record) -> Setup:
        check_header(record, self.name)
        seats = _int(record.get("seats"), "the seats")
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise NotationError(f"Gobbit is played by {MIN_SEATS} to {MAX_SEATS} players, "
                                f"not {seats}.")
        names = record.get("rules", [])
        if not isinstance(names, list):
            raise NotationError("The game header lists its rules as a list.")
        for name in names:
            if name not in RULE_ORDER:
                raise NotationError(f"The game header names an unknown rule {name!r}.")
        expert = record.get("expert", False)
        if not isinstance(expert, bool):
            raise NotationError("The game header says expert as true or false.")
        first = _int(record.get("first", 1), "the first seat")
        if not 1 <= first <= seats:
            raise NotationError(f"The first player must be a seat from 1 to {seats}.")
        return Setup(seats, frozenset(names), expert, first)

    def new_game(self, setup: Setup) -> State:
        return rules.undealt(setup.seats, setup.first, setup.rules, setup.expert)

    # --- play -----------------------------------------------------------------

    def chance(self, state: State) -> Chance | None:
        if state.over or dealt(state):
            return None
        return Chance(ChanceKind.SHUFFLE, size=deck_size(state))

    def chance_action(self, state: State, outcome: int | Sequence[int],
                      src: Source = Source.DICE) -> Deal:
        """The deal of the permutation ``outcome`` (``src`` is not kept: the deal is the deal)."""
        if isinstance(outcome, int):
            raise NotationError("A Gobbit deal is a permutation of the deck's cards.")
        return Deal(tuple(outcome))

    def to_move(self, state: State) -> int | None:
        """The seat that acts next: one with a card flipped out of turn, else the seat on
        turn (the one that flips, or ends the game when nobody can); anybody may touch."""
        if state.over or not dealt(state):
            return None
        if state.strays:
            return min(state.strays)
        seat = on_turn(state)
        return state.turn if seat is None else seat

    def legal_actions(self, state: State) -> list[Action]:
        return rules.legal_actions(state)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return rules.apply(state, action)

    def why_not(self, state: State, action: Action) -> str | None:
        try:
            rules.apply(state, action)
        except RulesError as exc:
            if isinstance(exc.reason, Reason):
                return refusal_sentence(exc.reason)
            return "Tohle pravidla nedovolují."
        return None

    def is_over(self, state: State) -> bool:
        return state.over

    def winners(self, state: State) -> tuple[int, ...]:
        return rules.winners(state)

    # --- text and records ------------------------------------------------------

    def parse(self, text: str) -> State:
        return parse_state(text)

    def format(self, state: State) -> str:
        return format_state(state)

    def encode(self, action: Action) -> Record:
        return action_record(action)

    def decode(self, record: Record, state: State) -> Action:
        return record_action(record)

    def describe(self, event: Event, state: State) -> str:
        return describe_event(event)


GAME: Game[State, Action, Event, Setup] = GobbitGame()
"""The game object the registry names (``companion.games.gobbit.engine.game:GAME``)."""
