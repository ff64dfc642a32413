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
:mod:`.napij_drinks`); a player who owes is asked to drink at the start of the
turn, a throw before that is void.  The dice's drop is the "dropped the die"
duty, called by itself; the other table duties come from the menu; the
optional thinking timer calls the delay duty.  Decisions are in
docs/players/table.md (*Člověče, napij se! at the table*).

The host is built in layers, each its own module: the turn's state machine
(:mod:`.napij_turn`: the journaled game, modes, timers, what is on show), the
inputs in each mode (:mod:`.napij_inputs`), the screen builder
(:mod:`.napij_screen`); this module adds the set-up, resume, undo, the menu,
"Proč?", the hint, the phone's facts and what the table is expected to do.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS, colour_index
from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.games.napij.engine.actions import Play
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.game import DEFAULT, GAME, Setup, load_rules
from companion.games.napij.engine.places import choice_row, move_lines, why_text
from companion.games.napij.engine.state import DeckMode, Phase, State
from companion.games.napij.facts import NapijFacts
from companion.games.napij.hint import card_hint
from companion.games.napij.hint import hint as strong_hint
from companion.games.napij.inputs import NapijInputs
from companion.games.napij.levels import strong
from companion.games.napij.panel import NapijScreen
from companion.games.napij.turn import (
    ASK_GRACE,
    COMPUTER_DELAY,
    LOT_STEP,
    OLDER_KEYS,
    Mode,
    Timer,
    lot_rounds,
)
from companion.games.napij.views import Move, NapijView
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
from companion.service.hosts.host import NOTHING_TO_UNDO
from companion.ui.views import View

__all__ = ["ASK_GRACE", "COMPUTER_DELAY", "LOT_STEP", "Mode", "NapijHost", "Timer", "lot_rounds"]
"""What the tests and the every-screen walk take from here (the turn's own names among them)."""

log = logging.getLogger(__name__)

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


def _files(folder: Path | None, sub: str) -> tuple[str, ...]:
    """A family's own files (``*.toml`` in ``folder/sub``), as paths."""
    if folder is None:
        return ()
    try:
        return tuple(str(p) for p in sorted((folder / sub).glob("*.toml")) if p.is_file())
    except OSError:
        return ()


class NapijHost(NapijInputs):
    title = "Napij se"

    def __init__(self, ctx: HostContext, table: str = "") -> None:
        super().__init__(ctx)
        d = setup_defaults(ctx, GAME.name, OLDER_KEYS)
        self.computer = {COLOURS.index(c) for c in d.get("computer", ()) if c in COLOURS}
        self.levels: dict[int, Level] = levels_from_record(d.get("levels"))
        """The set-up's level of each seat the computer would play."""
        self.first: int | str = "lot" if d.get("first") == "lot" else 0
        self.deck_mode = DeckMode.VIRTUAL
        self.board_file = DEFAULT
        self.deck_file = DEFAULT
        self.screen = NapijScreen(self)

    # --- set-up --------------------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        seats = SEATS_BY_PLAYERS[self.players]
        opts = seat_options(self.players, self.computer, self.levels)
        first = self.first if self.first == "lot" or self.first in seats else seats[0]
        if any(c in self.computer for c in seats):
            opts.append(computer_throws_option(self.computer_dice))
        opts.append(Option("first", "Začíná", (*seats, "lot"),
                           (*(PLAYER_LOWER[c] for c in seats), "los"), first))
        opts.append(Option("deck", "Karty", (DeckMode.VIRTUAL, DeckMode.PHYSICAL),
                           ("na displeji", "papírové"), self.deck_mode))
        boards = _files(self.ctx.data, BOARDS)
        opts.append(Option("board", "Plán", (DEFAULT, *boards),
                           ("výchozí", *(Path(b).stem for b in boards)), self.board_file))
        decks = _files(self.ctx.data, DECKS)
        opts.append(Option("cards", "Balíček", (DEFAULT, *decks),
                           ("výchozí", *(Path(b).stem for b in decks)), self.deck_file))
        opts.append(Option("voice", "Hlas", (False, True), ("vypnutý", "zapnutý"),
                           self.ctx.prefs.voice))
        opts.append(Option("think", "Čas na tah", THINK_LIMITS,
                           tuple("bez limitu" if s == 0 else f"{s} s" for s in THINK_LIMITS),
                           self.think))
        opts.append(Option("single", "Jediný tah", SINGLE_DELAYS,
                           tuple("čeká na ●" if s == 0 else f"sám po {s} s"
                                 for s in SINGLE_DELAYS), self.single))
        return opts

    def set_option(self, key: str, value: Any) -> str | None:
        seat = set_seat_option(key, value, self.players, self.computer)
        if seat is not None:
            self.players, self.computer, word = seat
            level = seat_level(value) if key.startswith("seat:") else None
            if level is not None:
                self.levels[int(key[5:])] = level
            return word
        if key == "first":
            self.first = "lot" if value == "lot" else int(value)
        elif key == "deck":
            self.deck_mode = DeckMode(value)
        elif key in ("board", "cards"):
            if key == "board":
                self.board_file = str(value)
            else:
                self.deck_file = str(value)
            try:
                load_rules(Setup(board_file=self.board_file, deck_file=self.deck_file))
            except RulesError as exc:
                return str(exc)
        elif key == "computer_dice":
            self.computer_dice = bool(value)
        elif key == "voice":
            self.ctx.prefs.voice = bool(value)
            self.ctx.save_prefs()
        elif key == "think":
            self.think = int(value)
        elif key == "single":
            self.single = int(value)
        return None

    def start(self, now: float) -> None:
        seats = SEATS_BY_PLAYERS[self.players]
        self._reset()
        self.lot = ()
        if self.first == "lot":
            self.lot = lot_rounds(seats, lambda: self.ctx.rng.randint(1, 6))
            first = max(self.lot[-1], key=lambda cv: cv[1])[0]
        else:
            first = self.first if isinstance(self.first, int) and self.first in seats else seats[0]
        setup = Setup(self.players, first, self.deck_mode, self.board_file, self.deck_file)
        problem = self._files_problem()
        if problem is not None:
            self.error = problem
            self.mode = Mode.ERROR
            return
        self.seats_computer = frozenset(c for c in self.computer if c in seats)
        self.game_levels = {c: self.levels.get(c, DEFAULT_LEVEL) for c in self.seats_computer}
        self.game_id = f"{self.ctx.rng.getrandbits(48):012x}"
        extra: Record = {"computer": [COLOURS[c] for c in sorted(self.seats_computer)],
                         "levels": levels_record(self.game_levels, self.seats_computer),
                         "lot": [[[COLOURS[c], v] for c, v in r] for r in self.lot],
                         "think": self.think, "single": self.single, "id": self.game_id,
                         "computer_dice": self.computer_dice}
        self.play.start(setup, extra)
        self.kinds = []
        self.lines.clear()
        self.moved, self.last_card, self.last_throws = (), None, ()
        self.tally.record(self.game_id, self.state.drunk)
        if self.state.phase is Phase.SHUFFLE:
            order = list(range(len(self.state.rules.deck.cards)))
            self.ctx.rng.shuffle(order)
            self._commit(GAME.chance_action(self.state, order), now, announce=False)
        self.event_line = f"Nová hra, začíná {PLAYER_LOWER[first]}."
        if self.lot:
            self.event_line = ""  # the lot says it
            self.mode = Mode.LOT
            self.lot_shown = 0
            self.timers = {Timer.LOT: now + LOT_STEP}
        else:
            self._begin_play(now)

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
        self._reset()
        used = self.replay(records)
        if used is None:
            return False
        header = records[0]
        try:
            self.seats_computer = frozenset(colour_index(c) for c in header.get("computer", ()))
            self.lot = tuple(tuple((colour_index(c), int(v)) for c, v in r)
                             for r in header.get("lot", ()))
            self.think = int(header.get("think", 0))
            self.single = int(header.get("single", 0))
            self.computer_dice = header.get("computer_dice") is True
        except (RulesError, TypeError, ValueError):
            log.warning("the header's computer seats, lot or time limit are unreadable")
        read = levels_from_record(header.get("levels"))
        self.game_levels = {c: read.get(c, DEFAULT_LEVEL) for c in self.seats_computer}
        self.levels.update(self.game_levels)
        setup = self.play.setup  # "Nová hra" starts from the set-up of the game resumed
        if setup is not None:
            self.players, self.computer = setup.players, set(self.seats_computer)
            self.deck_mode = setup.deck_mode
            self.board_file, self.deck_file = setup.board_file, setup.deck_file
            self.first = "lot" if self.lot else (setup.first or 0)
        self.game_id = str(header.get("id", "")) or hashlib.sha256(
            json.dumps(header, sort_keys=True).encode("utf-8")).hexdigest()[:12]
        self.kinds = [str(r.get("t")) for r in records[1:used]]
        self.moved, self.last_card, self.last_throws = (), None, ()
        self.mode = Mode.OVER if self.state.winner is not None else Mode.PLAY
        self.tally.record(self.game_id, self.state.drunk)
        self._show_waiting(now)
        self.arm(now)
        return True

    def stop(self) -> None:
        self.timers.clear()
        self.queue.clear()
        self.shown = None

    # --- the shell's menu ----------------------------------------------------------------------

    def undo_preview(self) -> tuple[str, str] | None:
        """What undo would take back, for the shell's question ("Vrátit hod 5?")."""
        if not self.play.started or all(k == "shuffle" for k in self.kinds):
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
        if self.play.started and all(k == "shuffle" for k in self.kinds):
            self.event_line = NOTHING_TO_UNDO  # the companion's shuffle is not the table's
            return False
        return super().undo(now)

    def undone_words(self, record: Record) -> str:
        kind = str(record.get("t"))
        return f"hod {record.get('v')}" if kind == "throw" else UNDONE.get(kind, "akce")

    def undone(self, record: Record, now: float) -> None:
        self.kinds.pop()
        self.moved = ()
        self.mode = Mode.PLAY
        self.think_fired = False
        self.asked = None
        self.tally.record(self.game_id, self.state.drunk)
        self._show_waiting(now)  # what the undone answer had answered is asked again
        self.arm(now)

    def hint(self) -> str:
        """The shell's "Nápověda": what the strong level would do now - the play in the words
        of the play screen and one reason, the card's answer, or declaring the bottle - or why
        there is nothing to advise.  Only asked, never shown by itself; nothing is journaled
        or chosen by asking."""
        if not self.in_game:
            return "Žádná hra neběží."
        s = self.state
        if s.winner is not None:
            return "Hra skončila."
        if self.mode is not Mode.PLAY:
            return "Teď není co radit."
        who = self.actor()
        if self.is_computer(who):
            return "Teď hraje počítač."
        phase = s.phase
        if phase is Phase.PLAY:
            advice = strong_hint(s)
            if advice is None:
                return "Teď není co radit."
            lines = move_lines(s, advice.play)
            reason = advice.reason
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

    def menu_items(self) -> Sequence[tuple[str, str]]:
        if not self.in_game or self.mode is Mode.LOT:
            return ()
        return (("ledger", "Dluhy"), ("duty", "Povinnost napít se"), ("tally", "Účet"))

    def on_menu(self, key: str, now: float) -> None:
        self.list_index = 0
        if key == "ledger":
            self.mode = Mode.LEDGER
        elif key == "duty":
            self.mode = Mode.DUTY_WHO
        elif key == "tally":
            self.mode = Mode.TALLY

    def why(self) -> str | None:
        """The rules browser's "Proč?": why each piece may or may not take each thrown value
        (or why a throw now would not count)."""
        if not self.play.started or self.mode is not Mode.PLAY:
            return None
        s = self.state
        c = s.turn
        if s.phase is Phase.THROW and s.due(c):
            return (f"{PLAYER[c]} ještě dluží {s.due(c)} ({debts_text(s.debts_of(c))}). Hod "
                    "před vypitím dluhu neplatí a stojí dvě další napití: za švindlování a za "
                    "zdržování.")
        if s.phase is not Phase.PLAY:
            return None
        return why_text(s)

    # --- what the phone, the robot and the tests ask -------------------------------------------

    def facts(self) -> NapijFacts | None:
        """The state, the last play's fields, the card drawn last, "Účet" and the event lines."""
        if not self.in_game:
            return None
        s = self.state
        return NapijFacts(s, s.throws or self.last_throws, self.moved, self.last_card,
                          self.tally.tonight(), self.seats_computer, self.lines.lines(),
                          tuple((c, CZECH[self.game_levels.get(c, DEFAULT_LEVEL)])
                                for c in sorted(self.seats_computer)), self.lines.said())

    def expects(self) -> Expect | None:
        """What the table should do next (see :class:`~.base.Expect`)."""
        if self.mode is Mode.ERROR or self.shown is not None:
            return Expect.CONFIRM
        if self.mode is Mode.LOT:
            return Expect.WAIT
        if self.mode in (Mode.OVER, Mode.TALLY):
            return Expect.OVER
        if self.mode is not Mode.PLAY or not self.play.started:
            return None
        if self.opening:
            return Expect.CONFIRM
        s = self.state
        who = self.actor()
        computer = self.is_computer(who)
        if self.timers.keys() & {Timer.READ, Timer.AUTO, Timer.COMPUTER}:
            return Expect.WAIT
        phase = s.phase
        if phase is Phase.THROW:
            if s.due(who):
                return Expect.WAIT if computer else Expect.CONFIRM
            if computer and self.computer_throws():
                return Expect.WAIT
            if self.ctx.dice.usable:
                return Expect.ROLL
            return Expect.CHOOSE
        if phase is Phase.PLAY and len(self.plays()) == 1:
            return Expect.CONFIRM
        if phase in (Phase.PLAY, Phase.CHOOSE):
            return Expect.CONFIRM if computer else Expect.CHOOSE
        return Expect.CHOOSE  # a physical card to enter

    def animated(self) -> bool:
        return self.mode is not Mode.IDLE

    # --- outputs -------------------------------------------------------------------------------

    def view(self) -> View:
        return self.screen.view()

    def _view(self) -> NapijView:
        return self.screen.play_view()

    def _shown_view(self) -> View:
        return self.screen.view()

    def _moves(self, s: State, play: Play) -> tuple[Move, ...]:
        return self.screen.moves(s, play)
