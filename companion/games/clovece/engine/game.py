"""Člověče, nezlob se on the game protocol (:mod:`companion.engines.game`).

The state is the :class:`~.rules.Position` and the roll waiting for its move.
A turn is two actions: chance gives a :class:`Roll` (from the electronic dice,
entered by hand, or thrown by the computer: the action carries its source),
then the colour on turn plays a :class:`~.rules.Move` of that roll.  A roll
with no legal move is played at once (a failed try of the three, or the
forfeit), so a pending roll always has a move to wait for.

Journal records (the formats the table service has always written, so every
journal resumes):

* ``{"t": "game", "game": "clovece", "players": 4, "variants": [...],
  "computer": ["b"], "first": "r"}`` - the header (:class:`Setup`; ``"computer_dice":
  true`` when a person rolls the real dice for the computer seats);
* ``{"t": "roll", "v": 5, "src": "dice" | "manual" | "computer"}`` - a :class:`Roll`;
* ``{"t": "move", "from": "12"}`` - the move of the pending roll, named by where
  its piece stands (notation of docs/dev/clovece-notation.md).

Underneath, :func:`.rules.legal_moves` and :func:`.rules.apply` stay the fast
path for self-play (:mod:`companion.games.clovece.selfplay`); this module wraps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.engines.errors import GameOver, IllegalMove, NotationError, RulesError
from companion.engines.game import HEADER, ROLL, Chance, Game, Record, check_header
from companion.engines.game import Source as Source  # where a roll came from (kept in its record)
from companion.games.clovece.engine import rules
from companion.games.clovece.engine.describe import describe_event, explain
from companion.games.clovece.engine.notation import (
    format_with_roll,
    location_text,
    parse_location,
    parse_with_roll,
)
from companion.games.clovece.engine.rules import (
    COLOURS,
    RED,
    SEATS_BY_PLAYERS,
    SIX,
    VARIANT_ORDER,
    Event,
    Move,
    Position,
    Reason,
    Rolled,
    Why,
    legal_moves,
)


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the die shows ``value`` for the colour on turn."""

    value: int
    src: Source = Source.DICE


Action = Roll | Move
"""A roll (chance) or the move of the pending roll."""


@dataclass(frozen=True, slots=True)
class State:
    """A Člověče game at the table: the position and the roll waiting for its move."""

    pos: Position
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """Players (2 to 4), house rules, the colours the computer plays, who starts, and whether
    a person rolls the real dice for the computer seats (``computer_dice``; by default the
    companion throws for them itself)."""

    players: int = 4
    variants: frozenset[str] = frozenset()
    computer: frozenset[int] = frozenset()
    first: int = RED
    computer_dice: bool = False


class Misstep(StrEnum):
    """Why an action does not fit the moment (the ``code`` of its :class:`IllegalMove`);
    the rules' own reasons for a move are :class:`~.rules.Why`."""

    ROLL_PENDING = "roll-pending"  # a second roll before the move of the first
    NO_ROLL = "no-roll"  # a move before any roll
    ROLL_RANGE = "roll-range"  # a die shows 1 to 6
    WRONG_MOVE = "wrong-move"  # a move whose target or capture does not fit the roll


_STEP_CZECH = {
    Misstep.ROLL_PENDING: "Kostka už padla, teď se táhne figurkou.",
    Misstep.NO_ROLL: "Nejdřív se hází kostkou, teprve pak se táhne.",
    Misstep.ROLL_RANGE: "Na kostce padá jen jedna až šest.",
    Misstep.WRONG_MOVE: "Tenhle tah k hozenému číslu nepatří.",
}

_ROLLS = tuple(Roll(v) for v in range(1, SIX + 1))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class CloveceGame:
    """The :class:`~companion.engines.game.Game` of Člověče, nezlob se (:data:`GAME`)."""

    name = "clovece"
    title = "Člověče, nezlob se"

    # --- set-up ---------------------------------------------------------------

    def default_setup(self) -> Setup:
        return Setup()

    def setup_record(self, setup: Setup) -> Record:
        return {
            "t": HEADER, "game": self.name, "players": setup.players,
            "variants": [v for v in VARIANT_ORDER if v in setup.variants],
            "computer": [COLOURS[c] for c in sorted(setup.computer)],
            "first": COLOURS[setup.first],
        } | ({"computer_dice": True} if setup.computer_dice else {})

    def setup_from_record(self, record: Record) -> Setup:
        check_header(record, self.name)
        players = _int(record.get("players"))
        if players not in SEATS_BY_PLAYERS:
            raise NotationError("The game header needs players: 2, 3 or 4.")
        names = record.get("variants", [])
        computer = record.get("computer", [])
        first = record.get("first", COLOURS[RED])
        if not isinstance(names, list) or not isinstance(computer, list):
            raise NotationError("The game header lists variants and computer seats as lists.")
        for v in names:
            if v not in VARIANT_ORDER:
                raise NotationError(f"The game header names an unknown variant {v!r}.")
        for c in (*computer, first):
            if c not in COLOURS:
                raise NotationError(f"The game header names an unknown colour {c!r}.")
        if COLOURS.index(first) not in SEATS_BY_PLAYERS[players]:
            raise NotationError(f"{first} does not play in a {players}-player game.")
        computer_dice = record.get("computer_dice", False)
        if not isinstance(computer_dice, bool):
            raise NotationError("The game header's computer_dice is true or false.")
        return Setup(players, frozenset(names), frozenset(COLOURS.index(c) for c in computer),
                     COLOURS.index(first), computer_dice)

    def new_game(self, setup: Setup) -> State:
        return State(rules.new_game(setup.players, setup.variants, setup.first))

    # --- play -----------------------------------------------------------------

    def chance(self, state: State) -> Chance | None:
        return ROLL if state.roll is None and state.pos.winner is None else None

    def chance_action(self, state: State, outcome: int | Sequence[int],
                      src: Source = Source.DICE) -> Roll:
        """The roll ``outcome`` (``src``: where it came from; the dice by default)."""
        if not isinstance(outcome, int):
            raise NotationError("A roll is one die value from 1 to 6.")
        return Roll(outcome, Source(src))

    def to_move(self, state: State) -> int | None:
        if state.roll is None or state.pos.winner is not None:
            return None
        return state.pos.turn

    def legal_actions(self, state: State) -> list[Action]:
        if state.pos.winner is not None:
            return []
        if state.roll is None:
            return list(_ROLLS)
        return list(legal_moves(state.pos, state.roll))

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        pos, roll = state.pos, state.roll
        if pos.winner is not None:
            raise GameOver(f"The game is over: {COLOURS[pos.winner]} has won.",
                           Reason(Why.GAME_OVER, pos.turn, rules.HOUSE, roll or 0, pos.winner))
        if isinstance(action, Roll):
            value = action.value
            if roll is not None:
                raise IllegalMove("A second roll came before the move of the first.",
                                  code=Misstep.ROLL_PENDING.value)
            if _int(value) is None or not 1 <= value <= SIX:
                raise IllegalMove(f"A roll is 1 to 6, not {value!r}.", code=Misstep.ROLL_RANGE.value)
            rolled = Rolled(pos.turn, value)
            if legal_moves(pos, value):
                return State(pos, value), [rolled]
            after, events = rules.apply(pos, value)  # three tries or the forfeit, at once
            return State(after), [rolled, *events]
        if roll is None:
            raise IllegalMove("A move came without a roll.", code=Misstep.NO_ROLL.value)
        if action not in legal_moves(pos, roll):
            reason = (rules.why_not(pos, roll, action.frm) if action.colour == pos.turn
                      else Reason(Why.NO_PIECE, pos.turn, action.frm, roll))
            if reason.why is Why.LEGAL:
                raise IllegalMove("That move does not fit the roll.", code=Misstep.WRONG_MOVE.value)
            raise IllegalMove(f"That move is not legal ({reason.why.value}).", reason)
        after, events = rules.apply(pos, roll, action)
        return State(after), events

    def why_not(self, state: State, action: Action) -> str | None:
        try:
            self.apply(state, action)
        except RulesError as exc:
            return czech(exc)
        return None

    def is_over(self, state: State) -> bool:
        return state.pos.winner is not None

    def winners(self, state: State) -> tuple[int, ...]:
        return () if state.pos.winner is None else (state.pos.winner,)

    # --- text and records ------------------------------------------------------

    def parse(self, text: str) -> State:
        pos, roll = parse_with_roll(text)
        return State(pos, roll)

    def format(self, state: State) -> str:
        return format_with_roll(state.pos, state.roll)

    def encode(self, action: Action) -> Record:
        if isinstance(action, Roll):
            return {"t": "roll", "v": action.value, "src": Source(action.src).value}
        return {"t": "move", "from": location_text(action.colour, action.frm)}

    def decode(self, record: Record, state: State) -> Action:
        """The action of a record; a move record is read against the pending roll, so one
        that names no legal move raises :class:`IllegalMove` (with the rules' reason)."""
        kind = record.get("t")
        if kind == "roll":
            value = _int(record.get("v"))
            if value is None or not 1 <= value <= SIX:
                raise NotationError(f"A roll of {record.get('v')!r} is not 1 to 6.")
            src = record.get("src", Source.DICE.value)
            if src not in tuple(Source):
                raise NotationError(f"A roll record names an unknown source {src!r}.")
            return Roll(value, Source(src))
        if kind == "move":
            frm_text = record.get("from")
            if not isinstance(frm_text, str):
                raise NotationError("A move record needs its from location.")
            pos, roll = state.pos, state.roll
            frm = parse_location(pos.turn, frm_text)
            if pos.winner is not None:
                raise GameOver(f"The game is over: {COLOURS[pos.winner]} has won.",
                               Reason(Why.GAME_OVER, pos.turn, frm, roll or 0, pos.winner))
            if roll is None:
                raise IllegalMove("A move came without a roll.", code=Misstep.NO_ROLL.value)
            for move in legal_moves(pos, roll):
                if move.frm == frm:
                    return move
            reason = rules.why_not(pos, roll, frm)
            raise IllegalMove(f"The move from {frm_text} is not legal for a {roll} "
                              f"({reason.why.value}).", reason)
        raise NotationError(f"Unknown record {kind!r}.")

    def describe(self, event: Event, state: State) -> str:
        return describe_event(event)


def czech(error: RulesError) -> str:
    """The Czech sentence for a refusal of this game (``why_not``'s answer)."""
    if isinstance(error.reason, Reason):
        return explain(error.reason)
    try:
        return _STEP_CZECH[Misstep(error.code)]
    except ValueError:
        return "Tohle pravidla nedovolují."


GAME: Game[State, Action, Event, Setup] = CloveceGame()
"""The game object the registry names (``companion.games.clovece.engine.game:GAME``)."""
