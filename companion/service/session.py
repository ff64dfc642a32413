"""A Člověče game at the table as a pure fold over its journal records.

Records (see :mod:`companion.service.journal`):

* ``{"t": "game", "game": "clovece", "players": 4, "variants": [...],
  "computer": ["b"], "first": "r"}`` — the header, first record of a game;
* ``{"t": "roll", "v": 5, "src": "dice" | "manual" | "computer"}`` — a roll;
  with no legal move it is played at once (three tries or forfeit);
* ``{"t": "move", "from": "12"}`` — the confirmed move for the pending roll.

Replaying the records from the header gives exactly the game that was on the
table, which is how the service resumes after a pulled plug and how undo works.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engines.clovece.notation import location_text, parse_location
from companion.engines.clovece.rules import (
    COLOURS,
    VARIANT_ORDER,
    Event,
    Move,
    Position,
    apply,
    legal_moves,
    new_game,
)
from companion.engines.errors import RulesError


class SessionError(ValueError):
    """A record that does not fit the game (the message is one sentence)."""


@dataclass(frozen=True)
class Settings:
    players: int = 4
    variants: frozenset[str] = frozenset()
    computer: frozenset[int] = frozenset()
    first: int = 0

    def header(self) -> dict[str, Any]:
        return {
            "t": "game", "game": "clovece", "players": self.players,
            "variants": [v for v in VARIANT_ORDER if v in self.variants],
            "computer": [COLOURS[c] for c in sorted(self.computer)],
            "first": COLOURS[self.first],
        }

    @staticmethod
    def from_header(record: dict[str, Any]) -> Settings:
        try:
            players = int(record["players"])
            variants = frozenset(str(v) for v in record.get("variants", []))
            computer = frozenset(COLOURS.index(c) for c in record.get("computer", []))
            first = COLOURS.index(record.get("first", "r"))
        except (KeyError, ValueError, TypeError):
            raise SessionError("The game header is incomplete.") from None
        if record.get("game") != "clovece":
            raise SessionError(f"The journal holds a game of {record.get('game')!r}.")
        return Settings(players, variants, computer, first)


@dataclass(frozen=True)
class Session:
    settings: Settings
    pos: Position
    roll: int | None = None  # rolled, waiting for the move to be confirmed
    events: tuple[Event, ...] = ()  # what the last step did
    last_move: Move | None = None

    @property
    def moves(self) -> list[Move]:
        return legal_moves(self.pos, self.roll) if self.roll is not None else []

    @property
    def computer_turn(self) -> bool:
        return self.pos.turn in self.settings.computer


def start(settings: Settings) -> Session:
    try:
        pos = new_game(settings.players, settings.variants, settings.first)
    except RulesError as exc:
        raise SessionError(str(exc)) from None
    return Session(settings, pos)


def step(s: Session, record: dict[str, Any]) -> Session:
    """The session after one more record."""
    kind = record.get("t")
    if s.pos.winner is not None:
        raise SessionError("The game is over; nothing more can be recorded.")
    if kind == "roll":
        value = record.get("v")
        if not isinstance(value, int) or not 1 <= value <= 6:
            raise SessionError(f"A roll of {value!r} is not 1 to 6.")
        if s.roll is not None:
            raise SessionError("A second roll came before the move of the first.")
        if not legal_moves(s.pos, value):
            pos, events = apply(s.pos, value)
            return Session(s.settings, pos, None, tuple(events))
        return Session(s.settings, s.pos, value)
    if kind == "move":
        if s.roll is None:
            raise SessionError("A move came without a roll.")
        frm_text = record.get("from")
        if not isinstance(frm_text, str):
            raise SessionError("A move record needs its from location.")
        try:
            frm = parse_location(s.pos.turn, frm_text)
        except ValueError:
            raise SessionError(f"The move record names no location ({frm_text!r}).") from None
        chosen = [m for m in legal_moves(s.pos, s.roll) if m.frm == frm]
        if not chosen:
            raise SessionError(f"The move from {frm_text} is not legal for a {s.roll}.")
        pos, events = apply(s.pos, s.roll, chosen[0])
        return Session(s.settings, pos, None, tuple(events), chosen[0])
    raise SessionError(f"Unknown record {kind!r}.")


def _start_of(records: list[dict[str, Any]]) -> Session:
    if not records or records[0].get("t") != "game":
        raise SessionError("The journal does not start with a game header.")
    return start(Settings.from_header(records[0]))


def replay(records: list[dict[str, Any]]) -> Session:
    """The session of a whole journal (header first); a record that does not fit raises."""
    s = _start_of(records)
    for r in records[1:]:
        s = step(s, r)
    return s


def replay_prefix(records: list[dict[str, Any]]) -> tuple[Session, int]:
    """The session of the longest valid prefix of a journal, and its length."""
    s = _start_of(records)
    used = 1
    for r in records[1:]:
        try:
            s = step(s, r)
        except SessionError:
            break
        used += 1
    return s, used


def move_record(move: Move) -> dict[str, Any]:
    return {"t": "move", "from": location_text(move.colour, move.frm)}


def roll_record(value: int, source: str) -> dict[str, Any]:
    return {"t": "roll", "v": value, "src": source}
