"""What the shell and its parts share: the modes, the set-up's game lines, the constants of
its screens.

The shell (:class:`~.shell.Shell`: the inputs, the set-up, the outputs) holds its parts as
objects: :class:`~.shell_menu.ShellMenu` (the menu, its questions, the hint, the phone) and
:class:`~.shell_settings.ShellSettings` (the settings, the dice's screens).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from companion.plugin import GamePlugin
from companion.service.hosts.facts import Turning
from companion.ui.views import MessageView

if TYPE_CHECKING:
    from companion.service.hosts.facts import Facts

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



RollVerdict = Callable[[int, bool, "int | None"], None]
"""Told after every roll from the dice: its value, whether it counted, the seat it counted
for (the colour on turn; ``None`` when unknown)."""


def turn_colour(facts: Facts | None) -> int | None:
    """The colour on turn, as the game's facts tell it (:class:`~.hosts.facts.Turning`;
    ``None``: no colours, no game)."""
    return facts.on_turn() if isinstance(facts, Turning) else None
