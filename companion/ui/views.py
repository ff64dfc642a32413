"""Screen models: what each OLED screen shows, as plain values.

The controller produces a view, :mod:`companion.ui.screens` draws it.  Tests
assert on views (what the table is told) and on a few rendered frames (how it
looks).  Every text here is Czech for the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.ui.reading import Reading


class View:
    """What one OLED screen shows: every screen model derives from this, and its drawing is
    registered with :func:`companion.ui.screens.renderer` (the shared views' in
    :mod:`companion.ui.screens`, a game's own in its screens module).  :meth:`reading` says
    how it is read aloud (the voice mode; a kind of screen imports its reader when the voice
    first reads one, so with the voice off nothing of that loads)."""

    __slots__ = ()

    def reading(self) -> Reading:
        """How the screen is read aloud; this base: its kind alone, no words."""
        from companion.ui.reading import Reading

        return Reading(("view", type(self).__name__), "")

    def whose(self) -> int | None:
        """The colour whose own screen this is (its turn, a choice asked of it), or ``None``
        when it is nobody's own."""
        return None


def whose_screen(view: object) -> int | None:
    """The colour whose own screen ``view`` is (:meth:`View.whose`), or ``None``."""
    return view.whose() if isinstance(view, View) else None


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

    title: str
    items: tuple[str, ...]
    selected: int = 0
    footer: str = ""

    def reading(self) -> Reading:
        from companion.ui.reading import read_list

        return read_list(self)


@dataclass(frozen=True)
class MessageView(View):
    """A message that needs one button: a question, a warning, a farewell."""

    title: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    footer: str = ""

    def reading(self) -> Reading:
        from companion.ui.reading import read_message

        return read_message(self)
