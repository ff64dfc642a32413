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
from collections.abc import Callable
from typing import Any

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
from companion.registry import UnknownGame, find_game
from companion.service.hosts.base import NOT_COUNTED, Leaving, Request
from companion.service.hosts.outcome import Outcome
from companion.service.shell_base import (
    HINT_LABEL,
    NOT_COUNTING_BEEPS,
    PHONE_OFF,
    RESUMED,
    START_LABEL,
    VOICE_BACK,
    VOICE_LOST,
    Mode,
    RollVerdict,
    ShellBase,
    Table,
    input_mark,
    phone_off,
    tables,
    turn_colour,
)
from companion.service.shell_menu import ShellMenu
from companion.service.shell_settings import ShellSettings
from companion.storage.journal import JournalError
from companion.ui.controls import pick
from companion.ui.picture import AnyView
from companion.ui.screens import moves
from companion.ui.views import ListView

__all__ = ["HINT_LABEL", "NOT_COUNTING_BEEPS", "PHONE_OFF", "RESUMED", "START_LABEL",
           "VOICE_BACK", "VOICE_LOST", "Mode", "RollVerdict", "Shell", "ShellBase", "Table",
           "input_mark", "phone_off", "tables", "turn_colour"]

log = logging.getLogger(__name__)

UNKNOWN_GAME = ("Hru z deníku nejde obnovit, tahle verze nezná hru „{name}“: deník zůstává "
                "beze změny, dokud nezačne nová hra.")
UNPLAYABLE_HEADER = ("Hru z deníku nejde obnovit, tahle verze nepřijme její nastavení: deník "
                     "zůstává beze změny, dokud nezačne nová hra.")


def _refuse(event: Input) -> None:
    receipt = getattr(event, "receipt", None)
    if receipt is not None:
        receipt.refuse()



class Shell(ShellMenu, ShellSettings):
    """The table's controller: the shared screens around the game host in play (the menu's
    part in :class:`~.shell_menu.ShellMenu`, the settings' in
    :class:`~.shell_settings.ShellSettings`, what they share in
    :class:`~.shell_base.ShellBase`)."""

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
            info = find_game(str(header.get("game")))
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
        self._narrate(event, now)

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

    def _after(self, result: Request | Outcome | None) -> None:
        request = result
        if isinstance(result, Outcome):  # a host that gives back what the input did
            if result.beep is not None:
                self.beep(result.beep)
            request = result.request
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
            if isinstance(self.host, Leaving) and self.host.leave(now):
                return  # a duty's list or the ledger: back to the game
            self.mode, self.menu_index = Mode.MENU, 0
        elif self.mode in (Mode.MENU, Mode.SETTINGS, Mode.CONFIRM_UNDO, Mode.CONFIRM_NEW,
                           Mode.CONFIRM_OFF, Mode.SETUP, Mode.PHONE, Mode.HINT, Mode.DICE,
                           Mode.CONFIRM_LINK):
            if self.mode is Mode.DICE and self.dice_menu is not None:
                self.dice_menu.close()
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

    _handlers: dict[Mode, Callable[[Shell, str, float], None]] = {
        Mode.SETUP: _on_setup, Mode.PLAY: _on_play, Mode.MENU: ShellMenu._on_menu,
        Mode.SETTINGS: ShellSettings._on_settings, Mode.RULES: ShellMenu._on_rules,
        Mode.CONFIRM_UNDO: ShellMenu._on_confirm_undo,
        Mode.CONFIRM_NEW: ShellMenu._on_confirm_new,
        Mode.CONFIRM_OFF: ShellMenu._on_confirm_off, Mode.PHONE: ShellMenu._on_phone,
        Mode.HINT: ShellMenu._on_hint, Mode.BYE: ShellMenu._on_bye,
        Mode.DICE: ShellSettings._on_dice, Mode.CONFIRM_LINK: ShellMenu._on_confirm_link,
    }


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
        shown = self.menu_view()
        if shown is None:
            shown = self.settings_view()
        if shown is not None:
            return shown
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
