"""What the shell's parts share: the modes, the game in play, the constants of its screens.

:class:`ShellBase` holds the shell's state (the table's line, the hosts, the mode and the
selections) and what every part of it asks (the host in play, whether a game is on, the
beep, a line to the table, the rules browser, the hint); its parts are
:mod:`.shell_menu` (the menu, its questions, the hint, the phone, the rules browser),
:mod:`.shell_settings` (the settings) and :class:`~.shell.Shell` itself (the inputs, the
set-up, the outputs).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from companion.inputs.events import Dropped, Input, Rolled, VoiceLink
from companion.plugin import GamePlugin
from companion.service.hosts.base import GameHost, Hinting, HostContext, Showing
from companion.service.hosts.facts import Turning
from companion.service.rules_browser import RulesBrowser, paginate
from companion.storage.prefs import Prefs
from companion.ui.picture import AnyView
from companion.ui.views import MessageView

if TYPE_CHECKING:
    from companion.service.dice_menu import DiceMenu
    from companion.service.hosts.facts import Facts
    from companion.service.narrator import Narrator

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
    CONFIRM_LINK = "confirm-link"  # "Nový odkaz": a new address for the phones?
    HINT = "hint"  # "Nápověda": the host's advice for the player on turn
    DICE = "dice"  # "Kostka" under the settings: which dice, pairing a Pixels die
    BYE = "bye"


@dataclass(frozen=True)
class Table:
    """One line of the set-up's game choice: a game and the host mode it is played in."""

    info: GamePlugin
    mode: str
    label: str


def tables(games: Sequence[GamePlugin]) -> list[Table]:
    """The set-up's game lines of ``games``, in their order."""
    return [Table(info, mode, label) for info in games for mode, label in info.table_lines()]



NOT_COUNTING_BEEPS = ("illegal", "void-throw")
"""A host that beeps one of these while it takes a roll did not count the roll."""

RollVerdict = Callable[[int, bool, "int | None"], None]
"""Told after every roll from the dice: its value, whether it counted, the seat it counted
for (the colour on turn; ``None`` when unknown)."""


def turn_colour(facts: Facts | None) -> int | None:
    """The colour on turn, as the game's facts tell it (:class:`~.hosts.facts.Turning`;
    ``None``: no colours, no game)."""
    return facts.on_turn() if isinstance(facts, Turning) else None




class ShellBase:
    """The shell's state and what each of its parts asks of it."""

    def __init__(self, ctx: HostContext, games: Sequence[GamePlugin], *, start_with: str = "",
                 save_prefs: Callable[[Prefs], None] | None = None) -> None:
        self.ctx = ctx
        self._save_prefs = save_prefs or (lambda prefs: None)
        ctx.save_prefs = lambda: self._save_prefs(self.ctx.prefs)
        self._beeper = ctx.beep
        ctx.beep = self.beep  # hosts beep through the shell, which knows whether sound is on
        self.hosts: dict[str, GameHost] = {}
        self.games = tuple(games)
        self.tables = tables(games)
        """The set-up's game lines (the games handed in: :func:`companion.games.playable`)."""
        self.table = self._table_of(start_with, "")
        self.mode = Mode.SETUP
        self.setup_index = 0
        self.menu_index = 0
        self.settings_index = 0
        self.browser: RulesBrowser | None = None
        self._rules_back = Mode.PLAY
        self._undo: tuple[str, str] | None = None
        self._hint: list[tuple[str, ...]] = []
        """The hint shown, in pages (a long hint takes more than one)."""
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
        self.phone_renew: Callable[[], bool] | None = None
        """"Nový odkaz": give the phone view a new address (the service sets it when the
        address is the box's own, kept across restarts; ``None``: no such menu line)."""
        self.dice_menu: DiceMenu | None = None
        """"Kostka" under the settings (the service sets it; ``None``: no such line)."""
        self.on_roll: list[RollVerdict] = []
        """Told whether each roll from the dice counted (a Pixels die blinks it)."""
        self._heard: list[str] | None = None
        self.narrator: Narrator | None = None
        """The voice of every game and the voice mode (:mod:`.narrator`; loaded once the
        voice is on)."""

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
            self.hosts[name] = make(self.ctx, self.table.mode)
        return self.hosts[name]

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

    def beep(self, name: str) -> None:
        if self._heard is not None:
            self._heard.append(name)
        if self.ctx.prefs.sound:
            self._beeper(name)

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

    def _show_hint(self) -> None:
        """Ask the host (which changes nothing) and show its answer until a button."""
        host = self.host
        assert isinstance(host, Hinting)
        self._hint, self._hint_page = paginate(host.hint()), 0
        self.mode = Mode.HINT

    def open_rules(self, back: Mode) -> None:
        """The game's rules browser, with "Proč?" about this moment; long ● returns."""
        why = self.host.why() if self._in_game() and back is Mode.PLAY else None
        self.browser = RulesBrowser(self.table.info.title, self.table.info.topics(), why)
        self._rules_back = back if back is Mode.SETUP or self._in_game() else Mode.SETUP
        self.mode = Mode.RULES

    def option_values(self) -> dict[str, Any]:
        """The set-up's current values (for tests and the demo)."""
        return {o.key: o.value for o in self.host.options()}
