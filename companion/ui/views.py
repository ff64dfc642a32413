"""Screen models: what each OLED screen shows, as plain values.

The controller produces a view, :mod:`companion.ui.screens` draws it.  Tests
assert on views (what the table is told) and on a few rendered frames (how it
looks).  Every text here is Czech for the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # types only: the service starts without the Člověče engine and napij's views
    from companion.engines.clovece.rules import Position

    from .napij_views import NapijView

from .referee import Screen as RefereeScreen


@dataclass(frozen=True)
class Choice:
    label: str  # "5.→8.", "na start", "38.→cíl 3" (counted from the player's own start)
    capture: bool = False


@dataclass(frozen=True)
class TurnView:
    """The turn screen of Člověče."""

    position: Position
    colour: int
    player: str  # "Modrý"
    computer: bool
    roll: int | None  # the roll being played, if any
    prompt: str  # what the table should do now
    choices: tuple[Choice, ...] = ()
    selected: int = 0
    tries: int = 0  # failed tries of the current three-tries sequence
    tries_shown: bool = False  # the colour has no piece in play: show "pokus n ze 3"
    manual_roll: int | None = None  # roll being entered with ◀ ▶ (dice missing)
    dice: str = "ok"  # "ok", "missing" (none configured), "lost" (disconnected)
    event: str = ""  # one line: what just happened
    blink: tuple[tuple[int, int], tuple[int, int]] | None = None  # (piece cell, target cell)
    roll_virtual: bool = False  # the roll was thrown by the companion for a computer seat
    words: str = ""  # the selected move in words; shown instead of the event while choosing


@dataclass(frozen=True)
class ListView:
    """A titled list with one item selected (set-up, menu, settings)."""

    title: str
    items: tuple[str, ...]
    selected: int = 0
    footer: str = ""


@dataclass(frozen=True)
class WinView:
    colour: int
    player: str
    position: Position
    footer: str = "● nová hra"


@dataclass(frozen=True)
class MessageView:
    """A message that needs one button: a question, a warning, a farewell."""

    title: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    footer: str = ""


@dataclass(frozen=True)
class RefereeView:
    """A Gobbit referee screen (drawn by :func:`companion.ui.screens.draw_referee`)."""

    screen: RefereeScreen


View: TypeAlias = "TurnView | ListView | WinView | MessageView | RefereeView | NapijView"
"""Every screen the shell and the game hosts produce (a type for annotations only: napij's
views are imported by the napij host and its drawing, not at start)."""
