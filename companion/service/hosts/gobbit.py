"""Gobbit at the table: referee mode (real cards) and the virtual deck, one host.

The set-up's game line chooses the mode ("Gobbit (rozhodčí)" / "Gobbit
(balíček)"); the options are the seats and the additional rules.  The slap
pads are claimed through the context's ``want_pads(seats)`` when a game starts
and released when the table leaves Gobbit.  Referee mode keeps a touch log and
rules disputes (menu: "Spor", "Závod Gobbit!", "Karty na stole"); the virtual
deck deals (the companion's seeded shuffle) and rules every touch as it comes.

The journal keeps the set-up (header) and, with the virtual deck, every applied
action, so a game dealt by the companion survives a pulled plug exactly.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from companion.engines.gobbit.cards import Rule, standard_deck
from companion.engines.gobbit.judge import Touch
from companion.engines.gobbit.rules import Action, Discard, Finish, Flip, Touches
from companion.engines.game import Record
from companion.inputs.events import ButtonPress, Input, PadEvent
from companion.referee.model import RefereeModel
from companion.referee.virtual import VirtualDeckModel, shuffle_order
from companion.ui.views import MessageView, RefereeView, View

from .base import HostContext, Option, Request, yes_no

log = logging.getLogger(__name__)

CARDS, VIRTUAL = "cards", "virtual"
RULE_LABEL = {Rule.GOBBIT.value: "Pravidlo Gobbit!", Rule.GHOST.value: "Duch",
              Rule.GORILLA.value: "Gorila"}
RULES = (Rule.GOBBIT.value, Rule.GHOST.value, Rule.GORILLA.value)


def action_record(action: Action) -> Record:
    if isinstance(action, Flip):
        return {"t": "flip", "seat": action.seat}
    if isinstance(action, Discard):
        return {"t": "discard", "seat": action.seat}
    if isinstance(action, Finish):
        return {"t": "finish"}
    return {"t": "touches", "touches": [[t.seat, t.target, t.ms] for t in action.touches]}


def record_action(record: Record) -> Action:
    kind = record.get("t")
    if kind == "flip":
        return Flip(int(record["seat"]))
    if kind == "discard":
        return Discard(int(record["seat"]))
    if kind == "finish":
        return Finish()
    if kind == "touches":
        return Touches(tuple(Touch(int(s), t if t == "g" else int(t), float(ms))
                             for s, t, ms in record["touches"]))
    raise ValueError(f"unknown Gobbit record {kind!r}")


class Mode(StrEnum):
    IDLE = "idle"  # no game yet (the shell shows the set-up)
    PLAY = "play"
    NO_PADS = "no-pads"  # the pads could not be claimed: say so, keep refereeing by buttons


class GobbitHost:
    title = "Gobbit"

    def __init__(self, ctx: HostContext, table: str = CARDS) -> None:
        self.ctx = ctx
        self.table = table if table in (CARDS, VIRTUAL) else CARDS
        self.seats = int(ctx.defaults.get("seats", 4))
        self.rules: set[str] = set(RULES)
        self.expert = False
        self.mode = Mode.IDLE
        self.cards: RefereeModel | None = None
        self.virtual: VirtualDeckModel | None = None
        self.journaled = 0
        self.pads_error = ""

    # --- set-up -------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        opts = [Option("seats", "Místa", (2, 3, 4), ("2", "3", "4"), self.seats)]
        opts += [yes_no(f"rule:{r}", RULE_LABEL[r], r in self.rules) for r in RULES]
        opts.append(yes_no("expert", "Varianta Expert", self.expert))
        return opts

    def set_option(self, key: str, value: Any) -> str | None:
        if key == "table":
            self.table = str(value) if value in (CARDS, VIRTUAL) else CARDS
        elif key == "seats":
            self.seats = int(value)
        elif key.startswith("rule:"):
            rule = key[5:]
            self.rules = self.rules | {rule} if value else self.rules - {rule}
        elif key == "expert":
            self.expert = bool(value)
        return None

    def header(self, order: list[int] | None = None) -> Record:
        rec: Record = {"t": "game", "game": "gobbit", "mode": self.table,
                       "seats": self.seats, "rules": sorted(self.rules), "expert": self.expert}
        if order is not None:
            rec["order"] = order
        return rec

    def start(self, now: float) -> None:
        self._start()

    def resume(self, records: list[Record], now: float) -> bool:
        h = records[0]
        try:
            self.table = str(h["mode"]) if h.get("mode") in (CARDS, VIRTUAL) else CARDS
            self.seats = int(h["seats"])
            self.rules = {str(r) for r in h.get("rules", [])}
            self.expert = bool(h.get("expert", False))
            self._start(order=h.get("order"), actions=[record_action(r) for r in records[1:]])
        except (KeyError, ValueError, TypeError) as exc:
            log.error("the Gobbit journal cannot be replayed (%s); back to the set-up", exc)
            self.mode, self.cards, self.virtual = Mode.IDLE, None, None
            return False
        return True

    def _start(self, order: list[int] | None = None, actions: list[Action] | None = None) -> None:
        if self.table == VIRTUAL:
            if order is None:
                order = shuffle_order(len(standard_deck(frozenset(self.rules))), self.ctx.rng)
                self.ctx.journal.replace([self.header(order)])
            model = VirtualDeckModel(self.seats, order, rules=self.rules, expert=self.expert,
                                     actions=actions or ())
            self.virtual, self.cards = model, None
            self.journaled = len(model.actions)
        else:
            if actions is None:
                self.ctx.journal.replace([self.header()])
            self.cards = RefereeModel(self.seats, rules=self.rules, expert=self.expert)
            self.virtual = None
        self.mode = Mode.PLAY
        try:
            self.ctx.want_pads(self.seats)
            self.pads_error = ""
        except Exception as exc:  # pins taken or missing: say so, keep refereeing by buttons
            log.error("slap pads unavailable: %s", exc)
            self.pads_error = "Podložky nejdou připojit."
            self.mode = Mode.NO_PADS

    def stop(self) -> None:
        self.ctx.want_pads(None)
        self.mode, self.cards, self.virtual = Mode.IDLE, None, None

    def _journal_new_actions(self) -> None:
        """Append the virtual deck's newly applied actions (fsynced) before the screen shows them."""
        if self.virtual is None:
            return
        for action in self.virtual.actions[self.journaled:]:
            self.ctx.journal.append(action_record(action))
        self.journaled = len(self.virtual.actions)

    # --- play ------------------------------------------------------------------------

    @property
    def in_game(self) -> bool:
        return self.mode is not Mode.IDLE

    def handle(self, event: Input, now: float) -> Request | None:
        if isinstance(event, PadEvent):
            if self.cards is not None:
                self.cards.on_pad_event(event.event)
            elif self.virtual is not None:
                self.virtual.on_pad_event(event.event, now)  # judged now, applied by tick()
        elif isinstance(event, ButtonPress) and self.mode is Mode.PLAY:
            if self.cards is not None:
                self.cards.on_button(event.name)
            elif self.virtual is not None:
                self.virtual.on_button(event.name, now)
                self._journal_new_actions()
        return None  # the dice plays no part in Gobbit

    def tick(self, now: float) -> None:
        if self.virtual is not None and self.mode is Mode.PLAY:
            # settle a moment after its quiet time; the journal first, then the screen
            self.virtual.poll(now)
            self._journal_new_actions()

    def next_deadline(self) -> float | None:
        """When a virtual-deck moment settles (the loop redraws then)."""
        if self.virtual is not None and self.mode is Mode.PLAY:
            return self.virtual.settles_at
        return None

    def animated(self) -> bool:
        return False  # referee screens change on inputs only

    def notify(self, line: str) -> None:
        log.info("table: %s", line)

    def view(self) -> View:
        if self.mode is Mode.NO_PADS:
            return MessageView("Podložky", (self.pads_error, "Zkontroluj zapojení",
                                            "a mapu pinů."), "dlouze ● = nabídka")
        model: Any = self.cards if self.cards is not None else self.virtual
        assert model is not None
        return RefereeView(model.screen())

    # --- menu ---------------------------------------------------------------------------

    def undo(self, now: float) -> bool:
        return False

    def menu_items(self) -> Sequence[tuple[str, str]]:
        if self.cards is None:
            return ()
        return (("dispute", "Spor: kdo byl první"), ("race", "Závod Gobbit!"),
                ("cards", "Karty na stole"))

    def on_menu(self, key: str, now: float) -> None:
        if self.cards is None:
            return
        if key == "dispute":
            self.cards.open_dispute()
        elif key == "race":
            self.cards.open_race()
        elif key == "cards":
            self.cards.open_cards()

    def why(self) -> str | None:
        return None
