"""The host shell: what every game at the table shares.

The shell is the controller the service loop talks to (``begin``, ``handle``,
``tick``, ``view``...).  It owns the set-up screen (its first line chooses the
game, the rest are the host's declared options; long ● goes back to a game in
play), the menu (long ● or the menu button), the settings and preferences, the
rules browser (with the host's "Proč?"), the hint of a host that gives one
("Nápověda" in the menu, or ◀ held on the turn screen; shown only when asked,
never journaled, and gone from both when the settings switch hints off), the questions every destructive menu
item asks first (undo says what it will take back: "Vrátit hod 5?"; new game;
shut down, which keeps the game), switching games and undo.
Everything about one game is the host's (:mod:`companion.service.hosts`);
games are found in the registry (:mod:`companion.registry`) and imported only
when the table chooses or resumes one.

The journal's header names the game in play, so after a restart the right host
resumes it, and its timers are set again from the time ``begin`` is given.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from companion.engines.game import HEADER
from companion.inputs.events import (
    ButtonPress,
    DiceLink,
    DiceNotice,
    Dropped,
    Input,
    Rolled,
    VoiceLink,
)
from companion.registry import GameInfo, UnknownGame, find_game, playable
from companion.storage.journal import JournalError
from companion.storage.prefs import AUTO_DELAYS, BRIGHTNESS, CONFIRM_DELAYS, Prefs
from companion.ui.controls import pick
from companion.ui.fonts import body_font
from companion.ui.picture import AnyView
from companion.ui.screens import WIDTH, wrap
from companion.ui.views import ListView, MessageView

from .hosts.base import NOT_COUNTED, GameHost, Hinting, HostContext, Request, Showing
from .hosts.facts import CloveceFacts, NapijFacts
from .rules_browser import RulesBrowser, paginate
from .voice_settings import VOICE_KEYS, next_voice_setting, voice_settings

if TYPE_CHECKING:
    from .dice_menu import DiceMenu
    from .hosts.facts import Facts
    from .narrator import Narrator

log = logging.getLogger(__name__)

START_LABEL = "▶ Začít hru"
HINT_LABEL = "Nápověda tahu"
"""The menu's hint (beside "Pravidla a nápověda", the rules browser, so it names the move)."""
RESUMED = "Hra pokračuje, kde skončila."
VOICE_LOST = {
    "no-espeak": "Hlas mlčí: chybí program espeak-ng.",
    "espeak-failed": "Hlas mlčí: espeak-ng nemluví.",
    "no-aplay": "Hlas mlčí: chybí program aplay.",
    "no-sound-card": "Hlas mlčí: chybí zvuková karta.",
}
VOICE_BACK = "Hlas zase mluví."
PHONE_OFF = ("Stav hry v telefonech", "je vypnutý. Zapne ho", "[web] enabled = true",
             "v konfiguraci.")


def input_mark(event: Input) -> dict[str, Any] | None:
    """The journal's mark of a dice event that waits for its acknowledgement (the dice's boot
    and the event's number), or ``None``."""
    if isinstance(event, Rolled | Dropped) and event.receipt is not None and event.boot:
        return {"src": "dice", "boot": event.boot, "seq": event.seq}
    return None


def _refuse(event: Input) -> None:
    receipt = getattr(event, "receipt", None)
    if receipt is not None:
        receipt.refuse()


def phone_off() -> MessageView:
    """The "Telefon" screen when the service does not run the phone view."""
    return MessageView("Telefon", PHONE_OFF, "● zpět do hry")


class Mode(StrEnum):
    SETUP = "setup"
    PLAY = "play"
    MENU = "menu"
    SETTINGS = "settings"
    RULES = "rules"
    CONFIRM_UNDO = "confirm-undo"
    CONFIRM_NEW = "confirm-new"
    CONFIRM_OFF = "confirm-off"
    PHONE = "phone"  # "Telefon": the phone view's QR code (or how to turn it on)
    HINT = "hint"  # "Nápověda": the host's advice for the player on turn
    DICE = "dice"  # "Kostka" under the settings: which dice, pairing a Pixels die
    BYE = "bye"


@dataclass(frozen=True)
class Table:
    """One line of the set-up's game choice: a game and the host mode it is played in."""

    info: GameInfo
    mode: str
    label: str


def tables() -> list[Table]:
    return [Table(info, mode, label) for info in playable() for mode, label in info.table_lines()]


def _fmt_seconds(s: float) -> str:
    return "vyp." if s == 0 else f"{s:g} s".replace(".", ",")


NOT_COUNTING_BEEPS = ("illegal", "void-throw")
"""A host that beeps one of these while it takes a roll did not count the roll."""

RollVerdict = Callable[[int, bool, "int | None"], None]
"""Told after every roll from the dice: its value, whether it counted, the seat it counted
for (the colour on turn; ``None`` when unknown)."""


def turn_colour(facts: Facts | None) -> int | None:
    """The colour on turn in a game's facts (``None``: no colours, no game)."""
    if isinstance(facts, CloveceFacts):
        return facts.pos.turn
    if isinstance(facts, NapijFacts):
        return facts.state.turn
    return None


def _next(values: Sequence[float], value: float) -> float:
    """The value after ``value`` in ``values`` (the first one when it is not among them)."""
    i = values.index(value) if value in values else -1
    return values[(i + 1) % len(values)]


class Shell:
    """The table's controller: the shared screens around the game host in play."""

    MENU_HEAD = (("back", "Zpět do hry"), ("undo", "Vrátit poslední akci"))
    MENU_TAIL = (("rules", "Pravidla a nápověda"), ("phone", "Telefon"), ("new", "Nová hra"),
                 ("settings", "Nastavení"), ("off", "Vypnout"))

    def __init__(self, ctx: HostContext, *, start_with: str = "clovece",
                 save_prefs: Callable[[Prefs], None] | None = None) -> None:
        self.ctx = ctx
        self._save_prefs = save_prefs or (lambda prefs: None)
        ctx.save_prefs = lambda: self._save_prefs(self.ctx.prefs)
        self._beeper = ctx.beep
        ctx.beep = self.beep  # hosts beep through the shell, which knows whether sound is on
        self.hosts: dict[str, GameHost] = {}
        self.tables = tables()
        self.table = self._table_of(start_with, "")
        self.mode = Mode.SETUP
        self.setup_index = 0
        self.menu_index = 0
        self.settings_index = 0
        self.browser: RulesBrowser | None = None
        self._rules_back = Mode.PLAY
        self._undo: tuple[str, str] | None = None
        self._hint: list[tuple[str, ...]] = []
        """The hint shown, in pages (a long napij play takes more than one)."""
        self._hint_page = 0
        self.quit_requested = False
        self.shutdown_requested = False
        self._begun = False
        self.notice = ""
        """One line for the set-up screen's foot (the voice went silent...)."""
        self._voice: VoiceLink | None = None
        self.phone_screen: Callable[[], AnyView] = phone_off
        """The "Telefon" screen: the phone view's QR code when the service runs it
        (:mod:`.phone` sets this), otherwise how to turn it on."""
        self.dice_menu: DiceMenu | None = None
        """"Kostka" under the settings (the service sets it; ``None``: no such line)."""
        self.on_roll: list[RollVerdict] = []
        """Told whether each roll from the dice counted (a Pixels die blinks it)."""
        self._heard: list[str] | None = None
        self.narrator: Narrator | None = None
        """The voice of every game and the voice mode (:mod:`.narrator`; loaded once the
        voice is on)."""

    # --- the game in play ---------------------------------------------------------

    def _table_of(self, game: str, mode: str) -> Table:
        for t in self.tables:
            if t.info.name == game and (t.mode == mode or not mode):
                return t
        return self.tables[0]

    @property
    def game(self) -> str:
        return self.table.info.name

    @property
    def host(self) -> GameHost:
        name = self.table.info.name
        if name not in self.hosts:
            cls = self.table.info.host_class()
            self.hosts[name] = cls(self.ctx, self.table.mode)
        return self.hosts[name]

    def begin(self, now: float) -> None:
        """Start: resume the journaled game (timers set from ``now``) or show the set-up."""
        if self._begun:
            return
        self._begun = True
        records = self.ctx.journal.load()
        header = records[0] if records else None
        said = " ".join(x for x in (self.ctx.journal.report.message, self.ctx.storage_notice) if x)
        if header is None or header.get("t") != HEADER:
            self.notice = said  # a damaged journal with no game left in it: said at the set-up
            return
        try:
            info = find_game(str(header.get("game")))
            self.table = self._table_of(info.name, str(header.get("mode", "")))
            host = self.host
        except UnknownGame as exc:
            log.error("the journal's game cannot be hosted (%s); showing the set-up", exc)
            self.notice = said
            return
        if host.resume(records, now):
            self.mode = Mode.PLAY
            host.notify(said or RESUMED)
            log.info("resumed a game of %s (%d records)", info.name, len(records))
        else:
            self.notice = said

    def _switch_table(self) -> None:
        i = self.tables.index(self.table)
        nxt = self.tables[(i + 1) % len(self.tables)]
        self.table = nxt  # only looking: the game in play ends when another one starts
        self.host.set_option("table", nxt.mode)

    # --- inputs ---------------------------------------------------------------------

    def handle(self, event: Input, now: float) -> None:
        self.begin(now)
        mark = input_mark(event)
        journal = self.ctx.journal
        if mark is not None and journal.seen(mark):
            # sent again after a restart: it is in the journal already (the dice was never
            # told), so it is acknowledged now and not taken a second time
            log.warning("dice event %s was journaled before the restart; not taken again", mark)
            return
        journal.input_mark = mark
        try:
            if isinstance(event, Rolled) and self.on_roll:
                self._judged(event, now)  # (catches a refused write itself)
            else:
                self._handle(event, now)
        except JournalError as exc:
            self._not_saved(exc, event)
            return
        except Exception:
            _refuse(event)  # a bug: the dice keeps it and sends it again
            raise
        finally:
            unjournaled, journal.input_mark = journal.input_mark, None
        if unjournaled is not None:
            self._void(unjournaled, event)
        self._narrate(event)

    def _void(self, mark: dict[str, Any], event: Input) -> None:
        """A dice event that did not count (nobody wanted a throw): its mark is journaled, so
        the acknowledgement means "in the journal" for it too.  With no game it is only
        acknowledged; a journal that refuses the mark refuses the event (sent again)."""
        if not self.ctx.journal.has_records():
            return
        try:
            self.ctx.journal.note(mark)
        except JournalError as exc:
            self._not_saved(exc, event)

    def _judged(self, event: Rolled, now: float) -> None:
        """Take a roll, then tell :attr:`on_roll` whether it counted: it does not when no
        game is played, when the host beeps that it does not count (not this seat's throw,
        a throw before a debt is drunk) or when the journal refused it."""
        playing = self.mode is Mode.PLAY
        colour = turn_colour(self.facts()) if playing else None
        self._heard = []
        try:
            self._handle(event, now)
        except JournalError as exc:
            self._not_saved(exc, event)
        finally:
            heard, self._heard = self._heard, None
        refused = event.receipt is not None and not event.receipt.taken
        counted = playing and not refused and not any(b in NOT_COUNTING_BEEPS for b in heard)
        for tell in self.on_roll:
            try:
                tell(event.value, counted, colour)
            except Exception:
                log.exception("the roll's verdict could not be shown")

    def _not_saved(self, exc: JournalError, event: Input | None = None) -> None:
        """The journal refused a write: nothing changed; say so, and let the dice send again."""
        log.error("an action was refused because it could not be saved: %r", exc)
        self.beep("illegal")
        self.notify(exc.message)
        if self.mode is Mode.SETUP:
            self.notice = exc.message  # a new game refused: said on the set-up's foot
        if event is not None:
            _refuse(event)

    def _handle(self, event: Input, now: float) -> None:
        if isinstance(event, ButtonPress):
            self._button(event, now)
            return
        if isinstance(event, VoiceLink):
            self._voice_link(event)
            return
        if isinstance(event, DiceNotice):
            self._dice_notice(event)
            return
        if isinstance(event, DiceLink):
            self.ctx.dice.up = event.up
        if isinstance(event, Dropped) and self.mode is Mode.SETUP:
            return  # no game is being played: a die falling now costs nobody anything
        if isinstance(event, Rolled) and self.mode is not Mode.PLAY:
            self.beep("illegal")
            if self.table.info.name in self.hosts:
                self.hosts[self.table.info.name].notify(NOT_COUNTED)
            return
        if self.table.info.name in self.hosts or self.mode is Mode.PLAY:
            self._after(self.host.handle(event, now))

    def _voice_link(self, event: VoiceLink) -> None:
        """Say once that the voice cannot be heard (and once when it can again)."""
        if event == self._voice or (event.available and self._voice is None):
            return
        self._voice = event
        line = VOICE_BACK if event.available else VOICE_LOST.get(event.reason, VOICE_LOST[
            "no-sound-card"])
        self.notice = line
        if self.table.info.name in self.hosts:
            self.host.notify(line)

    def _dice_notice(self, event: DiceNotice) -> None:
        """A line about the dice: shown where the table looks, and said."""
        self.notice = event.line
        self.notify(event.line)
        if self.ctx.prefs.voice:
            self.ctx.announcer.say(event.line)

    def _after(self, request: Request | None) -> None:
        if request is Request.SETUP:
            self.mode = Mode.SETUP
            self.setup_index = len(self._setup_lines()) - 1

    def _button(self, ev: ButtonPress, now: float) -> None:
        if ev.name == "left" and ev.long and self.mode is Mode.PLAY and self._hints() \
                and not self.voice_mode_on:  # in the voice mode a held ◀ reads the situation
            self._show_hint()
            return
        if ev.name == "help" and self.mode in (Mode.PLAY, Mode.SETUP):
            self.open_rules(self.mode)
            return
        if ev.name == "menu" or (ev.name == "select" and ev.long):
            self._long(now)
            return
        if ev.name == "left" and ev.long and self.voice_mode_on:  # (hardware/buttons.py)
            if self.narrator is not None:
                self.narrator.whole(self)
            return
        handler = self._handlers[self.mode]
        handler(self, ev.name, now)

    def _long(self, now: float) -> None:
        if self.mode is Mode.RULES:
            self.mode = self._rules_back
        elif self.mode is Mode.PLAY:
            self.mode, self.menu_index = Mode.MENU, 0
        elif self.mode in (Mode.MENU, Mode.SETTINGS, Mode.CONFIRM_UNDO, Mode.CONFIRM_NEW,
                           Mode.CONFIRM_OFF, Mode.SETUP, Mode.PHONE, Mode.HINT, Mode.DICE):
            if self.mode is Mode.DICE and self.dice_menu is not None:
                self.dice_menu.close()
            self.mode = Mode.PLAY if self._in_game() else Mode.SETUP

    def _in_game(self) -> bool:
        return self.table.info.name in self.hosts and self.host.in_game

    def tick(self, now: float) -> None:
        self.begin(now)
        if self.mode is Mode.PLAY:
            try:
                self.host.tick(now)
            except JournalError as exc:
                self._not_saved(exc)
        self._narrate(None)

    def _narrate(self, event: Input | None) -> None:
        """The voice says what changed (only while it is on: then :mod:`.narrator` loads)."""
        if not self.ctx.prefs.voice:
            if self.narrator is not None:
                self.narrator.forget()
            return
        if self.narrator is None:
            from .narrator import Narrator

            self.narrator = Narrator()
        try:
            self.narrator.after(self, event)
        except Exception:  # the voice must never take the game down
            log.exception("the voice could not say what changed")

    @property
    def voice_mode_on(self) -> bool:
        """Whether "Hlasový režim" is on (a held ◀ then reads the situation, not runs)."""
        return self.ctx.prefs.voice and bool(self.ctx.prefs.voice_mode)

    # --- set-up -------------------------------------------------------------------------

    def _setup_lines(self) -> list[tuple[str, str]]:
        lines = [("game", f"Hra: {self.table.label}")]
        lines += [(o.key, o.line) for o in self.host.options()]
        lines.append(("start", START_LABEL))
        return lines

    def _on_setup(self, name: str, now: float) -> None:
        self.notice = ""
        lines = self._setup_lines()
        self.setup_index, item = pick(min(self.setup_index, len(lines) - 1), lines, name)
        if item is None:
            return
        key = item[0]
        if key == "game":
            self._switch_table()
        elif key == "start":
            for other in self.hosts.values():
                if other is not self.host:
                    other.stop()  # the game left behind ends here (its timers, its pads)
            self.host.start(now)
            self.mode = Mode.PLAY
        else:
            option = next(o for o in self.host.options() if o.key == key)
            note = self.host.set_option(key, option.next_value())
            if note:
                self.host.notify(note)

    # --- play -----------------------------------------------------------------------------

    def _on_play(self, name: str, now: float) -> None:
        self._after(self.host.handle(ButtonPress(name), now))

    # --- menu -----------------------------------------------------------------------------

    def _menu(self) -> list[tuple[str, str]]:
        rules, *tail = self.MENU_TAIL
        hint = [("hint", HINT_LABEL)] if self._hints() else []
        return [*self.MENU_HEAD, *self.host.menu_items(), rules, *hint, *tail]

    def _hints(self) -> bool:
        """Whether a player may ask for a hint now: the host gives them, a game is on and the
        settings allow it."""
        return (self.ctx.prefs.hints and self._in_game()
                and isinstance(self.host, Hinting))

    def _show_hint(self) -> None:
        """Ask the host (which changes nothing) and show its answer until a button."""
        host = self.host
        assert isinstance(host, Hinting)
        self._hint, self._hint_page = paginate(host.hint()), 0
        self.mode = Mode.HINT

    def _on_menu(self, name: str, now: float) -> None:
        items = self._menu()
        self.menu_index, item = pick(min(self.menu_index, len(items) - 1), items, name)
        if item is None:
            return
        key = item[0]
        if key == "back":
            self.mode = Mode.PLAY
        elif key == "undo":
            self._undo = self.host.undo_preview()
            self.mode = Mode.CONFIRM_UNDO
        elif key == "rules":
            self.open_rules(Mode.PLAY)
        elif key == "new":
            self.mode = Mode.CONFIRM_NEW
        elif key == "settings":
            self.mode, self.settings_index = Mode.SETTINGS, 0
        elif key == "off":
            self.mode = Mode.CONFIRM_OFF
        elif key == "phone":
            self.mode = Mode.PHONE
        elif key == "hint":
            self._show_hint()
        else:
            self.mode = Mode.PLAY
            self.host.on_menu(key, now)

    def _on_confirm_undo(self, name: str, now: float) -> None:
        if name == "select":
            self.mode = Mode.PLAY
            if self._undo is not None and not self.host.undo(now):
                self.beep("illegal")
        elif name == "left":
            self.mode = Mode.MENU

    def _on_confirm_new(self, name: str, now: float) -> None:
        if name == "select":
            self.mode, self.setup_index = Mode.SETUP, 0
        elif name == "left":
            self.mode = Mode.MENU

    def _on_confirm_off(self, name: str, now: float) -> None:
        if name == "select":
            self.mode = Mode.BYE
            self.shutdown_requested = True
        elif name == "left":
            self.mode = Mode.MENU

    def _on_phone(self, name: str, now: float) -> None:
        self.mode = Mode.PLAY if self._in_game() else Mode.SETUP  # any button: back to the game

    def _on_hint(self, name: str, now: float) -> None:
        """◀ ▶ turn the pages of a long hint; any other button goes back to the game."""
        last = len(self._hint) - 1
        if name == "right" and self._hint_page < last:
            self._hint_page += 1
        elif name == "left" and self._hint_page > 0:
            self._hint_page -= 1
        else:
            self.mode = Mode.PLAY if self._in_game() else Mode.SETUP

    def _on_bye(self, name: str, now: float) -> None:
        return None  # shutting down: buttons do nothing any more

    # --- rules browser -------------------------------------------------------------------

    def open_rules(self, back: Mode) -> None:
        """The game's rules browser, with "Proč?" about this moment; long ● returns."""
        why = self.host.why() if self._in_game() and back is Mode.PLAY else None
        self.browser = RulesBrowser(self.table.info.title, self.table.info.topics(), why)
        self._rules_back = back if back is Mode.SETUP or self._in_game() else Mode.SETUP
        self.mode = Mode.RULES

    def _on_rules(self, name: str, now: float) -> None:
        assert self.browser is not None
        self.browser.button(name)

    # --- settings ---------------------------------------------------------------------------

    def _settings_items(self) -> list[tuple[str, str]]:
        p = self.ctx.prefs
        bright = {255: "100 %", 128: "50 %", 48: "20 %"}.get(p.contrast, f"{p.contrast}")
        return [("sound", f"Zvuk: {'zapnutý' if p.sound else 'vypnutý'}"),
                ("auto", f"Sám táhne po: {_fmt_seconds(p.auto_delay)}"),
                ("confirm", f"PC potvrdí sám: {_fmt_seconds(p.computer_confirm)}"),
                ("bright", f"Jas: {bright}"),
                ("voice", f"Hlas: {'zapnutý' if p.voice else 'vypnutý'}"),
                *(voice_settings(p) if p.voice else ()),
                ("hints", f"Nápověda tahu: {'ano' if p.hints else 'ne'}"),
                *([("dice", self.dice_menu.label())] if self.dice_menu is not None else []),
                ("back", "Zpět")]

    def _on_settings(self, name: str, now: float) -> None:
        items = self._settings_items()
        self.settings_index, item = pick(self.settings_index, items, name)
        if item is None:
            return
        p = self.ctx.prefs
        key = item[0]
        if key == "sound":
            p.sound = not p.sound
        elif key == "auto":
            p.auto_delay = _next(AUTO_DELAYS, p.auto_delay)
        elif key == "confirm":
            p.computer_confirm = _next(CONFIRM_DELAYS, p.computer_confirm)
        elif key == "bright":
            p.contrast = int(_next(BRIGHTNESS, p.contrast))
        elif key == "voice":
            p.voice = not p.voice
        elif key == "hints":
            p.hints = not p.hints
        elif key in VOICE_KEYS:
            next_voice_setting(p, key)
        elif key == "dice" and self.dice_menu is not None:
            self.dice_menu.open()
            self.mode = Mode.DICE
            return
        else:
            self.mode = Mode.MENU
            return
        self._save_prefs(p)

    def _on_dice(self, name: str, now: float) -> None:
        if self.dice_menu is None or self.dice_menu.button(name):
            self.mode = Mode.SETTINGS

    _handlers: dict[Mode, Callable[[Shell, str, float], None]] = {
        Mode.SETUP: _on_setup, Mode.PLAY: _on_play, Mode.MENU: _on_menu,
        Mode.SETTINGS: _on_settings, Mode.RULES: _on_rules,
        Mode.CONFIRM_UNDO: _on_confirm_undo, Mode.CONFIRM_NEW: _on_confirm_new,
        Mode.CONFIRM_OFF: _on_confirm_off, Mode.PHONE: _on_phone,
        Mode.HINT: _on_hint, Mode.BYE: _on_bye, Mode.DICE: _on_dice,
    }

    # --- outputs ----------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        return self.host.next_deadline() if self.mode is Mode.PLAY else None

    def animated(self) -> bool:
        """Whether the screen changes with time alone (blinking, scrolling)."""
        if self.mode is Mode.PLAY:
            return self.host.animated()
        return self.mode in (Mode.SETUP, Mode.MENU, Mode.SETTINGS, Mode.RULES, Mode.DICE)

    def view(self) -> AnyView:
        if self.mode is Mode.PHONE:
            return self.phone_screen()
        if self.mode is Mode.HINT:
            pages, page = self._hint, self._hint_page
            if len(pages) == 1:
                return MessageView("Nápověda", pages[0], "● zpět do hry")
            return MessageView(f"Nápověda {page + 1}/{len(pages)}", pages[page],
                               "◀ ▶ listovat, ● zpět")
        if self.mode is Mode.DICE and self.dice_menu is not None:
            return self.dice_menu.view()
        if self.mode is Mode.RULES:
            assert self.browser is not None
            return self.browser.view()
        if self.mode is Mode.SETUP:
            lines = [label for _, label in self._setup_lines()]
            return ListView(f"Nová hra: {self.host.title}", tuple(lines),
                            min(self.setup_index, len(lines) - 1),
                            self.notice or ("dlouze ● = zpět do hry" if self._in_game() else ""))
        if self.mode is Mode.MENU:
            return ListView("Nabídka", tuple(label for _, label in self._menu()),
                            self.menu_index, "dlouze ● = zpět")
        if self.mode is Mode.SETTINGS:
            return ListView("Nastavení", tuple(label for _, label in self._settings_items()),
                            self.settings_index)
        if self.mode is Mode.CONFIRM_UNDO:
            if self._undo is None:
                return MessageView("Vrátit", ("Není co vrátit.",), "● zpět do hry")
            title, text = self._undo
            return MessageView(title, tuple(wrap(body_font(), text, WIDTH - 1)),
                               "● ano   ◀ ne")
        if self.mode is Mode.CONFIRM_NEW:
            return MessageView("Nová hra?", ("Rozehraná hra skončí", "a začne se znovu."),
                               "● ano   ◀ ne")
        if self.mode is Mode.CONFIRM_OFF:
            return MessageView("Vypnout?", ("Hra zůstane uložena", "a po zapnutí",
                                            "bude pokračovat."), "● ano   ◀ ne")
        if self.mode is Mode.BYE:
            return MessageView("Na shledanou", ("Hra je uložena.", "Vypínám…"))
        return self.host.view()

    @property
    def contrast(self) -> int:
        return self.ctx.prefs.contrast

    def beep(self, name: str) -> None:
        if self._heard is not None:
            self._heard.append(name)
        if self.ctx.prefs.sound:
            self._beeper(name)

    def storage(self, line: str) -> None:
        """The data folder became read-only or writable again: say ``line`` on the set-up's
        foot and in the game's event line."""
        self.ctx.storage_notice = line if line.startswith("Nelze") else ""
        self.notice = line
        self.notify(line)

    def notify(self, line: str) -> None:
        """Show one line to the table in the game's event line."""
        if self.table.info.name in self.hosts:
            self.hosts[self.table.info.name].notify(line)
        else:
            log.info("table: %s", line)

    def facts(self) -> Facts | None:
        """The game in play as values for the phone view (``None``: no game to show)."""
        name = self.table.info.name
        if name not in self.hosts or self.mode is Mode.SETUP and not self._in_game():
            return None
        host = self.hosts[name]
        return host.facts() if isinstance(host, Showing) and host.in_game else None

    def menu_labels(self) -> Sequence[str]:
        return [label for _, label in self._menu()]

    def option_values(self) -> dict[str, Any]:
        """The set-up's current values (for tests and the demo)."""
        return {o.key: o.value for o in self.host.options()}
