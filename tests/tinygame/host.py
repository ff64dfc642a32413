"""The tiny race at the table: a host on the base every host inherits (:mod:`companion.service.hosts.host`).

It writes only what is its own: the set-up's one option, start, the inputs and the screen
(and, to show the hook, its own question before undo); resume, undo, the event lines, the
empty menu and the missing timers are the base's defaults."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engines.game import Record
from companion.inputs.events import Button, ButtonPress, Input, Rolled
from companion.service.hosts.base import NOT_COUNTED, Expect, HostContext, Option, Request
from companion.service.hosts.host import JournaledHost
from companion.service.hosts.outcome import NOTHING, Outcome, input_mark
from companion.ui.views import MessageView, View
from tests.tinygame.engine import GAME, NAMES, Action, Setup, State, Step


class RaceHost(JournaledHost[State, Action, Any, Setup]):
    title = "Závod"

    def __init__(self, ctx: HostContext, mode: str = "") -> None:
        super().__init__(ctx, GAME)
        self.goal = 12
        self.selected = 0
        self.said: tuple[str, ...] = ()
        """What just happened, a line per event (a long one wraps: MessageView turns pages)."""

    def options(self) -> Sequence[Option]:
        return [Option("goal", "Cíl", (12, 20), ("12", "20"), self.goal)]

    def set_option(self, key: str, value: Any) -> str | None:
        if key == "goal":
            self.goal = int(value)
        return None

    def start(self, now: float) -> None:
        self.play.start(Setup(self.goal))  # the journal first (a refused write stops here)
        self.said = ("Závod začíná.",)
        self.event_line = self.said[0]

    def _do(self, action: Action, mark: Record | None = None) -> None:
        events = self.play.commit(action, mark)  # on disk before the screen shows it
        self.said = tuple(GAME.describe(e, self.play.current()) for e in events)
        self.event_line = " ".join(self.said)
        self.selected = 0

    def handle(self, event: Input, now: float) -> Outcome:
        if not self.play.started:  # the shell passes the dice's news in the set-up too
            return NOTHING
        state = self.play.current()
        match event:
            case Rolled(value=value) if GAME.chance(state) is None:
                self.notify(NOT_COUNTED)
                return Outcome(counted=False)
            case Rolled(value=value):
                mark = input_mark(event)
                self._do(GAME.chance_action(state, value), mark)
                return Outcome(journaled=mark is not None)
            case ButtonPress(name=Button.SELECT) if state.winner is not None:
                return Outcome(request=Request.SETUP)
            case ButtonPress(name=name) if state.winner is None and state.roll is not None:
                moves = GAME.legal_actions(state)
                if name in (Button.LEFT, Button.RIGHT) and moves:
                    self.selected = (self.selected + 1) % len(moves)
                elif name == Button.SELECT and moves:
                    self._do(moves[self.selected])
        return NOTHING

    def view(self) -> View:
        s = self.play.current()
        lines = [f"{NAMES[i]}: pole {p} z {s.goal}" for i, p in enumerate(s.pawns)]
        if s.winner is not None:
            return MessageView("Závod", (*lines, *self.said), "● nová hra")
        if s.roll is None:
            prompt = f"{NAMES[s.turn]}: hoď"
        else:
            moves = GAME.legal_actions(s)
            step = moves[self.selected]
            assert isinstance(step, Step)
            prompt = f"{NAMES[s.turn]}: o {step.fields}?"
        return MessageView("Závod", (*lines, *self.said), prompt)

    def notify(self, line: str) -> None:
        super().notify(line)
        self.said = (line,)

    def facts(self) -> Any:
        """The race for the phone view (:mod:`.phone`); ``None`` before a game."""
        from tests.tinygame.phone import RaceFacts  # the web's types: imported when the phones ask

        return RaceFacts(self.play.current(), self.said) if self.play.started else None

    def expects(self) -> Expect | None:
        """What the table should do next (the conformance suite's robot asks)."""
        if not self.play.started:
            return None
        s = self.play.current()
        if s.winner is not None:
            return Expect.OVER
        return Expect.ROLL if s.roll is None else Expect.CHOOSE

    def undo_question(self, before: State, action: Action,
                      record: Record) -> tuple[str, str] | None:
        return ("Vrátit?", f"Záznam {record['t']} se smaže.")
