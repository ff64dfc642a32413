"""Člověče, nezlob se at the table: set-up options, the turn screen, computer seats, timers.

The game is the protocol game of :mod:`companion.games.clovece.engine.game`, kept in
its journal by :class:`~.base.JournaledGame`: a roll (from the dice, entered
with ◀ ▶ ●, or thrown by the companion for a computer seat) and a confirmed move
are each on disk before the screen shows them.  A single legal move plays
itself after the pause set in the settings.

Computer seats play themselves: the companion throws for them (a virtual throw,
shown as "Hod PC"), also while the dice is connected, unless the set-up's "PC hází:
lidé za něj" asks a person to roll the real dice for them.  A throw of the dice while
the companion throws for a computer seat is refused ("PC hází samo, tenhle hod se
nepočítá."): a child's early throw never becomes the computer's roll.  The move is chosen by
:mod:`companion.games.clovece.bot` and shown in words for a person to make on
the board, confirmed with one ● (or by itself after the settings' "PC potvrdí
sám" time).  Each computer seat plays at the level the set-up gave it
("Zelený: PC silný", :mod:`companion.games.clovece.levels`); the levels are in
the journal's header (``"levels": {"g": "strong"}``, beside the engine's own
set-up), so a resumed game keeps them.  :meth:`CloveceHost.hint` is the shell's
"Nápověda": the move the strong level would make, with one reason.  Moves are named in words counted from the player's own start
(:mod:`companion.games.clovece.engine.describe`), never by engine field numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from companion.engines.game import Record, Source
from companion.games.clovece.engine.board import cell_of
from companion.games.clovece.engine.describe import (
    PLAYER,
    PLAYER_LOWER,
    explain,
    headline,
    move_words,
    path_label,
    path_words,
    piece_words,
    throw_line,
)
from companion.games.clovece.engine.game import GAME, Action, Roll, Setup, State
from companion.games.clovece.engine.rules import (
    COLOURS,
    HOUSE,
    SEATS_BY_PLAYERS,
    VARIANT_ORDER,
    Captured,
    EnteredGoal,
    Event,
    Move,
    Won,
    in_play,
    why_not,
)
from companion.games.clovece.hint import hint as strong_hint
from companion.games.clovece.levels import choose
from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.inputs.events import Button, ButtonPress, DiceLink, Dropped, Input, Rolled
from companion.players.levels import CZECH, DEFAULT_LEVEL, Level
from companion.service.hosts.base import (
    COMPUTER_THROWS,
    NOT_COUNTED,
    RETRY_AFTER,
    SEAT,
    Expect,
    HostContext,
    Option,
    OptionKey,
    Request,
    computer_throws_option,
    dice_line,
    levels_from_record,
    levels_record,
    seat_level,
    seat_options,
    set_seat_option,
    setup_defaults,
)
from companion.service.hosts.host import JournaledHost
from companion.service.hosts.outcome import NOTHING, REFUSED, Beep, Outcome, input_mark
from companion.ui.controls import cycle
from companion.ui.views import Choice, View

if TYPE_CHECKING:
    from companion.games.clovece.facts import CloveceFacts

log = logging.getLogger(__name__)

VARIANT_LABELS = {
    "mandatory-capture": "Povinné vyhazování",
    "voluntary-entry": "Volné nasazování",
    "no-jump-in-goal": "Cíl bez přeskoků",
    "safe-start": "Start je bezpečný",
}
VARIANT = "variant"
"""The family of the set-up's lines of the additional rules (``variant:safe-start``)."""
COMPUTER_ROLL_DELAY = 1.0


class Mode(StrEnum):
    IDLE = "idle"  # no game yet
    PLAY = "play"
    WIN = "win"


class Timer(StrEnum):
    AUTO_MOVE = "auto-move"  # the only legal move plays itself
    COMPUTER_ROLL = "computer-roll"  # the companion throws for a computer seat
    COMPUTER_CONFIRM = "computer-confirm"  # the computer's shown move counts as made


OLDER_KEYS = ("players", "variants", "computer", "first", "computer_dice", "levels")
"""The keys of ``[game]`` (older configuration files) that Člověče still reads."""


class CloveceHost(JournaledHost[State, Action, Event, Setup]):
    title = "Člověče"

    def __init__(self, ctx: HostContext, table: str = "") -> None:
        super().__init__(ctx, GAME)
        d = setup_defaults(ctx, GAME.name, OLDER_KEYS)
        self.players = int(d.get("players", 4))
        self.computer = {COLOURS.index(c) for c in d.get("computer", ()) if c in COLOURS}
        self.levels: dict[int, Level] = levels_from_record(d.get("levels"))
        """The set-up's level of each seat the computer would play."""
        self.game_levels: dict[int, Level] = {}
        """The levels of the computer seats of the game in play (from its header)."""
        self.variants = set(d.get("variants", ()))
        self.first = str(d.get("first", "red"))
        self.computer_dice = bool(d.get("computer_dice", False))
        self.mode = Mode.IDLE
        self.selected = 0
        self.manual = 1
        self.throws: tuple[int, ...] = ()
        """The rolls of the colour on turn so far (a six and the roll after it, the tries)."""
        self.moved: Move | None = None
        """The last move confirmed (the phone view rings it on the board)."""
        self.deadline: float | None = None
        self.timer: Timer | None = None
        self._throws_colour = -1
        self.roll_src: Source | None = None
        """Where the pending roll came from (a computer's virtual throw is shown as such)."""

    # --- set-up ---------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        opts = seat_options(self.players, self.computer, self.levels)
        if any(c in self.computer for c in SEATS_BY_PLAYERS[self.players]):
            opts.append(computer_throws_option(self.computer_dice))
        for v in VARIANT_ORDER:
            opts.append(Option(OptionKey(VARIANT, v).text, VARIANT_LABELS[v], (False, True),
                               ("ne", "ano"),
                               v in self.variants))
        opts.append(Option("first", "Začíná", ("red", "lot"), ("červený", "los"), self.first))
        return opts

    def set_option(self, key: str, value: Any) -> str | None:
        seat = set_seat_option(key, value, self.players, self.computer)
        if seat is not None:
            self.players, self.computer, word = seat
            match OptionKey.parse(key):
                case OptionKey(family, member) if family == SEAT:
                    level = seat_level(value)
                    if level is not None:
                        self.levels[int(member)] = level
            return word
        match OptionKey.parse(key):
            case OptionKey(family, v) if family == VARIANT:
                self.variants = self.variants | {v} if value else self.variants - {v}
            case OptionKey("first"):
                self.first = str(value)
            case OptionKey("computer_dice"):
                self.computer_dice = bool(value)
        return None

    def start(self, now: float) -> None:
        seats = SEATS_BY_PLAYERS[self.players]
        first = seats[0] if self.first == "red" else self.ctx.rng.choice(seats)
        setup = Setup(self.players, frozenset(self.variants),
                      frozenset(c for c in self.computer if c in seats), first,
                      self.computer_dice)
        self.game_levels = {c: self.levels.get(c, DEFAULT_LEVEL) for c in setup.computer}
        self.play.start(setup, {"levels": levels_record(self.game_levels, setup.computer)}
                        if setup.computer else None)
        self.mode = Mode.PLAY
        self.lines.clear()
        self.throws, self.moved = (), None
        self.event_line = f"Nová hra, začíná {PLAYER_LOWER[first]}."
        self.arm(now)

    def resume(self, records: list[Record], now: float) -> bool:
        if self.replay(records) is None:
            return False
        setup = self.setup  # "Nová hra" starts from the set-up of the game resumed
        self.players, self.computer = setup.players, set(setup.computer)
        self.variants, self.computer_dice = set(setup.variants), setup.computer_dice
        read = levels_from_record(records[0].get("levels") if records else None)
        self.game_levels = {c: read.get(c, DEFAULT_LEVEL) for c in self.setup.computer}
        self.levels.update(self.game_levels)
        self.resumed(now)
        return True

    def resumed(self, now: float) -> None:
        """After a resume or an undo: the pending roll's source, the turn's throws, timers."""
        self._sync_roll_src()
        self._sync_throws()
        self.arm(now)

    def stop(self) -> None:
        self.deadline, self.timer = None, None

    # --- the game in play ---------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.play.current()

    @property
    def setup(self) -> Setup:
        assert self.play.setup is not None
        return self.play.setup

    @property
    def in_game(self) -> bool:
        return self.mode is not Mode.IDLE

    def moves(self) -> list[Move]:
        s = self.state
        return [a for a in GAME.legal_actions(s) if isinstance(a, Move)] if s.roll is not None \
            else []

    @property
    def computer_turn(self) -> bool:
        return self.state.pos.turn in self.setup.computer

    def _computer_throws(self) -> bool:
        """The companion throws for the computer seat on turn (else a person rolls the dice)."""
        return not (self.setup.computer_dice and self.ctx.dice.usable)

    def arm(self, now: float) -> None:
        """Set the timers (and the computer's choice) for the state the game is now in."""
        s = self.state
        self.selected = 0
        self.deadline, self.timer = None, None
        if s.pos.winner is not None:
            self.mode = Mode.WIN
            return
        self.mode = Mode.PLAY
        if s.roll is not None:
            moves = self.moves()
            if len(moves) == 1:
                self.deadline, self.timer = now + self.ctx.prefs.auto_delay, Timer.AUTO_MOVE
            elif self.computer_turn:
                best = choose(self.game_levels.get(s.pos.turn, DEFAULT_LEVEL), s.pos, s.roll)
                self.selected = moves.index(best) if best in moves else 0
                if self.ctx.prefs.computer_confirm > 0:
                    self.deadline = now + self.ctx.prefs.computer_confirm
                    self.timer = Timer.COMPUTER_CONFIRM
            return
        if self.computer_turn and self._computer_throws():
            self.deadline, self.timer = now + COMPUTER_ROLL_DELAY, Timer.COMPUTER_ROLL

    def _manual_allowed(self) -> bool:
        return (self.mode is Mode.PLAY and self.state.roll is None and not self.ctx.dice.usable
                and not self.computer_turn)

    def _roll(self, value: int, src: Source, now: float, mark: Record | None = None) -> Beep | None:
        """Take a roll (``mark``: the dice's, journaled with it); the beep it makes."""
        before = self.state
        action = GAME.chance_action(before, value, src)
        self.play.commit(action, mark)  # on disk before the screen shows it
        self.roll_src = src
        after = self.state
        same = bool(self.throws) and self._throws_colour == before.pos.turn
        self.throws = (*self.throws[-5:], value) if same else (value,)
        self._throws_colour = before.pos.turn
        self.note(throw_line(before.pos.turn, value, list(self.play.events[1:]),
                             computer=src is Source.COMPUTER))
        beep = None
        if after.roll is None:  # no legal move: three tries or forfeit, already played
            beep = self._after_step(now)
        else:
            self.arm(now)
        return Beep.SIX if value == 6 else beep  # a six: the same player throws again

    def _confirm(self, move: Move, now: float) -> Beep | None:
        """Play ``move`` (journal first); the beep it makes."""
        self.play.commit(move)  # on disk before the screen confirms
        self.moved = move
        events = list(self.play.events)
        if any(isinstance(e, Won | Captured | EnteredGoal) for e in events):
            self.event_line = headline(events)  # what the default voice says too
        else:
            self.note(headline(events))
        return self._after_step(now)

    def _after_step(self, now: float) -> Beep | None:
        self.arm(now)
        s = self.state
        if s.pos.winner is not None:
            return Beep.WIN
        if s.pos.turn not in self.setup.computer:
            return Beep.TURN
        return None

    # --- inputs --------------------------------------------------------------------------

    def handle(self, event: Input, now: float) -> Outcome:
        match event:
            case Rolled(value=value):
                if self.mode is Mode.PLAY and self.computer_turn and self._computer_throws():
                    self.notify(COMPUTER_THROWS)  # the computer's whole turn: never its roll
                    return REFUSED
                if self.mode is not Mode.PLAY or self.state.roll is not None:
                    self.notify(NOT_COUNTED)
                    return REFUSED
                mark = input_mark(event)
                beep = self._roll(value, Source.DICE, now, mark)
                return Outcome(journaled=mark is not None, beep=beep)
            case DiceLink(up=up):
                self.event_line = dice_line(up)
                if self.mode is Mode.PLAY:
                    self._rearm_roll(now)
                return NOTHING if up else Outcome(beep=Beep.ILLEGAL)
            case Dropped():
                self.event_line = "Kostka spadla na zem."
            case ButtonPress(name=name):
                match self.mode:
                    case Mode.PLAY:
                        return self._on_play(name, now)
                    case Mode.WIN if name == Button.SELECT:
                        return Outcome(request=Request.SETUP)
        return NOTHING

    def _rearm_roll(self, now: float) -> None:
        """The dice came or went: a computer seat waiting for a roll may now throw itself."""
        if self.state.roll is None:
            self.arm(now)

    def _on_play(self, name: Button, now: float) -> Outcome:
        s = self.state
        if s.roll is None:
            if not self._manual_allowed():
                return REFUSED if name == Button.SELECT else NOTHING
            match name:
                case Button.LEFT:
                    self.manual = (self.manual - 2) % 6 + 1
                case Button.RIGHT:
                    self.manual = self.manual % 6 + 1
                case Button.SELECT:
                    return Outcome(beep=self._roll(self.manual, Source.MANUAL, now))
            return NOTHING
        moves = self.moves()
        match name:
            case Button.LEFT | Button.RIGHT if len(moves) > 1 and not self.computer_turn:
                self.selected = cycle(self.selected, len(moves), name)
            case Button.SELECT:
                return Outcome(beep=self._confirm(moves[min(self.selected, len(moves) - 1)], now))
        return NOTHING

    def tick(self, now: float) -> None:
        if self.deadline is None or now < self.deadline or self.mode is not Mode.PLAY:
            return
        s = self.state

        def again(when: float) -> None:
            self.deadline = when  # the same timer tries again: nothing got stuck

        beep = None
        with self.retry_later(again, now + RETRY_AFTER):
            if self.timer is Timer.AUTO_MOVE and s.roll is not None and len(self.moves()) == 1:
                beep = self._confirm(self.moves()[0], now)  # sets the next timers
            elif self.timer is Timer.COMPUTER_ROLL and s.roll is None and self.computer_turn:
                beep = self._roll(self.ctx.rng.randint(1, 6), Source.COMPUTER, now)
            elif self.timer is Timer.COMPUTER_CONFIRM and s.roll is not None and self.computer_turn:
                moves = self.moves()
                beep = self._confirm(moves[min(self.selected, len(moves) - 1)], now)
            else:
                self.deadline, self.timer = None, None
        if beep is not None:
            self.ctx.beep(beep)

    def next_deadline(self) -> float | None:
        return self.deadline if self.mode is Mode.PLAY else None

    # --- the shell's menu --------------------------------------------------------------------

    def undo_question(self, before: State, action: Action,
                      record: Record) -> tuple[str, str] | None:
        """What undo would take back: a question and a sentence ("Vrátit hod 5?")."""
        who = PLAYER[before.pos.turn]
        if isinstance(action, Roll):
            how = {Source.DICE: "kostkou", Source.MANUAL: "tlačítky",
                   Source.COMPUTER: "za PC"}[Source(action.src)]
            return (f"Vrátit hod {action.value}?",
                    f"{who} hodil {action.value} ({how}). Ten hod se smaže a hází se znovu.")
        return ("Vrátit tah?", f"{who} táhl {path_words(action.frm, action.to)}. "
                               "Figurku postav zpátky, volí se znovu.")

    def undone_words(self, record: Record) -> str:
        return f"hod {record.get('v')}" if record.get("t") == "roll" else "tah"

    def _sync_roll_src(self) -> None:
        """The pending roll's source, read from its journal record (after a resume or undo)."""
        self.roll_src = None
        if self.state.roll is not None:
            last = self.ctx.journal.load()[-1]
            if last.get("t") == "roll" and last.get("src") in tuple(Source):
                self.roll_src = Source(str(last["src"]))

    def _sync_throws(self) -> None:
        """After a resume or undo: the pending roll is the turn's only known throw."""
        roll = self.state.roll
        self.throws = (roll,) if roll is not None else ()
        self._throws_colour = self.state.pos.turn
        self.moved = None

    def hint(self) -> str:
        """The shell's "Nápověda": the move the strong level would make now, in the turn
        screen's words, and one reason ("Přední figurka z 27. na 30. pole. Vyhodí modrého.");
        or why there is nothing to advise.  Only asked, never shown by itself, and nothing is
        journaled or chosen by asking."""
        if not self.play.started or self.mode is Mode.IDLE:
            return "Žádná hra neběží."
        s = self.state
        if s.pos.winner is not None:
            return "Hra skončila."
        if self.computer_turn:
            return "Teď hraje počítač."
        if s.roll is None:
            return "Nejdřív hoď kostkou, pak poradím tah."
        advice = strong_hint(s.pos, s.roll)
        if advice is None:  # a pending roll always has a move; kept for safety
            return "Žádný tah není."
        own = s.pos.pieces[s.pos.turn] or ()
        words = move_words(own, replace(advice.move, capture=None))
        reason = advice.reason
        return f"{words} {reason[0].upper()}{reason[1:]}."

    def why(self) -> str | None:
        """Why each piece of the player on turn may or may not move with the pending roll."""
        if not self.play.started:
            return None
        s = self.state
        if s.roll is None or s.pos.winner is not None:
            return None
        c = s.pos.turn
        lines = [f"{PLAYER[c]} hodil {s.roll}."]
        own = s.pos.pieces[c] or ()
        for p in sorted(set(own), key=lambda p: (p == HOUSE, -p)):
            lines.append(f"{piece_words(own, p)}: {explain(why_not(s.pos, s.roll, p))}")
        return "\n".join(lines)

    # --- outputs ------------------------------------------------------------------------------

    def expects(self) -> Expect | None:
        """What the table should do next (:class:`~.base.Expecting`): the winner shown, a
        timer running (the only move, a computer's throw or shown move), a roll (the dice, or
        ◀ ▶ ● without it), a person's choice, or ● for the computer's shown move."""
        if self.mode is Mode.WIN:
            return Expect.OVER
        if self.mode is not Mode.PLAY:
            return None
        if self.deadline is not None:
            return Expect.WAIT
        if self.state.roll is None:
            return Expect.ROLL if self.ctx.dice.usable else Expect.CHOOSE
        return Expect.CONFIRM if self.computer_turn or len(self.moves()) == 1 \
            else Expect.CHOOSE

    def facts(self) -> CloveceFacts | None:
        """The position, the turn's throws, the last move and the latest event lines."""
        from companion.games.clovece.facts import (
            CloveceFacts,  # the phone view's: loaded once it starts
        )

        if self.mode is Mode.IDLE or not self.play.started:
            return None
        return CloveceFacts(self.state.pos, self.throws, self.moved, self.setup.computer,
                            self.lines.lines(), self._level_names())

    def _level_names(self) -> tuple[tuple[int, str], ...]:
        return tuple((c, CZECH[self.game_levels.get(c, DEFAULT_LEVEL)])
                     for c in sorted(self.setup.computer))

    def animated(self) -> bool:
        return self.mode in (Mode.PLAY, Mode.WIN)

    def view(self) -> View:
        s = self.state
        if self.mode is Mode.WIN:
            assert s.pos.winner is not None
            return CloveceWinView(s.pos.winner, PLAYER[s.pos.winner], s.pos)
        return self._turn_view(s)

    def _turn_view(self, s: State) -> CloveceTurnView:
        pos = s.pos
        c = pos.turn
        computer = self.computer_turn
        dice = self.ctx.dice
        status = "ok" if dice.usable else ("lost" if dice.configured else "missing")
        manual = self.manual if self._manual_allowed() else None
        choices: tuple[Choice, ...] = ()
        blink = None
        words = ""
        if s.roll is None:
            if manual is not None:
                prompt = "◀ ▶ hod, ● ok"
            elif computer and self._computer_throws():
                prompt = "PC hází…"
            elif computer:
                prompt = "Hoď za PC"
            else:
                prompt = "Hoď kostkou"
        else:
            moves = self.moves()
            choices = tuple(Choice(path_label(m.frm, m.to), m.capture is not None) for m in moves)
            sel = min(self.selected, len(moves) - 1)
            m = moves[sel]
            own = pos.pieces[c] or ()
            words = move_words(own, m)
            slot = sum(1 for p in own if p == HOUSE) - 1 if m.frm == HOUSE else 0
            blink = (cell_of(c, m.frm, max(0, slot)), cell_of(c, m.to))
            if len(moves) == 1:
                prompt = "Jediný tah…"
            elif computer:
                prompt = "Táhni za PC ●"
            else:
                prompt = "◀▶ vyber, ● ok"
        return CloveceTurnView(
            position=pos, colour=c, player=PLAYER[c], computer=computer, roll=s.roll,
            prompt=prompt, choices=choices, selected=min(self.selected, max(0, len(choices) - 1)),
            tries=pos.tries, tries_shown=not in_play(pos, c) and s.roll is None,
            manual_roll=manual, dice=status, event=self.event_line, blink=blink,
            roll_virtual=s.roll is not None and self.roll_src is Source.COMPUTER, words=words)
