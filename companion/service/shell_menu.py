"""The shell's menu (long ● or the menu button) and what it leads to: the questions every
destructive item asks first (undo says what it will take back: "Vrátit hod 5?"; new game;
shut down, which keeps the game), the hint, the phone's QR code, the rules browser."""

from __future__ import annotations

from collections.abc import Sequence

from companion.service.shell_base import HINT_LABEL, Mode, ShellBase
from companion.ui.controls import pick
from companion.ui.fonts import body_font
from companion.ui.picture import AnyView
from companion.ui.screens import WIDTH, wrap
from companion.ui.views import ListView, MessageView


class ShellMenu(ShellBase):
    """The menu and the screens it opens."""

    MENU_HEAD = (("back", "Zpět do hry"), ("undo", "Vrátit poslední akci"))
    MENU_TAIL = (("rules", "Pravidla a nápověda"), ("phone", "Telefon"), ("new", "Nová hra"),
                 ("settings", "Nastavení"), ("off", "Vypnout"))

    def _menu(self) -> list[tuple[str, str]]:
        rules, phone, *tail = self.MENU_TAIL
        hint = [("hint", HINT_LABEL)] if self._hints() else []
        link = [("link", "Nový odkaz")] if self.phone_renew is not None else []
        return [*self.MENU_HEAD, *self.host.menu_items(), rules, *hint, phone, *link, *tail]

    def menu_labels(self) -> Sequence[str]:
        return [label for _, label in self._menu()]

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
        elif key == "link":
            self.mode = Mode.CONFIRM_LINK
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

    def _on_confirm_link(self, name: str, now: float) -> None:
        """"Nový odkaz?" ● a new address, then its QR code; ◀ back to the menu."""
        if name == "select" and self.phone_renew is not None:
            if not self.phone_renew():
                self.beep("illegal")
            self.mode = Mode.PHONE
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

    def _on_rules(self, name: str, now: float) -> None:
        assert self.browser is not None
        self.browser.button(name)

    def menu_view(self) -> AnyView | None:
        """The screen of a mode of the menu's, or ``None`` in another mode."""
        if self.mode is Mode.PHONE:
            return self.phone_screen()
        if self.mode is Mode.HINT:
            pages, page = self._hint, self._hint_page
            if len(pages) == 1:
                return MessageView("Nápověda", pages[0], "● zpět do hry")
            return MessageView(f"Nápověda {page + 1}/{len(pages)}", pages[page],
                               "◀ ▶ listovat, ● zpět")
        if self.mode is Mode.RULES:
            assert self.browser is not None
            return self.browser.view()
        if self.mode is Mode.MENU:
            return ListView("Nabídka", tuple(label for _, label in self._menu()),
                            self.menu_index, "dlouze ● = zpět")
        if self.mode is Mode.CONFIRM_UNDO:
            if self._undo is None:
                return MessageView("Vrátit", ("Není co vrátit.",), "● zpět do hry")
            title, text = self._undo
            return MessageView(title, tuple(wrap(body_font(), text, WIDTH - 1)),
                               "● ano   ◀ ne")
        if self.mode is Mode.CONFIRM_NEW:
            return MessageView("Nová hra?", ("Rozehraná hra skončí", "a začne se znovu."),
                               "● ano   ◀ ne")
        if self.mode is Mode.CONFIRM_LINK:
            return MessageView("Nový odkaz?", ("Telefony dostanou", "nový kód; starý",
                                               "a vytištěný přestanou", "fungovat."),
                               "● ano   ◀ ne")
        if self.mode is Mode.CONFIRM_OFF:
            return MessageView("Vypnout?", ("Hra zůstane uložena", "a po zapnutí",
                                            "bude pokračovat."), "● ano   ◀ ne")
        if self.mode is Mode.BYE:
            return MessageView("Na shledanou", ("Hra je uložena.", "Vypínám…"))
        return None
