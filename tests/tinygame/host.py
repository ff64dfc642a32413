"""The tiny race at the table: a host written only against the shell's GameHost protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engines.errors import RulesError
from companion.engines.game import Record
from companion.inputs.events import ButtonPress, Input, Rolled
from companion.service.hosts.base import Expect, HostContext, JournaledGame, Option, Request
from companion.ui.views import MessageView, View

from .engine import GAME, NAMES, Action, Setup, State, Step


class RaceHost:
    title = "Závod"

    def __init__(self, ctx: HostContext, mode: str) -> None:
        self.ctx = ctx
        self.goal = 12
        self.play: JournaledGame[State, Action, Any, Setup] = JournaledGame(GAME, ctx.journal)
        self.selected = 0
        self.said: tuple[str, ...] = ()
        """What just happened, a line per event (a line may not be wider than the panel)."""

    def options(self) -> Sequence[Option]:
        return [Option("goal", "Cíl", (12, 20), ("12", "20"), self.goal)]

    def set_option(self, key: str, value: Any) -> str | None:
        if key == "goal":
            self.goal = int(value)
        return None

    def start(self, now: float) -> None:
        self.play.start(Setup(self.goal))
        self.said = ("Závod začíná.",)

    def resume(self, records: list[Record], now: float) -> bool:
        try:
            self.play.resume(records)
        except RulesError:
            return False
        return True

    def stop(self) -> None:
        return None

    @property
    def in_game(self) -> bool:
        return self.play.started

    def _do(self, action: Action) -> None:
        events = self.play.commit(action)
        self.said = tuple(GAME.describe(e, self.play.current()) for e in events)
        self.selected = 0

    def handle(self, event: Input, now: float) -> Request | None:
        state = self.play.current()
        if isinstance(event, Rolled):
            if GAME.chance(state) is None:
                self.notify("Tenhle hod se nepočítá.")
            else:
                self._do(GAME.chance_action(state, event.value))
        elif isinstance(event, ButtonPress):
            if state.winner is not None:
                return Request.SETUP if event.name == "select" else None
            moves = GAME.legal_actions(state) if state.roll is not None else []
            if event.name in ("left", "right") and moves:
                self.selected = (self.selected + 1) % len(moves)
            elif event.name == "select" and moves:
                self._do(moves[self.selected])
        return None

    def tick(self, now: float) -> None:
        return None

    def next_deadline(self) -> float | None:
        return None

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

    def facts(self) -> Any:
        """The race for the phone view (:mod:`.phone`); ``None`` before a game."""
        from .phone import RaceFacts  # the web's types: imported when the phones ask

        return RaceFacts(self.play.current(), self.said) if self.play.started else None

    def expects(self) -> Expect | None:
        """What the table should do next (the conformance suite's robot asks)."""
        if not self.play.started:
            return None
        s = self.play.current()
        if s.winner is not None:
            return Expect.OVER
        return Expect.ROLL if s.roll is None else Expect.CHOOSE

    def animated(self) -> bool:
        return False

    def notify(self, line: str) -> None:
        self.said = (line,)

    def undo_preview(self) -> tuple[str, str] | None:
        records = self.ctx.journal.load()
        if len(records) <= 1:
            return None
        return ("Vrátit?", f"Záznam {records[-1]['t']} se smaže.")

    def undo(self, now: float) -> bool:
        return self.play.undo() is not None

    def menu_items(self) -> Sequence[tuple[str, str]]:
        return ()

    def on_menu(self, key: str, now: float) -> None:
        return None

    def why(self) -> str | None:
        return None
