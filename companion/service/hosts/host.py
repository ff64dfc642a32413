"""The base a host inherits: every default of :class:`~.base.GameHost`, the event lines, undo
from the journal, and the contract for a write the journal refuses.

A simple game's host (``tests/tinygame/host.py``) subclasses :class:`JournaledHost` and
writes only what is its own: ``title``, ``start``, ``handle`` and ``view`` (with the set-up's
``options`` / ``set_option`` when it has any).  Everything else has a default here: no
timers, no menu lines of its own, no "Proč?", resume by replaying the journal, undo of the
journal's last record, the question before it in the game's own words.

**A refused write** (the disk is full, read-only, or failing).  Every write goes to the
journal (:class:`~.base.JournaledGame` or ``ctx.journal``), which cuts its files back to
the last good record and raises :class:`~companion.storage.journal.JournalError`.  Then:

* *the host* lets it out of ``start``, ``handle``, ``tick``, ``undo`` and ``on_menu``
  unchanged, with nothing of the refused action shown as done: the journal is written
  first and the state moves after.  It may catch it only to set a timer to try again
  (:data:`~.base.RETRY_AFTER`, see :meth:`BaseHost.retry_later`) and must raise it again;
  a host that swallowed it would go on with an action that a power cut forgets.
  Files that are not the journal (napij's drinks tally) are a courtesy: their ``OSError``
  is logged and the game goes on;
* *the shell* catches it around every input and every tick: it logs it, beeps ``illegal``,
  shows the error's ``message`` in the game's event line (``notify``) and refuses the dice
  event, so the dice sends that throw again;
* *the player* sees the action not done and one sentence why ("Nelze uložit: disk je plný."),
  hears the refusal beep, and plays it again when the disk takes writes again (a computer
  seat's timer tries by itself after :data:`~.base.RETRY_AFTER` seconds).

``tests/service/hosts/test_journal_contract.py`` holds every registered game's host to it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from companion.engines.errors import RulesError
from companion.engines.game import Game, Record, replay
from companion.inputs.events import Input
from companion.service.hosts.base import EventLines, HostContext, JournaledGame, Option, Request
from companion.storage.journal import JournalError
from companion.ui.views import View

if TYPE_CHECKING:
    from companion.service.hosts.base import GameHost
    from companion.service.hosts.outcome import Outcome

log = logging.getLogger(__name__)

NOTHING_TO_UNDO = "Není co vrátit."
"""The event line when undo finds nothing to take back."""

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")
U = TypeVar("U")


class BaseHost:
    """The defaults of :class:`~.base.GameHost`; a subclass writes ``title``, ``in_game``,
    ``start``, ``resume``, ``handle`` and ``view``.  ``event_line`` is the screen's "what
    just happened" line; every line set is kept in :attr:`lines` for the phone view."""

    title = ""
    """The game's Czech name for the set-up's title."""

    def __init__(self, ctx: HostContext) -> None:
        self.ctx = ctx
        self.lines = EventLines()
        """The latest event lines (the phone view lists them)."""
        self._event_line = ""

    # --- the event line -----------------------------------------------------------------

    @property
    def event_line(self) -> str:
        """One line: what just happened (kept in :attr:`lines` too)."""
        return self._event_line

    @event_line.setter
    def event_line(self, line: str) -> None:
        self._event_line = line
        self.lines.add(line)

    def tell(self, lines: Sequence[str], shown: str) -> None:
        """An action's story: ``lines`` in the order they happened go to :attr:`lines` (the
        phone's list, the voice), ``shown`` (one of them, or added after them) is the event
        line on the panel."""
        told = [line for line in dict.fromkeys(lines) if line]
        for line in told:
            self.lines.add(line)
        if shown in told:
            self._event_line = shown
        elif shown:
            self.event_line = shown

    def notify(self, line: str) -> None:
        """The shell's news (a refused write, a throw not counted) in the event line."""
        self.event_line = line

    def note(self, line: str) -> None:
        """An event line of a plain step of play (a throw, a move that captured nothing, a
        drink answered): shown and listed, said only in the voice mode."""
        self._event_line = line
        self.lines.add(line, minor=True)

    # --- the defaults ---------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        return ()

    def set_option(self, key: str, value: Any) -> str | None:
        return None

    def stop(self) -> None:
        return None

    def tick(self, now: float) -> None:
        return None

    def next_deadline(self) -> float | None:
        return None

    def animated(self) -> bool:
        return False

    def undo_preview(self) -> tuple[str, str] | None:
        return None

    def undo(self, now: float) -> bool:
        self.event_line = NOTHING_TO_UNDO
        return False

    def menu_items(self) -> Sequence[tuple[str, str]]:
        return ()

    def on_menu(self, key: str, now: float) -> None:
        return None

    def why(self) -> str | None:
        return None

    # --- what a subclass must write ---------------------------------------------------------

    @property
    def in_game(self) -> bool:
        raise NotImplementedError

    def start(self, now: float) -> None:
        raise NotImplementedError

    def resume(self, records: list[Record], now: float) -> bool:
        raise NotImplementedError

    def handle(self, event: Input, now: float) -> Request | Outcome | None:
        raise NotImplementedError

    def view(self) -> View:
        raise NotImplementedError

    # --- the journal contract -----------------------------------------------------------------

    @contextmanager
    def retry_later(self, again: Callable[[float], None], when: float) -> Iterator[None]:
        """Around a timer's action: when the journal refuses it, ``again(when)`` sets the timer
        to try again (``now + RETRY_AFTER``), and the refusal goes on to the shell (the
        contract)."""
        try:
            yield
        except JournalError:
            again(when)
            raise


class JournaledHost(BaseHost, Generic[S, A, E, U]):
    """A host of a protocol game kept in its journal (:attr:`play`): resume replays it, undo
    cuts its last record, and the question before undo reads the journal's last action."""

    def __init__(self, ctx: HostContext, game: Game[S, A, E, U]) -> None:
        super().__init__(ctx)
        self.play: JournaledGame[S, A, E, U] = JournaledGame(game, ctx.journal)

    @property
    def game(self) -> Game[S, A, E, U]:
        return self.play.game

    @property
    def in_game(self) -> bool:
        return self.play.started

    # --- resume ------------------------------------------------------------------------------

    def replay(self, records: list[Record]) -> int | None:
        """Fold the journal into :attr:`play`: the records used, or ``None`` (logged) when its
        header cannot be played."""
        try:
            return self.play.resume(records)
        except RulesError as exc:
            log.error("journal %s cannot be replayed (%s); starting at the set-up",
                      self.ctx.journal.path, exc)
            return None

    def resume(self, records: list[Record], now: float) -> bool:
        if self.replay(records) is None:
            return False
        self.resumed(now)
        return True

    def resumed(self, now: float) -> None:
        """After a resume or an undo: set what follows from the state (timers, selections)."""
        return None

    # --- undo ----------------------------------------------------------------------------------

    def last_action(self) -> tuple[S, A, Record] | None:
        """The journal's last action with the state it was played in, or ``None`` when there
        is nothing to take back (no game, only the header, a record that does not read)."""
        if not self.play.started:
            return None
        records = self.ctx.journal.load()
        if len(records) <= 1:
            return None
        try:
            before = replay(self.game, records[:-1]).state
            return before, self.game.decode(records[-1], before), records[-1]
        except RulesError:
            return None

    def undo_preview(self) -> tuple[str, str] | None:
        last = self.last_action()
        return None if last is None else self.undo_question(*last)

    def undo_question(self, before: S, action: A, record: Record) -> tuple[str, str] | None:
        """The question before undo: a short title and a sentence; by default the game's own
        words for what the action did."""
        try:
            after, events = self.game.apply(before, action)
        except RulesError:
            return None
        words = " ".join(w for w in (self.game.describe(e, after) for e in events) if w)
        return ("Vrátit?", f"Vezme se zpět: {words}" if words else
                "Vezme se zpět poslední akce.")

    def undo(self, now: float) -> bool:
        removed = self.play.undo() if self.play.started else None
        if removed is None:
            self.event_line = NOTHING_TO_UNDO
            return False
        self.event_line = f"Vráceno: {self.undone_words(removed)}."
        self.undone(removed, now)
        return True

    def undone(self, record: Record, now: float) -> None:
        """After an undo took ``record`` back: by default what follows a resume."""
        self.resumed(now)

    def undone_words(self, record: Record) -> str:
        """What an undo took back, for "Vráceno: …." ("hod 5", "tah")."""
        return "poslední akce"


if TYPE_CHECKING:  # mypy holds the base to the protocol, member by member
    _BASE: type[GameHost] = BaseHost
    _JOURNALED: type[GameHost] = JournaledHost[Any, Any, Any, Any]
