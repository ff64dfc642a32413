"""Gobbit cards: species, colours, expert pictures, the deck file and the card notation.

A card's *face* is its species and colour (``Sb`` blue snake, ``Cr`` red
chameleon, ``My`` yellow mosquito, ``G`` gorilla).  Its *back* carries one of the
six expert pictures; the engine keeps it because the expert condition is the
picture on the graveyard's top card.  The notation appends the back as one
upper-case letter (``SbR``: a blue snake whose back shows the reversed chain).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from companion.engines.errors import NotationError

SNAKE, CHAMELEON, MOSQUITO, GORILLA = "S", "C", "M", "G"
SPECIES = (SNAKE, CHAMELEON, MOSQUITO, GORILLA)
SPECIES_NAMES = {"snake": SNAKE, "chameleon": CHAMELEON, "mosquito": MOSQUITO,
                 "gorilla": GORILLA}
BLUE, RED, YELLOW = "b", "r", "y"
COLOURS = (BLUE, RED, YELLOW)
COLOUR_NAMES = {"blue": BLUE, "red": RED, "yellow": YELLOW}


class Condition(StrEnum):
    """The six expert conditions (the picture on the back of the graveyard's top card)."""

    EXPLODE = "explode"
    ANY_COLOUR = "any-colour"
    REVERSED = "reversed"
    SNAKES_EAT_MOSQUITOES = "snakes-eat-mosquitoes"
    DIFFERENT_COLOURS = "different-colours"
    ALL_GHOSTS = "all-ghosts"


CONDITION_LETTER: dict[Condition, str] = {
    Condition.EXPLODE: "E",
    Condition.ANY_COLOUR: "A",
    Condition.REVERSED: "R",
    Condition.SNAKES_EAT_MOSQUITOES: "S",
    Condition.DIFFERENT_COLOURS: "D",
    Condition.ALL_GHOSTS: "G",
}
LETTER_CONDITION = {v: k for k, v in CONDITION_LETTER.items()}


class Rule(StrEnum):
    """The additional rules a table may play with (all off by default)."""

    GOBBIT = "gobbit"
    GHOST = "ghost"
    GORILLA = "gorilla"


RULE_ORDER = tuple(r.value for r in Rule)


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``species`` (S, C, M, G), ``colour`` (b, r, y; None for the gorilla), ``back``."""

    species: str
    colour: str | None
    back: Condition | None = None

    @property
    def face(self) -> tuple[str, str | None]:
        """What the players see face up: two cards are identical when their faces are."""
        return (self.species, self.colour)

    def __str__(self) -> str:
        return format_card(self)


def format_card(card: Card, back: bool = True) -> str:
    text = card.species + (card.colour or "")
    if back and card.back is not None:
        text += CONDITION_LETTER[card.back]
    return text


def parse_card(text: str, allow_back: bool = True) -> Card:
    """``Sb``, ``Cr``, ``My``, ``G`` (and with ``allow_back`` a picture letter: ``SbR``)."""
    bad = (f"Bad card {text!r}: write a species S, C, M or G followed by a colour b, r or y "
           "(a gorilla is just G).")
    if not text or text[0] not in SPECIES:
        raise NotationError(bad)
    species, rest = text[0], text[1:]
    colour: str | None = None
    if species != GORILLA:
        if not rest or rest[0] not in COLOURS:
            raise NotationError(bad)
        colour, rest = rest[0], rest[1:]
    back: Condition | None = None
    if rest:
        if not allow_back or rest not in LETTER_CONDITION:
            raise NotationError(bad)
        back = LETTER_CONDITION[rest]
    return Card(species, colour, back)


def parse_condition(text: str) -> Condition:
    try:
        return Condition(text)
    except ValueError:
        known = ", ".join(c.value for c in Condition)
        raise NotationError(f"Unknown expert condition {text!r}: known are {known}.") from None


def _deck_from_data(data: dict[str, Any]) -> tuple[Card, ...]:
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise NotationError("The deck file must list [[cards]] entries.")
    pictures_raw = data.get("backs", {}).get("pictures", [c.value for c in Condition])
    pictures = [parse_condition(str(p)) for p in pictures_raw]
    if not pictures:
        raise NotationError("The deck file must name at least one back picture.")
    faces: list[tuple[str, str | None]] = []
    for i, entry in enumerate(entries, 1):
        species = SPECIES_NAMES.get(str(entry.get("species")))
        if species is None:
            raise NotationError(f"Deck entry {i}: unknown species {entry.get('species')!r}.")
        colour_name = entry.get("colour")
        if species == GORILLA:
            if colour_name is not None:
                raise NotationError(f"Deck entry {i}: a gorilla has no colour.")
            colour = None
        else:
            colour = COLOUR_NAMES.get(str(colour_name))
            if colour is None:
                raise NotationError(f"Deck entry {i}: unknown colour {colour_name!r}.")
        count = entry.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise NotationError(f"Deck entry {i}: count must be a whole number.")
        faces += [(species, colour)] * count
    return tuple(Card(s, c, pictures[i % len(pictures)]) for i, (s, c) in enumerate(faces))


def load_deck(text: str | None = None) -> tuple[Card, ...]:
    """The cards of the box in deck-file order (``text``: a deck file, default ``deck.toml``)."""
    if text is None:
        text = resources.files("companion.games.gobbit.engine").joinpath("deck.toml").read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise NotationError(f"The deck file is not valid TOML: {exc}.") from None
    return _deck_from_data(data)


@cache
def _box(gorillas: bool) -> tuple[Card, ...]:
    cards = load_deck()
    return cards if gorillas else tuple(c for c in cards if c.species != GORILLA)


def standard_deck(rules: frozenset[str] | set[str] = frozenset()) -> tuple[Card, ...]:
    """The cards a table plays with: gorillas only when the gorilla rule is in play.

    The shipped deck file is read once; the tuple is shared (cards are values).
    """
    return _box(Rule.GORILLA.value in rules)
