"""Člověče, napij se! at the table: what each input means in each mode of the turn.

:class:`NapijInputs` turns the dice's throws, the dice's drop and the buttons into the
turn's actions (:mod:`.napij_turn`): ◀ ▶ ● on the throw, play, card and draw screens, on a
card or drink on show, in the lot, the ledger, the table duties and "Účet".
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engines.game import Record
from companion.games.napij.engine.actions import DeclareBottle, Drank, Draw, Duty
from companion.games.napij.engine.events import VoidThrow
from companion.games.napij.engine.game import GAME
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import can_declare_bottle
from companion.games.napij.engine.state import DrinkReason, Phase
from companion.games.napij.screens import row_pages
from companion.games.napij.turn import ASK_GRACE, DUTY_WORDS, Mode, NapijTurn
from companion.games.napij.views import NapijView
from companion.inputs.events import Button, ButtonPress, DiceLink, Dropped, Input, Rolled
from companion.service.hosts.base import COMPUTER_THROWS, NOT_COUNTED, Request, dice_line
from companion.service.hosts.outcome import NOTHING, Outcome, asking, input_mark
from companion.ui.controls import cycle


class NapijInputs(NapijTurn):
    """The inputs of the game in play (see the module)."""

    def handle(self, event: Input, now: float) -> Outcome:
        mark, count = input_mark(event), self.play.count
        if isinstance(event, Rolled):
            counted = self._rolled(event.value, now, mark)
            return Outcome(counted, journaled=mark is not None and self.play.count > count)
        if isinstance(event, DiceLink):
            self.event_line = dice_line(event.up)
            if not event.up:
                self.ctx.beep("illegal")
            if self.mode is Mode.PLAY:
                self.arm(now, keep=True)
        elif isinstance(event, Dropped):
            if self.play.started and self.mode not in (Mode.OVER, Mode.ERROR, Mode.IDLE):
                who = self.actor()
                self._commit(Duty(who, DrinkReason.DROPPED_DICE), now, mark=mark)
                return Outcome(journaled=mark is not None and self.play.count > count)
        elif isinstance(event, ButtonPress):
            if self.shown is not None and self.mode in (Mode.PLAY, Mode.OVER):
                self._on_shown(event.name, now)
                return NOTHING
            return asking(self._buttons[self.mode](self, event.name, now))
        return NOTHING

    def _rolled(self, value: int, now: float, mark: Record | None) -> bool:
        """A throw of the dice: counted when a throw is wanted and nothing on show waits for
        its answer; made while a due debt is asked for, it is void and costs the penalty -
        but only once the ask has been on screen and said for a moment (D45)."""
        ok = self.mode in (Mode.PLAY, Mode.LEDGER, Mode.DUTY_WHO, Mode.DUTY_WHY, Mode.TALLY) \
            and self.play.started and self.state.phase is Phase.THROW and self.shown is None
        s = self.state if self.play.started else None
        if s is not None and self.mode is Mode.PLAY and self.is_computer(s.turn) \
                and self.computer_throws():
            self.notify(COMPUTER_THROWS)  # the computer's whole turn: never its throw
            self.ctx.beep("illegal")
            return False
        if ok and s is not None and s.due(s.turn):
            asked = self.asked == (s.turn, len(self.kinds)) and now - self.asked_at >= ASK_GRACE
            ok = asked and self.mode is Mode.PLAY and not self.is_computer(s.turn)
        if not ok:
            self._not_counted()
            return False
        self.mode = Mode.PLAY
        events = self._throw(value, now, mark)
        return bool(events) and not any(isinstance(e, VoidThrow) for e in events)

    def _not_counted(self) -> None:
        """A throw nobody asked for: always the same sentence and the same beep."""
        self.notify(NOT_COUNTED)
        self.ctx.beep("illegal")

    def _on_shown(self, name: Button, now: float) -> None:
        """A card or a drink on show: ● vypito (or dál), ◀ později where it is offered; any
        other key beeps and changes nothing."""
        shown = self.shown
        assert shown is not None
        if name == "select":
            actions = shown.drank
        elif name == "left" and shown.later:
            actions = shown.later
        elif name == "right" and self._turn_page():
            return
        else:
            self.ctx.beep("illegal")
            return
        for action in actions:  # each says itself: "Zelený se napil (spadlá kostka)."
            if GAME.why_not(self.state, action) is None:
                self._commit(action, now, announce=False)
        self._next_shown(now)

    def _turn_page(self) -> bool:
        """▶ on a card whose text takes more than one page: the next page (after the last,
        the first again); ``False`` when the text fits on one."""
        view = self._shown_view()
        pages = row_pages(view) if isinstance(view, NapijView) else 1
        if pages <= 1:
            return False
        self.page = (self.page + 1) % pages
        return True

    def _on_idle(self, name: Button, now: float) -> Request | None:
        return None

    def _on_error(self, name: Button, now: float) -> Request | None:
        if name == "select":
            self.mode = Mode.IDLE
            return Request.SETUP
        self.ctx.beep("illegal")
        return None

    def _on_lot(self, name: Button, now: float) -> Request | None:
        if name == "select":
            self._begin_play(now)
        else:
            self.ctx.beep("illegal")
        return None

    def _on_play(self, name: Button, now: float) -> Request | None:
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
                    self.page = 0
                elif not (name == "right" and self._turn_page()):
                    self.ctx.beep("illegal")
            elif name in ("left", "right"):  # held, ◀ ▶ run (hardware/buttons.py)
                self.card_index = cycle(self.card_index, len(numbers), name)
                if self.ctx.prefs.voice:  # the number said; the next one cuts it short
                    self.ctx.announcer.say(str(numbers[self.card_index]), cut=True)
            elif name == "select":
                self.card_confirm = True
        return None

    def _on_plays(self, name: Button, now: float, computer: bool) -> None:
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

    def _on_throw_phase(self, name: Button, now: float, who: int, computer: bool) -> None:
        s = self.state
        if s.due(who):
            if name == "select" and not computer:
                self._commit(Drank(who), now)  # "Zelený se napil a už nic nedluží."
            else:
                self.ctx.beep("illegal")
            return
        bottle = can_declare_bottle(s) is Why.LEGAL and not computer
        if self.manual_allowed():
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

    def _on_over(self, name: Button, now: float) -> Request | None:
        if name == "select":
            self.mode, self.list_index = Mode.TALLY, 0
        else:
            self.ctx.beep("illegal")
        return None

    def _colour_picked(self, name: Button, now: float) -> int | None:
        """◀ ▶ through the players and "Zpět" (the ledger, a duty's whom); ● on a player: that
        colour, ● on "Zpět": back to the game."""
        colours = self.state.colours
        if name in ("left", "right"):
            self.list_index = cycle(self.list_index, len(colours) + 1, name)
        elif name == "select":
            if self.list_index < len(colours):
                return colours[self.list_index]
            self._back(now)
        return None

    def _on_ledger(self, name: Button, now: float) -> Request | None:
        c = self._colour_picked(name, now)
        if c is not None:
            if self.state.debt(c):
                self._commit(Drank(c), now)
                self.mode = Mode.LEDGER
            else:
                self.ctx.beep("illegal")
        return None

    def _on_duty_who(self, name: Button, now: float) -> Request | None:
        c = self._colour_picked(name, now)
        if c is not None:
            self.duty_colour = c
            self.mode, self.list_index = Mode.DUTY_WHY, 0
        return None

    def _on_duty_why(self, name: Button, now: float) -> Request | None:
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

    def _on_tally(self, name: Button, now: float) -> Request | None:
        if name == "select":
            if self.state.winner is not None:
                self.mode = Mode.OVER
                return Request.SETUP
            self._back(now)
        else:
            self.ctx.beep("illegal")
        return None

    def leave(self, now: float) -> bool:
        """A long ●: from the ledger, a duty's whom or what for and "Účet" back to the game
        (the shell's :class:`~.base.Leaving`).  On the game's own screens, a drink's banner
        among them, it opens the menu: there "Vrátit poslední akci" takes back a drop the
        dice saw by mistake, and a long ● from the menu comes back to the banner."""
        if not self.play.started or self.mode not in (Mode.LEDGER, Mode.DUTY_WHO,
                                                      Mode.DUTY_WHY, Mode.TALLY):
            return False
        self._back(now)
        return True

    def _back(self, now: float) -> None:
        self.mode = Mode.OVER if self.state.winner is not None else Mode.PLAY
        self.list_index = 0
        if self.shown is not None and not self.shown.live(self.state):
            self._next_shown(now)  # the ledger settled what the banner asked for

    _buttons: dict[Mode, Callable[[NapijInputs, Button, float], Request | None]] = {
        Mode.IDLE: _on_idle, Mode.ERROR: _on_error, Mode.LOT: _on_lot, Mode.PLAY: _on_play,
        Mode.OVER: _on_over, Mode.LEDGER: _on_ledger, Mode.DUTY_WHO: _on_duty_who,
        Mode.DUTY_WHY: _on_duty_why, Mode.TALLY: _on_tally,
    }

