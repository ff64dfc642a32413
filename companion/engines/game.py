"""The one protocol every game engine speaks, in the manner of OpenSpiel's Python games.

A game is an object with a ``name`` (its registry key, see
:mod:`companion.games`) that turns a *setup* (players, variants, deck
mode... a frozen dataclass of the game's own) into a state, lists the legal
actions of a state and applies one, returning the new state and the events.
States, actions, setups and events are immutable values; events are frozen,
slotted dataclasses.

**Chance is an action.**  A roll of the die, a throw, a shuffle and a drawn
card come in as actions like a player's choice.  :meth:`Game.chance` says
whether a state waits for chance and for what (:class:`Chance`); the caller
(the table service, a self-play driver, a test) picks the outcome - from the
electronic dice, from its own seeded random generator or from a person - and
builds the action with :meth:`Game.chance_action`, saying where it came from
(:class:`Source`: the dice, the buttons, the companion's own throw).  So every game replays
exactly from its journal: a header record (:meth:`Game.setup_record`) and one
record per action (:meth:`Game.encode`), folded by :func:`replay`.

**Errors** are the family of :mod:`companion.engines.errors`: ``apply`` raises
:class:`~companion.engines.errors.IllegalMove` (with a machine-readable
reason) or :class:`~companion.engines.errors.GameOver`; ``parse`` and
``decode`` raise :class:`~companion.engines.errors.NotationError`.

A game may keep a faster, game-specific path underneath (a race game's
``legal_moves(pos, roll)`` for self-play); the protocol wraps it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from companion.engines.errors import NotationError, RulesError

Record = dict[str, Any]
"""One journal record: a JSON object (``{"t": "roll", "v": 5}``)."""

HEADER = "game"
"""``Record["t"]`` of a journal's first record, the game's setup."""

CHECKPOINT_STATE = "state"
"""The key of a header record that is a checkpoint: the state's notation (:func:`replay`)."""


class ChanceKind(StrEnum):
    ROLL = "roll"  # one die: outcomes 1..6
    SHUFFLE = "shuffle"  # a permutation of ``size`` cards
    DRAW = "draw"  # one card of ``outcomes`` (a physical deck: people enter what they drew)


@dataclass(frozen=True, slots=True)
class Chance:
    """What a chance node waits for."""

    kind: ChanceKind
    outcomes: tuple[int, ...] = ()
    """``ROLL``: the die values; ``DRAW``: the card numbers that may come."""
    size: int = 0
    """``SHUFFLE``: how many cards the permutation orders."""


ROLL = Chance(ChanceKind.ROLL, (1, 2, 3, 4, 5, 6))


class Source(StrEnum):
    """Where a chance outcome came from; a game may keep it in the action's record (a dice game
    shows a computer's throw as such and names it when undo asks), or ignore it."""

    DICE = "dice"  # the electronic dice
    MANUAL = "manual"  # entered with the buttons
    COMPUTER = "computer"  # thrown (shuffled, drawn) by the companion for a computer seat

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")
U = TypeVar("U")  # the setup


class Game(Protocol[S, A, E, U]):
    """The protocol (structural: an engine's game object need not inherit anything)."""

    name: str
    """Registry key and journal header ``game`` value: the plugin's name (:mod:`companion.games`)."""
    title: str
    """Czech name for people (the game's full title)."""

    # --- set-up ---------------------------------------------------------------
    def default_setup(self) -> U: ...
    def setup_record(self, setup: U) -> Record:
        """The journal header: ``{"t": "game", "game": name, ...}``."""
        ...
    def setup_from_record(self, record: Record) -> U:
        """The setup of a header record; :class:`NotationError` if it is not one of this game."""
        ...
    def new_game(self, setup: U) -> S: ...

    # --- play -----------------------------------------------------------------
    def chance(self, state: S) -> Chance | None:
        """What the state waits for from chance, or ``None`` when a player (or nobody) acts."""
        ...
    def chance_action(self, state: S, outcome: int | Sequence[int],
                      src: Source = Source.DICE) -> A:
        """The action of a chance outcome: a die value, a card number, a permutation;
        ``src``: where it came from (the dice, the buttons, the companion)."""
        ...
    def to_move(self, state: S) -> int | None:
        """The seat (colour) whose decision it is; ``None`` at a chance node or the end."""
        ...
    def legal_actions(self, state: S) -> list[A]:
        """Every legal action; at a ROLL or DRAW chance node its outcomes' actions."""
        ...
    def apply(self, state: S, action: A) -> tuple[S, list[E]]: ...
    def why_not(self, state: S, action: A) -> str | None:
        """Why the action is not legal, as one Czech sentence; ``None`` when it is."""
        ...
    def is_over(self, state: S) -> bool: ...
    def winners(self, state: S) -> tuple[int, ...]: ...

    # --- text and records ------------------------------------------------------
    def parse(self, text: str) -> S:
        """A state from the game's notation (:class:`NotationError` for bad text)."""
        ...
    def format(self, state: S) -> str: ...
    def encode(self, action: A) -> Record: ...
    def decode(self, record: Record, state: S) -> A:
        """The action of a record, read in ``state`` (:class:`NotationError` if unreadable)."""
        ...
    def describe(self, event: E, state: S) -> str:
        """One Czech line for the table about ``event`` (``state``: the state after it,
        for games whose words depend on the board)."""
        ...


@dataclass(frozen=True)
class Replay(Generic[S, U]):
    """A journal folded into a game: what :func:`replay` returns."""

    setup: U
    state: S
    used: int
    """Records used, the header included; ``< len(records)`` when a record did not fit."""
    events: tuple[Any, ...] = ()
    """The events of the last action applied."""
    error: RulesError | None = None
    """Why the record after the used ones was not applied (the first one skipped)."""
    skipped: int = 0
    """Records that did not fit and were passed over (``skip=True``)."""


def check_header(record: Mapping[str, Any], name: str) -> None:
    """Raise :class:`NotationError` unless ``record`` is the header of a game of ``name``."""
    if record.get("t") != HEADER:
        raise NotationError("The record is not a game header.")
    if record.get("game") != name:
        raise NotationError(f"The journal holds a game of {record.get('game')!r}, not {name!r}.")


def replay(game: Game[S, A, E, U], records: Sequence[Mapping[str, Any]], *,
           skip: bool = False) -> Replay[S, U]:
    """Fold a journal: the setup of its header, then every record while it fits.

    A header that is missing or not this game's raises :class:`NotationError`.  A header
    that carries ``"state"`` (a journal's checkpoint: the state after the records it stands
    for, in the game's notation) starts the fold at that state instead of a new game.
    The first record that cannot be read or applied ends the fold (``used`` and
    ``error`` say where and why), so a caller keeps the longest good prefix - or,
    with ``skip``, is passed over and the fold goes on with the next one (a journal
    that lost a record to damage keeps every later action that still fits).
    """
    if not records or records[0].get("t") != HEADER:
        raise NotationError("The journal does not start with a game header.")
    check_header(records[0], game.name)
    setup = game.setup_from_record(dict(records[0]))
    notation = records[0].get(CHECKPOINT_STATE)
    state = game.parse(notation) if isinstance(notation, str) else game.new_game(setup)
    used = 1
    skipped = 0
    error: RulesError | None = None
    events: tuple[Any, ...] = ()
    for record in records[1:]:
        try:
            action = game.decode(dict(record), state)
            state, evs = game.apply(state, action)
        except RulesError as exc:
            if not skip:
                return Replay(setup, state, used, events, exc)
            error = error or exc
            skipped += 1
            continue
        events = tuple(evs)
        used += 1
    return Replay(setup, state, used, events, error, skipped)
