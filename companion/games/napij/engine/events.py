"""What happened in a game of Člověče, napij se!: the events :func:`apply` returns.

Every event is a frozen, slotted dataclass; two events are equal only when they
are of the same kind with the same fields (``ThrowAgain(1) != BottleDeclared(1)``).
:mod:`companion.games.napij.engine.describe` says each of them in Czech.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from companion.games.napij.engine.reasons import CardWhy, ForfeitWhy
from companion.games.napij.engine.state import DrinkReason


class How(StrEnum):
    """What knocked a piece out."""

    PIECE = "piece"
    BOTTLE = "bottle"
    CARD = "card"


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    cards: int


@dataclass(frozen=True, slots=True)
class Thrown:
    colour: int
    value: int


@dataclass(frozen=True, slots=True)
class ThrowAgain:
    colour: int


@dataclass(frozen=True, slots=True)
class TryFailed:
    colour: int
    tries: int


@dataclass(frozen=True, slots=True)
class VoidThrow:
    colour: int
    value: int


@dataclass(frozen=True, slots=True)
class BottleDeclared:
    colour: int


@dataclass(frozen=True, slots=True)
class BottlePlaced:
    node: int


@dataclass(frozen=True, slots=True)
class BottleMoved:
    colour: int
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class BottlePushed:
    colour: int
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Entered:
    colour: int
    piece: int
    to: int


@dataclass(frozen=True, slots=True)
class Released:
    colour: int
    piece: int
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Moved:
    colour: int
    piece: int
    frm: int
    to: int
    values: tuple[int, ...]
    """The die values used; empty when a card moved the piece."""


@dataclass(frozen=True, slots=True)
class Captured:
    by: int
    """The colour that knocked the piece out (for the bottle: who moved or pushed it)."""
    colour: int
    piece: int
    node: int
    how: How


@dataclass(frozen=True, slots=True)
class ReturnedToPub:
    colour: int
    piece: int
    node: int
    cause: str
    """``"rolling-pin"`` or ``"card"``."""


@dataclass(frozen=True, slots=True)
class EnteredHome:
    colour: int
    piece: int
    node: int


@dataclass(frozen=True, slots=True)
class Trapped:
    colour: int
    piece: int
    node: int


@dataclass(frozen=True, slots=True)
class AtJunction:
    colour: int
    piece: int
    node: int


@dataclass(frozen=True, slots=True)
class AtTurnOff:
    colour: int
    piece: int
    node: int


@dataclass(frozen=True, slots=True)
class DrawDue:
    """A physical deck: this piece must draw now (the card comes in as a ``Draw``)."""

    colour: int
    piece: int
    out_of_turn: bool


@dataclass(frozen=True, slots=True)
class CardDrawn:
    colour: int
    piece: int
    card: int
    out_of_turn: bool


@dataclass(frozen=True, slots=True)
class CardNoEffect:
    colour: int
    card: int
    why: CardWhy


@dataclass(frozen=True, slots=True)
class ChoiceNeeded:
    colour: int
    card: int
    options: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class OfferNeeded:
    """The drawer picks which of ``colours`` the card's deal is offered to."""

    colour: int
    card: int
    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Offered:
    """The card's deal is offered to ``to``, who takes it with a piece or declines."""

    colour: int
    card: int
    to: int


@dataclass(frozen=True, slots=True)
class Swapped:
    colour: int
    piece: int
    other: int
    other_piece: int


@dataclass(frozen=True, slots=True)
class ImmunityGranted:
    colour: int
    piece: int
    rounds: int


@dataclass(frozen=True, slots=True)
class ImmunityEnded:
    colour: int
    piece: int


@dataclass(frozen=True, slots=True)
class CardChainStopped:
    draws: int


@dataclass(frozen=True, slots=True)
class MustDrink:
    colour: int
    drinks: int
    reason: DrinkReason
    about: int | None = None
    """For ``HOME`` and ``WINNER``: the colour being toasted."""
    card: int | None = field(default=None, compare=False)
    """The card that gave the duty (a card's knock-out names it: "vyhození kartou č. 12")."""


@dataclass(frozen=True, slots=True)
class Settled:
    colour: int
    drinks: int
    glasses: int
    reason: DrinkReason | None = None
    """The duty just announced that was drunk; ``None``: everything owed."""
    about: int | None = field(default=None, compare=False)
    card: int | None = field(default=None, compare=False)
    """Who and which card the duty drunk named (its words are the banner's)."""


@dataclass(frozen=True, slots=True)
class Postponed:
    """A duty just announced stays as a debt ("later"): due before the player's next throw,
    or, when ``next_turn`` (the player on turn incurred it during the turn, D22), before
    their next turn."""

    colour: int
    drinks: int
    reason: DrinkReason
    next_turn: bool = False
    about: int | None = field(default=None, compare=False)
    card: int | None = field(default=None, compare=False)
    """Who and which card the duty named (its words are the banner's)."""


@dataclass(frozen=True, slots=True)
class OwingThrow:
    """The player on turn throws although a debt is due: the throw to come is void (D22)."""

    colour: int


@dataclass(frozen=True, slots=True)
class TurnForfeited:
    colour: int
    why: ForfeitWhy


@dataclass(frozen=True, slots=True)
class TurnPassed:
    colour: int
    next: int


@dataclass(frozen=True, slots=True)
class Won:
    colour: int


Event = (DeckShuffled | Thrown | ThrowAgain | TryFailed | VoidThrow | BottleDeclared
         | BottlePlaced | BottleMoved | BottlePushed | Entered | Released | Moved | Captured
         | ReturnedToPub | EnteredHome | Trapped | AtJunction | AtTurnOff | DrawDue | CardDrawn
         | CardNoEffect | ChoiceNeeded | OfferNeeded | Offered | Swapped | ImmunityGranted
         | ImmunityEnded | CardChainStopped | MustDrink | Settled | Postponed | OwingThrow
         | TurnForfeited | TurnPassed | Won)

EVENT_KINDS: tuple[type, ...] = (
    DeckShuffled, Thrown, ThrowAgain, TryFailed, VoidThrow, BottleDeclared, BottlePlaced,
    BottleMoved, BottlePushed, Entered, Released, Moved, Captured, ReturnedToPub, EnteredHome,
    Trapped, AtJunction, AtTurnOff, DrawDue, CardDrawn, CardNoEffect, ChoiceNeeded, OfferNeeded,
    Offered, Swapped, ImmunityGranted, ImmunityEnded, CardChainStopped, MustDrink, Settled,
    Postponed, OwingThrow, TurnForfeited, TurnPassed, Won)
"""Every kind of event, for tests and tools."""
