"""Člověče, napij se! at the table: set-up, the turn in words, cards, drinks, computer seats.

The game is the protocol game of :mod:`companion.games.napij.engine.game`, kept in its
journal by :class:`~.base.JournaledGame`: every throw, play, card choice, drawn
card, drink and called duty is on disk before the screen shows it, so a pulled
plug loses nothing and undo takes back any of them.  The header keeps what the
engine does not know: the computer seats, the lot for who starts, the
thinking-time limit and the game's id (for "Účet").

The 80-field board does not fit the OLED: a turn screen says each legal play
in words a player can act on at the real board (:mod:`companion.games.napij.engine.places`)
with a strip map of the fields along the way.  Every drinking duty is
announced three ways at once (a banner, a buzzer pattern, a spoken sentence:
:mod:`.drinks`); a player who owes is asked to drink at the start of the
turn, a throw before that is void.  The dice's drop is the "dropped the die"
duty, called by itself; the other table duties come from the menu; the
optional thinking timer calls the delay duty.  Decisions are in
docs/players/table.md (*Člověče, napij se! at the table*).

The host is a thin class over parts of their own: it holds the turn's state
machine (:class:`~.turn.NapijTurn`: the journaled game, modes, timers, what is on
show) and hands each input to :func:`.inputs.handle`, which gives back the
input's :class:`~companion.service.hosts.outcome.Outcome`; the screens are pure
functions of the turn's values (:mod:`.panel`).  This module adds the set-up,
resume, undo, the menu, "Proč?", the hint and the phone's facts.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS, colour_index
from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.games.napij import inputs
from companion.games.napij.engine.actions import Action
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.events import Event
from companion.games.napij.engine.game import DEFAULT, GAME, Setup, load_rules
from companion.games.napij.engine.places import choice_row, move_lines, why_text
from companion.games.napij.engine.state import DeckMode, Phase, State
from companion.games.napij.facts import NapijFacts
from companion.games.napij.hint import card_hint
from companion.games.napij.hint import hint as strong_hint
from companion.games.napij.levels import strong
from companion.games.napij.mode import Mode
from companion.games.napij.turn import (
    ASK_GRACE,
    COMPUTER_DELAY,
    LOT_STEP,
    NapijTurn,
    Timer,
    lot_rounds,
)
from companion.inputs.events import Input
from companion.players.levels import CZECH, DEFAULT_LEVEL, Level
from companion.service.hosts.base import (
    Expect,
    HostContext,
    Option,
    computer_throws_option,
    levels_from_record,
    levels_record,
    seat_level,
    seat_options,
    set_seat_option,
    setup_defaults,
)
from companion.service.hosts.host import NOTHING_TO_UNDO, JournaledHost
from companion.service.hosts.outcome import Outcome
from companion.ui.views import View

__all__ = ["ASK_GRACE", "COMPUTER_DELAY", "LOT_STEP", "Mode", "NapijHost", "Timer", "lot_rounds"]
"""What the tests and the every-screen walk take from here (the turn's own names among them)."""

log = logging.getLogger(__name__)

OLDER_KEYS = ("players", "computer", "first", "levels", "computer_dice")
"""The keys of ``[game]`` (older configuration files) that napij se still reads."""

SINGLE_DELAYS = (0, 2, 3, 5)
"""The set-up's "Jediný tah": 0 waits for ●, else seconds after the play was shown and said."""
THINK_LIMITS = (0, 30, 60, 90, 120)
"""The thinking-time limits the set-up offers, seconds (0: off)."""
BOARDS, DECKS = "boards", "decks"
"""Folders of a family's own board and deck files in the data folder."""
UNDONE = {"throw": "hod", "play": "tah", "drank": "vypití", "duty": "povinnost napít se",
          "choose": "volba karty", "offer": "nabídka", "decline": "odmítnutí",
          "draw": "karta", "bottle": "láhev", "shuffle": "míchání", "later": "napití později",
          "throw-owing": "hod bez vypití"}


class Key(StrEnum):
    """The keys of the set-up's lines (as the preferences and the shell know them)."""

    PLAYERS = "players"
    COMPUTER_DICE = "computer_dice"
    FIRST = "first"
    DECK = "deck"
    BOARD = "board"
    CARDS = "cards"
    VOICE = "voice"
    THINK = "think"
    SINGLE = "single"


@dataclass(frozen=True)
class Seat:
    """The key of a seat's line of the set-up (``"seat:2"``: a person or the computer, at
    which level)."""

    colour: int

    PREFIX = "seat:"

    @classmethod
    def of(cls, key: str) -> Seat | None:
        """The seat a key names, or ``None`` for any other key."""
        if not key.startswith(cls.PREFIX):
            return None
        return cls(int(key.removeprefix(cls.PREFIX)))


LOT = "lot"
"""The set-up's "Začíná: los" (who starts is thrown for)."""


class Menu(StrEnum):
    """The game's own lines of the shell's menu: the lists they open over the game."""

    LEDGER = "ledger"  # "Dluhy"
    DUTY = "duty"  # "Povinnost napít se"
    TALLY = "tally"  # "Účet"


def _files(folder: Path | None, sub: str) -> tuple[str, ...]:
    """A family's own files (``*.toml`` in ``folder/sub``), as paths."""
    if folder is None:
        return ()
    try:
        return tuple(str(p) for p in sorted((folder / sub).glob("*.toml")) if p.is_file())
    except OSError:
        return ()


class NapijHost(JournaledHost[State, Action, Event, Setup]):
    """The napij se host: the set-up, and the game in play handed to its turn (:attr:`turn`)."""

    title = "Napij se"

    def __init__(self, ctx: HostContext, table: str = "") -> None:
        super().__init__(ctx, GAME)
        d = setup_defaults(ctx, GAME.name, OLDER_KEYS)
        self.turn = NapijTurn(ctx, self.play, self,
                              computer_dice=bool(d.get(Key.COMPUTER_DICE, False)))
        """The game in play (its state, mode, timers, what is on show)."""
        self.players = int(d.get(Key.PLAYERS, 4))
        self.computer = {COLOURS.index(c) for c in d.get("computer", ()) if c in COLOURS}
        self.levels: dict[int, Level] = levels_from_record(d.get("levels"))
        """The set-up's level of each seat the computer would play."""
        self.first: int | str = LOT if d.get(Key.FIRST) == LOT else 0
        self.deck_mode = DeckMode.VIRTUAL
        self.board_file = DEFAULT
        self.deck_file = DEFAULT

    @property
    def in_game(self) -> bool:
        return self.turn.in_game

    # --- set-up --------------------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        turn = self.turn
        seats = SEATS_BY_PLAYERS[self.players]
        opts = seat_options(self.players, self.computer, self.levels)
        first = self.first if self.first == LOT or self.first in seats else seats[0]
        if any(c in self.computer for c in seats):
            opts.append(computer_throws_option(turn.computer_dice))
        opts.append(Option(Key.FIRST, "Začíná", (*seats, LOT),
                           (*(PLAYER_LOWER[c] for c in seats), "los"), first))
        opts.append(Option(Key.DECK, "Karty", (DeckMode.VIRTUAL, DeckMode.PHYSICAL),
                           ("na displeji", "papírové"), self.deck_mode))
        boards = _files(self.ctx.data, BOARDS)
        opts.append(Option(Key.BOARD, "Plán", (DEFAULT, *boards),
                           ("výchozí", *(Path(b).stem for b in boards)), self.board_file))
        decks = _files(self.ctx.data, DECKS)
        opts.append(Option(Key.CARDS, "Balíček", (DEFAULT, *decks),
                           ("výchozí", *(Path(b).stem for b in decks)), self.deck_file))
        opts.append(Option(Key.VOICE, "Hlas", (False, True), ("vypnutý", "zapnutý"),
                           self.ctx.prefs.voice))
        opts.append(Option(Key.THINK, "Čas na tah", THINK_LIMITS,
                           tuple("bez limitu" if s == 0 else f"{s} s" for s in THINK_LIMITS),
                           turn.think))
        opts.append(Option(Key.SINGLE, "Jediný tah", SINGLE_DELAYS,
                           tuple("čeká na ●" if s == 0 else f"sám po {s} s"
                                 for s in SINGLE_DELAYS), turn.single))
        return opts

    def set_option(self, key: str, value: Any) -> str | None:
        turn = self.turn
        seat = set_seat_option(key, value, self.players, self.computer)
        if seat is not None:
            self.players, self.computer, word = seat
            chosen = Seat.of(key)
            level = seat_level(value) if chosen is not None else None
            if chosen is not None and level is not None:
                self.levels[chosen.colour] = level
            return word
        match key:
            case Key.FIRST:
                self.first = LOT if value == LOT else int(value)
            case Key.DECK:
                self.deck_mode = DeckMode(value)
            case Key.BOARD | Key.CARDS:
                if key == Key.BOARD:
                    self.board_file = str(value)
                else:
                    self.deck_file = str(value)
                try:
                    load_rules(Setup(board_file=self.board_file, deck_file=self.deck_file))
                except RulesError as exc:
                    return str(exc)
            case Key.COMPUTER_DICE:
                turn.computer_dice = bool(value)
            case Key.VOICE:
                self.ctx.prefs.voice = bool(value)
                self.ctx.save_prefs()
            case Key.THINK:
                turn.think = int(value)
            case Key.SINGLE:
                turn.single = int(value)
        return None

    def start(self, now: float) -> None:
        turn = self.turn
        seats = SEATS_BY_PLAYERS[self.players]
        turn.reset()
        turn.lot = ()
        if self.first == LOT:
            turn.lot = lot_rounds(seats, lambda: self.ctx.rng.randint(1, 6))
            first = max(turn.lot[-1], key=lambda cv: cv[1])[0]
        else:
            first = self.first if isinstance(self.first, int) and self.first in seats else seats[0]
        setup = Setup(self.players, first, self.deck_mode, self.board_file, self.deck_file)
        problem = self._files_problem()
        if problem is not None:
            turn.error = problem
            turn.mode = Mode.ERROR
            return
        turn.seats_computer = frozenset(c for c in self.computer if c in seats)
        turn.game_levels = {c: self.levels.get(c, DEFAULT_LEVEL) for c in turn.seats_computer}
        turn.game_id = f"{self.ctx.rng.getrandbits(48):012x}"
        extra: Record = {"computer": [COLOURS[c] for c in sorted(turn.seats_computer)],
                         "levels": levels_record(turn.game_levels, turn.seats_computer),
                         "lot": [[[COLOURS[c], v] for c, v in r] for r in turn.lot],
                         "think": turn.think, "single": turn.single, "id": turn.game_id,
                         "computer_dice": turn.computer_dice}
        self.play.start(setup, extra)
        turn.kinds = []
        self.lines.clear()
        turn.moved, turn.last_card, turn.last_throws = (), None, ()
        turn.tally.record(turn.game_id, turn.state.drunk)
        if turn.state.phase is Phase.SHUFFLE:
            order = list(range(len(turn.state.rules.deck.cards)))
            self.ctx.rng.shuffle(order)
            turn.commit(GAME.chance_action(turn.state, order), now, announce=False)
        self.event_line = f"Nová hra, začíná {PLAYER_LOWER[first]}."
        if turn.lot:
            self.event_line = ""  # the lot says it
            turn.mode = Mode.LOT
            turn.lot_shown = 0
            turn.timers = {Timer.LOT: now + LOT_STEP}
        else:
            turn.begin_play(now)

    def _files_problem(self) -> tuple[str, str] | None:
        """Why the chosen board or deck file cannot be played with (a title and the
        validator's sentence), or ``None``."""
        for what, setup in (("Plán", Setup(board_file=self.board_file)),
                            ("Balíček", Setup(deck_file=self.deck_file))):
            try:
                load_rules(setup)
            except RulesError as exc:
                return f"{what} nejde použít", str(exc)
        return None

    def resume(self, records: list[Record], now: float) -> bool:
        turn = self.turn
        turn.reset()
        used = self.replay(records)
        if used is None:
            return False
        header = records[0]
        try:
            turn.seats_computer = frozenset(colour_index(c) for c in header.get("computer", ()))
            turn.lot = tuple(tuple((colour_index(c), int(v)) for c, v in r)
                             for r in header.get("lot", ()))
            turn.think = int(header.get("think", 0))
            turn.single = int(header.get("single", 0))
            turn.computer_dice = header.get("computer_dice") is True
        except (RulesError, TypeError, ValueError):
            log.warning("the header's computer seats, lot or time limit are unreadable")
        read = levels_from_record(header.get("levels"))
        turn.game_levels = {c: read.get(c, DEFAULT_LEVEL) for c in turn.seats_computer}
        self.levels.update(turn.game_levels)
        setup = self.play.setup  # "Nová hra" starts from the set-up of the game resumed
        if setup is not None:
            self.players, self.computer = setup.players, set(turn.seats_computer)
            self.deck_mode = setup.deck_mode
            self.board_file, self.deck_file = setup.board_file, setup.deck_file
            self.first = LOT if turn.lot else (setup.first or 0)
        turn.game_id = str(header.get("id", "")) or hashlib.sha256(
            json.dumps(header, sort_keys=True).encode("utf-8")).hexdigest()[:12]
        turn.kinds = [str(r.get("t")) for r in records[1:used]]
        turn.moved, turn.last_card, turn.last_throws = (), None, ()
        turn.mode = Mode.OVER if turn.state.winner is not None else Mode.PLAY
        turn.tally.record(turn.game_id, turn.state.drunk)
        turn.show_waiting(now)
        turn.arm(now)
        return True

    def stop(self) -> None:
        self.turn.timers.clear()
        self.turn.queue.clear()
        self.turn.shown = None

    # --- the inputs and the clock --------------------------------------------------------------

    def handle(self, event: Input, now: float) -> Outcome:
        return inputs.handle(self.turn, event, now)

    def leave(self, now: float) -> bool:
        return inputs.leave(self.turn, now)

    def tick(self, now: float) -> None:
        self.turn.tick(now)

    def next_deadline(self) -> float | None:
        return self.turn.next_deadline()

    def animated(self) -> bool:
        return self.turn.mode is not Mode.IDLE

    def expects(self) -> Expect | None:
        """What the table should do next (see :class:`~.base.Expect`)."""
        return self.turn.expects()

    # --- the shell's menu ----------------------------------------------------------------------

    def undo_preview(self) -> tuple[str, str] | None:
        """What undo would take back, for the shell's question ("Vrátit hod 5?")."""
        if not self.play.started or all(k == "shuffle" for k in self.turn.kinds):
            return None
        records = self.ctx.journal.load()
        if len(records) <= 1:
            return None
        last = records[-1]
        kind = str(last.get("t"))
        if kind == "throw":
            return (f"Vrátit hod {last.get('v')}?",
                    "Ten hod se smaže a hází se znovu; figurky na desce vrať, pokud se hýbaly.")
        what = UNDONE.get(kind, "akce")
        return ("Vrátit?", f"Vezme se zpět poslední akce: {what}. Hra bude, jako by nebyla.")

    def undo(self, now: float) -> bool:
        if self.play.started and all(k == "shuffle" for k in self.turn.kinds):
            self.event_line = NOTHING_TO_UNDO  # the companion's shuffle is not the table's
            return False
        return super().undo(now)

    def undone_words(self, record: Record) -> str:
        kind = str(record.get("t"))
        return f"hod {record.get('v')}" if kind == "throw" else UNDONE.get(kind, "akce")

    def undone(self, record: Record, now: float) -> None:
        turn = self.turn
        turn.kinds.pop()
        turn.moved = ()
        turn.mode = Mode.PLAY
        turn.think_fired = False
        turn.asked = None
        turn.tally.record(turn.game_id, turn.state.drunk)
        turn.show_waiting(now)  # what the undone answer had answered is asked again
        turn.arm(now)

    def hint(self) -> str:
        """The shell's "Nápověda": what the strong level would do now - the play in the words
        of the play screen and one reason, the card's answer, or declaring the bottle - or why
        there is nothing to advise.  Only asked, never shown by itself; nothing is journaled
        or chosen by asking."""
        turn = self.turn
        if not turn.in_game:
            return "Žádná hra neběží."
        if turn.state.winner is not None:
            return "Hra skončila."
        if turn.mode is not Mode.PLAY:
            return "Teď není co radit."
        who = turn.actor()
        if turn.is_computer(who):
            return "Teď hraje počítač."
        return advice(turn.state, who)

    def menu_items(self) -> Sequence[tuple[str, str]]:
        if not self.turn.in_game or self.turn.mode is Mode.LOT:
            return ()
        return ((Menu.LEDGER, "Dluhy"), (Menu.DUTY, "Povinnost napít se"), (Menu.TALLY, "Účet"))

    def on_menu(self, key: str, now: float) -> None:
        self.turn.list_index = 0
        match key:
            case Menu.LEDGER:
                self.turn.mode = Mode.LEDGER
            case Menu.DUTY:
                self.turn.mode = Mode.DUTY_WHO
            case Menu.TALLY:
                self.turn.mode = Mode.TALLY

    def why(self) -> str | None:
        """The rules browser's "Proč?": why each piece may or may not take each thrown value
        (or why a throw now would not count)."""
        if not self.play.started or self.turn.mode is not Mode.PLAY:
            return None
        return why_words(self.turn.state)

    # --- what the phone, the robot and the tests ask -------------------------------------------

    def facts(self) -> NapijFacts | None:
        """The state, the last play's fields, the card drawn last, "Účet" and the event lines."""
        turn = self.turn
        if not turn.in_game:
            return None
        s = turn.state
        return NapijFacts(s, s.throws or turn.last_throws, turn.moved, turn.last_card,
                          turn.tally.tonight(), turn.seats_computer, self.lines.lines(),
                          tuple((c, CZECH[turn.game_levels.get(c, DEFAULT_LEVEL)])
                                for c in sorted(turn.seats_computer)), self.lines.said())

    # --- outputs -------------------------------------------------------------------------------

    def view(self) -> View:
        return self.turn.view()


def advice(s: State, who: int) -> str:
    """The hint for a person to act in a game in play: the strong level's play in the words
    of the play screen and one reason, the card's answer, or declaring the bottle."""
    phase = s.phase
    if phase is Phase.PLAY:
        best = strong_hint(s)
        if best is None:
            return "Teď není co radit."
        lines = move_lines(s, best.play)
        reason = best.reason
        if any(reason in line for line in lines):  # the play's own words say it already
            return "\n".join(lines)
        return "\n".join((*lines, f"{reason[0].upper()}{reason[1:]}."))
    if phase is Phase.CHOOSE:
        answer = card_hint(s)
        if answer is None:
            return "Teď není co radit."
        choice, reason = answer
        return f"{choice_row(s, choice, who)}\n{reason[0].upper()}{reason[1:]}."
    if phase is Phase.THROW:
        if s.due(who):
            return "Nejdřív vypij, co dlužíš, pak hoď."
        if strong(s) is not None:
            return ("Zahraj tento tah lahví: před ní stojí figurky soupeřů a žádná tvoje.")
        return "Nejdřív hoď kostkou, pak poradím tah."
    return "Vezmi kartu z balíčku a zadej její číslo."


def why_words(s: State) -> str | None:
    """"Proč?" in a game in play: why a throw now would not count (a debt due), or why each
    piece may or may not take each thrown value."""
    c = s.turn
    if s.phase is Phase.THROW and s.due(c):
        return (f"{PLAYER[c]} ještě dluží {s.due(c)} ({debts_text(s.debts_of(c))}). Hod "
                "před vypitím dluhu neplatí a stojí dvě další napití: za švindlování a za "
                "zdržování.")
    if s.phase is not Phase.PLAY:
        return None
    return why_text(s)
