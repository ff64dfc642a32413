"""Gobbit at the table: the service's host for referee mode (real cards) and the virtual deck.

Same shape as the Člověče controller (:class:`companion.service.table.Table`):
``handle(event, now)``, ``tick(now)``, ``view()``.  Set-up chooses the mode,
the seats and the additional rules; long ● opens the menu (dispute, "Gobbit!"
race, entering the top cards, new game, shut down).  The slap pads are claimed
through ``want_pads(seats)`` when a game starts and released with
``want_pads(None)``.

The journal keeps the set-up (header) and, in virtual-deck mode, every applied
action, so that a game dealt by the companion survives a pulled plug exactly.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from companion.engines.gobbit.cards import Rule
from companion.engines.gobbit.game import action_record, record_action
from companion.engines.gobbit.rules import Action
from companion.inputs.events import ButtonPress, Input, PadEvent
from companion.referee.model import RefereeModel
from companion.referee.virtual import VirtualDeckModel, shuffle_order
from companion.ui.views import ListView, MessageView, RefereeView, View

from .controls import ShutdownMixin, pick
from .journal import Journal, Record

log = logging.getLogger(__name__)

MODES = ("cards", "virtual")
MODE_LABEL = {"cards": "Gobbit (rozhodčí)", "virtual": "Gobbit (balíček)"}
RULE_LABEL = {Rule.GOBBIT.value: "Pravidlo Gobbit!", Rule.GHOST.value: "Duch",
              Rule.GORILLA.value: "Gorila"}

PadsWanted = Callable[[int | None], None]


class RefereeTable(ShutdownMixin):
    def __init__(self, journal: Journal, *, seats: int = 4, rng: random.Random | None = None,
                 want_pads: PadsWanted | None = None, contrast: Callable[[], int] | None = None,
                 resume: bool = True) -> None:
        self.journal = journal
        self.rng = rng or random.SystemRandom()
        self.want_pads = want_pads or (lambda seats: None)
        self._contrast = contrast or (lambda: 255)
        self.seats = seats
        self.mode_name = "cards"
        self.rules: set[str] = {Rule.GOBBIT.value, Rule.GHOST.value, Rule.GORILLA.value}
        self.expert = False
        self.selected = 0
        self.menu_index = 0
        self.mode = "setup"  # setup | play | menu | rules | confirm-off | bye
        self.cards: RefereeModel | None = None
        self.virtual: VirtualDeckModel | None = None
        self.journaled = 0
        self.pads_error = ""
        self.browser: Any = None  # the rules browser while mode == "rules"
        self._rules_back = "play"
        self.switch_to: str | None = None
        self.quit_requested = False
        self.shutdown_requested = False
        if resume:
            self._resume()

    # --- start and resume ---------------------------------------------------------

    def header(self, order: list[int] | None = None) -> Record:
        rec: Record = {"t": "game", "game": "gobbit", "mode": self.mode_name,
                       "seats": self.seats, "rules": sorted(self.rules), "expert": self.expert}
        if order is not None:
            rec["order"] = order
        return rec

    def _resume(self) -> None:
        records = self.journal.load()
        if not records or records[0].get("t") != "game" or records[0].get("game") != "gobbit":
            return
        h = records[0]
        try:
            self.mode_name = str(h["mode"]) if h.get("mode") in MODES else "cards"
            self.seats = int(h["seats"])
            self.rules = {str(r) for r in h.get("rules", [])}
            self.expert = bool(h.get("expert", False))
            self._start(order=h.get("order"), actions=[record_action(r) for r in records[1:]])
        except (KeyError, ValueError, TypeError) as exc:
            log.error("the Gobbit journal cannot be replayed (%s); back to the set-up", exc)
            self.mode, self.cards, self.virtual = "setup", None, None

    def _start(self, order: list[int] | None = None, actions: list[Action] | None = None) -> None:
        if self.mode_name == "virtual":
            if order is None:
                from companion.engines.gobbit.cards import standard_deck

                order = shuffle_order(len(standard_deck(frozenset(self.rules))), self.rng)
                self.journal.replace([self.header(order)])
            model = VirtualDeckModel(self.seats, order, rules=self.rules, expert=self.expert,
                                     actions=actions or ())
            self.virtual, self.cards = model, None
            self.journaled = len(model.actions)
        else:
            if actions is None:
                self.journal.replace([self.header()])
            self.cards = RefereeModel(self.seats, rules=self.rules, expert=self.expert)
            self.virtual = None
        self.mode = "play"
        try:
            self.want_pads(self.seats)
            self.pads_error = ""
        except Exception as exc:  # pins taken or missing: say so, keep refereeing by buttons
            log.error("slap pads unavailable: %s", exc)
            self.pads_error = "Podložky nejdou připojit."

    def _journal_new_actions(self) -> None:
        """Append the virtual deck's newly applied actions (fsynced) before the screen shows them."""
        if self.virtual is None:
            return
        for action in self.virtual.actions[self.journaled:]:
            self.journal.append(action_record(action))
        self.journaled = len(self.virtual.actions)

    # --- inputs ---------------------------------------------------------------------------

    def handle(self, event: Input, now: float) -> None:
        if isinstance(event, PadEvent):
            if self.cards is not None:
                self.cards.on_pad_event(event.event)
            elif self.virtual is not None:
                self.virtual.on_pad_event(event.event, now)  # judged now, applied by tick()
            return
        if not isinstance(event, ButtonPress):
            return  # the dice plays no part in Gobbit
        if event.name == "help" and self.mode in ("play", "setup"):
            self.open_rules(self.mode)
            return
        if event.name == "menu" or (event.name == "select" and event.long):
            if self.mode == "rules":
                self.mode = self._rules_back
            elif self.mode == "play":
                self.mode, self.menu_index = "menu", 0
            elif self.mode in ("menu", "confirm-off"):
                self.mode = "play"
            return
        getattr(self, "_on_" + self.mode.replace("-", "_"))(event.name, now)

    def tick(self, now: float) -> None:
        if self.virtual is not None and self.mode == "play":
            # settle a moment after its quiet time; the journal first, then the screen
            self.virtual.poll(now)
            self._journal_new_actions()

    def _items(self) -> list[tuple[str, str]]:
        items = [("mode", f"Hra: {MODE_LABEL[self.mode_name]}"), ("seats", f"Místa: {self.seats}")]
        for rule in (Rule.GOBBIT.value, Rule.GHOST.value, Rule.GORILLA.value):
            items.append((f"rule:{rule}", f"{RULE_LABEL[rule]}: "
                                          f"{'ano' if rule in self.rules else 'ne'}"))
        items.append(("expert", f"Varianta Expert: {'ano' if self.expert else 'ne'}"))
        items.append(("start", "▶ Začít"))
        return items

    def _on_setup(self, name: str, now: float) -> None:
        self.selected, item = pick(self.selected, self._items(), name)
        if item is None:
            return
        key = item[0]
        if key == "mode":
            if self.mode_name == "cards":
                self.mode_name = "virtual"
            else:
                self.mode_name = "cards"
                self.switch_to = "clovece"
        elif key == "seats":
            self.seats = 2 if self.seats == 4 else self.seats + 1
        elif key.startswith("rule:"):
            self.rules ^= {key[5:]}
        elif key == "expert":
            self.expert = not self.expert
        elif key == "start":
            self._start()

    def open_rules(self, back: str) -> None:
        from companion.rules_text.gobbit import TOPICS

        from .rules_browser import RulesBrowser

        self.browser = RulesBrowser("Gobbit", TOPICS)
        self._rules_back = back
        self.mode = "rules"

    def _on_rules(self, name: str, now: float) -> None:
        self.browser.button(name)

    def _on_play(self, name: str, now: float) -> None:
        if self.cards is not None:
            self.cards.on_button(name)
        elif self.virtual is not None:
            self.virtual.on_button(name, now)
            self._journal_new_actions()

    MENU = ("Zpět", "Spor: kdo byl první", "Závod Gobbit!", "Karty na stole", "Pravidla",
            "Nová hra", "Vypnout")

    def _on_menu(self, name: str, now: float) -> None:
        self.menu_index, item = pick(self.menu_index, self.MENU, name)
        if item is None:
            return
        self.mode = "play"
        if item == "Spor: kdo byl první" and self.cards is not None:
            self.cards.open_dispute()
        elif item == "Závod Gobbit!" and self.cards is not None:
            self.cards.open_race()
        elif item == "Karty na stole" and self.cards is not None:
            self.cards.open_cards()
        elif item == "Pravidla":
            self.open_rules("play")
        elif item == "Nová hra":
            self.want_pads(None)
            self.mode, self.selected = "setup", len(self._items()) - 1
            self.cards = self.virtual = None
        elif item == "Vypnout":
            self.mode = "confirm-off"

    # --- outputs ------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When a virtual-deck moment settles (the loop redraws then)."""
        if self.virtual is not None and self.mode == "play":
            return self.virtual.settles_at
        return None

    def animated(self) -> bool:
        """Only lists scroll a long selected line; referee screens change on inputs."""
        return self.mode in ("setup", "menu", "rules")

    @property
    def contrast(self) -> int:
        return self._contrast()

    def view(self) -> View:
        if self.mode == "rules":
            return self.browser.view()  # type: ignore[no-any-return]
        if self.mode == "setup":
            items = [label for _, label in self._items()]
            return ListView("Nová hra: Gobbit", tuple(items), min(self.selected, len(items) - 1))
        if self.mode == "menu":
            return ListView("Nabídka", self.MENU, self.menu_index, "dlouze ● = zpět")
        if self.mode == "confirm-off":
            return MessageView("Vypnout?", ("Nastavení zůstane", "uloženo."), "● ano   ◀ ne")
        if self.mode == "bye":
            return MessageView("Na shledanou", ("Vypínám…",))
        model: Any = self.cards if self.cards is not None else self.virtual
        assert model is not None
        if self.pads_error:
            return MessageView("Podložky", (self.pads_error, "Zkontroluj zapojení", "a mapu pinů."),
                               "dlouze ● = nabídka")
        return RefereeView(model.screen())
