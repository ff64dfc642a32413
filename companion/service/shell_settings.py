"""The shell's settings ("Nastavení"): sound, the computer's pace, brightness, the voice and
its own settings, hints, and "Kostka" (which dice); each change is kept in the preferences.

:class:`ShellSettings` is a part the shell holds, given the preferences and how to keep them;
each button answers with the mode the shell goes to next."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from companion.inputs.events import Button
from companion.service.shell_base import Mode
from companion.service.voice_settings import VOICE_KEYS, next_voice_setting, voice_settings
from companion.storage.prefs import AUTO_DELAYS, BRIGHTNESS, CONFIRM_DELAYS, Prefs
from companion.ui.controls import pick
from companion.ui.picture import AnyView
from companion.ui.views import ListView

if TYPE_CHECKING:
    from companion.service.dice_menu import DiceMenu


def _fmt_seconds(s: float) -> str:
    return "vyp." if s == 0 else f"{s:g} s".replace(".", ",")



def _next(values: Sequence[float], value: float) -> float:
    """The value after ``value`` in ``values`` (the first one when it is not among them)."""
    i = values.index(value) if value in values else -1
    return values[(i + 1) % len(values)]



class Setting(StrEnum):
    """The settings' own lines (the voice's lines are :data:`~.voice_settings.VOICE_KEYS`)."""

    SOUND = "sound"
    AUTO = "auto"
    CONFIRM = "confirm"
    BRIGHT = "bright"
    VOICE = "voice"
    HINTS = "hints"
    DICE = "dice"
    BACK = "back"


class ShellSettings:
    """The settings and the dice's screens under them: a part the shell holds.  ``prefs``:
    the table's preferences as they are now; ``save``: keep them on disk; ``dice_menu``:
    "Kostka" (``None``: no such line)."""

    def __init__(self, prefs: Callable[[], Prefs], save: Callable[[Prefs], None],
                 dice_menu: DiceMenu | None = None) -> None:
        self._prefs = prefs
        self._save = save
        self.dice_menu = dice_menu
        self.index = 0

    def _items(self) -> list[tuple[str, str]]:
        p = self._prefs()
        bright = {255: "100 %", 128: "50 %", 48: "20 %"}.get(p.contrast, f"{p.contrast}")
        return [(Setting.SOUND, f"Zvuk: {'zapnutý' if p.sound else 'vypnutý'}"),
                (Setting.AUTO, f"Sám táhne po: {_fmt_seconds(p.auto_delay)}"),
                (Setting.CONFIRM, f"PC potvrdí sám: {_fmt_seconds(p.computer_confirm)}"),
                (Setting.BRIGHT, f"Jas: {bright}"),
                (Setting.VOICE, f"Hlas: {'zapnutý' if p.voice else 'vypnutý'}"),
                *(voice_settings(p) if p.voice else ()),
                (Setting.HINTS, f"Nápověda tahu: {'ano' if p.hints else 'ne'}"),
                *([(Setting.DICE, self.dice_menu.label())] if self.dice_menu is not None
                  else []),
                (Setting.BACK, "Zpět")]

    def button(self, mode: Mode, name: Button) -> Mode:
        """A button in the settings (or the dice's screens): the mode to go to."""
        if mode is Mode.DICE:
            if self.dice_menu is None or self.dice_menu.button(name):
                return Mode.SETTINGS
            return Mode.DICE
        items = self._items()
        self.index, item = pick(self.index, items, name)
        if item is None:
            return Mode.SETTINGS
        p = self._prefs()
        match item[0]:
            case Setting.SOUND:
                p.sound = not p.sound
            case Setting.AUTO:
                p.auto_delay = _next(AUTO_DELAYS, p.auto_delay)
            case Setting.CONFIRM:
                p.computer_confirm = _next(CONFIRM_DELAYS, p.computer_confirm)
            case Setting.BRIGHT:
                p.contrast = int(_next(BRIGHTNESS, p.contrast))
            case Setting.VOICE:
                p.voice = not p.voice
            case Setting.HINTS:
                p.hints = not p.hints
            case key if key in VOICE_KEYS:
                next_voice_setting(p, key)
            case Setting.DICE if self.dice_menu is not None:
                self.dice_menu.open()
                return Mode.DICE
            case _:
                return Mode.MENU
        self._save(p)
        return Mode.SETTINGS

    def close(self) -> None:
        """The settings are left by a long press: a running search for a die stops."""
        if self.dice_menu is not None:
            self.dice_menu.close()

    def view(self, mode: Mode) -> AnyView | None:
        """The screen of the settings or the dice's, or ``None`` in another mode."""
        if mode is Mode.DICE and self.dice_menu is not None:
            return self.dice_menu.view()
        if mode is Mode.SETTINGS:
            return ListView("Nastavení", tuple(label for _, label in self._items()), self.index)
        return None
