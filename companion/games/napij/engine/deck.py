"""The deck of Člověče, napij se! as data: 32 cards, each a Czech text and one effect.

The format is documented in ``docs/players/deck.md``.  The printed cards are not
published: the shipped ``deck.toml`` is a reconstruction whose texts are our own.
The effects come from a fixed set that the rules engine knows (:data:`EFFECTS`);
a family that writes its own text on the blank card picks one of them (or
``blank``, which the engine leaves to the table).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path

from companion.games.napij.engine.board import (
    DataFileError,
    Locator,
    Problem,
    read_text,
    toml_error_line,
    toml_error_text,
)

DECK_SIZE = 32
IMMUNITY_ROUNDS = 4


class Effect(StrEnum):
    """What a card does; the value is the word the deck file uses.  The rules engine has one
    handler per effect (:data:`companion.games.napij.engine.effects.HANDLERS`)."""

    FORWARD = "forward"        # move forward n towards home (stays put if n overshoots the home)
    BACK = "back"              # move back n fields along the main track
    PUB = "pub"                # back to the pub
    KNOCK_OUT = "knock_out"    # knock out an opponent piece on the main track (drawer chooses)
    SWAP = "swap"              # swap places with an opponent piece on the main track
    CATCH_UP = "catch_up"      # go to the nearest opponent ahead and knock it out
    LINE_UP = "line_up"        # «zařazování»: get in line right behind the nearest opponent ahead
    OFFER_KNOCK_OUT = "offer_knock_out"  # a co-player may jump onto the drawer and knock it out
    OFFER_SWAP = "offer_swap"  # a co-player may swap places with the drawer
    IMMUNITY = "immunity"      # protected for four rounds against knock-outs and the pub
    ZACHYTKA = "zachytka"      # into the záchytka; from there the shorter way home
    DRINK = "drink"            # drink n times
    GLASS = "glass"            # empty the glass
    EVERYBODY = "everybody"    # every player drinks once
    BLANK = "blank"            # the family's own card: the engine does nothing


EFFECTS: dict[Effect, tuple[int, int] | None] = {
    Effect.FORWARD: (1, 12),
    Effect.BACK: (1, 12),
    Effect.PUB: None,
    Effect.KNOCK_OUT: None,
    Effect.SWAP: None,
    Effect.CATCH_UP: None,
    Effect.LINE_UP: None,
    Effect.OFFER_KNOCK_OUT: None,
    Effect.OFFER_SWAP: None,
    Effect.IMMUNITY: None,
    Effect.ZACHYTKA: None,
    Effect.DRINK: (1, 10),
    Effect.GLASS: None,
    Effect.EVERYBODY: None,
    Effect.BLANK: None,
}
"""effect -> the allowed range of ``n`` (``None``: the effect takes no ``n``)."""

MOVING_EFFECTS = frozenset({Effect.FORWARD, Effect.BACK, Effect.PUB, Effect.KNOCK_OUT,
                            Effect.SWAP, Effect.CATCH_UP, Effect.LINE_UP, Effect.OFFER_KNOCK_OUT,
                            Effect.OFFER_SWAP, Effect.ZACHYTKA})
"""Effects that move pieces: a drawer standing off the main track takes no part in them."""
CHOICE_EFFECTS = frozenset({Effect.KNOCK_OUT, Effect.SWAP})
"""Effects whose drawer chooses the opponent piece they act on."""
OFFER_EFFECTS = frozenset({Effect.OFFER_KNOCK_OUT, Effect.OFFER_SWAP})
"""Effects whose drawer offers a co-player a deal: the drawer picks the co-player, who takes
it with a piece of their choice or declines."""


@dataclass(frozen=True)
class Card:
    number: int
    text: str
    effect: Effect
    n: int = 1


@dataclass(frozen=True)
class Deck:
    name: str
    note: str
    reconstruction: bool
    cards: tuple[Card, ...]
    by_number: dict[int, Card]

    def card(self, number: int) -> Card:
        return self.by_number[number]

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.cards)


class DeckError(DataFileError):
    """A deck file that cannot be played with."""


def _card_lines(text: str) -> list[int]:
    lines = []
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("[[") and s[2:].split("]")[0].strip() == "card":
            lines.append(i)
    return lines


def parse_deck(text: str, source: str = "deck") -> Deck:
    """Read and validate a deck; raise :class:`DeckError` listing every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(source, [Problem(toml_error_line(exc), None, toml_error_text(exc))]) \
            from None
    problems: list[Problem] = []
    loc = Locator(text)
    for key in sorted(set(data) - {"deck", "card"}):
        problems.append(Problem(loc.header(key), None,
                                f"Unknown table {key!r}: a deck has [deck] and [[card]] entries."))
    meta = data.get("deck", {})
    if not isinstance(meta, dict):
        problems.append(Problem(loc.header("deck"), None, "[deck] must be a table."))
        meta = {}
    for key in sorted(set(meta) - {"name", "note", "reconstruction"}):
        problems.append(Problem(loc.header("deck"), None,
                                f"Unknown key {key!r} in [deck] (known: name, note, "
                                "reconstruction)."))
    raw = data.get("card")
    if not isinstance(raw, list):
        problems.append(Problem(None, None, "The deck needs its cards as [[card]] entries."))
        raise DeckError(source, problems)
    lines = _card_lines(text)
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for k, entry in enumerate(raw):
        line = lines[k] if k < len(lines) else None
        where = f"card {k + 1}"
        if not isinstance(entry, dict):
            problems.append(Problem(line, where, "A card is a table of keys."))
            continue
        bad = False
        for key in sorted(set(entry) - {"number", "text", "effect", "n"}):
            problems.append(Problem(line, where, f"Unknown key {key!r} (known: number, text, "
                                                 "effect, n)."))
            bad = True
        number = entry.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 99:
            problems.append(Problem(line, where, f"number must be a whole number from 1 to 99, "
                                                 f"not {number!r}."))
            continue
        where = f"card {number}"
        if number in seen:
            problems.append(Problem(line, where, f"The number {number} is used twice (first at "
                                                 f"card {seen[number] + 1} of the file)."))
            bad = True
        seen.setdefault(number, k)
        text_ = entry.get("text")
        if not isinstance(text_, str) or not text_.strip():
            problems.append(Problem(line, where, "text must be the Czech text of the card."))
            bad = True
        elif text_.strip()[-1] not in ".!?":
            problems.append(Problem(line, where, "text must be whole sentences ending with a "
                                                 "full stop, ! or ?."))
            bad = True
        effect = entry.get("effect")
        if not isinstance(effect, str) or effect not in EFFECTS:
            problems.append(Problem(line, where, f"effect must be one of {', '.join(EFFECTS)}, "
                                                 f"not {effect!r}."))
            continue
        effect = Effect(effect)
        rng = EFFECTS[effect]
        n = entry.get("n")
        if rng is None:
            if n is not None:
                problems.append(Problem(line, where, f"The effect {effect} takes no n."))
                bad = True
            n = 1
        elif n is None and effect == "drink":
            n = 1
        elif not isinstance(n, int) or isinstance(n, bool) or not rng[0] <= n <= rng[1]:
            problems.append(Problem(line, where, f"The effect {effect} needs n from {rng[0]} to "
                                                 f"{rng[1]}, not {n!r}."))
            bad = True
        if not bad:
            assert isinstance(text_, str) and isinstance(n, int)
            cards.append(Card(number, text_.strip(), effect, n))
    if not problems and len(cards) != DECK_SIZE:
        problems.append(Problem(None, None, f"The deck has {len(cards)} cards; the game has "
                                            f"{DECK_SIZE}."))
    if problems:
        raise DeckError(source, problems)
    name = meta.get("name", "")
    note = meta.get("note", "")
    return Deck(str(name), str(note), bool(meta.get("reconstruction", False)), tuple(cards),
                {c.number: c for c in cards})


def default_deck_text() -> str:
    return resources.files("companion.games.napij.engine").joinpath("deck.toml").read_text("utf-8")


@functools.cache
def default_deck() -> Deck:
    """The shipped deck (a reconstruction: the printed cards are not published)."""
    return parse_deck(default_deck_text(), "deck.toml")


def load_deck(path: str | Path) -> Deck:
    return parse_deck(read_text(path, "deck"), str(path))


def is_deck_text(text: str) -> bool:
    """Whether a data file looks like a deck (it has ``[[card]]`` entries) rather than a board."""
    return bool(_card_lines(text))
