"""Screen models: what each OLED screen shows, as plain values.

The controller produces a view, :mod:`companion.ui.screens` draws it.  Tests
assert on views (what the table is told) and on a few rendered frames (how it
looks).  Every text here is Czech for the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


class View:
    """What one OLED screen shows: every screen model derives from this, and its drawing is
    registered with :func:`companion.ui.screens.renderer` (the shared views' in
    :mod:`companion.ui.screens`, a game's own in its screens module).  ``reading`` names the
    function that reads it aloud (``"module:function"``, :func:`companion.ui.reading.read`;
    empty: read as its kind alone)."""

    __slots__ = ()
    reading: ClassVar[str] = ""


def is_list(view: object) -> bool:
    """Whether ``view`` shows a list to pick from with ◀ ▶ (a :class:`ListView`, or a game's
    screen with a selected row: whom a duty names, the ledger, a card's choice): there the
    simulator's ↑ ↓ move as ◀ ▶ do."""
    return isinstance(view, ListView) or getattr(view, "selected", None) is not None


@dataclass(frozen=True)
class Choice:
    label: str  # "5.→8.", "na start", "38.→cíl 3" (counted from the player's own start)
    capture: bool = False


@dataclass(frozen=True)
class ListView(View):
    """A titled list with one item selected (set-up, menu, settings)."""

    reading: ClassVar[str] = "companion.ui.reading:read_list"

    title: str
    items: tuple[str, ...]
    selected: int = 0
    footer: str = ""


@dataclass(frozen=True)
class MessageView(View):
    """A message that needs one button: a question, a warning, a farewell."""

    reading: ClassVar[str] = "companion.ui.reading:read_message"

    title: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    footer: str = ""
