"""What the napij se screens show, as plain values (drawn by :mod:`companion.games.napij.screens`).

The board has 80 fields and more: it cannot be drawn whole on 128 x 64, so a
turn screen says in words where each piece goes (:class:`Row`) and draws a
:class:`Strip`: the fields along the chosen piece's way, from where it stands
to where it ends (the target blinks), with junction branches, traps, card
fields, the rolling pin and the home marked.  One :class:`NapijView` serves
every napij screen: the turn (the play shown as :class:`Move` s), the turn, the debt to drink, a card's choice, a card to
enter, the lot for who starts, the ledger and "Účet"; a :class:`Banner` over it
announces a drink.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.ui.views import View

if TYPE_CHECKING:
    from companion.ui.reading import Reading

BOTTLE = -1
"""``Cell.piece`` of the bottle."""


@dataclass(frozen=True)
class Cell:
    """One field of a strip map."""

    kind: str
    """A board field kind (``normal``, ``card``, ``start``, ``arrow``, ``junction``,
    ``turnoff``, ``lane``, ``rolling_pin``, ``home``, ``trap``), ``pub`` (a piece's pub) or
    ``gap`` (fields left out in the middle of a long way)."""
    colour: int | None = None
    """The colour of a start, arrow, lane or home field."""
    piece: int | None = None
    """The colour of the piece standing here, :data:`BOTTLE`, or ``None``."""
    branch: bool = False
    """A second way leaves this field (a junction)."""


@dataclass(frozen=True)
class Strip:
    """The fields along one move: ``moving`` is the moving piece's cell, ``target`` where it
    ends (both blink)."""

    cells: tuple[Cell, ...]
    moving: int | None = None
    target: int | None = None


@dataclass(frozen=True)
class Move:
    """One move of the play shown: its words (wrapped under the strip) and its strip map."""

    text: str
    strip: Strip | None = None


@dataclass(frozen=True)
class Row:
    """One line of a napij screen, with a colour's mark before it when ``mark`` is set."""

    text: str
    mark: int | None = None


@dataclass(frozen=True)
class Banner:
    """An announcement drawn over the screen: a title (large) and up to two lines."""

    title: str
    lines: tuple[str, ...] = ()
    marks: tuple[int, ...] = ()


@dataclass(frozen=True)
class NapijView(View):
    """A napij se screen: header, optional strip maps, rows, prompt and the event line."""

    player: str
    """The header's name: whose turn (or the screen's title: "Los", "Účet")."""
    mark: int | None = None
    computer: bool = False
    throws: tuple[int, ...] = ()
    """The turn's throws so far, shown at the right of the header."""
    note: str = ""
    """Shown at the right of the header when there are no throws ("láhev", "1/3")."""
    moves: tuple[Move, ...] = ()
    """The moves of the play shown (they take turns every 2 s); instead of ``rows``."""
    rows: tuple[Row, ...] = ()
    selected: int | None = None
    """The row drawn inverted (a list to pick from), or ``None``."""
    prompt: str = ""
    event: str = ""
    banner: Banner | None = None
    page: int | None = None
    """The page of rows shown when they are more than the screen holds and none is selected
    (▶ turns it: a card's text); ``None``: the pages take turns by themselves."""

    def reading(self) -> Reading:
        from companion.games.napij.reading import read_napij

        return read_napij(self)

    def whose(self) -> int | None:
        return self.mark if self.banner is None else None
