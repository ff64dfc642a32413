"""The table controller: Člověče from set-up to the winner, driven by buttons and the dice.

It owns no thread and no clock: the service loop hands it inputs and the time
(``handle(event, now)``, ``tick(now)``) and asks for the current screen
(``view(now)``).  Every confirmed action is appended to the journal (fsynced)
*before* the state and the screen change, so a pulled plug never loses one.

Buttons: ◀ ▶ pick, ● confirms; a long ● (or the menu button) opens the menu.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engines.clovece.board import cell_of
from companion.engines.clovece.describe import PLAYER, PLAYER_LOWER, explain, headline
from companion.engines.clovece.notation import location_text
from companion.engines.clovece.rules import (
    COLOURS,
    HOUSE,
    SEATS_BY_PLAYERS,
    VARIANT_ORDER,
    Move,
    in_play,
    why_not,
)
from companion.inputs.events import ButtonPress, DiceLink, Dropped, Input, Rolled
from companion.players.clovece_bot import choose
from companion.ui.views import Choice, ListView, MessageView, TurnView, View, WinView

from .controls import ShutdownMixin, cycle, pick
from .journal import Journal
from .session import (
    Session,
    SessionError,
    Settings,
    move_record,
    replay_prefix,
    roll_record,
    start,
    step,
)

log = logging.getLogger(__name__)

VARIANT_LABELS = {
    "mandatory-capture": "Povinné vyhazování",
    "voluntary-entry": "Dobrovolné nasazování",
    "no-jump-in-goal": "V cíli nepřeskakovat",
    "safe-start": "Start chrání figurku",
}
AUTO_DELAYS = (0.0, 1.0, 1.5, 2.0, 3.0)
BRIGHTNESS = (255, 128, 48)
COMPUTER_ROLL_DELAY = 1.0

Sound = Callable[[str], None]


@dataclass
class Prefs:
    """Settings kept across games (not part of the game journal)."""

    sound: bool = True
    auto_delay: float = 1.5
    contrast: int = 255


@dataclass
class SetupState:
    players: int
    computer: set[int]
    variants: set[str]
    first: str  # "red" or "lot"
    selected: int = 0


def _fmt_seconds(s: float) -> str:
    return "vyp." if s == 0 else f"{s:g} s".replace(".", ",")


class Table(ShutdownMixin):
    """Člověče at the table: set-up, turns, menu, undo, win, resume."""

    def __init__(self, journal: Journal, *, players: int = 4, variants: tuple[str, ...] = (),
                 computer: tuple[str, ...] = (), first: str = "red",
                 prefs: Prefs | None = None, dice_configured: bool = True,
                 rng: random.Random | None = None, sound: Sound | None = None,
                 save_prefs: Callable[[Prefs], None] | None = None) -> None:
        self.journal = journal
        self.prefs = prefs or Prefs()
        self.rng = rng or random.SystemRandom()
        self._beeper = sound or (lambda name: None)
        self._save_prefs = save_prefs or (lambda prefs: None)
        self.dice_configured = dice_configured
        self.dice_up = False
        self.setup = SetupState(players, {COLOURS.index(c) for c in computer},
                                set(variants), first)
        self.session: Session | None = None
        self.mode = "setup"  # setup | play | win | menu | settings | confirm-new | confirm-off | bye
        self.menu_index = 0
        self.settings_index = 0
        self.selected = 0
        self.manual = 1
        self.event_line = ""
        self.deadline: float | None = None
        self.deadline_kind = ""
        self.quit_requested = False
        self.shutdown_requested = False
        self.switch_to: str | None = None  # "gobbit": the set-up chose the other game
        self.browser: Any = None  # the rules browser while mode == "rules"
        self._rules_back = "play"
        self._resume()

    # --- start and resume -------------------------------------------------------

    def _resume(self) -> None:
        records = self.journal.load()
        if not records or records[0].get("game") != "clovece":
            return  # nothing, or another game's journal (its own controller resumes it)
        try:
            session, used = replay_prefix(records)
        except SessionError as exc:
            log.error("journal %s cannot be replayed (%s); starting at the set-up",
                      self.journal.path, exc)
            return
        if used < len(records):
            log.error("journal %s: %d records after record %d do not fit the game; dropped",
                      self.journal.path, len(records) - used, used)
            self.journal.keep(used)
        self.session = session
        self.mode = "win" if session.pos.winner is not None else "play"
        self.event_line = "Hra pokračuje, kde skončila."
        if self.journal.dropped:
            self.event_line = "Poslední neúplný záznam zahozen."
        log.info("resumed a game of %d records", used)

    def _new_game(self, now: float) -> None:
        st = self.setup
        seats = SEATS_BY_PLAYERS[st.players]
        first = seats[0] if st.first == "red" else self.rng.choice(seats)
        settings = Settings(st.players, frozenset(st.variants),
                            frozenset(c for c in st.computer if c in seats), first)
        self.journal.replace([settings.header()])
        self.session = start(settings)
        self.mode = "play"
        self.event_line = f"Nová hra, začíná {PLAYER_LOWER[first]}."
        self._turn_started(now)

    # --- inputs ---------------------------------------------------------------------

    def handle(self, event: Input, now: float) -> None:
        if isinstance(event, ButtonPress):
            self._button(event, now)
        elif isinstance(event, Rolled):
            self._dice_roll(event.value, now)
        elif isinstance(event, DiceLink):
            self.dice_up = event.up
            self.event_line = "Kostka připojena." if event.up else "Kostka odpojena: hod zadej tlačítky."
            if not event.up:
                self._sound("illegal")
        elif isinstance(event, Dropped):
            self.event_line = "Kostka spadla na zem."

    def tick(self, now: float) -> None:
        if self.deadline is None or now < self.deadline or self.mode != "play":
            return
        kind, self.deadline, self.deadline_kind = self.deadline_kind, None, ""
        s = self.session
        assert s is not None
        if kind == "auto-move" and s.roll is not None and len(s.moves) == 1:
            self._confirm_move(s.moves[0], now)
        elif kind == "computer-roll" and s.roll is None and s.computer_turn:
            self._roll(self.rng.randint(1, 6), "computer", now)

    def _button(self, ev: ButtonPress, now: float) -> None:
        if ev.name == "help" and self.mode in ("play", "win", "setup"):
            self.open_rules(self.mode)
            return
        if ev.name == "menu" or (ev.name == "select" and ev.long):
            if self.mode == "rules":
                self.mode = self._rules_back
            elif self.mode in ("play", "win"):
                self.mode, self.menu_index = "menu", 0
            elif self.mode in ("menu", "settings", "confirm-new", "confirm-off"):
                self.mode = "play" if self.session else "setup"
                if self.session and self.session.pos.winner is not None:
                    self.mode = "win"
            return
        handler = getattr(self, "_on_" + self.mode.replace("-", "_"), None)
        if handler is not None:
            handler(ev.name, now)

    # --- set-up ------------------------------------------------------------------------

    def _setup_items(self) -> list[tuple[str, str]]:
        st = self.setup
        items = [("game", "Hra: Člověče"), ("players", f"Hráči: {st.players}")]
        for c in SEATS_BY_PLAYERS[st.players]:
            who = "počítač" if c in st.computer else "člověk"
            items.append((f"seat:{c}", f"{PLAYER[c]}: {who}"))
        for v in VARIANT_ORDER:
            on = "ano" if v in st.variants else "ne"
            items.append((f"variant:{v}", f"{VARIANT_LABELS[v]}: {on}"))
        items.append(("first", "Začíná: " + ("červený" if st.first == "red" else "los")))
        items.append(("start", "▶ Začít hru"))
        return items

    def _on_setup(self, name: str, now: float) -> None:
        st = self.setup
        st.selected, item = pick(st.selected, self._setup_items(), name)
        if item is None:
            return
        key = item[0]
        if key == "game":
            self.switch_to = "gobbit"
        elif key == "players":
            st.players = 2 if st.players == 4 else st.players + 1
        elif key.startswith("seat:"):
            c = int(key[5:])
            st.computer ^= {c}
            if all(s in st.computer for s in SEATS_BY_PLAYERS[st.players]):
                self.event_line = "Všechna místa hraje počítač."
        elif key.startswith("variant:"):
            st.variants ^= {key[8:]}
        elif key == "first":
            st.first = "lot" if st.first == "red" else "red"
        elif key == "start":
            self._new_game(now)

    # --- play -----------------------------------------------------------------------------

    def _turn_started(self, now: float) -> None:
        """Set the timers for the state the game is now in."""
        s = self.session
        assert s is not None
        self.selected = 0
        self.deadline, self.deadline_kind = None, ""
        if s.pos.winner is not None:
            self.mode = "win"
            self._sound("win")
            return
        if s.roll is not None:
            moves = s.moves
            if len(moves) == 1:
                self.deadline = now + self.prefs.auto_delay
                self.deadline_kind = "auto-move"
            elif s.computer_turn:
                best = choose(s.pos, s.roll)
                self.selected = moves.index(best) if best in moves else 0
            return
        if s.computer_turn and not self._dice_usable():
            self.deadline = now + COMPUTER_ROLL_DELAY
            self.deadline_kind = "computer-roll"

    def _dice_usable(self) -> bool:
        return self.dice_configured and self.dice_up

    def _manual_allowed(self) -> bool:
        s = self.session
        return (s is not None and s.roll is None and not self._dice_usable()
                and not s.computer_turn)

    def _on_play(self, name: str, now: float) -> None:
        s = self.session
        assert s is not None
        if s.roll is None:
            if not self._manual_allowed():
                if name == "select":
                    self._sound("illegal")
                return
            if name == "left":
                self.manual = (self.manual - 2) % 6 + 1
            elif name == "right":
                self.manual = self.manual % 6 + 1
            elif name == "select":
                self._roll(self.manual, "manual", now)
            return
        moves = s.moves
        if name in ("left", "right") and len(moves) > 1 and not s.computer_turn:
            self.selected = cycle(self.selected, len(moves), name)
        elif name == "select":
            self._confirm_move(moves[self.selected], now)

    def _dice_roll(self, value: int, now: float) -> None:
        s = self.session
        if self.mode != "play" or s is None or s.roll is not None:
            self.event_line = "Tenhle hod se nepočítá."
            self._sound("illegal")
            return
        self._roll(value, "dice", now)

    def _roll(self, value: int, source: str, now: float) -> None:
        s = self.session
        assert s is not None
        record = roll_record(value, source)
        try:
            after = step(s, record)
        except SessionError as exc:  # pragma: no cover - guarded by the callers
            log.error("roll refused: %s", exc)
            return
        self.journal.append(record)  # on disk before the screen shows it
        self.session = after
        if after.roll is None:  # no legal move: three tries or forfeit, already played
            self.event_line = headline(list(after.events))
            self._after_step(now)
        else:
            self.event_line = f"{PLAYER[after.pos.turn]} hodil {value}."
            self._turn_started(now)
        if value == 6:
            self._sound("six")

    def _confirm_move(self, move: Move, now: float) -> None:
        s = self.session
        assert s is not None and s.roll is not None
        record = move_record(move)
        after = step(s, record)
        self.journal.append(record)  # on disk before the screen confirms
        self.session = after
        self.event_line = headline(list(after.events))
        self._after_step(now)

    def _after_step(self, now: float) -> None:
        s = self.session
        assert s is not None
        self._turn_started(now)
        if s.pos.winner is None and s.pos.turn not in s.settings.computer:
            self._sound("turn")

    # --- menu ---------------------------------------------------------------------------------

    MENU = ("Zpět do hry", "Vrátit poslední akci", "Pravidla a nápověda", "Nová hra",
            "Nastavení", "Vypnout")

    def _on_menu(self, name: str, now: float) -> None:
        self.menu_index, item = pick(self.menu_index, self.MENU, name)
        if item == "Zpět do hry":
            self.mode = "win" if self.session and self.session.pos.winner is not None else "play"
        elif item == "Vrátit poslední akci":
            self.undo(now)
        elif item == "Pravidla a nápověda":
            self.open_rules("play")
        elif item == "Nová hra":
            self.mode = "confirm-new"
        elif item == "Nastavení":
            self.mode, self.settings_index = "settings", 0
        elif item == "Vypnout":
            self.mode = "confirm-off"

    def open_rules(self, back: str) -> None:
        """The rules browser, with "Proč?" about the roll in play; long ● returns to ``back``."""
        from companion.rules_text.clovece import TOPICS

        from .rules_browser import RulesBrowser

        if self.session is None or self.session.pos.winner is not None:
            back = "setup" if self.session is None else "win"
        self.browser = RulesBrowser("Člověče", TOPICS, self.why_text())
        self._rules_back = back
        self.mode = "rules"

    def why_text(self) -> str | None:
        """Why each piece of the player on turn may or may not move with the pending roll."""
        s = self.session
        if s is None or s.roll is None or s.pos.winner is not None:
            return None
        c = s.pos.turn
        lines = [f"{PLAYER[c]} hodil {s.roll}."]
        own = s.pos.pieces[c] or ()
        for p in sorted(set(own), key=lambda p: (p == HOUSE, p)):
            where = "Domeček" if p == HOUSE else f"Figurka na {location_text(c, p)}"
            lines.append(f"{where}: {explain(why_not(s.pos, s.roll, p))}")
        return "\n".join(lines)

    def _on_rules(self, name: str, now: float) -> None:
        self.browser.button(name)

    def undo(self, now: float) -> bool:
        """Remove the last confirmed action (from the journal first) and go back to play."""
        records = self.journal.load()
        if len(records) <= 1:
            self.event_line = "Není co vrátit."
            self._sound("illegal")
            self.mode = "play" if self.session else "setup"
            return False
        [removed] = self.journal.keep(len(records) - 1)
        self.session, _ = replay_prefix(records[:-1])
        what = f"hod {removed.get('v')}" if removed.get("t") == "roll" else "tah"
        self.event_line = f"Vráceno: {what}."
        self.mode = "play"
        self._turn_started(now)
        return True

    def _on_confirm_new(self, name: str, now: float) -> None:
        if name == "select":
            self.mode = "setup"
            self.setup.selected = 0
        elif name == "left":
            self.mode = "menu"

    def _on_win(self, name: str, now: float) -> None:
        if name == "select":
            self.mode = "setup"
            self.setup.selected = len(self._setup_items()) - 1

    # --- settings ------------------------------------------------------------------------------

    def _settings_items(self) -> list[str]:
        p = self.prefs
        bright = {255: "100 %", 128: "50 %", 48: "20 %"}.get(p.contrast, f"{p.contrast}")
        return [f"Zvuk: {'zapnutý' if p.sound else 'vypnutý'}",
                f"Sám táhne po: {_fmt_seconds(p.auto_delay)}",
                f"Jas: {bright}", "Zpět"]

    def _on_settings(self, name: str, now: float) -> None:
        self.settings_index, item = pick(self.settings_index, self._settings_items(), name)
        if item is None:
            return
        p = self.prefs
        if self.settings_index == 0:
            p.sound = not p.sound
        elif self.settings_index == 1:
            i = AUTO_DELAYS.index(p.auto_delay) if p.auto_delay in AUTO_DELAYS else 0
            p.auto_delay = AUTO_DELAYS[(i + 1) % len(AUTO_DELAYS)]
        elif self.settings_index == 2:
            i = BRIGHTNESS.index(p.contrast) if p.contrast in BRIGHTNESS else 0
            p.contrast = BRIGHTNESS[(i + 1) % len(BRIGHTNESS)]
        else:
            self.mode = "menu"
            return
        self._save_prefs(p)

    # --- outputs ---------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        return self.deadline if self.mode == "play" else None

    def animated(self) -> bool:
        """Whether the screen changes with time alone (blinking, scrolling)."""
        return self.mode in ("play", "win", "setup", "menu", "settings", "rules")

    def view(self) -> View:
        if self.mode == "rules":
            return self.browser.view()  # type: ignore[no-any-return]
        if self.mode == "setup":
            items = [label for _, label in self._setup_items()]
            sel = min(self.setup.selected, len(items) - 1)
            return ListView("Nová hra: Člověče", tuple(items), sel, "")
        if self.mode == "menu":
            return ListView("Nabídka", self.MENU, self.menu_index, "dlouze ● = zpět")
        if self.mode == "settings":
            return ListView("Nastavení", tuple(self._settings_items()), self.settings_index)
        if self.mode == "confirm-new":
            return MessageView("Nová hra?", ("Rozehraná hra skončí",
                                             "a začne se znovu."), "● ano   ◀ ne")
        if self.mode == "confirm-off":
            return MessageView("Vypnout?", ("Hra zůstane uložena", "a po zapnutí",
                                            "bude pokračovat."), "● ano   ◀ ne")
        if self.mode == "bye":
            return MessageView("Na shledanou", ("Hra je uložena.", "Vypínám…"))
        s = self.session
        assert s is not None
        if self.mode == "win":
            assert s.pos.winner is not None
            return WinView(s.pos.winner, PLAYER[s.pos.winner], s.pos)
        return self._turn_view(s)

    def _turn_view(self, s: Session) -> TurnView:
        pos = s.pos
        c = pos.turn
        computer = s.computer_turn
        dice = "ok" if self._dice_usable() else ("lost" if self.dice_configured else "missing")
        manual = self.manual if self._manual_allowed() else None
        no_play = not in_play(pos, c)
        choices: tuple[Choice, ...] = ()
        blink = None
        if s.roll is None:
            if manual is not None:
                prompt = "◀ ▶ hod, ● ok"
            elif computer and self._dice_usable():
                prompt = "Hoď za PC"
            elif computer:
                prompt = "PC hází…"
            else:
                prompt = "Hoď kostkou"
        else:
            moves = s.moves
            choices = tuple(
                Choice(f"{location_text(c, m.frm)}→{location_text(c, m.to)}", m.capture is not None)
                for m in moves)
            sel = min(self.selected, len(moves) - 1)
            m = moves[sel]
            slot = sum(1 for p in pos.pieces[c] or () if p == HOUSE) - 1 if m.frm == HOUSE else 0
            blink = (cell_of(c, m.frm, max(0, slot)), cell_of(c, m.to))
            if len(moves) == 1:
                prompt = "Jediný tah…"
            elif computer:
                prompt = "Táhni za PC, ●"
            else:
                prompt = "◀▶ vyber, ● ok"
        return TurnView(
            position=pos, colour=c, player=PLAYER[c], computer=computer, roll=s.roll,
            prompt=prompt, choices=choices, selected=min(self.selected, max(0, len(choices) - 1)),
            tries=pos.tries, tries_shown=no_play and s.roll is None, manual_roll=manual,
            dice=dice, event=self.event_line, blink=blink)

    @property
    def contrast(self) -> int:
        return self.prefs.contrast

    def _sound(self, name: str) -> None:
        if self.prefs.sound:
            self._beeper(name)
