"""Člověče, napij se! at the table: the turn's state machine (:class:`NapijTurn`).

The game in play and everything that moves it: the journaled game (every action on disk
before the screen shows it, :class:`~companion.service.hosts.base.JournaledGame`), the mode
the table is in (:class:`~.mode.Mode`), the timers (:class:`Timer`: a computer seat's step,
a play taken by itself once shown and said, the lot, the thinking time), the cards and
drinks on show until they are answered (:mod:`.shown`), the debt asked for before a throw.
The turn is a plain object the host (:mod:`.host`) holds: it tells the table what happened
through the host's event lines (:class:`Teller`).  The buttons' meaning in each mode is
:mod:`.inputs`; what the screen shows, :mod:`.panel` (from :meth:`NapijTurn.panel`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.games.napij.drinks import Tally, debt_sentence
from companion.games.napij.engine.actions import Action, Drank, Duty, Play, Throw
from companion.games.napij.engine.describe import HEADLINE_ORDER
from companion.games.napij.engine.events import (
    BottleMoved,
    BottlePushed,
    Captured,
    CardDrawn,
    Entered,
    EnteredHome,
    Event,
    Moved,
    MustDrink,
    Released,
    ReturnedToPub,
    Swapped,
    ThrowAgain,
    Thrown,
    Trapped,
    TurnPassed,
    VoidThrow,
    Won,
)
from companion.games.napij.engine.game import GAME, Setup
from companion.games.napij.engine.places import headline, moved_fields, say_event
from companion.games.napij.engine.rules import Choice, choices, chooser, legal_plays
from companion.games.napij.engine.state import DrinkReason, Phase, State
from companion.games.napij.levels import decide as decide_at
from companion.games.napij.mode import Mode
from companion.games.napij.pace import computer_order, ready_after, spoken_play
from companion.games.napij.panel import Lot, Panel, play_view
from companion.games.napij.panel import view as panel_view
from companion.games.napij.shown import Shown, after_action, for_people, waiting
from companion.games.napij.views import NapijView
from companion.players.levels import DEFAULT_LEVEL, Level
from companion.service.hosts.base import RETRY_AFTER, EventLines, Expect, HostContext, JournaledGame
from companion.service.hosts.outcome import NOT_COUNTING, Beep
from companion.storage.journal import JournalError
from companion.ui.views import View

log = logging.getLogger(__name__)

COMPUTER_DELAY = 1.0
"""Seconds before the companion throws, drinks or declares the bottle for a computer seat."""
TOLD: tuple[type, ...] = (Captured, EnteredHome, ReturnedToPub, CardDrawn, MustDrink, Won)
"""Events an action's story keeps in the event list even when the panel's line (its
headline) names another one: a play that captures and draws a card lists both."""
ASK_GRACE = 2.0
"""Seconds the debt must have been asked for (on screen, and spoken) before a throw is void:
a throw sooner is not counted at all (D45)."""
READ_POLL = 0.25
"""Seconds between looks at whether the voice has finished saying the play."""
LOT_STEP = 0.8
"""Seconds between the lot's throws as they appear."""
LOT_END = 2.0
"""Seconds the lot's last throw stays before the game begins."""
PAUSE_GAP = 1.0
"""A gap between two ticks longer than this means the shell showed something else (the loop
ticks 4 times a second while the game is on screen): the thinking time stops meanwhile."""

SAID_BY_DEFAULT = (Captured, EnteredHome, CardDrawn, Won, ReturnedToPub, Trapped, BottlePushed,
                   VoidThrow, Swapped, MustDrink)
"""Events whose line the default voice says (a capture, a piece home, a card, a drink...);
the other lines (a throw, a plain move) are said only in the voice mode."""
MOVES = (Moved, Entered, Released, BottleMoved, BottlePushed)
"""The events a play said before it was taken has told already (its steps, in its words)."""


def told_by_play(events: Sequence[Event]) -> bool:
    """Whether the event line of a play is only its move (a card drawn, a capture, a piece
    home or trapped is news the play's words only hinted at: said again in full)."""
    for kind in HEADLINE_ORDER:
        if any(isinstance(e, kind) for e in events):
            return kind in MOVES
    return False


class Timer(StrEnum):
    """What a deadline of :attr:`NapijTurn.timers` does when it comes."""

    READ = "read"  # the play on show has been shown whole and said: its pause may begin
    AUTO = "auto"  # the play on show is taken by itself ("Jediný tah", "PC potvrdí sám")
    COMPUTER = "computer"  # the companion acts for a computer seat
    LOT = "lot"  # the next throw of the lot appears
    THINK = "think"  # the player to act has thought too long: the delay duty


def lot_rounds(seats: Sequence[int], throw: Callable[[], int]) -> Lot:
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


class Teller(Protocol):
    """Where the turn tells the table what happened: the screen's event line and the list of
    event lines (the host's, :class:`~companion.service.hosts.host.BaseHost`)."""

    lines: EventLines

    @property
    def event_line(self) -> str: ...

    @event_line.setter
    def event_line(self, line: str) -> None: ...

    def tell(self, lines: Sequence[str], shown: str) -> None: ...

    def note(self, line: str) -> None: ...

    def notify(self, line: str) -> None: ...


@dataclass
class Taking:
    """An input being taken (:meth:`NapijTurn.take`): its dice mark, whether the mark went
    into the journal with the action the input caused, and the beep saying the table did not
    take it (its sound is the outcome's, not played on the side)."""

    mark: Record | None = None
    journaled: bool = False
    refused: Beep | None = None


class NapijTurn:
    """The game in play: its state, mode, timers and what is on show (see the module)."""

    def __init__(self, ctx: HostContext, play: JournaledGame[State, Action, Event, Setup],
                 told: Teller, *, computer_dice: bool = False) -> None:
        self.ctx = ctx
        self.play = play
        self.told = told
        self.game_levels: dict[int, Level] = {}
        """The levels of the computer seats of the game in play (from its header)."""
        self.think = 0
        """The thinking-time limit, seconds (0: none)."""
        self.computer_dice = computer_dice
        """The set-up's "PC hází: lidé za něj": a person throws the real dice for a computer
        seat (else the companion throws for it, also while the dice is connected)."""
        self.single = 0
        """The set-up's "Jediný tah": seconds before a person's only play is taken by itself
        (0: it waits for ●, the default, D47)."""
        self.mode = Mode.IDLE
        self.error: tuple[str, str] = ("", "")
        self.kinds: list[str] = []
        """The kinds of the journal's records after the header (``throw``, ``play``...)."""
        self.seats_computer: frozenset[int] = frozenset()
        self.lot: Lot = ()
        self.lot_shown = 0
        self.game_id = ""
        self.selected = 0
        self.manual = 1
        """The throw entered with ◀ ▶ while the dice is missing (7: declare the bottle)."""
        self.card_index = 0
        self.card_confirm = False
        self.moved: tuple[str, ...] = ()
        """The fields the last play left and reached (the phone view rings them)."""
        self.last_card: int | None = None
        """The number of the card drawn last."""
        self.last_throws: tuple[int, ...] = ()
        """The throws of the last turn played (the state forgets them once played)."""
        self.list_index = 0
        self.duty_colour = 0
        self.shown: Shown | None = None
        self.page = 0
        """The page of a card's text on show (▶ turns it)."""
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
        self.said_play: Play | None = None
        """The play the voice said before it was taken (:func:`spoken_play`): its event line
        is not said again (:meth:`EventLines.mark_said`), unless it tells more."""
        self.thrown_line = False
        """The latest event line is the throw's that the play to come follows: said with it."""
        self.input: Taking | None = None
        """The input being taken (``None`` between inputs: a timer's work)."""

    # --- the state in play ---------------------------------------------------------------------

    def reset(self) -> None:
        self.timers = {}
        self.queue.clear()
        self.shown = None
        self.selected = 0
        self.manual = 1
        self.card_index = 0
        self.card_confirm = False
        self.think_fired = False
        self.said_play, self.thrown_line = None, False
        self.asked = None
        self.bottle_ask = False
        self.order = []
        self.error = ("", "")

    def beep(self, name: str) -> None:
        """A sound: one saying an input was not taken is the input's outcome
        (:attr:`Taking.refused`); any other, and any of a timer's work, is played now."""
        taking = self.input
        if taking is not None and taking.refused is None and name in NOT_COUNTING:
            taking.refused = Beep(name)
        else:
            self.ctx.beep(name)

    @contextmanager
    def take(self, mark: Record | None) -> Iterator[Taking]:
        """Around one input: what taking it did (``mark``: its dice mark, written with the
        first action it causes)."""
        taking = self.input = Taking(mark)
        try:
            yield taking
        finally:
            self.input = None

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
                                         and not self.is_computer(d.colour)
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

    def computer_throws(self) -> bool:
        """The companion throws for a computer seat itself: always, unless the set-up's "PC
        hází: lidé za něj" asks a person to throw the connected dice for it."""
        return not (self.computer_dice and self.ctx.dice.usable)

    def decide(self, s: State) -> Action | None:
        """The decision of the computer seat the table waits for, at its level."""
        return decide_at(self.game_levels.get(self.actor(), DEFAULT_LEVEL), s)

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

    def manual_allowed(self) -> bool:
        s = self.state
        return (self.mode is Mode.PLAY and s.phase is Phase.THROW and not self.ctx.dice.usable
                and not self.is_computer(s.turn) and not self.opening and not s.due(s.turn))

    def auto_delay(self) -> float:
        """Seconds after which the play or card choice on show is taken by itself once it has
        been read (0: it waits for ●)."""
        s = self.state
        computer = self.is_computer(self.actor())
        if computer and s.phase in (Phase.PLAY, Phase.CHOOSE):
            return self.ctx.prefs.computer_confirm
        if s.phase is Phase.PLAY and len(self.plays()) == 1:
            return float(self.single)
        return 0.0

    def expects(self) -> Expect | None:
        """What the table should do next (see :class:`~companion.service.hosts.base.Expect`)."""
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

    # --- timers and asks -----------------------------------------------------------------------

    def begin_play(self, now: float) -> None:
        if self.mode is Mode.LOT:
            self.told.event_line = f"Los rozhodl: začíná {PLAYER_LOWER[self.state.turn]}."
        self.mode = Mode.PLAY
        self.show_waiting(now)  # the opening toast, for everybody
        self.arm(now)

    def show_waiting(self, now: float) -> None:
        """Show again what still waits for its answer (a new game's toast, after a resume
        or an undo): the duties not answered yet."""
        self.shown = None
        self.queue = deque()
        for item in waiting(self.state):
            left, _ = for_people(item, self.seats_computer)
            if left is not None:
                self.queue.append(left)
        if self.queue:
            self.next_shown(now)

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
                if self.decide(s) is not None or self.computer_throws():
                    self.timers[Timer.COMPUTER] = now + COMPUTER_DELAY
            if s.tries == 0 and not s.throws:
                self.manual = 1
        elif phase is Phase.PLAY:
            plays = legal_plays(s)
            self.order = computer_order(s, plays, self.decide) if computer else list(plays)
            self._arm_read(now)
        elif phase is Phase.CHOOSE:
            if computer:
                best = self.decide(s)
                self.selected = next(
                    (i for i, o in enumerate(self.card_choices()) if o == best), 0)
                self._arm_read(now)
        if self.think and not computer and not self.think_fired:
            self.timers[Timer.THINK] = now + self.think

    def _arm_read(self, now: float) -> None:
        """A play that will be taken by itself: say it, and count its pause once its words
        are shown whole (nothing may cover them) and said (D47)."""
        self.timers.pop(Timer.READ, None)
        self.timers.pop(Timer.AUTO, None)
        if self.shown is not None or self.mode is not Mode.PLAY or self.auto_delay() <= 0:
            return
        view = self._view()
        if view.moves:
            who = self.actor()
            play = spoken_play(who, [m.text for m in view.moves], self.is_computer(who))
            if self.thrown_line and self.ctx.prefs.voice:  # the throw first, then its play
                play = f"{self.told.event_line} {play}"
                self.told.lines.mark_said()
                self.thrown_line = False
            self._say(play)
            plays = self.plays()
            if self.ctx.prefs.voice and plays:
                self.said_play = plays[min(self.selected, len(plays) - 1)]
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
        self.beep(Beep.DEBT)

    # --- actions -------------------------------------------------------------------------------

    def commit(self, action: Action, now: float, *, announce: bool = True,
                think: bool = False) -> list[Event]:
        """Apply an action (journal first), tell the table what happened, set the timers."""
        before = self.state
        taking = self.input
        mark = taking.mark if taking is not None and not taking.journaled else None
        try:
            events = self.play.commit(action, mark)  # the input's dice mark goes with it
        except RulesError as exc:
            reason = GAME.why_not(self.state, action)
            self.told.event_line = reason or str(exc)
            self.beep(Beep.ILLEGAL)
            log.warning("refused %r: %s", action, exc)
            return []
        if taking is not None and mark is not None:
            taking.journaled = True
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
            if any(isinstance(e, SAID_BY_DEFAULT) for e in events):
                self.told.tell([say_event(e, s) for e in events if isinstance(e, TOLD)], line)
            elif line:
                self.told.note(line)  # a throw, a plain move, a drink answered: the panel shows it
            for e in events:  # a duty is said by its banner's sentence (:meth:`next_shown`)
                if isinstance(e, MustDrink):
                    self.told.lines.mark_said(say_event(e, s))
            if isinstance(action, Play) and line and action == self.said_play \
                    and told_by_play(events):
                self.told.lines.mark_said(line)
            self.thrown_line = bool(line) and isinstance(action, Throw)
        if isinstance(action, Play):
            self.said_play = None
        if announce:
            self._announce(before, events, now)
        self.tally.record(self.game_id, self.state.drunk)
        if any(isinstance(e, Won) for e in events):
            self.mode = Mode.OVER
            self.beep(Beep.WIN)
        elif any(isinstance(e, ThrowAgain) for e in events):
            self.beep(Beep.SIX)
        elif any(isinstance(e, TurnPassed) for e in events) and not self.is_computer(s.turn):
            self.beep(Beep.TURN)
        self.arm(now)
        return events

    def _announce(self, before: State, events: Sequence[Event], now: float) -> None:
        """The cards and drinks of an action, in the order they happened, each on show until
        it is answered (:mod:`.shown`)."""
        for item in after_action(before, self.state, events):
            self._enqueue(item, now)

    def _enqueue(self, item: Shown, now: float) -> None:
        left, excused = for_people(item, self.seats_computer)
        for line in excused:  # a new announcement: the computers' shares listed
            self.told.lines.add(line)
        if left is None:
            return
        self.queue.append(left)
        if self.shown is None:
            self.next_shown(now)

    def next_shown(self, now: float) -> None:
        """Show the next card or drink still to be answered; when none is left, the game's
        own screen comes back: ask for a debt, count a play's pause."""
        while self.queue:
            item = self.queue.popleft()
            if self.play.started and item.live(self.state):
                break
        else:
            item = None
        self.shown = item
        self.page = 0
        if item is None:
            self._ask(now)
            self._arm_read(now)
            return
        if item.pattern:
            self.beep(item.pattern)
        if item.sentence:
            self._say(item.sentence)

    def _say(self, text: str) -> None:
        if self.ctx.prefs.voice:
            self.ctx.announcer.say(text)

    def throw(self, value: int, now: float) -> None:
        """The table's die: a throw, also one made while owing (void, D22), so not through
        the protocol's chance node (which waits for the owing player's decision first)."""
        self.commit(Throw(value), now)

    def _computer_step(self, now: float) -> None:
        s = self.state
        who = self.actor()
        if not self.is_computer(who) or s.phase is not Phase.THROW:
            return
        if s.due(who):
            self.commit(Drank(who), now)
            self.told.note(f"{PLAYER[who]} (počítač) má dluh smazaný.")
            return
        action = self.decide(s)
        if action is not None:
            self.commit(action, now)
        elif self.computer_throws():
            self.throw(self.ctx.rng.randint(1, 6), now)

    # --- time ----------------------------------------------------------------------------------

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
            except JournalError:  # not saved: the same timer tries again, the shell says why
                self.timers[timer] = now + RETRY_AFTER
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
                self.begin_play(now)
            return
        if not self.play.started:
            return
        s = self.state
        if timer is Timer.READ:  # shown whole: the pause begins once the voice has said it
            if self.ctx.prefs.voice and not self.ctx.announcer.wait(0):
                self.timers[Timer.READ] = now + READ_POLL
            else:
                self.timers[Timer.AUTO] = now + self.auto_delay()
        elif timer is Timer.AUTO:
            if s.phase is Phase.PLAY and self.plays():
                self.commit(self.plays()[0], now)
            elif s.phase is Phase.CHOOSE and self.card_choices():
                options = self.card_choices()
                self.commit(options[min(self.selected, len(options) - 1)], now)
        elif timer is Timer.COMPUTER:
            self._computer_step(now)
        elif timer is Timer.THINK and s.winner is None and not self.opening:
            who = self.actor()
            self.think_fired = True
            self.commit(Duty(who, DrinkReason.DELAY), now, think=True)
            self.told.event_line = f"{PLAYER[who]} přemýšlí moc dlouho."

    def next_deadline(self) -> float | None:
        if self.mode is Mode.LOT:
            return self.timers.get(Timer.LOT)
        if not self.timers or self.mode is not Mode.PLAY or self.shown is not None:
            return None
        return min(self.timers.values())

    # --- what the panel shows ---------------------------------------------------------------

    def shows(self) -> Panel:
        """The values the screen of this moment is drawn from (:mod:`.panel`): the turn's
        own only where its screen shows the turn."""
        s = self.play.state
        p = Panel(self.mode, s, self.told.event_line, self.error, self.ctx.data, self.shown,
                  self.page, self.list_index, self.duty_colour, self.lot, self.lot_shown)
        if s is not None and self.mode is Mode.TALLY:
            return replace(p, drunk_game=self.tally.game(self.game_id),
                           drunk_tonight=self.tally.tonight())
        if s is None or self.mode not in (Mode.PLAY, Mode.IDLE):
            return p
        who = self.actor()
        computer = self.is_computer(who)
        manual = self.manual_allowed()
        bottle = (s.phase is Phase.THROW and computer and not s.due(who)
                  and self.decide(s) is not None)
        return replace(p, actor=who, computer=computer, plays=tuple(self.plays()),
                       choices=tuple(self.card_choices()), selected=self.selected,
                       auto_delay=self.auto_delay() if s.phase is Phase.PLAY else 0.0,
                       manual=self.manual if manual else None,
                       dice_configured=self.ctx.dice.configured,
                       computer_throws=self.computer_throws(), computer_bottle=bottle,
                       bottle_ask=self.bottle_ask, card_index=self.card_index,
                       card_confirm=self.card_confirm)

    def _view(self) -> NapijView:
        """The game's own screen: a play's pause begins once its words are shown whole."""
        return play_view(self.shows())

    def view(self) -> View:
        """The whole screen, a card or a drink on show included."""
        return panel_view(self.shows())
