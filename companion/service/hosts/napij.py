"""Člověče, napij se! at the table: set-up, the turn in words, cards, drinks, computer seats.

The game is the protocol game of :mod:`companion.engines.napij.game`, kept in its
journal by :class:`~.base.JournaledGame`: every throw, play, card choice, drawn
card, drink and called duty is on disk before the screen shows it, so a pulled
plug loses nothing and undo takes back any of them.  The header keeps what the
engine does not know: the computer seats, the lot for who starts, the
thinking-time limit and the game's id (for "Účet").

The 80-field board does not fit the OLED: a turn screen says each legal play
in words a player can act on at the real board (:mod:`companion.engines.napij.places`)
with a strip map of the fields along the way.  Every drinking duty is
announced three ways at once (a banner, a buzzer pattern, a spoken sentence:
:mod:`.napij_drinks`); a player who owes is asked to drink at the start of the
turn, a throw before that is void.  The dice's drop is the "dropped the die"
duty, called by itself; the other table duties come from the menu; the
optional thinking timer calls the delay duty.  Decisions are in
docs/service.md (*Člověče, napij se! at the table*).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import textwrap
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS, colour_index
from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.engines.napij.actions import (
    Action,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Play,
    Step,
    Throw,
)
from companion.engines.napij.deck import OFFER_EFFECTS
from companion.engines.napij.describe import debts_text
from companion.engines.napij.events import (
    CardDrawn,
    Event,
    ThrowAgain,
    Thrown,
    TurnPassed,
    Won,
)
from companion.engines.napij.game import DEFAULT, GAME, Setup, load_rules
from companion.engines.napij.places import (
    choice_row,
    headline,
    move_lines,
    moved_fields,
    pieces_line,
    step_path,
    why_text,
)
from companion.engines.napij.playout import occupancy
from companion.engines.napij.reasons import Why
from companion.engines.napij.rules import (
    Choice,
    can_declare_bottle,
    choices,
    chooser,
    legal_plays,
    needs_six,
)
from companion.engines.napij.state import BOTTLE, PUB, DeckMode, DrinkReason, Phase, State
from companion.inputs.events import ButtonPress, DiceLink, Dropped, Input, Rolled
from companion.players.napij_bot import decide
from companion.ui.controls import cycle
from companion.ui.fonts import body_font
from companion.ui.napij_views import BOTTLE as BOTTLE_CELL
from companion.ui.napij_views import Cell, Move, NapijView, Row, Strip
from companion.ui.screens import wrap
from companion.ui.views import MessageView, View

from ..journal import JournalError
from .base import (
    NOT_COUNTED,
    RETRY_AFTER,
    EventLines,
    Expect,
    HostContext,
    JournaledGame,
    Option,
    Request,
    dice_line,
    seat_options,
    set_seat_option,
)
from .facts import NapijFacts
from .napij_drinks import Tally, debt_sentence
from .napij_pace import computer_order, prompt_of_play, ready_after, spoken_play
from .napij_shown import Shown, after_action, waiting

log = logging.getLogger(__name__)

COMPUTER_DELAY = 1.0
"""Seconds before the companion throws, drinks or declares the bottle for a computer seat."""
ASK_GRACE = 2.0
"""Seconds the debt must have been asked for (on screen, and spoken) before a throw is void:
a throw sooner is not counted at all (D45)."""
SINGLE_DELAYS = (0, 2, 3, 5)
"""The set-up's "Jediný tah": 0 waits for ●, else seconds after the play was shown and said."""
READ_POLL = 0.25
"""Seconds between looks at whether the voice has finished saying the play."""
LOT_STEP = 0.8
"""Seconds between the lot's throws as they appear."""
LOT_END = 2.0
THINK_LIMITS = (0, 30, 60, 90, 120)
"""The thinking-time limits the set-up offers, seconds (0: off)."""
PAUSE_GAP = 1.0
"""A gap between two ticks longer than this means the shell showed something else (the loop
ticks 4 times a second while the game is on screen): the thinking time stops meanwhile."""
TEXT_WIDTH = 120
"""Pixels a wrapped text may take on a napij screen (room for the page marks ▲ ▼)."""
STRIP_MAX = 16
"""Cells of a strip map (128 pixels)."""
BOARDS, DECKS = "boards", "decks"
"""Folders of a family's own board and deck files in the data folder."""
DUTY_WORDS = ((DrinkReason.DROPPED_DICE, "shodil kostku"), (DrinkReason.DELAY, "zdržuje"),
              (DrinkReason.CHEATING, "švindluje"), (DrinkReason.UPSET, "rozčiluje se"))
UNDONE = {"throw": "hod", "play": "tah", "drank": "vypití", "duty": "povinnost napít se",
          "choose": "volba karty", "offer": "nabídka", "decline": "odmítnutí",
          "draw": "karta", "bottle": "láhev", "shuffle": "míchání", "later": "napití později",
          "throw-owing": "hod bez vypití"}

class Mode(StrEnum):
    IDLE = "idle"  # no game yet
    ERROR = "error"  # the game could not start (a board or deck file): say why
    LOT = "lot"  # the companion throws for each seat: who starts
    PLAY = "play"
    OVER = "over"
    LEDGER = "ledger"  # the drink ledger: who owes what; ● on a player: drank
    DUTY_WHO = "duty-who"  # calling a table duty: whom
    DUTY_WHY = "duty-why"  # ... and what for
    TALLY = "tally"  # "Účet"


class Timer(StrEnum):
    READ = "read"  # the play on show has been shown whole and said: its pause may begin
    AUTO = "auto"  # the play on show is taken by itself ("Jediný tah", "PC potvrdí sám")
    COMPUTER = "computer"  # the companion acts for a computer seat
    LOT = "lot"  # the next throw of the lot appears
    THINK = "think"  # the player to act has thought too long: the delay duty


def _files(folder: Path | None, sub: str) -> tuple[str, ...]:
    """A family's own files (``*.toml`` in ``folder/sub``), as paths."""
    if folder is None:
        return ()
    try:
        return tuple(str(p) for p in sorted((folder / sub).glob("*.toml")) if p.is_file())
    except OSError:
        return ()


def lot_rounds(seats: Sequence[int], throw: Callable[[], int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Who starts, by lot: everybody throws once, the highest wins, a tie throws again among
    the tied. Returns the rounds of (colour, value)."""
    rounds = []
    contenders = list(seats)
    while True:
        thrown = tuple((c, throw()) for c in contenders)
        rounds.append(thrown)
        top = max(v for _, v in thrown)
        contenders = [c for c, v in thrown if v == top]
        if len(contenders) == 1:
            return tuple(rounds)


class NapijHost:
    title = "Napij se"

    def __init__(self, ctx: HostContext, table: str = "") -> None:
        self.ctx = ctx
        d = ctx.defaults
        self.players = int(d.get("players", 4))
        self.computer = {COLOURS.index(c) for c in d.get("computer", ()) if c in COLOURS}
        self.first: int | str = "lot" if d.get("first") == "lot" else 0
        self.deck_mode = DeckMode.VIRTUAL
        self.board_file = DEFAULT
        self.deck_file = DEFAULT
        self.think = 0
        self.single = 0
        """The set-up's "Jediný tah": seconds before a person's only play is taken by itself
        (0: it waits for ●, the default, D47)."""
        self.play: JournaledGame[State, Action, Event, Setup] = JournaledGame(
            GAME, ctx.journal)
        self.mode = Mode.IDLE
        self.error: tuple[str, str] = ("", "")
        self.kinds: list[str] = []
        """The kinds of the journal's records after the header (``throw``, ``play``...)."""
        self.seats_computer: frozenset[int] = frozenset()
        self.lot: tuple[tuple[tuple[int, int], ...], ...] = ()
        self.lot_shown = 0
        self.game_id = ""
        self.selected = 0
        self.manual = 1
        """The throw entered with ◀ ▶ while the dice is missing (7: declare the bottle)."""
        self.card_index = 0
        self.card_confirm = False
        self.lines = EventLines()
        """The latest event lines (the phone view lists them)."""
        self._event_line = ""
        self.moved: tuple[str, ...] = ()
        """The fields the last play left and reached (the phone view rings them)."""
        self.last_card: int | None = None
        """The number of the card drawn last."""
        self.last_throws: tuple[int, ...] = ()
        """The throws of the last turn played (the state forgets them once played)."""
        self.list_index = 0
        self.duty_colour = 0
        self.shown: Shown | None = None
        self.queue: deque[Shown] = deque()
        self.timers: dict[Timer, float] = {}
        self.think_fired = False
        self.asked: tuple[int, int] | None = None
        """The debt ask already shown and spoken: (colour, actions so far)."""
        self.asked_at = 0.0
        self.bottle_ask = False
        """▶ on the throw screen asks whether to play this turn with the bottle."""
        self.order: list[Play] = []
        """A computer seat's plays, its own choice first (◀ ▶ show the others)."""
        self._tally: Tally | None = None
        self._last_tick: float | None = None

    # --- set-up ---------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        seats = SEATS_BY_PLAYERS[self.players]
        opts = seat_options(self.players, self.computer)
        first = self.first if self.first == "lot" or self.first in seats else seats[0]
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
        self.game_id = f"{self.ctx.rng.getrandbits(48):012x}"
        extra: Record = {"computer": [COLOURS[c] for c in sorted(self.seats_computer)],
                         "lot": [[[COLOURS[c], v] for c, v in r] for r in self.lot],
                         "think": self.think, "single": self.single, "id": self.game_id}
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

    def _begin_play(self, now: float) -> None:
        if self.mode is Mode.LOT:
            self.event_line = f"Los rozhodl: začíná {PLAYER_LOWER[self.state.turn]}."
        self.mode = Mode.PLAY
        self._show_waiting(now)  # the opening toast, for everybody
        self.arm(now)

    def _show_waiting(self, now: float) -> None:
        """Show again what still waits for its answer (a new game's toast, after a resume
        or an undo): the duties not answered yet."""
        self.queue = deque(waiting(self.state))
        self.shown = None
        if self.queue:
            self._next_shown(now)

    def resume(self, records: list[Record], now: float) -> bool:
        self._reset()
        try:
            used = self.play.resume(records)
        except RulesError as exc:
            log.error("journal %s cannot be replayed (%s); starting at the set-up",
                      self.ctx.journal.path, exc)
            return False
        header = records[0]
        try:
            self.seats_computer = frozenset(colour_index(c) for c in header.get("computer", ()))
            self.lot = tuple(tuple((colour_index(c), int(v)) for c, v in r)
                             for r in header.get("lot", ()))
            self.think = int(header.get("think", 0))
            self.single = int(header.get("single", 0))
        except (RulesError, TypeError, ValueError):
            log.warning("the header's computer seats, lot or time limit are unreadable")
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

    def _reset(self) -> None:
        self.timers = {}
        self.queue.clear()
        self.shown = None
        self.selected = 0
        self.manual = 1
        self.card_index = 0
        self.card_confirm = False
        self.think_fired = False
        self.asked = None
        self.bottle_ask = False
        self.order = []
        self.error = ("", "")

    # --- the game in play ---------------------------------------------------------------

    @property
    def event_line(self) -> str:
        """One line: what just happened (kept in :attr:`lines` too)."""
        return self._event_line

    @event_line.setter
    def event_line(self, line: str) -> None:
        self._event_line = line
        self.lines.add(line)

    def facts(self) -> NapijFacts | None:
        """The state, the last play's fields, the card drawn last, "Účet" and the event lines."""
        if not self.in_game:
            return None
        s = self.state
        return NapijFacts(s, s.throws or self.last_throws, self.moved, self.last_card,
                          self.tally.tonight(), self.seats_computer, self.lines.lines())

    @property
    def tally(self) -> Tally:
        if self._tally is None:
            self._tally = Tally(self.ctx.data)
        return self._tally

    @property
    def state(self) -> State:
        return self.play.current()

    @property
    def in_game(self) -> bool:
        return self.mode not in (Mode.IDLE, Mode.ERROR) and self.play.started

    @property
    def opening(self) -> bool:
        """The opening toast is not answered yet (nobody throws before it is)."""
        return self.play.started and any(d.reason is DrinkReason.START
                                         for d in self.state.unanswered())

    def actor(self) -> int:
        """The colour whose move the table waits for (the chooser, the drawer, or the player on
        turn)."""
        s = self.state
        if s.phase is Phase.CHOOSE:
            who = chooser(s)
            return s.turn if who is None else who
        if s.phase is Phase.DRAW and s.queue:
            return s.queue[0][0]
        return s.turn

    def is_computer(self, colour: int) -> bool:
        return colour in self.seats_computer

    def plays(self) -> list[Play]:
        """The legal plays in the order they are shown (a computer seat's choice first)."""
        s = self.state
        if s.phase is not Phase.PLAY:
            return []
        plays = legal_plays(s)
        if len(self.order) == len(plays) and set(self.order) == set(plays):
            return self.order
        return list(plays)

    def card_choices(self) -> list[Choice]:
        return choices(self.state) if self.state.phase is Phase.CHOOSE else []

    def _manual_allowed(self) -> bool:
        s = self.state
        return (self.mode is Mode.PLAY and s.phase is Phase.THROW and not self.ctx.dice.usable
                and not self.is_computer(s.turn) and not self.opening and not s.due(s.turn))

    def arm(self, now: float, *, keep: bool = False) -> None:
        """Set the timers (and the computer's choice) for the state the game is now in;
        ``keep``: the state did not change (the dice came or went), keep what is being picked."""
        for t in (Timer.READ, Timer.AUTO, Timer.COMPUTER, Timer.THINK):
            self.timers.pop(t, None)
        if not keep:
            self.selected = 0
            self.card_index, self.card_confirm = 0, False
            self.bottle_ask = False
        if not self.play.started:
            return
        s = self.state
        if s.winner is not None:
            self.mode = Mode.OVER
            return
        if self.mode in (Mode.OVER, Mode.IDLE, Mode.ERROR):
            self.mode = Mode.PLAY
        if self.mode is Mode.LOT or self.opening:
            return
        who = self.actor()
        computer = self.is_computer(who)
        phase = s.phase
        if phase is Phase.THROW:
            if s.due(who):
                if computer:
                    self.timers[Timer.COMPUTER] = now + COMPUTER_DELAY
                else:
                    self._ask(now)
            elif computer:
                if decide(s) is not None or not self.ctx.dice.usable:
                    self.timers[Timer.COMPUTER] = now + COMPUTER_DELAY
            if s.tries == 0 and not s.throws:
                self.manual = 1
        elif phase is Phase.PLAY:
            plays = legal_plays(s)
            self.order = computer_order(s, plays) if computer else list(plays)
            self._arm_read(now)
        elif phase is Phase.CHOOSE:
            if computer:
                best = decide(s)
                self.selected = next(
                    (i for i, o in enumerate(self.card_choices()) if o == best), 0)
                self._arm_read(now)
        if self.think and not computer and not self.think_fired:
            self.timers[Timer.THINK] = now + self.think

    def _auto_delay(self) -> float:
        """Seconds after which the play or card choice on show is taken by itself once it has
        been read (0: it waits for ●)."""
        s = self.state
        computer = self.is_computer(self.actor())
        if computer and s.phase in (Phase.PLAY, Phase.CHOOSE):
            return self.ctx.prefs.computer_confirm
        if s.phase is Phase.PLAY and len(self.plays()) == 1:
            return float(self.single)
        return 0.0

    def _arm_read(self, now: float) -> None:
        """A play that will be taken by itself: say it, and count its pause once its words
        are shown whole (nothing may cover them) and said (D47)."""
        self.timers.pop(Timer.READ, None)
        self.timers.pop(Timer.AUTO, None)
        if self.shown is not None or self.mode is not Mode.PLAY or self._auto_delay() <= 0:
            return
        view = self._view()
        if view.moves:
            who = self.actor()
            self._say(spoken_play(who, [m.text for m in view.moves], self.is_computer(who)))
        self.timers[Timer.READ] = now + (ready_after(view) if view.moves else 0.0)

    def _ask(self, now: float) -> None:
        """Ask the player on turn for a due debt - on screen (nothing covering it), with the
        voice and a beep - once per turn; a throw counts as void only after that (D45)."""
        s = self.state
        who = s.turn
        if self.shown is not None or self.mode is not Mode.PLAY or s.phase is not Phase.THROW \
                or not s.due(who) or self.is_computer(who) or self.opening:
            return
        key = (who, len(self.kinds))
        if self.asked == key:
            return
        self.asked, self.asked_at = key, now
        self._say(debt_sentence(who, s.debts_of(who)))
        self.ctx.beep("debt")

    # --- actions --------------------------------------------------------------------------

    def _commit(self, action: Action, now: float, *, announce: bool = True,
                think: bool = False) -> list[Event]:
        """Apply an action (journal first), tell the table what happened, set the timers."""
        before = self.state
        try:
            events = self.play.commit(action)
        except RulesError as exc:
            reason = GAME.why_not(self.state, action)
            self.event_line = reason or str(exc)
            self.ctx.beep("illegal")
            log.warning("refused %r: %s", action, exc)
            return []
        self.kinds.append(str(GAME.encode(action)["t"]))
        if isinstance(action, Play):
            self.moved = moved_fields(before, self.state, before.turn)
        thrown = [e.value for e in events if isinstance(e, Thrown)]
        if before.throws and not self.state.throws:
            self.last_throws = before.throws
        if thrown and not self.state.throws:  # a try that failed: the throw still happened
            self.last_throws = (*before.throws, thrown[-1])
        drawn = [e.card for e in events if isinstance(e, CardDrawn)]
        if drawn:
            self.last_card = drawn[-1]
        if not think:
            self.think_fired = False
        s = self.state
        if events:
            line = headline(events, s)
            if line:
                self.event_line = line
        if announce:
            self._announce(before, events, now)
        self.tally.record(self.game_id, s.drunk)
        if any(isinstance(e, Won) for e in events):
            self.mode = Mode.OVER
            self.ctx.beep("win")
        elif any(isinstance(e, ThrowAgain) for e in events):
            self.ctx.beep("six")
        elif any(isinstance(e, TurnPassed) for e in events) and not self.is_computer(s.turn):
            self.ctx.beep("turn")
        self.arm(now)
        return events

    def _announce(self, before: State, events: Sequence[Event], now: float) -> None:
        """The cards and drinks of an action, in the order they happened, each on show until
        it is answered (:mod:`.napij_shown`)."""
        for item in after_action(before, self.state, events):
            self._enqueue(item, now)

    def _enqueue(self, item: Shown, now: float) -> None:
        self.queue.append(item)
        if self.shown is None:
            self._next_shown(now)

    def _next_shown(self, now: float) -> None:
        """Show the next card or drink still to be answered; when none is left, the game's
        own screen comes back: ask for a debt, count a play's pause."""
        while self.queue:
            item = self.queue.popleft()
            if self.play.started and item.live(self.state):
                break
        else:
            item = None
        self.shown = item
        if item is None:
            self._ask(now)
            self._arm_read(now)
            return
        if item.pattern:
            self.ctx.beep(item.pattern)
        if item.sentence:
            self._say(item.sentence)

    def _on_shown(self, name: str, now: float) -> None:
        """A card or a drink on show: ● vypito (or dál), ◀ později where it is offered; any
        other key beeps and changes nothing."""
        shown = self.shown
        assert shown is not None
        if name == "select":
            actions, line = shown.drank, "Na zdraví!"
        elif name == "left" and shown.later:
            actions, line = shown.later, "Napije se později."
        else:
            self.ctx.beep("illegal")
            return
        done = False
        for action in actions:
            if GAME.why_not(self.state, action) is None:
                self._commit(action, now, announce=False)
                done = True
        if done:
            self.event_line = line
        self._next_shown(now)

    def _say(self, text: str) -> None:
        if self.ctx.prefs.voice:
            self.ctx.announcer.say(text)

    def _throw(self, value: int, now: float) -> None:
        """The table's die: a throw, also one made while owing (void, D22), so not through
        the protocol's chance node (which waits for the owing player's decision first)."""
        self._commit(Throw(value), now)

    def _computer_step(self, now: float) -> None:
        s = self.state
        who = self.actor()
        if not self.is_computer(who) or s.phase is not Phase.THROW:
            return
        if s.due(who):
            self._commit(Drank(who), now)
            self.event_line = f"{PLAYER[who]} (počítač) má dluh smazaný."
            return
        action = decide(s)
        if action is not None:
            self._commit(action, now)
        elif not self.ctx.dice.usable:
            self._throw(self.ctx.rng.randint(1, 6), now)

    # --- inputs --------------------------------------------------------------------------

    def handle(self, event: Input, now: float) -> Request | None:
        if isinstance(event, Rolled):
            self._rolled(event.value, now)
        elif isinstance(event, DiceLink):
            self.event_line = dice_line(event.up)
            if not event.up:
                self.ctx.beep("illegal")
            if self.mode is Mode.PLAY:
                self.arm(now, keep=True)
        elif isinstance(event, Dropped):
            if self.play.started and self.mode not in (Mode.OVER, Mode.ERROR, Mode.IDLE):
                who = self.actor()
                self._commit(Duty(who, DrinkReason.DROPPED_DICE), now)
                self.event_line = f"Kostka spadla na zem: {PLAYER_LOWER[who]} se napije."
        elif isinstance(event, ButtonPress):
            if self.shown is not None and self.mode in (Mode.PLAY, Mode.OVER):
                self._on_shown(event.name, now)
                return None
            return self._buttons[self.mode](self, event.name, now)
        return None

    def _rolled(self, value: int, now: float) -> None:
        """A throw of the dice: counted when a throw is wanted and nothing on show waits for
        its answer; made while a due debt is asked for, it is void and costs the penalty -
        but only once the ask has been on screen and said for a moment (D45)."""
        ok = self.mode in (Mode.PLAY, Mode.LEDGER, Mode.DUTY_WHO, Mode.DUTY_WHY, Mode.TALLY) \
            and self.play.started and self.state.phase is Phase.THROW and self.shown is None
        s = self.state if self.play.started else None
        if ok and s is not None and s.due(s.turn):
            asked = self.asked == (s.turn, len(self.kinds)) and now - self.asked_at >= ASK_GRACE
            ok = asked and self.mode is Mode.PLAY and not self.is_computer(s.turn)
        if not ok:
            self._not_counted()
            return
        self.mode = Mode.PLAY
        self._throw(value, now)

    def _not_counted(self) -> None:
        """A throw nobody asked for: always the same sentence and the same beep."""
        self.notify(NOT_COUNTED)
        self.ctx.beep("illegal")

    def _on_idle(self, name: str, now: float) -> Request | None:
        return None

    def _on_error(self, name: str, now: float) -> Request | None:
        if name == "select":
            self.mode = Mode.IDLE
            return Request.SETUP
        self.ctx.beep("illegal")
        return None

    def _on_lot(self, name: str, now: float) -> Request | None:
        if name == "select":
            self._begin_play(now)
        else:
            self.ctx.beep("illegal")
        return None

    def _on_play(self, name: str, now: float) -> Request | None:
        s = self.state
        if self.opening:  # answered on its banner; nothing else moves before it
            self.ctx.beep("illegal")
            return None
        phase = s.phase
        who = self.actor()
        computer = self.is_computer(who)
        if phase is Phase.THROW:
            self._on_throw_phase(name, now, who, computer)
        elif phase is Phase.PLAY:
            self._on_plays(name, now, computer)
        elif phase is Phase.CHOOSE:
            options = self.card_choices()
            if name in ("left", "right") and len(options) > 1 and not computer:
                self.selected = cycle(self.selected, len(options), name)
            elif name == "select" and options:
                self._commit(options[min(self.selected, len(options) - 1)], now)
            else:
                self.ctx.beep("illegal")
        elif phase is Phase.DRAW:
            numbers = s.rules.deck.numbers
            if self.card_confirm:
                if name == "select":
                    self._commit(Draw(numbers[self.card_index]), now)
                elif name == "left":
                    self.card_confirm = False
                else:
                    self.ctx.beep("illegal")
            elif name in ("left", "right"):  # held, ◀ ▶ run (hardware/buttons.py)
                self.card_index = cycle(self.card_index, len(numbers), name)
                if self.ctx.prefs.voice:  # the number said; the next one cuts it short
                    self.ctx.announcer.say(str(numbers[self.card_index]), cut=True)
            elif name == "select":
                self.card_confirm = True
        return None

    def _on_plays(self, name: str, now: float, computer: bool) -> None:
        """◀ ▶ through the plays, ● the one shown.  A computer's play is its first; ◀ ▶ show
        the others (read-only) and ● on one of them first goes back to the computer's."""
        plays = self.plays()
        if name in ("left", "right") and len(plays) > 1:
            self.selected = cycle(self.selected, len(plays), name)
        elif name == "select" and plays:
            if computer and self.selected:
                self.selected = 0  # confirm only what the computer plays, once it is shown
                return
            self._commit(plays[min(self.selected, len(plays) - 1)], now)
        else:
            self.ctx.beep("illegal")

    def _on_throw_phase(self, name: str, now: float, who: int, computer: bool) -> None:
        s = self.state
        if s.due(who):
            if name == "select" and not computer:
                self._commit(Drank(who), now)
                self.event_line = f"{PLAYER[who]} vypil, co dlužil. Teď může házet."
            else:
                self.ctx.beep("illegal")
            return
        bottle = can_declare_bottle(s) is Why.LEGAL and not computer
        if self._manual_allowed():
            top = 7 if bottle else 6
            if name == "left":
                self.manual = (self.manual - 2) % top + 1
            elif name == "right":
                self.manual = self.manual % top + 1
            elif name == "select":
                if self.manual == 7 and bottle:
                    self._commit(DeclareBottle(), now)
                    self.manual = 1
                else:
                    self._throw(min(self.manual, 6), now)
            return
        if self.bottle_ask and bottle:  # "Hrát tento tah lahví? ● ano, ◀ ne"
            if name == "select":
                self._commit(DeclareBottle(), now)
            elif name == "left":
                self.bottle_ask = False
            else:
                self.ctx.beep("illegal")
            return
        if name == "right" and bottle:
            self.bottle_ask = True
        else:  # the dice throws; ● has nothing to confirm here
            self.ctx.beep("illegal")

    def _on_over(self, name: str, now: float) -> Request | None:
        if name == "select":
            self.mode, self.list_index = Mode.TALLY, 0
        else:
            self.ctx.beep("illegal")
        return None

    def _on_ledger(self, name: str, now: float) -> Request | None:
        colours = self.state.colours
        if name in ("left", "right"):
            self.list_index = cycle(self.list_index, len(colours) + 1, name)
        elif name == "select":
            if self.list_index >= len(colours):
                self._back(now)
            else:
                c = colours[self.list_index]
                if self.state.debt(c):
                    self._commit(Drank(c), now)
                    self.mode = Mode.LEDGER
                else:
                    self.ctx.beep("illegal")
        return None

    def _on_duty_who(self, name: str, now: float) -> Request | None:
        colours = self.state.colours
        if name in ("left", "right"):
            self.list_index = cycle(self.list_index, len(colours) + 1, name)
        elif name == "select":
            if self.list_index >= len(colours):
                self._back(now)
            else:
                self.duty_colour = colours[self.list_index]
                self.mode, self.list_index = Mode.DUTY_WHY, 0
        return None

    def _on_duty_why(self, name: str, now: float) -> Request | None:
        if name in ("left", "right"):
            self.list_index = cycle(self.list_index, len(DUTY_WORDS) + 1, name)
        elif name == "select":
            if self.list_index < len(DUTY_WORDS):
                reason = DUTY_WORDS[self.list_index][0]
                self._back(now)
                self._commit(Duty(self.duty_colour, reason), now)
            else:
                self.mode, self.list_index = Mode.DUTY_WHO, 0
        return None

    def _on_tally(self, name: str, now: float) -> Request | None:
        if name == "select":
            if self.state.winner is not None:
                self.mode = Mode.OVER
                return Request.SETUP
            self._back(now)
        else:
            self.ctx.beep("illegal")
        return None

    def _back(self, now: float) -> None:
        self.mode = Mode.OVER if self.state.winner is not None else Mode.PLAY
        self.list_index = 0
        if self.shown is not None and not self.shown.live(self.state):
            self._next_shown(now)  # the ledger settled what the banner asked for

    _buttons: dict[Mode, Callable[[NapijHost, str, float], Request | None]] = {
        Mode.IDLE: _on_idle, Mode.ERROR: _on_error, Mode.LOT: _on_lot, Mode.PLAY: _on_play,
        Mode.OVER: _on_over, Mode.LEDGER: _on_ledger, Mode.DUTY_WHO: _on_duty_who,
        Mode.DUTY_WHY: _on_duty_why, Mode.TALLY: _on_tally,
    }

    # --- time ------------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        gap = 0.0 if self._last_tick is None else max(0.0, now - self._last_tick)
        self._last_tick = now
        paused = self.mode is not Mode.PLAY or self.shown is not None
        if Timer.THINK in self.timers and (paused or gap > PAUSE_GAP):
            self.timers[Timer.THINK] += gap  # reading the rules, the menu or a banner
        for timer, when in sorted(self.timers.items(), key=lambda kv: kv[1]):
            if when > now or self.timers.get(timer) != when:
                continue
            if paused and timer is not Timer.LOT:
                continue  # something waits for its answer, or the ledger is open: wait
            del self.timers[timer]
            try:
                self._fire(timer, now)
            except JournalError:
                self.timers[timer] = now + RETRY_AFTER  # not saved: the same timer tries again
                raise

    def _fire(self, timer: Timer, now: float) -> None:
        if timer is Timer.LOT:
            if self.mode is not Mode.LOT:
                return
            total = sum(len(r) for r in self.lot)
            if self.lot_shown < total:
                self.lot_shown += 1
                self.timers[Timer.LOT] = now + (LOT_STEP if self.lot_shown < total else LOT_END)
            else:
                self._begin_play(now)
            return
        if not self.play.started:
            return
        s = self.state
        if timer is Timer.READ:  # shown whole: the pause begins once the voice has said it
            if self.ctx.prefs.voice and not self.ctx.announcer.wait(0):
                self.timers[Timer.READ] = now + READ_POLL
            else:
                self.timers[Timer.AUTO] = now + self._auto_delay()
        elif timer is Timer.AUTO:
            if s.phase is Phase.PLAY and self.plays():
                self._commit(self.plays()[0], now)
            elif s.phase is Phase.CHOOSE and self.card_choices():
                options = self.card_choices()
                self._commit(options[min(self.selected, len(options) - 1)], now)
        elif timer is Timer.COMPUTER:
            self._computer_step(now)
        elif timer is Timer.THINK and s.winner is None and not self.opening:
            who = self.actor()
            self.think_fired = True
            self._commit(Duty(who, DrinkReason.DELAY), now, think=True)
            self.event_line = f"{PLAYER[who]} přemýšlí moc dlouho."

    def next_deadline(self) -> float | None:
        if self.mode is Mode.LOT:
            return self.timers.get(Timer.LOT)
        if not self.timers or self.mode is not Mode.PLAY or self.shown is not None:
            return None
        return min(self.timers.values())

    def notify(self, line: str) -> None:
        self.event_line = line

    # --- the shell's menu --------------------------------------------------------------------

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
        if not self.play.started or all(k == "shuffle" for k in self.kinds):
            self.event_line = "Není co vrátit."
            return False
        removed = self.play.undo()
        if removed is None:
            self.event_line = "Není co vrátit."
            return False
        self.kinds.pop()
        self.moved = ()
        kind = str(removed.get("t"))
        what = UNDONE.get(kind, "akce")
        if kind == "throw":
            what = f"hod {removed.get('v')}"
        self.event_line = f"Vráceno: {what}."
        self.mode = Mode.PLAY
        self.think_fired = False
        self.asked = None
        self.tally.record(self.game_id, self.state.drunk)
        self._show_waiting(now)  # what the undone answer had answered is asked again
        self.arm(now)
        return True

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

    # --- what the robot and the tests ask ------------------------------------------------------

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
            if self.ctx.dice.usable:
                return Expect.ROLL
            return Expect.WAIT if computer else Expect.CHOOSE
        if phase is Phase.PLAY and len(self.plays()) == 1:
            return Expect.CONFIRM
        if phase in (Phase.PLAY, Phase.CHOOSE):
            return Expect.CONFIRM if computer else Expect.CHOOSE
        return Expect.CHOOSE  # a physical card to enter

    # --- outputs ----------------------------------------------------------------------------

    def animated(self) -> bool:
        return self.mode is not Mode.IDLE

    def view(self) -> View:
        if self.mode is Mode.ERROR:
            text = self.error[1]
            if self.ctx.data is not None:
                text = text.replace(f"{self.ctx.data}{os.sep}", "")
            lines = textwrap.wrap(text, TEXT_WIDTH // 5, break_long_words=True)
            return NapijView(self.error[0], rows=tuple(Row(line) for line in lines),
                             prompt="● zpět k nastavení")
        if not self.play.started:
            return MessageView("Napij se", ("Hra ještě nezačala.",))
        view = self._view()
        shown = self.shown
        if shown is not None and self.mode in (Mode.PLAY, Mode.OVER):
            if shown.card is not None:
                title, card_lines = shown.card
                return NapijView(title, rows=tuple(Row(t) for t in card_lines),
                                 prompt=shown.prompt, event=self.event_line)
            return replace(view, banner=shown.banner, prompt=shown.prompt)
        return view

    def _view(self) -> NapijView:
        s = self.state
        if self.mode is Mode.LOT:
            return self._lot_view()
        if self.mode is Mode.LEDGER:
            rows = tuple(Row(f"{PLAYER[c]:<9}{s.debt(c):>4}{s.drunk[c]:>7}", c)
                         for c in s.colours) + (Row("Zpět"),)
            return NapijView("Dluhy", note="dluží  vypil", rows=rows, selected=self.list_index,
                             prompt="● vypil, co dlužil", event=self._ledger_line())
        if self.mode is Mode.DUTY_WHO:
            rows = tuple(Row(PLAYER[c], c) for c in s.colours) + (Row("Zpět"),)
            return NapijView("Kdo se napije?", rows=rows, selected=self.list_index,
                             prompt="● vybrat", event=self.event_line)
        if self.mode is Mode.DUTY_WHY:
            c = self.duty_colour
            rows = tuple(Row(f"{PLAYER[c]} {w}") for _, w in DUTY_WORDS) + (Row("Zpět"),)
            return NapijView("Za co?", c, rows=rows, selected=self.list_index,
                             prompt="● napije se", event=self.event_line)
        if self.mode is Mode.TALLY:
            return self._tally_view()
        if self.mode is Mode.OVER:
            w = s.winner
            assert w is not None
            return NapijView("Konec hry", rows=(Row(f"Vyhrává {PLAYER_LOWER[w]}!", w),
                                               Row("Ostatní mu připíjí"),
                                               Row("na počest vítězství.")),
                             prompt="● účet", event=self.event_line)
        return self._turn_view(s)

    def _lot_view(self) -> NapijView:
        shown = self.lot_shown
        values: dict[int, list[int]] = {}
        for r in self.lot:
            for c, v in r:
                if shown <= 0:
                    break
                values.setdefault(c, []).append(v)
                shown -= 1
        seats = SEATS_BY_PLAYERS[self.players] if not self.play.started else self.state.colours
        rows = tuple(Row(f"{PLAYER[c]}: {' '.join(str(v) for v in values.get(c, [])) or '…'}", c)
                     for c in seats)
        done = self.lot_shown >= sum(len(r) for r in self.lot)
        first = self.state.turn
        prompt = f"Začíná {PLAYER_LOWER[first]}! ●" if done else "Kdo hodí nejvíc, začíná."
        return NapijView("Los: kdo začne", rows=rows, prompt=prompt, event=self.event_line)

    def _tally_view(self) -> NapijView:
        s = self.state
        game = self.tally.game(self.game_id)
        tonight = self.tally.tonight()
        rows = tuple(Row(f"{PLAYER[c]:<9}{game[c]:>4}{tonight[c]:>7}", c) for c in s.colours)
        back = "● nová hra" if s.winner is not None else "● zpět do hry"
        return NapijView("Účet", note="hra  celkem", rows=rows, prompt=back,
                         event="Celkem: od zapnutí krabičky.")

    def _ledger_line(self) -> str:
        """The ledger's line for the player picked: what they owe and why."""
        colours = self.state.colours
        if self.list_index >= len(colours):
            return self.event_line
        c = colours[self.list_index]
        debts = self.state.debts_of(c)
        if not debts:
            return f"{PLAYER[c]} nic nedluží."
        return f"{PLAYER[c]}: {debts_text(debts)}."

    def _turn_view(self, s: State) -> NapijView:
        who = self.actor()
        computer = self.is_computer(who)
        header = NapijView(PLAYER[who], who, computer, s.throws,
                           "láhev" if s.with_bottle else "", event=self.event_line)
        phase = s.phase
        if phase is Phase.THROW:
            return self._throw_view(s, who, computer, header)
        if phase is Phase.PLAY:
            plays = self.plays()
            sel = min(self.selected, max(0, len(plays) - 1))
            moves = self._moves(s, plays[sel]) if plays else ()
            prompt = prompt_of_play(sel, len(plays), computer=computer,
                                    delay=self._auto_delay())
            return replace(header, moves=moves, prompt=prompt)
        if phase is Phase.CHOOSE:
            return self._choose_view(s, who, computer, header)
        if phase is Phase.DRAW:
            return self._draw_view(s, who, header)
        return header

    def _throw_view(self, s: State, who: int, computer: bool,
                    header: NapijView) -> NapijView:
        debt = s.due(who)
        if debt:
            why = [Row(line) for line in wrap(body_font(), debts_text(s.debts_of(who)) + ".",
                                              TEXT_WIDTH)]
            if computer:
                return replace(header, rows=(Row(f"Počítač dluží {debt}:"), *why,
                                             Row("Dluh mu odepíšu.")), prompt="Chvilku…")
            do = "Nejdřív pít, pak házet!" if s.glasses[who] == 0 else "Nejdřív dopít, pak hod!"
            asked = (Row(f"{PLAYER[who]} dluží {debt}:", who), *why, Row(do))
            return replace(header, rows=asked, prompt="● vypito")
        rows: list[Row] = []
        if s.tries or (not s.throws and needs_six(s, who) and not s.with_bottle):
            rows.append(Row(f"Pokus {s.tries + 1} ze 3: šestka"))
        if s.throws:
            rows.append(Row("Padla šestka: hoď znovu."))
        bottle = can_declare_bottle(s) is Why.LEGAL and not computer
        dice = self.ctx.dice
        if self._manual_allowed():
            value = "láhev" if self.manual == 7 else str(self.manual)
            rows.append(Row(f"Hod: ◀ {value} ▶"))
            if bottle:
                rows.append(Row("Lahví: ◀ ▶ na „láhev“"))
            prompt = "Kostka je pryč: ● ok" if dice.configured else "Bez kostky: ● ok"
        elif computer:
            prompt = "Hoď za PC" if dice.usable else "PC hází…"
            if decide(s) is not None:
                prompt = "PC hraje lahví…"
        elif self.bottle_ask and bottle:
            rows.insert(0, Row("Hrát tento tah lahví?"))
            prompt = "● ano, lahví  ◀ ne"
        else:
            prompt = "Hoď kostkou"
            if bottle:
                rows.append(Row("▶ = hrát tento tah lahví"))
        if s.with_bottle:
            rows.append(Row("Tento tah hraje láhev."))
        rows += [Row(line) for line in wrap(body_font(), pieces_line(s, who), TEXT_WIDTH)]
        return replace(header, rows=tuple(rows), prompt=prompt)

    def _choose_view(self, s: State, who: int, computer: bool,
                     header: NapijView) -> NapijView:
        options = self.card_choices()
        pending = s.pending
        assert pending is not None
        card = s.rules.deck.card(pending.card)
        if card.effect in OFFER_EFFECTS and pending.offered is None:
            ask = "Komu nabídneš kartu?"
        elif card.effect in OFFER_EFFECTS:
            ask = "Vezmeš nabídku? Kterou?"
        else:
            ask = "Koho karta zasáhne?"
        rows = (Row(ask),) + tuple(
            Row(choice_row(s, o, who), None if isinstance(o, Decline) else o.colour)
            for o in options)
        sel = min(self.selected, max(0, len(options) - 1)) + 1
        prompt = "Za PC: ● ok" if computer else "◀▶ vyber, ● ok"
        return replace(header, event=f"Karta {card.number}: {card.text}", rows=rows,
                       selected=sel, prompt=prompt)

    def _draw_view(self, s: State, who: int, header: NapijView) -> NapijView:
        numbers = s.rules.deck.numbers
        number = numbers[self.card_index]
        out_of_turn = who != s.turn
        header = replace(header, note="mimo pořadí" if out_of_turn else "")
        if self.card_confirm:
            card = s.rules.deck.card(number)
            rows = tuple(Row(t) for t in wrap(body_font(), card.text, TEXT_WIDTH))
            return NapijView(f"Karta {number}", who, note=header.note, rows=rows,
                             prompt="● platí, ◀ jiné číslo")
        rows = (Row("Vezmi vrchní kartu"), Row("a zadej její číslo:"),
                Row(f"◀ {number} ▶"))
        return replace(header, rows=rows, prompt="◀ ▶ číslo, ● dál")

    def _moves(self, s: State, play: Play) -> tuple[Move, ...]:
        texts = move_lines(s, play)
        return tuple(Move(text, self._strip(s, step)) for text, step in zip(texts, play.steps,
                                                                             strict=True))

    def _strip(self, s: State, step: Step) -> Strip | None:
        """The fields along one move: where the piece stands, its way, one field beyond."""
        g = s.rules.graph
        board = s.rules.board
        c = s.turn
        path = step_path(s, step)
        if not path:
            return None
        if step.piece == BOTTLE:
            start = s.bottle
        else:
            own = s.pieces[c]
            assert own is not None
            start = own[step.piece]
        occ = occupancy(s)

        def cell(node: int, *, moving: bool = False) -> Cell:
            if node == PUB:
                return Cell("pub", c, c if moving else None)
            f = board.fields[g.field[node]]
            o = occ[g.field[node]]
            piece = o >> 2 if o >= 0 else None
            if piece is None and s.bottle >= 0 and g.field[node] == g.field[s.bottle]:
                piece = BOTTLE_CELL
            if moving:
                piece = BOTTLE_CELL if step.piece == BOTTLE else c
            return Cell(f.kind, f.colour, piece, f.kind == "junction")

        cells = [cell(start, moving=True)] + [cell(n) for n in path]
        after = g.through[c][path[-1]] if step.piece != BOTTLE else g.main_next[path[-1]]
        if after >= 0 and g.home_rank[path[-1]] < 0:
            cells.append(cell(after))
        target = len(path)
        if len(cells) > STRIP_MAX:  # keep the start and the end, leave out the middle
            head, tail = 4, STRIP_MAX - 5
            gone = len(cells) - head - tail
            cells = cells[:head] + [Cell("gap")] + cells[-tail:]
            target = target - gone + 1
        return Strip(tuple(cells), 0, target)
