"""Everything that changes a game of Člověče, napij se!, as frozen values.

Decisions of a player (:class:`DeclareBottle`, :class:`Play`, :class:`Choose`,
:class:`ThrowOwing`), chance (:class:`Throw`, :class:`Shuffle`, :class:`Draw`) and
what the table says (:class:`Drank`, :class:`Later`, :class:`Duty`) are all actions: the engine applies
them and never draws, rolls or waits on its own.  Two actions are equal only
when they are of the same kind with the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.napij.engine.state import DrinkReason


@dataclass(frozen=True, slots=True)
class Throw:
    """A throw of the die by the player on turn (chance)."""

    value: int


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The virtual deck's order, top card first (chance, before the first throw)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """A physical deck: the number printed on the card the family drew (chance)."""

    card: int


@dataclass(frozen=True, slots=True)
class DeclareBottle:
    """The player on turn plays the bottle this turn (said before the first throw)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One piece's part of a play: ``values`` are one die value, or all of the turn's."""

    piece: int
    values: tuple[int, ...]
    exit: int | None = None
    """The node a piece standing on a junction goes to first (``None`` elsewhere)."""


@dataclass(frozen=True, slots=True)
class Play:
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Choose:
    """The piece a drawn card acts on: the opponent piece its drawer picks, or the piece with
    which an offered co-player takes the offer."""

    colour: int
    piece: int


@dataclass(frozen=True, slots=True)
class Offer:
    """The drawer of an offering card offers its deal to this co-player."""

    colour: int


@dataclass(frozen=True, slots=True)
class Decline:
    """The co-player offered a card's deal turns it down."""

    colour: int


@dataclass(frozen=True, slots=True)
class Drank:
    """The table says: this player has drunk.  Without a reason, everything they owe (the
    debt asked for before a throw, the ledger); with one, the duty of that reason just
    announced (the oldest one not answered yet: a banner's "vypito", D42)."""

    colour: int
    reason: DrinkReason | None = None


@dataclass(frozen=True, slots=True)
class Later:
    """The table answers a duty just announced with "later": the oldest one of this reason
    not answered yet stays as a debt, due before the player's next throw (D42)."""

    colour: int
    reason: DrinkReason


@dataclass(frozen=True, slots=True)
class ThrowOwing:
    """The player on turn throws although a debt is due (the seed allows it, at a price):
    the throw that follows is void and costs the penalty (D22)."""


@dataclass(frozen=True, slots=True)
class Duty:
    """The table calls a duty: dropped die, needless delay, cheating, getting upset."""

    colour: int
    reason: DrinkReason


Action = (Throw | Shuffle | Draw | DeclareBottle | Play | Choose | Offer | Decline | Drank | Later
          | ThrowOwing | Duty)
