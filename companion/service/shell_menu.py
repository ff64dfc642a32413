"""The shell's menu (long ● or the menu button) and what it leads to: the questions every
destructive item asks first (undo says what it will take back: "Vrátit hod 5?"; new game;
shut down, which keeps the game), the hint, the phone's QR code.

:class:`ShellMenu` is a part the shell holds: it keeps its own selection, question and hint
pages, reaches the game in play through what the shell lends it when it is built, and answers
each button with the mode the shell goes to next."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from companion.inputs.events import Button
from companion.service.hosts.base import GameHost, Hinting
from companion.service.hosts.outcome import Beep
from companion.service.rules_browser import paginate
from companion.service.shell_base import HINT_LABEL, Mode, phone_off
from companion.ui.controls import pick
from companion.ui.fonts import body_font
from companion.ui.picture import AnyView
from companion.ui.screens import WIDTH, wrap
from companion.ui.views import ListView, MessageView


class Item(StrEnum):
    """The shell's own lines of the menu (a host adds its own between them)."""

    BACK = "back"
    UNDO = "undo"
    RULES = "rules"
    HINT = "hint"
    PHONE = "phone"
    LINK = "link"
    NEW = "new"
    SETTINGS = "settings"
    OFF = "off"


MENU_HEAD = ((Item.BACK, "Zpět do hry"), (Item.UNDO, "Vrátit poslední akci"))
MENU_TAIL = ((Item.RULES, "Pravidla a nápověda"), (Item.PHONE, "Telefon"),
             (Item.NEW, "Nová hra"), (Item.SETTINGS, "Nastavení"), (Item.OFF, "Vypnout"))
NEXT_MODE = {Item.BACK: Mode.PLAY, Item.RULES: Mode.RULES, Item.NEW: Mode.CONFIRM_NEW,
             Item.SETTINGS: Mode.SETTINGS, Item.OFF: Mode.CONFIRM_OFF, Item.PHONE: Mode.PHONE,
             Item.LINK: Mode.CONFIRM_LINK}
"""Where a plain line of the menu leads."""

MODES = frozenset({Mode.MENU, Mode.CONFIRM_UNDO, Mode.CONFIRM_NEW, Mode.CONFIRM_OFF,
                   Mode.CONFIRM_LINK, Mode.PHONE, Mode.HINT, Mode.BYE})
"""The modes whose buttons and screens are the menu's."""


class ShellMenu:
    """The menu and the screens it opens (see the module).  ``host``: the game at the table;
    ``in_game``: whether a game is on; ``hints``: whether a hint may be asked now; ``beep``:
    a sound to the table; ``go``: the shell goes to a mode before the host acts (so a write
    the journal refuses is told on the game's screen)."""

    def __init__(self, host: Callable[[], GameHost], in_game: Callable[[], bool],
                 hints: Callable[[], bool], beep: Callable[[Beep], None],
                 go: Callable[[Mode], None], *,
                 phone_screen: Callable[[], AnyView] = phone_off,
                 phone_renew: Callable[[], bool] | None = None) -> None:
        self._host = host
        self._in_game = in_game
        self._hints = hints
        self._beep = beep
        self._go = go
        self.index = 0
        self._undo: tuple[str, str] | None = None
        self._hint: list[tuple[str, ...]] = []
        """The hint shown, in pages (a long hint takes more than one)."""
        self._hint_page = 0
        self.phone_screen = phone_screen
        """The "Telefon" screen: the phone view's QR code when the service runs it,
        otherwise how to turn it on."""
        self.phone_renew = phone_renew
        """"Nový odkaz": give the phone view a new address (when the address is the box's
        own, kept across restarts; ``None``: no such menu line)."""

    def items(self) -> list[tuple[str, str]]:
        rules, phone, *tail = MENU_TAIL
        hint = [(Item.HINT, HINT_LABEL)] if self._hints() else []
        link = [(Item.LINK, "Nový odkaz")] if self.phone_renew is not None else []
        return [*MENU_HEAD, *self._host().menu_items(), rules, *hint, phone, *link, *tail]

    def labels(self) -> Sequence[str]:
        return [label for _, label in self.items()]

    def show_hint(self) -> Mode:
        """Ask the host (which changes nothing) and show its answer until a button."""
        host = self._host()
        assert isinstance(host, Hinting)
        self._hint, self._hint_page = paginate(host.hint()), 0
        return Mode.HINT

    def _back(self) -> Mode:
        return Mode.PLAY if self._in_game() else Mode.SETUP

    def button(self, mode: Mode, name: Button, now: float) -> Mode:
        """A button in one of the menu's modes: the mode to go to."""
        match mode:
            case Mode.MENU:
                return self._on_menu(name, now)
            case Mode.CONFIRM_UNDO:
                return self._on_confirm_undo(name, now)
            case Mode.CONFIRM_NEW:
                return self._confirm(name, Mode.SETUP, mode)
            case Mode.CONFIRM_OFF:
                return self._confirm(name, Mode.BYE, mode)
            case Mode.CONFIRM_LINK:
                return self._on_confirm_link(name)
            case Mode.PHONE:
                return self._back()  # any button: back to the game
            case Mode.HINT:
                return self._on_hint(name)
        return mode  # shutting down (BYE): buttons do nothing any more

    def _on_menu(self, name: Button, now: float) -> Mode:
        items = self.items()
        self.index, item = pick(min(self.index, len(items) - 1), items, name)
        if item is None:
            return Mode.MENU
        key = item[0]
        if key == Item.UNDO:
            self._undo = self._host().undo_preview()
            return Mode.CONFIRM_UNDO
        if key == Item.HINT:
            return self.show_hint()
        if key in NEXT_MODE:
            return NEXT_MODE[Item(key)]
        self._go(Mode.PLAY)
        self._host().on_menu(key, now)  # the host's own line
        return Mode.PLAY

    @staticmethod
    def _confirm(name: Button, yes: Mode, asking: Mode) -> Mode:
        """A question: ● ``yes``, ◀ back to the menu, ▶ stays."""
        match name:
            case Button.SELECT:
                return yes
            case Button.LEFT:
                return Mode.MENU
        return asking

    def _on_confirm_undo(self, name: Button, now: float) -> Mode:
        match name:
            case Button.SELECT:
                self._go(Mode.PLAY)
                if self._undo is not None and not self._host().undo(now):
                    self._beep(Beep.ILLEGAL)
                return Mode.PLAY
            case Button.LEFT:
                return Mode.MENU
        return Mode.CONFIRM_UNDO

    def _on_confirm_link(self, name: Button) -> Mode:
        """"Nový odkaz?" ● a new address, then its QR code; ◀ back to the menu."""
        match name:
            case Button.SELECT if self.phone_renew is not None:
                if not self.phone_renew():
                    self._beep(Beep.ILLEGAL)
                return Mode.PHONE
            case Button.LEFT:
                return Mode.MENU
        return Mode.CONFIRM_LINK

    def _on_hint(self, name: Button) -> Mode:
        """◀ ▶ turn the pages of a long hint; any other button goes back to the game."""
        last = len(self._hint) - 1
        if name == Button.RIGHT and self._hint_page < last:
            self._hint_page += 1
        elif name == Button.LEFT and self._hint_page > 0:
            self._hint_page -= 1
        else:
            return self._back()
        return Mode.HINT

    def view(self, mode: Mode) -> AnyView | None:
        """The screen of a mode of the menu's, or ``None`` in another mode."""
        match mode:
            case Mode.PHONE:
                return self.phone_screen()
            case Mode.HINT:
                pages, page = self._hint, self._hint_page
                if len(pages) == 1:
                    return MessageView("Nápověda", pages[0], "● zpět do hry")
                return MessageView(f"Nápověda {page + 1}/{len(pages)}", pages[page],
                                   "◀ ▶ listovat, ● zpět")
            case Mode.MENU:
                return ListView("Nabídka", tuple(self.labels()), self.index, "dlouze ● = zpět")
            case Mode.CONFIRM_UNDO:
                if self._undo is None:
                    return MessageView("Vrátit", ("Není co vrátit.",), "● zpět do hry")
                title, text = self._undo
                return MessageView(title, tuple(wrap(body_font(), text, WIDTH - 1)),
                                   "● ano   ◀ ne")
            case Mode.CONFIRM_NEW:
                return MessageView("Nová hra?", ("Rozehraná hra skončí", "a začne se znovu."),
                                   "● ano   ◀ ne")
            case Mode.CONFIRM_LINK:
                return MessageView("Nový odkaz?", ("Telefony dostanou", "nový kód; starý",
                                                   "a vytištěný přestanou", "fungovat."),
                                   "● ano   ◀ ne")
            case Mode.CONFIRM_OFF:
                return MessageView("Vypnout?", ("Hra zůstane uložena", "a po zapnutí",
                                                "bude pokračovat."), "● ano   ◀ ne")
            case Mode.BYE:
                return MessageView("Na shledanou", ("Hra je uložena.", "Vypínám…"))
        return None
