"""Why something is not legal, why a card did nothing, why a turn was lost (machine-readable).

:class:`Reason` is what :func:`companion.games.napij.engine.rules.why_not` returns and
what an :class:`~companion.engines.errors.IllegalMove` carries in ``reason``;
:mod:`companion.games.napij.engine.describe` turns every value into one Czech sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Why(StrEnum):
    LEGAL = "legal"
    GAME_OVER = "game-over"
    NOT_PLAYING = "not-playing"
    THROW_FIRST = "throw-first"              # a play before the throws are complete
    NOT_THROW_PHASE = "not-throw-phase"      # a throw while a play or a choice is due
    CHOICE_PENDING = "choice-pending"
    NO_CHOICE_PENDING = "no-choice-pending"
    NOT_YOUR_CHOICE = "not-your-choice"      # an answer to an offer made to somebody else
    SHUFFLE_FIRST = "shuffle-first"          # a virtual deck waits for its shuffle
    NOT_SHUFFLE_PHASE = "not-shuffle-phase"  # a shuffle after the deck was shuffled
    BAD_SHUFFLE = "bad-shuffle"              # a shuffle that is not an order of the deck
    DRAW_PENDING = "draw-pending"            # a physical deck waits for a drawn card
    NO_DRAW_PENDING = "no-draw-pending"      # a drawn card nobody waits for
    NOT_A_CARD = "not-a-card"                # a card number the deck does not have
    BAD_VALUE = "bad-value"                  # a die value outside 1..6
    NO_PIECE = "no-piece"
    PUB_NEEDS_SIX = "pub-needs-six"
    TRAP_NEEDS_SIX = "trap-needs-six"
    START_HELD_BY_OWN = "start-held-by-own"
    OWN_PIECE_ON_TARGET = "own-piece-on-target"
    IMMUNE_ON_TARGET = "immune-on-target"
    OVERSHOOTS_HOME = "overshoots-home"
    CANNOT_JUMP_IN_HOME = "cannot-jump-in-home"
    OVERSHOOTS_TRAP = "overshoots-trap"
    CANNOT_MOVE = "cannot-move"              # in its home with no free field ahead
    NOT_A_THROWN_VALUE = "not-a-thrown-value"
    VALUES_UNUSED = "values-unused"
    TOGETHER_NEEDS_ALL = "together-needs-all"
    PIECE_TWICE = "piece-twice"
    EXIT_NEEDED = "exit-needed"
    BAD_EXIT = "bad-exit"
    BOTTLE_DECLARED = "bottle-declared"
    BOTTLE_NOT_DECLARED = "bottle-not-declared"
    BOTTLE_NOT_PLACED = "bottle-not-placed"
    BOTTLE_NEEDS_PIECE_IN_PLAY = "bottle-needs-piece-in-play"
    BOTTLE_TOO_LATE = "bottle-too-late"
    BAD_CHOICE = "bad-choice"
    NOTHING_OWED = "nothing-owed"
    NOTHING_ANNOUNCED = "nothing-announced"  # no duty of that reason waits for an answer
    NOT_A_CALLED_DUTY = "not-a-called-duty"


@dataclass(frozen=True, slots=True)
class Reason:
    """``why`` with the colour it concerns (and the piece and a detail where they help)."""

    why: Why
    colour: int
    piece: int = -1
    detail: int | None = None
    """A die value, a number of fields, a card or a colour, depending on ``why``."""


class CardWhy(StrEnum):
    """Why a drawn card did nothing."""

    OFF_MAIN = "off-main"      # the drawer stands on a shortcut: moving cards skip it
    OVERSHOOT = "overshoot"    # forward n would pass the end of the home: stays put
    BLOCKED = "blocked"        # the field the card sends it to is held (own or immune piece)
    NO_TARGET = "no-target"    # no opponent piece the card could act on
    IMMUNE = "immune"          # the drawer's own immunity protects it
    IN_LINE = "in-line"        # lining up: it already stands right behind the nearest opponent
    DECLINED = "declined"      # the co-player turned the offer down
    BLANK = "blank"            # the family's own card: the table decides


class ForfeitWhy(StrEnum):
    """Why a turn was lost."""

    NO_MOVE = "no-move"            # no play uses all the values
    SIX_UNUSABLE = "six-unusable"  # no piece could ever use this six: no need to throw again
    TRIES = "tries"                # three tries without a six
