"""Člověče, napij se! at the table: the turn's state machine (:class:`NapijTurn`).

The game in play and everything that moves it: the journaled game (every action on disk
before the screen shows it, :class:`~.host.JournaledHost`), the mode the table is in
(:class:`Mode`), the timers (:class:`Timer`: a computer seat's step, a play taken by itself
once shown and said, the lot, the thinking time), the cards and drinks on show until they
are answered (:mod:`.napij_shown`), the debt asked for before a throw.  The buttons'
meaning in each mode is :mod:`.napij_inputs`; what the screen shows, :mod:`.napij_screen`;
the set-up, the menu and the rest of the host, :mod:`.napij`.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum

from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.games.napij.drinks import Tally, debt_sentence
from companion.games.napij.engine.actions import Action, Drank, Duty, Later, Play, Throw
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
from companion.games.napij.pace import computer_order, ready_after, spoken_play
from companion.games.napij.shown import Shown, after_action, waiting
from companion.games.napij.views import NapijView
from companion.players.levels import DEFAULT_LEVEL, Level
from companion.service.hosts.base import RETRY_AFTER, HostContext, setup_defaults
from companion.service.hosts.host import JournaledHost
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
DUTY_WORDS = ((DrinkReason.DROPPED_DICE, "shodil kostku"), (DrinkReason.DELAY, "zdržuje"),
              (DrinkReason.CHEATING, "švindluje"), (DrinkReason.UPSET, "rozčiluje se"))


SAID_BY_DEFAULT = (Captured, EnteredHome, CardDrawn, Won, ReturnedToPub, Trapped, BottlePushed,
                   VoidThrow, Swapped, MustDrink)
"""Events whose line the default voice says (a capture, a piece home, a card, a drink...);
the other lines (a throw, a plain move) are said only in the voice mode."""
OLDER_KEYS = ("players", "computer", "first", "levels", "computer_dice")
"""The keys of ``[game]`` (older configuration files) that napij se still reads."""


MOVES = (Moved, Entered, Released, BottleMoved, BottlePushed)
"""The events a play said before it was taken has told already (its steps, in its words)."""


def told_by_play(events: Sequence[Event]) -> bool:
    """Whether the event line of a play is only its move (a card drawn, a capture, a piece
    home or trapped is news the play's words only hinted at: said again in full)."""
    for kind in HEADLINE_ORDER:
        if any(isinstance(e, kind) for e in events):
            return kind in MOVES
    return False


class Mode(StrEnum):
    """Where the table is in the game (the buttons and the screen follow it)."""

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
    """What a deadline of :attr:`NapijTurn.timers` does when it comes."""

    READ = "read"  # the play on show has been shown whole and said: its pause may begin
    AUTO = "auto"  # the play on show is taken by itself ("Jediný tah", "PC potvrdí sám")
    COMPUTER = "computer"  # the companion acts for a computer seat
    LOT = "lot"  # the next throw of the lot appears
    THINK = "think"  # the player to act has thought too long: the delay duty


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


class NapijTurn(JournaledHost[State, Action, Event, Setup]):
    """The game in play: its state, mode, timers and what is on show (see the module)."""

    def __init__(self, ctx: HostContext) -> None:
        super().__init__(ctx, GAME)
        self.players = int(setup_defaults(ctx, GAME.name, OLDER_KEYS).get("players", 4))
        self.game_levels: dict[int, Level] = {}
        """The levels of the computer seats of the game in play (from its header)."""
        self.think = 0
        """The thinking-time limit, seconds (0: none)."""
        self.computer_dice = bool(
            setup_defaults(ctx, GAME.name, OLDER_KEYS).get("computer_dice", False))
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
        self.lot: tuple[tuple[tuple[int, int], ...], ...] = ()
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

    # --- the state in play ---------------------------------------------------------------------

    def _reset(self) -> None:
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

    _manual_allowed = manual_allowed  # (the name the every-screen walk asks by)

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

    # --- timers and asks -----------------------------------------------------------------------

    def _begin_play(self, now: float) -> None:
        if self.mode is Mode.LOT:
            self.event_line = f"Los rozhodl: začíná {PLAYER_LOWER[self.state.turn]}."
        self.mode = Mode.PLAY
        self._show_waiting(now)  # the opening toast, for everybody
        self.arm(now)

    def _show_waiting(self, now: float) -> None:
        """Show again what still waits for its answer (a new game's toast, after a resume
        or an undo): the duties not answered yet."""
        self.shown = None
        self.queue = deque()
        for item in waiting(self.state):
            left = self._settle_computers(item, now)
            if left is not None:
                self.queue.append(left)
        if self.queue:
            self._next_shown(now)

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
                play = f"{self.event_line} {play}"
                self.lines.mark_said()
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
        self.ctx.beep("debt")

    # --- actions -------------------------------------------------------------------------------

    def _commit(self, action: Action, now: float, *, announce: bool = True,
                think: bool = False, mark: Record | None = None) -> list[Event]:
        """Apply an action (journal first, with the input's dice ``mark``), tell the table
        what happened, set the timers."""
        before = self.state
        try:
            events = self.play.commit(action, mark)
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
            if any(isinstance(e, SAID_BY_DEFAULT) for e in events):
                self.tell([say_event(e, s) for e in events if isinstance(e, TOLD)], line)
            elif line:
                self.note(line)  # a throw, a plain move, a drink answered: the panel shows it
            for e in events:  # a duty is said by its banner's sentence (:meth:`_next_shown`)
                if isinstance(e, MustDrink):
                    self.lines.mark_said(say_event(e, s))
            if isinstance(action, Play) and line and action == self.said_play \
                    and told_by_play(events):
                self.lines.mark_said(line)
            self.thrown_line = bool(line) and isinstance(action, Throw)
        if isinstance(action, Play):
            self.said_play = None
        if announce:
            self._announce(before, events, now)
        self.tally.record(self.game_id, self.state.drunk)
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
        left = self._settle_computers(item, now, tell=True)
        if left is None:
            return
        self.queue.append(left)
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
        self.page = 0
        if item is None:
            self._ask(now)
            self._arm_read(now)
            return
        if item.pattern:
            self.ctx.beep(item.pattern)
        if item.sentence:
            self._say(item.sentence)

    def _settle_computers(self, item: Shown, now: float, *, tell: bool = False) -> Shown | None:
        """A computer seat's drinks settle by themselves: nobody presses for them.  Its share
        of a drink stays in the ledger until its own turn begins, when the companion clears
        it (:meth:`_computer_step`); what is left for the people (or a card's text, "● dál")
        is shown; ``None`` when nothing is.  ``tell``: a new announcement, whose computer
        shares go to the event list."""
        mine = tuple(a for a in item.drank
                     if isinstance(a, Drank) and self.is_computer(a.colour))
        if not mine:
            return item
        if tell:
            why = item.banner.lines[-1] if item.banner is not None and item.banner.lines \
                else item.card[0].split(" · ")[0].lower() if item.card is not None else ""
            for action in mine:
                assert isinstance(action, Drank)
                self.lines.add(f"{PLAYER[action.colour]} (PC) pít nemusí"
                               f"{f' ({why})' if why else ''}: dluh mu odepíšu.")
        people = tuple(a for a in item.drank if a not in mine)
        later = tuple(a for a in item.later
                      if not (isinstance(a, Later) and self.is_computer(a.colour)))
        if item.card is not None:
            return replace(item, drank=people, later=later,
                           sentence=item.sentence if people else "")
        if not people:
            return None
        return replace(item, drank=people, later=later)

    def _say(self, text: str) -> None:
        if self.ctx.prefs.voice:
            self.ctx.announcer.say(text)

    def _throw(self, value: int, now: float, mark: Record | None = None) -> list[Event]:
        """The table's die: a throw, also one made while owing (void, D22), so not through
        the protocol's chance node (which waits for the owing player's decision first)."""
        return self._commit(Throw(value), now, mark=mark)

    def _computer_step(self, now: float) -> None:
        s = self.state
        who = self.actor()
        if not self.is_computer(who) or s.phase is not Phase.THROW:
            return
        if s.due(who):
            self._commit(Drank(who), now)
            self.note(f"{PLAYER[who]} (počítač) má dluh smazaný.")
            return
        action = self.decide(s)
        if action is not None:
            self._commit(action, now)
        elif self.computer_throws():
            self._throw(self.ctx.rng.randint(1, 6), now)

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

            def again(when: float, timer: Timer = timer) -> None:
                self.timers[timer] = when  # not saved: the same timer tries again

            with self.retry_later(again, now + RETRY_AFTER):
                self._fire(timer, now)

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
                self.timers[Timer.AUTO] = now + self.auto_delay()
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

    def _view(self) -> NapijView:
        """The game's own screen (the host's screen builder): a play's pause begins once its
        words are shown whole."""
        raise NotImplementedError

    def _shown_view(self) -> View:
        """The whole screen, a card or a drink on show included (the host's screen builder)."""
        raise NotImplementedError
