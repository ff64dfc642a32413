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
the games are handed in as plugins (:class:`companion.plugin.GamePlugin`), whose
parts are imported only when the table chooses or resumes one.

The journal's header names the game in play, so after a restart the right host
resumes it, and its timers are set again from the time ``begin`` is given.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from companion.engines.game import HEADER, Record
from companion.inputs.events import (
    Button,
    ButtonPress,
    DiceLink,
    DiceNotice,
    Dropped,
    Input,
    Rolled,
    VoiceLink,
)
from companion.plugin import GamePlugin, UnknownGame, find
from companion.service.hosts.base import (
    NOT_COUNTED,
    GameHost,
    Hinting,
    HostContext,
    Leaving,
    Request,
    Showing,
)
from companion.service.hosts.outcome import REFUSED, Beep, Outcome, input_mark
from companion.service.rules_browser import RulesBrowser
from companion.service.shell_base import (
    HINT_LABEL,
    PHONE_OFF,
    RESUMED,
    START_LABEL,
    VOICE_BACK,
    VOICE_LOST,
    Mode,
    RollVerdict,
    Table,
    phone_off,
    tables,
    turn_colour,
)
from companion.service.shell_menu import MODES as MENU_MODES
from companion.service.shell_menu import ShellMenu
from companion.service.shell_settings import ShellSettings
from companion.storage.journal import JournalError
from companion.storage.prefs import Prefs
from companion.ui.controls import pick
from companion.ui.picture import AnyView
from companion.ui.screens import moves
from companion.ui.views import ListView

if TYPE_CHECKING:
    from companion.service.dice_menu import DiceMenu
    from companion.service.hosts.facts import Facts
    from companion.service.narrator import Narrator

__all__ = ["HINT_LABEL", "PHONE_OFF", "RESUMED", "START_LABEL", "VOICE_BACK", "VOICE_LOST",
           "Mode", "RollVerdict", "Shell", "Table", "phone_off", "tables", "turn_colour"]

log = logging.getLogger(__name__)

UNKNOWN_GAME = ("Hru z deníku nejde obnovit, tahle verze nezná hru „{name}“: deník zůstává "
                "beze změny, dokud nezačne nová hra.")
UNPLAYABLE_HEADER = ("Hru z deníku nejde obnovit, tahle verze nepřijme její nastavení: deník "
                     "zůstává beze změny, dokud nezačne nová hra.")
class SetupLine(StrEnum):
    """The set-up's own lines around the host's options (whose keys are the host's)."""

    GAME = "game"  # "Hra: …": ● takes the next game line
    START = "start"  # "▶ Začít hru"


def _refuse(event: Input) -> None:
    match event:
        case Rolled(receipt=receipt) | Dropped(receipt=receipt) if receipt is not None:
            receipt.refuse()


class Shell:
    """The table's controller: the set-up, the inputs and the outputs around the game host in
    play; its menu (:class:`~.shell_menu.ShellMenu`) and settings
    (:class:`~.shell_settings.ShellSettings`) are parts it holds.

    ``ctx`` is what the table lends the hosts: each host is built with a copy whose ``beep``
    is silent while sound is off and whose ``save_prefs`` keeps the preferences."""

    def __init__(self, ctx: HostContext, games: Sequence[GamePlugin], *, start_with: str = "",
                 save_prefs: Callable[[Prefs], None] | None = None,
                 dice_menu: DiceMenu | None = None,
                 phone_screen: Callable[[], AnyView] = phone_off,
                 phone_renew: Callable[[], bool] | None = None,
                 on_roll: list[RollVerdict] | None = None) -> None:
        self.ctx = ctx
        self._save_prefs = save_prefs or (lambda prefs: None)
        self.hosts: dict[str, GameHost] = {}
        self.games = tuple(games)
        self.tables = tables(games)
        """The set-up's game lines (the games handed in: :func:`companion.games.playable`)."""
        self.table = self._table_of(start_with, "")
        self.mode = Mode.SETUP
        self.setup_index = 0
        self.browser: RulesBrowser | None = None
        self._rules_back = Mode.PLAY
        self.quit_requested = False
        self.shutdown_requested = False
        self._begun = False
        self.notice = ""
        """One line for the set-up screen's foot (the voice went silent...)."""
        self._voice: VoiceLink | None = None
        self.on_roll: list[RollVerdict] = on_roll if on_roll is not None else []
        """Told whether each roll from the dice counted (a Pixels die blinks it)."""
        self.narrator: Narrator | None = None
        """The voice of every game and the voice mode (:mod:`.narrator`; loaded once the
        voice is on)."""
        self.menu = ShellMenu(lambda: self.host, self._in_game, self._hints, self.beep, self._go,
                              phone_screen=phone_screen, phone_renew=phone_renew)
        self.settings = ShellSettings(lambda: self.ctx.prefs, self._save_prefs, dice_menu)

    # --- what the parts were given (the service's wiring) ---------------------------------

    @property
    def phone_screen(self) -> Callable[[], AnyView]:
        """The "Telefon" screen (the phone view's QR code, or how to turn it on)."""
        return self.menu.phone_screen

    @phone_screen.setter
    def phone_screen(self, screen: Callable[[], AnyView]) -> None:
        self.menu.phone_screen = screen

    @property
    def phone_renew(self) -> Callable[[], bool] | None:
        """"Nový odkaz": a new address for the phones (``None``: no such menu line)."""
        return self.menu.phone_renew

    @phone_renew.setter
    def phone_renew(self, renew: Callable[[], bool] | None) -> None:
        self.menu.phone_renew = renew

    @property
    def dice_menu(self) -> DiceMenu | None:
        """"Kostka" under the settings (``None``: no such line)."""
        return self.settings.dice_menu

    @dice_menu.setter
    def dice_menu(self, menu: DiceMenu | None) -> None:
        self.settings.dice_menu = menu

    @property
    def menu_index(self) -> int:
        return self.menu.index

    @menu_index.setter
    def menu_index(self, index: int) -> None:
        self.menu.index = index

    @property
    def settings_index(self) -> int:
        return self.settings.index

    @settings_index.setter
    def settings_index(self, index: int) -> None:
        self.settings.index = index

    def menu_labels(self) -> list[str]:
        return list(self.menu.labels())

    # --- the game at the table -------------------------------------------------------------

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
            make = self.table.info.host_factory()
            self.hosts[name] = make(self._host_context(), self.table.mode)
        return self.hosts[name]

    def _host_context(self) -> HostContext:
        """What a host is built with: the table's context, its beep silent while sound is
        off, and keeping the preferences on disk."""
        return replace(self.ctx, beep=self._sound, save_prefs=self._keep_prefs)

    def _keep_prefs(self) -> None:
        self._save_prefs(self.ctx.prefs)

    def _in_game(self) -> bool:
        return self.table.info.name in self.hosts and self.host.in_game

    @property
    def voice_mode_on(self) -> bool:
        """Whether "Hlasový režim" is on (a held ◀ then reads the situation, not runs)."""
        return self.ctx.prefs.voice and bool(self.ctx.prefs.voice_mode)

    def held_left_is_long(self) -> bool:
        """Whether a held ◀ is one long press now instead of running (the buttons ask): in the
        voice mode (it reads the whole situation) and on a game's screen while hints are on
        (it shows the hint); elsewhere it runs through a list as a held arrow does."""
        return self.voice_mode_on or (self.mode is Mode.PLAY and self._hints())

    @property
    def contrast(self) -> int:
        return self.ctx.prefs.contrast

    def _sound(self, name: str) -> None:
        if self.ctx.prefs.sound:
            self.ctx.beep(name)

    def beep(self, name: Beep) -> None:
        """Sound ``name`` (only while sound is on)."""
        self._sound(name)

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

    def _hints(self) -> bool:
        """Whether a player may ask for a hint now: the host gives them, a game is on and the
        settings allow it."""
        return (self.ctx.prefs.hints and self._in_game()
                and isinstance(self.host, Hinting))

    def open_rules(self, back: Mode) -> None:
        """The game's rules browser, with "Proč?" about this moment; long ● returns."""
        why = self.host.why() if self._in_game() and back is Mode.PLAY else None
        self.browser = RulesBrowser(self.table.info.title, self.table.info.topics(), why)
        self._rules_back = back if back is Mode.SETUP or self._in_game() else Mode.SETUP
        self.mode = Mode.RULES

    def option_values(self) -> dict[str, Any]:
        """The set-up's current values (for tests and the demo)."""
        return {o.key: o.value for o in self.host.options()}

    # --- the game in play ---------------------------------------------------------

    def begin(self, now: float) -> None:
        """Start: resume the journaled game (timers set from ``now``) or show the set-up."""
        if self._begun:
            return
        self._begun = True
        journal = self.ctx.journal
        records = journal.load()
        header = records[0] if records else None
        if header is None or header.get("t") != HEADER:
            self.notice = self._said()  # a damaged journal with no game left in it: at the set-up
            return
        try:
            info = find(self.games, str(header.get("game")))
            self.table = self._table_of(info.name, str(header.get("mode", "")))
            host = self.host
        except UnknownGame as exc:
            log.error("the journal's game cannot be hosted (%s); showing the set-up", exc)
            journal.hold(UNKNOWN_GAME.format(name=str(header.get("game"))[:24]))
            self.notice = self._said()
            return
        if host.resume(records, now):
            self.mode = Mode.PLAY
            host.notify(self._said() or RESUMED)  # after the resume: it may have cut and said
            log.info("resumed a game of %s (%d records)", info.name, len(records))
        else:
            journal.hold(UNPLAYABLE_HEADER)
            self.notice = self._said()

    def _said(self) -> str:
        return " ".join(x for x in (self.ctx.journal.report.message, self.ctx.storage_notice)
                        if x)

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
        playing = self.mode is Mode.PLAY
        colour = turn_colour(self.facts()) if playing and self.on_roll else None
        try:
            outcome = self._handle(event, now)
        except JournalError as exc:
            self._not_saved(exc, event)
            outcome = REFUSED
        except Exception:
            _refuse(event)  # a bug: the dice keeps it and sends it again
            raise
        else:
            self._act(outcome)
            if mark is not None and not outcome.journaled:
                self._void(mark, event)
        match event:
            case Rolled(value=value):
                refused = event.receipt is not None and not event.receipt.taken
                self._judged(value, playing and outcome.counted and not refused, colour)
        self._narrate(event, now)

    def _act(self, outcome: Outcome) -> None:
        """What a host's step asks of the shell: its beep, the set-up for a new game."""
        if outcome.beep is not None:
            self.beep(outcome.beep)
        if outcome.request is Request.SETUP:
            self.mode = Mode.SETUP
            self.setup_index = len(self._setup_lines()) - 1

    def _void(self, mark: Record, event: Input) -> None:
        """A dice event that did not count (nobody wanted a throw): its mark is journaled, so
        the acknowledgement means "in the journal" for it too.  With no game it is only
        acknowledged; a journal that refuses the mark refuses the event (sent again)."""
        if not self.ctx.journal.has_records():
            return
        try:
            self.ctx.journal.note(mark)
        except JournalError as exc:
            self._not_saved(exc, event)

    def _judged(self, value: int, counted: bool, colour: int | None) -> None:
        """Tell :attr:`on_roll` whether a roll counted: it does not when no game is played,
        when the host refused it (not this seat's throw, a throw before a debt is drunk) or
        when the journal refused it."""
        for tell in self.on_roll:
            try:
                tell(value, counted, colour)
            except Exception:
                log.exception("the roll's verdict could not be shown")

    def _not_saved(self, exc: JournalError, event: Input | None = None) -> None:
        """The journal refused a write: nothing changed; say so, and let the dice send again."""
        log.error("an action was refused because it could not be saved: %r", exc)
        self.beep(Beep.ILLEGAL)
        self.notify(exc.message)
        if self.mode is Mode.SETUP:
            self.notice = exc.message  # a new game refused: said on the set-up's foot
        if event is not None:
            _refuse(event)

    def _handle(self, event: Input, now: float) -> Outcome:
        """One input, by what it is: the shell's own, or the host's."""
        match event:
            case ButtonPress():
                return self._button(event, now)
            case VoiceLink():
                self._voice_link(event)
                return Outcome()
            case DiceNotice(line=line):
                self._dice_notice(line)
                return Outcome()
            case DiceLink(up=up):
                self.ctx.dice.up = up
            case Dropped() if self.mode is Mode.SETUP:
                return Outcome()  # no game is being played: a die falling now costs nobody
            case Rolled() if self.mode is not Mode.PLAY:
                if self.table.info.name in self.hosts:
                    self.hosts[self.table.info.name].notify(NOT_COUNTED)
                return REFUSED
        if self.table.info.name in self.hosts or self.mode is Mode.PLAY:
            return self.host.handle(event, now)
        return Outcome()

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

    def _dice_notice(self, line: str) -> None:
        """A line about the dice: shown where the table looks, and said."""
        self.notice = line
        self.notify(line)
        if self.ctx.prefs.voice:
            self.ctx.announcer.say(line)

    def _button(self, ev: ButtonPress, now: float) -> Outcome:
        match ev:
            case ButtonPress(name=Button.LEFT, long=True) if (
                    self.mode is Mode.PLAY and self._hints() and not self.voice_mode_on):
                self.mode = self.menu.show_hint()  # (in the voice mode it reads the situation)
            case ButtonPress(name=Button.HELP) if self.mode in (Mode.PLAY, Mode.SETUP):
                self.open_rules(self.mode)
            case ButtonPress(name=Button.MENU) | ButtonPress(name=Button.SELECT, long=True):
                self._long(now)
            case ButtonPress(name=Button.LEFT, long=True) if self.voice_mode_on:
                if self.narrator is not None:  # (hardware/buttons.py)
                    self.narrator.whole(self)
            case ButtonPress(name=name) if self.mode is Mode.PLAY:
                return self.host.handle(ButtonPress(name), now)  # a press, long or not
            case ButtonPress(name=name) if self.mode is Mode.SETUP:
                self._on_setup(name, now)
            case ButtonPress(name=name) if self.mode is Mode.RULES:
                assert self.browser is not None
                self.browser.button(name)
            case ButtonPress(name=name) if self.mode in (Mode.SETTINGS, Mode.DICE):
                self._go(self.settings.button(self.mode, name))
            case ButtonPress(name=name) if self.mode in MENU_MODES:
                self._go(self.menu.button(self.mode, name, now))
        return Outcome()

    def _go(self, mode: Mode) -> None:
        """Go to ``mode`` from a part's screen, with what entering it sets up."""
        if mode is self.mode:
            return
        if mode is Mode.RULES:
            self.open_rules(Mode.PLAY)  # from the menu
            return
        if mode is Mode.SETTINGS and self.mode is Mode.MENU:
            self.settings.index = 0
        elif mode is Mode.SETUP and self.mode is Mode.CONFIRM_NEW:
            self.setup_index = 0
        elif mode is Mode.BYE:
            self.shutdown_requested = True
        self.mode = mode

    def _long(self, now: float) -> None:
        match self.mode:
            case Mode.RULES:
                self.mode = self._rules_back
            case Mode.PLAY:
                if isinstance(self.host, Leaving) and self.host.leave(now):
                    return  # a duty's list or the ledger: back to the game
                self.mode, self.menu.index = Mode.MENU, 0
            case Mode.BYE:
                return
            case _:
                if self.mode is Mode.DICE:
                    self.settings.close()
                self.mode = Mode.PLAY if self._in_game() else Mode.SETUP

    def tick(self, now: float) -> None:
        self.begin(now)
        if self.mode is Mode.PLAY:
            try:
                self.host.tick(now)
            except JournalError as exc:
                self._not_saved(exc)
        self._narrate(None, now)

    def _narrate(self, event: Input | None, now: float | None = None) -> None:
        """The voice says what changed (only while it is on: then :mod:`.narrator` loads)."""
        if not self.ctx.prefs.voice:
            if self.narrator is not None:
                self.narrator.forget()
            return
        if self.narrator is None:
            from companion.service.narrator import Narrator

            self.narrator = Narrator()
        try:
            self.narrator.after(self, event, now)
        except Exception:  # the voice must never take the game down
            log.exception("the voice could not say what changed")

    # --- set-up -------------------------------------------------------------------------

    def _setup_lines(self) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = [(SetupLine.GAME, f"Hra: {self.table.label}")]
        lines += [(o.key, o.line) for o in self.host.options()]
        lines.append((SetupLine.START, START_LABEL))
        return lines

    def _on_setup(self, name: Button, now: float) -> None:
        self.notice = ""
        lines = self._setup_lines()
        self.setup_index, item = pick(min(self.setup_index, len(lines) - 1), lines, name)
        if item is None:
            return
        key = item[0]
        if key == SetupLine.GAME:
            self._switch_table()
        elif key == SetupLine.START:
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

    # --- outputs ----------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        return self.host.next_deadline() if self.mode is Mode.PLAY else None

    def animated(self) -> bool:
        """Whether the screen changes with time alone (blinking, scrolling, a message's pages
        turning: a view that says it moves, :func:`companion.ui.screens.moves`)."""
        if self.mode is Mode.PLAY:
            return self.host.animated() or moves(self.host.view())
        return self.mode in (Mode.SETUP, Mode.MENU, Mode.SETTINGS, Mode.RULES, Mode.DICE) \
            or moves(self.view())

    def view(self) -> AnyView:
        shown = self.menu.view(self.mode)
        if shown is None:
            shown = self.settings.view(self.mode)
        if shown is not None:
            return shown
        if self.mode is Mode.RULES:
            assert self.browser is not None
            return self.browser.view()
        if self.mode is Mode.SETUP:
            lines = [label for _, label in self._setup_lines()]
            return ListView(f"Nová hra: {self.host.title}", tuple(lines),
                            min(self.setup_index, len(lines) - 1),
                            self.notice or ("dlouze ● = zpět do hry" if self._in_game() else ""))
        return self.host.view()

    def storage(self, line: str) -> None:
        """The data folder became read-only or writable again: say ``line`` on the set-up's
        foot and in the game's event line."""
        self.ctx.storage_notice = line if line.startswith("Nelze") else ""
        self.notice = line
        self.notify(line)
