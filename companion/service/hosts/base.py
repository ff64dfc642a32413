"""What a game host is, what it gets from the shell, and the journaled fold every game shares.

The shell (:mod:`companion.service.shell`) owns the menu, the settings, the rules
browser, the shutdown question, switching games and undo dispatch.  A host owns
one game at the table: its set-up options (declared as data, drawn and cycled by
the shell), its play screens, its timers.  It gets a :class:`HostContext`: the
journal, the preferences, the buzzer, a random generator (for the companion's
own throws and shuffles), the dice's link state and the slap pads.

:class:`JournaledGame` is the fold of a protocol game (:mod:`companion.engines.game`)
over its journal: every action is on disk (fsynced) before the state changes,
a resume replays the journal, undo cuts its last record.  Hosts of protocol
games keep their game in one.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from companion.devices.voice import Announcer, SilentAnnouncer
from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS
from companion.engines.czech import PLAYER
from companion.engines.game import CHECKPOINT_STATE, Game, Record, replay
from companion.inputs.events import Input
from companion.players.levels import CZECH, DEFAULT_LEVEL, Level, level_of
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.views import View

if TYPE_CHECKING:  # types only: the pads' timing and the phone's facts are loaded when used
    from companion.devices.pads.timing import TimingBook
    from companion.service.hosts.facts import Facts
    from companion.service.hosts.outcome import Outcome

EVENT_LINES = 12
"""How many of the latest event lines a host keeps for the facts (:mod:`.facts`)."""

CHECKPOINT_EVERY = 8
"""A checkpoint (the state's notation with the header) goes with every this many records, so
that a record the journal loses in both its files costs at most the records back to one."""



def checkpoint_at(header: Record, count: int, notation: Callable[[], str]) -> Record | None:
    """The checkpoint to journal with record number ``count`` (the header is record 0): every
    :data:`CHECKPOINT_EVERY` records, the ``header`` with the state's ``notation`` (the state
    after that record); ``None`` between them or without a header."""
    if not header or count % CHECKPOINT_EVERY:
        return None
    return {**header, CHECKPOINT_STATE: notation()}


def header_of(record: Record) -> Record:
    """A journal's first record as its header (a checkpoint without its state)."""
    return {k: v for k, v in record.items() if k != CHECKPOINT_STATE}


RETRY_AFTER = 3.0
"""Seconds before a timer whose action could not be saved tries again (the journal refused)."""

NOT_COUNTED = "Tenhle hod se nepočítá."
"""Said when a throw comes while no throw is wanted."""
COMPUTER_THROWS = "PC hází samo, tenhle hod se nepočítá."
"""Said when a throw of the dice comes while the companion throws for a computer seat itself:
a person's early throw never becomes the computer's roll."""


def computer_throws_option(people: bool) -> Option:
    """The set-up's "PC hází" line, the same in every game with computer seats: ``samo`` (the
    companion throws for a computer seat itself, also while the dice is connected) or ``lidé
    za něj`` (a person throws the real dice for it; ``people`` is True).  Without a connected
    dice the companion throws anyway."""
    return Option("computer_dice", "PC hází", (False, True), ("samo", "lidé za něj"), people)


def dice_line(up: bool) -> str:
    """The event line when the dice connects or goes away."""
    return "Kostka připojena." if up else "Kostka odpojena: hod zadej tlačítky."

log = logging.getLogger(__name__)


@dataclass
class DiceStatus:
    """The electronic dice as the table knows it (shared by every host)."""

    configured: bool = False
    up: bool = False

    @property
    def usable(self) -> bool:
        return self.configured and self.up


PadsWanted = Callable[[int | None], None]
"""Claim the slap pads of an ``n``-seat table (``None``: release them)."""


@dataclass
class HostContext:
    """What the shell lends a host."""

    journal: Journal
    prefs: Prefs
    beep: Callable[[str], None] = lambda name: None
    """Play a buzzer pattern by name (the shell mutes it when sound is off)."""
    rng: random.Random = field(default_factory=random.SystemRandom)
    dice: DiceStatus = field(default_factory=DiceStatus)
    want_pads: PadsWanted = lambda seats: None
    defaults: dict[str, Any] = field(default_factory=dict)
    """What the configuration says for the whole table: the machine's ``max_seats`` and
    ``[game]``'s set-up keys of older files (``players``, ``computer``, ``variants``...),
    which only the built-in games that had them read (:func:`setup_defaults`)."""
    game_defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each game's own set-up defaults (its configuration section ``[<game>]``)."""
    announcer: Announcer = field(default_factory=SilentAnnouncer)
    """The voice (:mod:`companion.devices.voice`); a host speaks only while ``prefs.voice``."""
    data: Path | None = None
    """The service's data folder (a family's own board and deck files live under it)."""
    save_prefs: Callable[[], None] = lambda: None
    """Keep ``prefs`` on disk after a host changed them (the shell sets it)."""
    pad_timing: TimingBook | None = None
    """The slap pads' timing budget (uncertainty, per-pad offsets; decision D28), or None."""
    storage_notice: str = ""
    """Why nothing can be saved now ("Nelze uložit: disk je jen pro čtení."), or ""."""


@dataclass(frozen=True)
class Option:
    """One line of a set-up: ``label: <the chosen value's text>``; ● takes the next value."""

    key: str
    label: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]
    value: Any

    @property
    def line(self) -> str:
        try:
            text = self.texts[self.values.index(self.value)]
        except ValueError:
            text = str(self.value)
        return f"{self.label}: {text}"

    def next_value(self) -> Any:
        try:
            i = self.values.index(self.value)
        except ValueError:
            i = -1
        return self.values[(i + 1) % len(self.values)]


def yes_no(key: str, label: str, value: bool) -> Option:
    return Option(key, label, (False, True), ("ne", "ano"), value)


ALL_COMPUTER = "Všechna místa hraje počítač."
"""Said when the last person's seat is given to the computer (the game then plays itself)."""


SEAT_LEVELS = (Level.NORMAL, Level.STRONG, Level.BEGINNER)
"""The order ● gives a seat's levels after "člověk": the default (normální) first, so that
one press hands the seat to the computer as it always did, then silný, then začátečník."""
LEVEL_TEXTS = tuple(f"PC {CZECH[level]}" for level in SEAT_LEVELS)
"""A computer seat's level on its set-up line ("Zelený: PC silný"; "počítač" and the level
together do not fit the panel's width)."""


def seat_options(players: int, computer: AbstractSet[int],
                 levels: Mapping[int, Level] | None = None) -> list[Option]:
    """The set-up's first lines of a game for 2 to 4 colours: how many play, then for each
    seat of that count whether a person or the computer plays it - with ``levels``, the
    computer at which level (● goes člověk, PC normální, PC silný, PC začátečník)."""
    head = Option("players", "Hráči", (2, 3, 4), ("2", "3", "4"), players)
    if levels is None:
        return [head, *(Option(f"seat:{c}", PLAYER[c], (False, True), ("člověk", "počítač"),
                               c in computer) for c in SEATS_BY_PLAYERS[players])]
    return [head, *(Option(f"seat:{c}", PLAYER[c], (False, *SEAT_LEVELS), ("člověk", *LEVEL_TEXTS),
                           levels.get(c, DEFAULT_LEVEL) if c in computer else False)
                    for c in SEATS_BY_PLAYERS[players])]


def seat_level(value: Any) -> Level | None:
    """The level a seat's set-up value names: ``None`` for a person, the default level for a
    plain ``True`` (a seat given to the computer without a level)."""
    if value is True:
        return DEFAULT_LEVEL
    if not value:
        return None
    return level_of(str(value))


def levels_record(levels: Mapping[int, Level], seats: AbstractSet[int]) -> dict[str, str]:
    """The computer seats' levels for a journal header: ``{"g": "strong"}``."""
    return {COLOURS[c]: levels.get(c, DEFAULT_LEVEL).value for c in sorted(seats)}


def levels_from_record(value: Any) -> dict[int, Level]:
    """The levels of a journal header's ``levels`` (what cannot be read is left out: that
    seat plays at the default level)."""
    out: dict[int, Level] = {}
    if isinstance(value, dict):
        for letter, name in value.items():
            if letter in COLOURS and isinstance(name, str):
                try:
                    out[COLOURS.index(letter)] = level_of(name)
                except ValueError:
                    log.warning("the journal names an unknown level %r", name)
    return out


def set_seat_option(key: str, value: Any, players: int,
                    computer: set[int]) -> tuple[int, set[int], str | None] | None:
    """A value of :func:`seat_options` chosen: the new (players, computer seats, a word to the
    table or ``None``); ``None`` for any other key."""
    if key == "players":
        return int(value), computer, None
    if not key.startswith("seat:"):
        return None
    c = int(key[5:])
    computer = computer | {c} if value else computer - {c}
    every = all(s in computer for s in SEATS_BY_PLAYERS[players])
    return players, computer, ALL_COMPUTER if every else None


class Request(StrEnum):
    """What a host may ask of the shell after an input."""

    SETUP = "setup"  # show the set-up for a new game (e.g. ● on the winner's screen)


class Expect(StrEnum):
    """What the table is expected to do next (for a robot standing in for the people, and
    for tests): asked of a host that has :meth:`Expecting.expects`."""

    ROLL = "roll"  # throw the dice
    CONFIRM = "confirm"  # press ● (a move made on the board, a drink drunk, a message read)
    CHOOSE = "choose"  # a person picks with ◀ ▶, then ●
    WAIT = "wait"  # nothing: the companion acts by itself (a timer runs)
    OVER = "over"  # the game has ended


@runtime_checkable
class Expecting(Protocol):
    """A host that can say what the table should do next."""

    def expects(self) -> Expect | None: ...


@runtime_checkable
class Showing(Protocol):
    """A host that tells its game's values beyond the screen (:mod:`.facts`), for the phone
    view; ``None`` when there is no game to show."""

    def facts(self) -> Facts | None: ...


@runtime_checkable
class Hinting(Protocol):
    """A host that can tell the person on turn what the strong computer would do (the shell's
    "Nápověda"): one or two Czech sentences - the move in the words the turn screen uses and
    one reason - or why there is nothing to advise now.  Asking changes nothing: no journal
    record, no timer, no selection."""

    def hint(self) -> str: ...


@runtime_checkable
class Leaving(Protocol):
    """A host with screens of its own over the game (a list reached from the menu: whom a
    duty names, what for, the ledger): a long ● there goes back to the game, not to the
    menu.  ``leave`` returns whether it left such a screen (``False``: the shell opens the
    menu as on the game's screen)."""

    def leave(self, now: float) -> bool: ...


@runtime_checkable
class UsingPads(Protocol):
    """A host whose game is played with the slap pads (Gobbit): a simulator offers keys for
    the pads while such a game is at the table and the pads are claimed."""

    def uses_pads(self) -> bool: ...


def setup_defaults(ctx: HostContext, game: str, older: Sequence[str] = ()) -> dict[str, Any]:
    """The set-up defaults of ``game``: its own configuration section (``[<game>]``), over
    the ``older`` keys of the shared :attr:`HostContext.defaults` (``[game]``'s keys of older
    files, which only the built-in games read: a new game passes none, so no other game's
    ``computer`` or ``players`` leaks into its options)."""
    shared = {key: value for key, value in ctx.defaults.items() if key in older}
    return {**shared, **ctx.game_defaults.get(game, {})}


class EventLines:
    """The table's latest event lines, oldest first (the phone view lists them)."""

    def __init__(self, keep: int = EVENT_LINES) -> None:
        self._lines: deque[str] = deque(maxlen=keep)
        self._said: deque[bool] = deque(maxlen=keep)
        self._minor: deque[bool] = deque(maxlen=keep)

    def add(self, line: str, *, minor: bool = False) -> None:
        """Keep ``line`` (an empty one is not news); ``minor``: a step of play the panel shows
        (a throw, a plain move, a drink answered) that the default voice leaves out."""
        if line:
            self._lines.append(line)
            self._said.append(False)
            self._minor.append(minor)

    def mark_said(self, line: str | None = None) -> None:
        """The host's own voice has said the latest line (or the latest equal to ``line``) in
        its own words: the table's voice need not say it again."""
        for i in range(len(self._lines) - 1, -1, -1):
            if line is None or self._lines[i] == line:
                self._said[i] = True
                return

    def clear(self) -> None:
        self._lines.clear()
        self._said.clear()
        self._minor.clear()

    def lines(self) -> tuple[str, ...]:
        return tuple(self._lines)

    def said(self) -> tuple[bool, ...]:
        """For each of :meth:`lines`, whether the host's voice has said it."""
        return tuple(self._said)

    def minor(self) -> tuple[bool, ...]:
        """For each of :meth:`lines`, whether it is a step the default voice leaves out."""
        return tuple(self._minor)


class GameHost(Protocol):
    """One game at the table (see the module docstring)."""

    @property
    def title(self) -> str:
        """The game's Czech name for the set-up's title ("Člověče")."""
        ...

    # --- set-up -----------------------------------------------------------------
    def options(self) -> Sequence[Option]: ...
    def set_option(self, key: str, value: Any) -> str | None:
        """Take a new value of an option; may return a line to show (a warning)."""
        ...
    def start(self, now: float) -> None:
        """Begin a new game from the set-up (its header is on disk before it returns)."""
        ...
    def resume(self, records: list[Record], now: float) -> bool:
        """Continue the journaled game (its header is this game's); ``False``: cannot."""
        ...
    def stop(self) -> None:
        """The table leaves this game (switching games): release what it holds."""
        ...

    # --- play ---------------------------------------------------------------------
    @property
    def in_game(self) -> bool:
        """A game is on (playing or won), so "Zpět do hry" has somewhere to go."""
        ...
    def handle(self, event: Input, now: float) -> Request | Outcome | None: ...
    def tick(self, now: float) -> None: ...
    def next_deadline(self) -> float | None: ...
    def view(self) -> View: ...
    def animated(self) -> bool: ...
    def notify(self, line: str) -> None:
        """Show one line to the table (the shell's news: a dropped record, a roll ignored)."""
        ...

    # --- what the shell's menu reaches -----------------------------------------------
    def undo_preview(self) -> tuple[str, str] | None:
        """What :meth:`undo` would take back, for the question the shell asks first: a short
        title ("Vrátit hod 5?") and a sentence; ``None``: nothing to take back."""
        ...
    def undo(self, now: float) -> bool:
        """Take back the last confirmed action (journal first); ``False``: nothing to take."""
        ...
    def menu_items(self) -> Sequence[tuple[str, str]]:
        """The game's own menu lines: (key, Czech label)."""
        ...
    def on_menu(self, key: str, now: float) -> None: ...
    def why(self) -> str | None:
        """The rules browser's "Proč?" page for this moment, if there is something to explain."""
        ...


S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")
U = TypeVar("U")


class JournaledGame(Generic[S, A, E, U]):
    """A protocol game kept in its journal: the journal is written first, then the state moves."""

    def __init__(self, game: Game[S, A, E, U], journal: Journal) -> None:
        self.game = game
        self.journal = journal
        self.setup: U | None = None
        self.state: S | None = None
        self.events: tuple[E, ...] = ()
        """What the last action did."""
        self.skipped = 0
        """Records of the journal passed over at the last resume."""
        self.header: Record = {}
        """The journal's header (the base of a checkpoint)."""
        self.count = 0
        """Records in the journal (the header included)."""

    @property
    def started(self) -> bool:
        return self.state is not None

    def current(self) -> S:
        if self.state is None:
            raise RuntimeError("no game has been started")
        return self.state

    def start(self, setup: U, extra: Record | None = None) -> S:
        """A new game: the header replaces the journal (durably), then the state is set.
        ``extra``: keys of the host's own added to the header (the engine ignores them)."""
        header = {**self.game.setup_record(setup), **(extra or {})}
        self.journal.replace([header])
        self.setup, self.state, self.events = setup, self.game.new_game(setup), ()
        self.header, self.count = header, 1
        return self.state

    def resume(self, records: Sequence[Record]) -> int:
        """Replay a journal; raises :class:`RulesError` when the header is unusable.

        The journal gives only records of a certain state (it never skips a lost one), so a
        record that does not fit the game is a newer version's, a bug's or a hand-edited
        file's: the fold stops there (a later record is never applied to a state it was not
        played in) and the journal resumes before it, keeping the whole of it as a copy and
        saying so (:meth:`Journal.cut_unknown`).  Returns the number of records used."""
        r = replay(self.game, records)
        if r.used < len(records):
            log.error("journal %s: record %d of %d does not fit the game (%s); the game "
                      "resumes before it", self.journal.path, r.used, len(records), r.error)
            self.skipped = len(records) - r.used
            self.journal.cut_unknown(r.used)  # the whole journal kept, and said
        else:
            self.skipped = 0
        self.setup, self.state, self.events = r.setup, r.state, tuple(r.events)
        self.header = header_of(records[0])
        self.count = r.used
        return r.used

    def commit(self, action: A) -> list[E]:
        """Apply ``action``: checked by the rules, then on disk, then the state moves.

        Raises :class:`RulesError` when the rules refuse it and ``OSError`` (the journal's)
        when it cannot be saved; in both cases nothing changed.
        """
        after, events = self.game.apply(self.current(), action)
        checkpoint = checkpoint_at(self.header, self.count, lambda: self.game.format(after))
        self.journal.append(self.game.encode(action), checkpoint)
        self.state, self.events = after, tuple(events)
        self.count += 1
        return events

    def undo(self) -> Record | None:
        """Cut the last action from the journal and replay the rest; ``None``: nothing to cut."""
        records = self.journal.load()
        if len(records) <= 1:
            return None
        [removed] = self.journal.keep(len(records) - 1)
        r = replay(self.game, records[:-1])
        self.setup, self.state, self.events = r.setup, r.state, tuple(r.events)
        self.count = r.used
        return removed

