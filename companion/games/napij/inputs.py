"""Člověče, napij se! at the table: what each input means in each mode of the turn.

:func:`handle` turns the dice's throws, the dice's drop and the buttons into the turn's
actions (:mod:`.turn`): ◀ ▶ ● on the throw, play, card and draw screens, on a card or drink
on show, in the lot, the ledger, the table duties and "Účet".  It gives back what the input
did as an :class:`~companion.service.hosts.outcome.Outcome`: a throw the table did not take
says so (``counted=False``, with the refusal's beep), a throw or a drop whose dice mark was
written with the action it caused says that too.
"""

from __future__ import annotations

from companion.games.napij.engine.actions import DeclareBottle, Drank, Draw, Duty
from companion.games.napij.engine.game import GAME
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import can_declare_bottle
from companion.games.napij.engine.state import DrinkReason, Phase
from companion.games.napij.mode import DUTY_WORDS, LISTS, Mode
from companion.games.napij.screens import row_pages
from companion.games.napij.turn import ASK_GRACE, NapijTurn
from companion.games.napij.views import NapijView
from companion.inputs.events import Button, ButtonPress, DiceLink, Dropped, Input, Rolled
from companion.service.hosts.base import COMPUTER_THROWS, NOT_COUNTED, Request, dice_line
from companion.service.hosts.outcome import Beep, Outcome, input_mark
from companion.ui.controls import cycle


def handle(turn: NapijTurn, event: Input, now: float) -> Outcome:
    """One input at the table, and what it did."""
    with turn.take(input_mark(event)) as taking:
        request = _take(turn, event, now)
    return Outcome(counted=taking.refused is None, journaled=taking.journaled,
                   beep=taking.refused, request=request)


def _take(turn: NapijTurn, event: Input, now: float) -> Request | None:
    match event:
        case Rolled(value=value):
            _rolled(turn, value, now)
        case DiceLink(up=up):
            turn.told.event_line = dice_line(up)
            if not up:
                turn.beep(Beep.ILLEGAL)
            if turn.mode is Mode.PLAY:
                turn.arm(now, keep=True)
        case Dropped():
            if turn.play.started and turn.mode not in (Mode.OVER, Mode.ERROR, Mode.IDLE):
                turn.commit(Duty(turn.actor(), DrinkReason.DROPPED_DICE), now)
        case ButtonPress(name=name):
            if turn.shown is not None and turn.mode in (Mode.PLAY, Mode.OVER):
                _on_shown(turn, name, now)
                return None
            return _button(turn, name, now)
    return None


def _button(turn: NapijTurn, name: Button, now: float) -> Request | None:
    """A button in the mode the table is in."""
    match turn.mode:
        case Mode.IDLE:
            return None
        case Mode.ERROR:
            return _on_error(turn, name)
        case Mode.LOT:
            _on_lot(turn, name, now)
        case Mode.PLAY:
            _on_play(turn, name, now)
        case Mode.OVER:
            _on_over(turn, name)
        case Mode.LEDGER:
            _on_ledger(turn, name, now)
        case Mode.DUTY_WHO:
            _on_duty_who(turn, name, now)
        case Mode.DUTY_WHY:
            _on_duty_why(turn, name, now)
        case Mode.TALLY:
            return _on_tally(turn, name, now)
    return None


def _rolled(turn: NapijTurn, value: int, now: float) -> None:
    """A throw of the dice: counted when a throw is wanted and nothing on show waits for its
    answer; made while a due debt is asked for, it is void and costs the penalty - but only
    once the ask has been on screen and said for a moment (D45)."""
    ok = turn.mode in (Mode.PLAY, Mode.LEDGER, Mode.DUTY_WHO, Mode.DUTY_WHY, Mode.TALLY) \
        and turn.play.started and turn.state.phase is Phase.THROW and turn.shown is None
    s = turn.state if turn.play.started else None
    if s is not None and turn.mode is Mode.PLAY and turn.is_computer(s.turn) \
            and turn.computer_throws():
        turn.told.notify(COMPUTER_THROWS)  # the computer's whole turn: never its throw
        turn.beep(Beep.ILLEGAL)
        return
    if ok and s is not None and s.due(s.turn):
        asked = turn.asked == (s.turn, len(turn.kinds)) and now - turn.asked_at >= ASK_GRACE
        ok = asked and turn.mode is Mode.PLAY and not turn.is_computer(s.turn)
    if not ok:  # a throw nobody asked for: always the same sentence and the same beep
        turn.told.notify(NOT_COUNTED)
        turn.beep(Beep.ILLEGAL)
        return
    turn.mode = Mode.PLAY
    turn.throw(value, now)


def _on_shown(turn: NapijTurn, name: Button, now: float) -> None:
    """A card or a drink on show: ● vypito (or dál), ◀ později where it is offered; any other
    key beeps and changes nothing."""
    shown = turn.shown
    assert shown is not None
    if name == Button.SELECT:
        actions = shown.drank
    elif name == Button.LEFT and shown.later:
        actions = shown.later
    elif name == Button.RIGHT and _turn_page(turn):
        return
    else:
        turn.beep(Beep.ILLEGAL)
        return
    for action in actions:  # each says itself: "Zelený se napil (spadlá kostka)."
        if GAME.why_not(turn.state, action) is None:
            turn.commit(action, now, announce=False)
    turn.next_shown(now)


def _turn_page(turn: NapijTurn) -> bool:
    """▶ on a card whose text takes more than one page: the next page (after the last, the
    first again); ``False`` when the text fits on one."""
    view = turn.view()
    pages = row_pages(view) if isinstance(view, NapijView) else 1
    if pages <= 1:
        return False
    turn.page = (turn.page + 1) % pages
    return True


def _on_error(turn: NapijTurn, name: Button) -> Request | None:
    if name == Button.SELECT:
        turn.mode = Mode.IDLE
        return Request.SETUP
    turn.beep(Beep.ILLEGAL)
    return None


def _on_lot(turn: NapijTurn, name: Button, now: float) -> None:
    if name == Button.SELECT:
        turn.begin_play(now)
    else:
        turn.beep(Beep.ILLEGAL)


def _on_play(turn: NapijTurn, name: Button, now: float) -> None:
    s = turn.state
    if turn.opening:  # answered on its banner; nothing else moves before it
        turn.beep(Beep.ILLEGAL)
        return
    who = turn.actor()
    computer = turn.is_computer(who)
    match s.phase:
        case Phase.THROW:
            _on_throw_phase(turn, name, now, who, computer)
        case Phase.PLAY:
            _on_plays(turn, name, now, computer)
        case Phase.CHOOSE:
            options = turn.card_choices()
            if name in (Button.LEFT, Button.RIGHT) and len(options) > 1 and not computer:
                turn.selected = cycle(turn.selected, len(options), name)
            elif name == Button.SELECT and options:
                turn.commit(options[min(turn.selected, len(options) - 1)], now)
            else:
                turn.beep(Beep.ILLEGAL)
        case Phase.DRAW:
            _on_draw(turn, name, now)


def _on_draw(turn: NapijTurn, name: Button, now: float) -> None:
    """A printed card: ◀ ▶ run through its numbers, ● shows its text, ● again takes it."""
    numbers = turn.state.rules.deck.numbers
    if turn.card_confirm:
        if name == Button.SELECT:
            turn.commit(Draw(numbers[turn.card_index]), now)
        elif name == Button.LEFT:
            turn.card_confirm = False
            turn.page = 0
        elif not (name == Button.RIGHT and _turn_page(turn)):
            turn.beep(Beep.ILLEGAL)
    elif name in (Button.LEFT, Button.RIGHT):  # held, ◀ ▶ run (hardware/buttons.py)
        turn.card_index = cycle(turn.card_index, len(numbers), name)
        if turn.ctx.prefs.voice:  # the number said; the next one cuts it short
            turn.ctx.announcer.say(str(numbers[turn.card_index]), cut=True)
    elif name == Button.SELECT:
        turn.card_confirm = True


def _on_plays(turn: NapijTurn, name: Button, now: float, computer: bool) -> None:
    """◀ ▶ through the plays, ● the one shown.  A computer's play is its first; ◀ ▶ show the
    others (read-only) and ● on one of them first goes back to the computer's."""
    plays = turn.plays()
    if name in (Button.LEFT, Button.RIGHT) and len(plays) > 1:
        turn.selected = cycle(turn.selected, len(plays), name)
    elif name == Button.SELECT and plays:
        if computer and turn.selected:
            turn.selected = 0  # confirm only what the computer plays, once it is shown
            return
        turn.commit(plays[min(turn.selected, len(plays) - 1)], now)
    else:
        turn.beep(Beep.ILLEGAL)


def _on_throw_phase(turn: NapijTurn, name: Button, now: float, who: int, computer: bool) -> None:
    s = turn.state
    if s.due(who):
        if name == Button.SELECT and not computer:
            turn.commit(Drank(who), now)  # "Zelený se napil a už nic nedluží."
        else:
            turn.beep(Beep.ILLEGAL)
        return
    bottle = can_declare_bottle(s) is Why.LEGAL and not computer
    if turn.manual_allowed():
        top = 7 if bottle else 6
        if name == Button.LEFT:
            turn.manual = (turn.manual - 2) % top + 1
        elif name == Button.RIGHT:
            turn.manual = turn.manual % top + 1
        elif name == Button.SELECT:
            if turn.manual == 7 and bottle:
                turn.commit(DeclareBottle(), now)
                turn.manual = 1
            else:
                turn.throw(min(turn.manual, 6), now)
        return
    if turn.bottle_ask and bottle:  # "Hrát tento tah lahví? ● ano, ◀ ne"
        if name == Button.SELECT:
            turn.commit(DeclareBottle(), now)
        elif name == Button.LEFT:
            turn.bottle_ask = False
        else:
            turn.beep(Beep.ILLEGAL)
        return
    if name == Button.RIGHT and bottle:
        turn.bottle_ask = True
    else:  # the dice throws; ● has nothing to confirm here
        turn.beep(Beep.ILLEGAL)


def _on_over(turn: NapijTurn, name: Button) -> None:
    if name == Button.SELECT:
        turn.mode, turn.list_index = Mode.TALLY, 0
    else:
        turn.beep(Beep.ILLEGAL)


def _colour_picked(turn: NapijTurn, name: Button, now: float) -> int | None:
    """◀ ▶ through the players and "Zpět" (the ledger, a duty's whom); ● on a player: that
    colour, ● on "Zpět": back to the game."""
    colours = turn.state.colours
    if name in (Button.LEFT, Button.RIGHT):
        turn.list_index = cycle(turn.list_index, len(colours) + 1, name)
    elif name == Button.SELECT:
        if turn.list_index < len(colours):
            return colours[turn.list_index]
        back(turn, now)
    return None


def _on_ledger(turn: NapijTurn, name: Button, now: float) -> None:
    c = _colour_picked(turn, name, now)
    if c is not None:
        if turn.state.debt(c):
            turn.commit(Drank(c), now)
            turn.mode = Mode.LEDGER
        else:
            turn.beep(Beep.ILLEGAL)


def _on_duty_who(turn: NapijTurn, name: Button, now: float) -> None:
    c = _colour_picked(turn, name, now)
    if c is not None:
        turn.duty_colour = c
        turn.mode, turn.list_index = Mode.DUTY_WHY, 0


def _on_duty_why(turn: NapijTurn, name: Button, now: float) -> None:
    if name in (Button.LEFT, Button.RIGHT):
        turn.list_index = cycle(turn.list_index, len(DUTY_WORDS) + 1, name)
    elif name == Button.SELECT:
        if turn.list_index < len(DUTY_WORDS):
            reason = DUTY_WORDS[turn.list_index][0]
            back(turn, now)
            turn.commit(Duty(turn.duty_colour, reason), now)
        else:
            turn.mode, turn.list_index = Mode.DUTY_WHO, 0


def _on_tally(turn: NapijTurn, name: Button, now: float) -> Request | None:
    if name == Button.SELECT:
        if turn.state.winner is not None:
            turn.mode = Mode.OVER
            return Request.SETUP
        back(turn, now)
    else:
        turn.beep(Beep.ILLEGAL)
    return None


def leave(turn: NapijTurn, now: float) -> bool:
    """A long ●: from the ledger, a duty's whom or what for and "Účet" back to the game (the
    shell's :class:`~companion.service.hosts.base.Leaving`).  On the game's own screens, a
    drink's banner among them, it opens the menu: there "Vrátit poslední akci" takes back a
    drop the dice saw by mistake, and a long ● from the menu comes back to the banner."""
    if not turn.play.started or turn.mode not in LISTS:
        return False
    back(turn, now)
    return True


def back(turn: NapijTurn, now: float) -> None:
    """From a list back to the game (or to the winner's screen)."""
    turn.mode = Mode.OVER if turn.state.winner is not None else Mode.PLAY
    turn.list_index = 0
    if turn.shown is not None and not turn.shown.live(turn.state):
        turn.next_shown(now)  # the ledger settled what the banner asked for
