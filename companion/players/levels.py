"""The levels of a computer seat a family chooses: začátečník, normální, silný.

Every game with a computer seat plays each level (``companion.players.<game>_levels``):

* **začátečník** (beginner) plays legal moves mostly at random, but takes an obvious gain
  (a capture) now and then: a child can beat it;
* **normální** (normal) is the simple heuristic each game has always had;
* **silný** (strong) looks ahead over the die with a tuned evaluation.

The journal and the configuration name a level in English (``"strong"``); people read
it in Czech (:data:`CZECH`).  :func:`level_of` reads either, with or without the
Czech accents.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum


class Level(StrEnum):
    BEGINNER = "beginner"
    NORMAL = "normal"
    STRONG = "strong"


LEVELS = (Level.BEGINNER, Level.NORMAL, Level.STRONG)
"""Weakest first: the order the set-up cycles through."""

DEFAULT_LEVEL = Level.NORMAL
"""A computer seat without a level (an older journal, a configuration that names none)."""

CZECH = {Level.BEGINNER: "začátečník", Level.NORMAL: "normální", Level.STRONG: "silný"}
"""The level's Czech name, as the set-up and the phone show it."""


def _plain(text: str) -> str:
    """``text`` in lower case without accents ("Silný" -> "silny")."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_NAMES = {_plain(name): level for level in LEVELS for name in (level.value, CZECH[level])}


def level_of(text: str) -> Level:
    """The level named ``text`` (English or Czech, accents optional); ``ValueError`` otherwise."""
    try:
        return _NAMES[_plain(text)]
    except KeyError:
        known = ", ".join(CZECH[level] for level in LEVELS)
        raise ValueError(f"Unknown level {text!r}: the levels are {known}.") from None


def unit_draw(*values: int) -> float:
    """A number in [0, 1) that depends on ``values`` alone (the same in every run and on
    every machine): the beginner's "random" choice, kept pure so that a position always
    gets the same answer."""
    x = 0x9E3779B97F4A7C15
    for v in values:
        x = (x ^ (v & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    x = (x ^ (x >> 30)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 29
    return (x >> 11) / float(1 << 53)
