"""The shell's settings ("Nastavení"): sound, the computer's pace, brightness, the voice and
its own settings, hints, and "Kostka" (which dice); each change is kept in the preferences."""

from __future__ import annotations

from collections.abc import Sequence

from companion.service.shell_base import Mode, ShellBase
from companion.service.voice_settings import VOICE_KEYS, next_voice_setting, voice_settings
from companion.storage.prefs import AUTO_DELAYS, BRIGHTNESS, CONFIRM_DELAYS
from companion.ui.controls import pick
from companion.ui.picture import AnyView
from companion.ui.views import ListView


def _fmt_seconds(s: float) -> str:
    return "vyp." if s == 0 else f"{s:g} s".replace(".", ",")



def _next(values: Sequence[float], value: float) -> float:
    """The value after ``value`` in ``values`` (the first one when it is not among them)."""
    i = values.index(value) if value in values else -1
    return values[(i + 1) % len(values)]



class ShellSettings(ShellBase):
    """The settings and the dice's screens under them."""

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

    def settings_view(self) -> AnyView | None:
        """The screen of the settings or the dice's, or ``None`` in another mode."""
        if self.mode is Mode.DICE and self.dice_menu is not None:
            return self.dice_menu.view()
        if self.mode is Mode.SETTINGS:
            return ListView("Nastavení", tuple(label for _, label in self._settings_items()),
                            self.settings_index)
        return None
