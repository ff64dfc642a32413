"""Gobbit at the table: referee mode (real cards) and the virtual deck, one host.

The set-up's game line chooses the mode ("Gobbit (rozhodčí)" / "Gobbit
(balíček)"); the options are the seats and the additional rules.  The slap
pads are claimed through the context's ``want_pads(seats)`` when a game starts
and released when the table leaves Gobbit.  Referee mode keeps a touch log and
rules disputes on its own screens (:mod:`companion.games.gobbit.referee.model`; the menu's
"Záznam doteků" goes back to the log from anywhere); the virtual
deck deals (the companion's seeded shuffle) and rules every touch as it comes.
Both judge with the pads' timing uncertainty (``ctx.pad_timing``, decision D28),
and both offer "Kalibrace podložek" (:mod:`companion.games.gobbit.referee.calibration`): while
it runs, the pads' touches go to it and not to the game.

The journal keeps the set-up (header) and, with the virtual deck, every applied
action, so a game dealt by the companion survives a pulled plug exactly; every
:data:`~.base.CHECKPOINT_EVERY` records a checkpoint (the table in the engine's notation)
goes with the record, so a record the journal loses in both its files costs at most the
records back to the last checkpoint, and the game resumes from there.  Referee mode
journals only the set-up (the touch log and the entered cards are not kept).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from companion.devices.pads.calibration import Calibration
from companion.devices.pads.timing import PadTiming
from companion.engines.errors import RulesError
from companion.engines.game import CHECKPOINT_STATE, Record
from companion.games.gobbit.engine.cards import Rule, standard_deck
from companion.games.gobbit.engine.game import (
    GAME,
    Setup,
    action_record,
    record_action,
    with_deal_record,
)
from companion.games.gobbit.engine.rules import Action, Deal, Discard, Flip, State, Touches
from companion.games.gobbit.facts import GobbitFacts, RefereeFacts
from companion.games.gobbit.referee.calibration import CalibrationModel
from companion.games.gobbit.referee.model import RefereeModel
from companion.games.gobbit.referee.virtual import VirtualDeckModel, shuffle_order
from companion.games.gobbit.screens import RefereeView
from companion.inputs.events import ButtonPress, Dropped, Input, PadEvent, Rolled
from companion.inputs.pads import PadChannels, table_pads
from companion.service.hosts.base import (
    RETRY_AFTER,
    Expect,
    HostContext,
    Option,
    OptionKey,
    checkpoint_at,
    header_of,
    setup_defaults,
    yes_no,
)
from companion.service.hosts.host import BaseHost
from companion.service.hosts.outcome import NOTHING, Outcome
from companion.ui.views import MessageView, View

log = logging.getLogger(__name__)

CARDS, VIRTUAL = "cards", "virtual"
RULE_LABEL = {Rule.GOBBIT.value: "Pravidlo Gobbit!", Rule.GHOST.value: "Duch",
              Rule.GORILLA.value: "Gorila"}
RULES = (Rule.GOBBIT.value, Rule.GHOST.value, Rule.GORILLA.value)
RULE = "rule"
"""The family of the set-up's lines of the additional rules (``rule:ghost``)."""


class Mode(StrEnum):
    IDLE = "idle"  # no game yet (the shell shows the set-up)
    PLAY = "play"
    NO_PADS = "no-pads"  # the pads could not be claimed: say so, keep refereeing by buttons


class GobbitHost(BaseHost):
    title = "Gobbit"

    def __init__(self, ctx: HostContext, table: str = CARDS) -> None:
        super().__init__(ctx)
        self.table = table if table in (CARDS, VIRTUAL) else CARDS
        self.seats = int(setup_defaults(ctx, GAME.name, ("seats",)).get("seats", 4))
        self.rules: set[str] = set(RULES)
        self.expert = False
        self.mode = Mode.IDLE
        self.cards: RefereeModel | None = None
        self.virtual: VirtualDeckModel | None = None
        self.calibration: CalibrationModel | None = None
        self.pad_channels: PadChannels | None = None
        self.pads_error = ""
        self._pads_for: int | None = None
        """The seats the pads are claimed for (``None``: not claimed by this host)."""
        self.retry_at = 0.0
        self._header: Record = {}
        """The journal's header (the base of a checkpoint)."""
        self._count = 0
        """Records in the journal (the header included): where the next checkpoint goes."""

    # --- set-up -------------------------------------------------------------------

    def options(self) -> Sequence[Option]:
        seats = tuple(range(2, int(self.ctx.defaults.get("max_seats", 4)) + 1))
        opts = [Option("seats", "Místa", seats, tuple(map(str, seats)), self.seats)]
        opts += [yes_no(OptionKey(RULE, r).text, RULE_LABEL[r], r in self.rules) for r in RULES]
        opts.append(yes_no("expert", "Varianta Expert", self.expert))
        return opts

    def set_option(self, key: str, value: Any) -> str | None:
        match OptionKey.parse(key):
            case OptionKey("table"):
                self.table = str(value) if value in (CARDS, VIRTUAL) else CARDS
            case OptionKey("seats"):
                self.seats = int(value)
            case OptionKey(family, rule) if family == RULE:
                self.rules = self.rules | {rule} if value else self.rules - {rule}
            case OptionKey("expert"):
                self.expert = bool(value)
        return None

    def header(self) -> Record:
        setup = Setup(self.seats, frozenset(self.rules), self.expert)
        return {**GAME.setup_record(setup), "mode": self.table}

    def start(self, now: float) -> None:
        if self.table == VIRTUAL:
            order = shuffle_order(len(standard_deck(frozenset(self.rules))), self.ctx.rng)
            journaled = [self.header(), action_record(Deal(tuple(order)))]
            self.ctx.journal.replace(journaled)
            self._open(order, [])
        else:
            journaled = [self.header()]
            self.ctx.journal.replace(journaled)
            self._open(None, [])
        self._header, self._count = journaled[0], len(journaled)

    def resume(self, records: list[Record], now: float) -> bool:
        count = len(records)
        records = with_deal_record(records)
        h = records[0]
        try:
            setup = GAME.setup_from_record(h)
            self.table = str(h["mode"]) if h.get("mode") in (CARDS, VIRTUAL) else CARDS
            self.seats, self.rules, self.expert = setup.seats, set(setup.rules), setup.expert
            order: list[int] | None = None
            start: State | None = None
            actions: list[Action] = []
            if self.table == VIRTUAL:
                saved = h.get(CHECKPOINT_STATE)
                if isinstance(saved, str):  # a checkpoint: the table after the lost records
                    start = GAME.parse(saved)
                    actions = [record_action(r) for r in records[1:]]
                else:
                    deal = record_action(records[1]) if len(records) > 1 else None
                    if not isinstance(deal, Deal):
                        raise ValueError("the virtual deck's journal has no deal")
                    order = list(deal.order)
                    actions = [record_action(r) for r in records[2:]]
            self._open(order, actions, start)
        except (RulesError, KeyError, ValueError, TypeError) as exc:
            log.error("the Gobbit journal cannot be replayed (%s); back to the set-up", exc)
            self.mode, self.cards, self.virtual = Mode.IDLE, None, None
            return False
        self._header, self._count = header_of(h), count
        return True

    def _record(self, action: Action, after: State) -> None:
        checkpoint = checkpoint_at(self._header, self._count, lambda: GAME.format(after))
        self.ctx.journal.append(action_record(action), checkpoint)
        self._count += 1

    def uncertainty_ms(self) -> float:
        """The pads' timing uncertainty in force (declared or calibrated; 0 without pads)."""
        timing = self.ctx.pad_timing
        return timing.current().uncertainty_ms if timing is not None else 0.0

    def _open(self, order: list[int] | None, actions: list[Action],
              start: State | None = None) -> None:
        self.calibration = None
        if order is not None or start is not None:
            self.virtual = VirtualDeckModel(self.seats, order, rules=self.rules,
                                            expert=self.expert, actions=actions,
                                            record=self._record, start=start,
                                            uncertainty_ms=self.uncertainty_ms())
            self.cards = None
        else:
            self.cards = RefereeModel(self.seats, rules=self.rules, expert=self.expert,
                                      uncertainty_ms=self.uncertainty_ms())
            self.virtual = None
        self.mode = Mode.PLAY
        if self._pads_for == self.seats:
            return  # the same table again (an undo): the pads stay as they are
        try:
            self.ctx.want_pads(self.seats)
            self.pads_error, self._pads_for = "", self.seats
        except Exception as exc:  # pins taken or missing: say so, keep refereeing by buttons
            log.error("slap pads unavailable: %s", exc)
            self.pads_error, self._pads_for = "Podložky nejdou připojit.", None
            self.mode = Mode.NO_PADS

    def stop(self) -> None:
        self.ctx.want_pads(None)
        self._pads_for = None
        self.mode, self.cards, self.virtual = Mode.IDLE, None, None
        self.calibration = None

    # --- play ------------------------------------------------------------------------

    @property
    def in_game(self) -> bool:
        return self.mode is not Mode.IDLE

    def handle(self, event: Input, now: float) -> Outcome:
        match event:
            case PadEvent(event=PadChannels() as channels):
                self.pad_channels = channels  # the pad hub's latest word on its channels
        if self.calibration is not None:
            match event:
                case PadEvent(event=signal):
                    self.calibration.on_pad_event(signal)
                case ButtonPress(name=name, long=False):
                    self.calibration.on_button(name)
                    if self.calibration.done:
                        self.calibration = None
            return NOTHING
        match event:
            case PadEvent(event=signal):
                if self.cards is not None:
                    self.cards.on_pad_event(signal)
                elif self.virtual is not None:
                    self.virtual.on_pad_event(signal, now)  # judged now, applied by tick()
            case ButtonPress(name=name) if self.mode is Mode.PLAY:
                if self.cards is not None:
                    self.cards.on_button(name)
                elif self.virtual is not None:
                    self.virtual.on_button(name, now)
            case Rolled() | Dropped():
                return Outcome(counted=False)  # the dice plays no part in Gobbit
        return NOTHING

    def tick(self, now: float) -> None:
        if self.virtual is not None and self.mode is Mode.PLAY and now >= self.retry_at:
            # settle a moment after its quiet time; the journal first, then the screen (a
            # refusal: the moment waits for the next try)
            with self.retry_later(self._retry_at, now + RETRY_AFTER):
                self.virtual.poll(now)

    def _retry_at(self, when: float) -> None:
        self.retry_at = when

    def next_deadline(self) -> float | None:
        """When a virtual-deck moment settles (the loop redraws then)."""
        if self.virtual is not None and self.mode is Mode.PLAY:
            settles = self.virtual.settles_at
            return None if settles is None else max(settles, self.retry_at)
        return None

    def notify(self, line: str) -> None:
        log.info("table: %s", line)

    def uses_pads(self) -> bool:
        """Gobbit is played with the slap pads (:class:`~.base.UsingPads`)."""
        return True

    def expects(self) -> Expect | None:
        """What the table should do next (:class:`~.base.Expecting`) with the virtual deck:
        wait for a moment to settle, ● to flip, or nothing more once the game ended.  With
        real cards the companion only referees what the table does: ``None``."""
        v = self.virtual
        if v is None or self.mode is not Mode.PLAY or self.calibration is not None:
            return None
        if v.state.over:
            return Expect.OVER
        return Expect.WAIT if v.settles_at is not None else Expect.CONFIRM

    def facts(self) -> GobbitFacts | RefereeFacts | None:
        """The game as values: the virtual deck's state and last (or running) moment with its
        ruling, or referee mode's touch log, latest moment and the entered cards."""
        if self.virtual is not None:
            v = self.virtual
            if v.moment:
                return GobbitFacts(v.state, tuple(v.moment), v.provisional, True,
                                   v.uncertainty_ms, tuple(v.history))
            return GobbitFacts(v.state, v.last_touches, v.last_ruling, False, v.uncertainty_ms,
                               tuple(v.history), tuple(sorted(v.judged_tops.items())))
        if self.cards is not None:
            c = self.cards
            moment = tuple(c.latest_moment())
            if not c.ready(moment):  # the table has not answered what the ruling needs yet
                moment = ()
            shown = c.shown_ruling()
            return RefereeFacts(c.seats, tuple(c.log), moment, c.situation(moment),
                                c.cards.graveyard, tuple(c.confirmed),
                                shown[1] if shown else (), shown[0] if shown else None,
                                c.summary())
        return None

    def view(self) -> View:
        if self.mode is Mode.NO_PADS:
            return MessageView("Podložky", (self.pads_error, "Zkontroluj zapojení",
                                            "a mapu pinů."), "dlouze ● = nabídka")
        if self.calibration is not None:
            return RefereeView(self.calibration.screen())
        model: RefereeModel | VirtualDeckModel | None = (
            self.cards if self.cards is not None else self.virtual)
        assert model is not None
        return RefereeView(model.screen())

    # --- menu ---------------------------------------------------------------------------

    def undo_preview(self) -> tuple[str, str] | None:
        """With the virtual deck: the last flip, ruling or end of the game (never the deal)."""
        if self.virtual is None or not self.virtual.actions:
            return None
        last = self.virtual.actions[-1]
        if isinstance(last, Flip):
            return ("Vrátit otočení?", f"Hráč {last.seat} otočil kartu. Vrátí ji zpět na "
                                       "balíček a otáčí znovu.")
        if isinstance(last, Touches):
            return ("Vrátit verdikt?", "Poslední doteky a jejich verdikt se smažou, kupičky "
                                       "se vrátí, jak byly.")
        if isinstance(last, Discard):
            return ("Vrátit odhození?", f"Hráč {last.seat} si vezme zpět kartu ze hřbitova.")
        return ("Vrátit konec hry?", "Hra bude pokračovat, jako by neskončila.")

    def undo(self, now: float) -> bool:
        """With the virtual deck, take back the last flip or ruling (not the deal)."""
        if self.virtual is None:
            return False
        stored = self.ctx.journal.load()
        records = with_deal_record(stored)
        if not records or len(records) <= (1 if CHECKPOINT_STATE in records[0] else 2):
            return False  # the deal (or the checkpoint the game resumed from) stays
        self.ctx.journal.keep(len(stored) - 1)
        return self.resume(with_deal_record(stored[:-1]), now)

    def menu_items(self) -> Sequence[tuple[str, str]]:
        calibrate: tuple[tuple[str, str], ...] = ()
        if self.ctx.pad_timing is not None and self.mode is Mode.PLAY:
            calibrate = (("calibrate", "Kalibrace podložek"),)
        if self.cards is None:
            return calibrate
        return (("log", "Záznam doteků"), *calibrate)

    def on_menu(self, key: str, now: float) -> None:
        if key == "calibrate":
            self.start_calibration()
            return
        self.calibration = None  # another screen of the game was asked for: leave it unsaved
        if self.cards is None:
            return
        if key == "log":
            self.cards.to_log()

    # --- calibration --------------------------------------------------------------------------

    def start_calibration(self) -> None:
        """The pads' touches go to a calibration until it is saved or left."""
        if self.ctx.pad_timing is None or self.mode is not Mode.PLAY:
            return
        self.calibration = CalibrationModel(
            table_pads(self.seats), self._save_calibration, before_ms=self.uncertainty_ms(),
            declared_ms=self.ctx.pad_timing.declared.uncertainty_ms, channels=self.pad_channels)

    def _save_calibration(self, cal: Calibration) -> PadTiming:
        book = self.ctx.pad_timing
        assert book is not None
        timing = book.store(cal.offsets_ms, cal.spread_ms, cal.slaps,
                            time.strftime("%Y-%m-%dT%H:%M:%S"))
        for model in (self.cards, self.virtual):
            if model is not None:
                model.uncertainty_ms = timing.uncertainty_ms
        log.info("pads calibrated: uncertainty %.2f ms from %d slaps", timing.uncertainty_ms,
                 cal.slaps)
        return timing
