"""Text notation for Člověče positions (a contract: see docs/dev/clovece-notation.md).

    r:h,h,0,f1 g:25,h,h,h turn:g tries:1 variants:mandatory-capture winner:r

* ``C:L,L,L,L`` one token per playing colour, ``C`` in ``r b g y`` and ``L`` a
  location: ``h`` (house), ``0``…``39`` (absolute track field), ``f1``…``f4``
  (that colour's goal fields, ``f4`` the deepest);
* ``turn:C``; optional ``tries:N`` (0…2); optional ``variants:v1,v2``;
  ``winner:C`` once a colour has all four pieces in the goal.

Formatting writes the colours in clockwise order, then ``turn``, ``tries``
(only when not 0), ``variants`` (only when any, in the documented order) and
``winner``.  The order of the four locations inside a colour token is kept, so
``format_position(parse_position(s)) == s`` for every canonical ``s``.

The game protocol's state (:mod:`.game`) is a position and the roll waiting
for its move: :func:`parse_with_roll` / :func:`format_with_roll` add one more
token, ``roll:N`` (written last), for that roll.
"""

from __future__ import annotations

from companion.engines.colours import NotationError as NotationError
from companion.engines.colours import colour_index as colour_index
from companion.games.clovece.engine.rules import (
    COLOURS,
    GOAL_FIRST,
    HOUSE,
    PIECES,
    START,
    TRACK_LEN,
    TRIES,
    VARIANT_ORDER,
    Position,
    in_play,
    legal_moves,
    occupancy,
)


def location_text(colour: int, progress: int) -> str:
    """The notation of a piece of ``colour`` at ``progress`` (``h``, ``0``…``39``, ``f1``…``f4``)."""
    if progress == HOUSE:
        return "h"
    if progress >= GOAL_FIRST:
        return f"f{progress - GOAL_FIRST + 1}"
    return str((START[colour] + progress) % TRACK_LEN)


def parse_location(colour: int, text: str) -> int:
    """The progress of a piece of ``colour`` written as ``text``."""
    if text == "h":
        return HOUSE
    if len(text) == 2 and text[0] == "f" and text[1] in "1234":
        return GOAL_FIRST + int(text[1]) - 1
    if text.isascii() and text.isdigit() and len(text) <= 2 and (
            text == "0" or not text.startswith("0")):
        field = int(text)
        if field < TRACK_LEN:
            return (field - START[colour]) % TRACK_LEN
    raise NotationError(
        f"Bad location {text!r}: use h, a track field 0 to 39, or f1 to f4.")


def parse_position(text: str) -> Position:
    """Read a position; raise :class:`NotationError` with one clear sentence if it is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("The position is empty.")
    pieces: list[tuple[int, ...] | None] = [None, None, None, None]
    turn: int | None = None
    tries = 0
    variants: frozenset[str] = frozenset()
    winner: int | None = None
    seen: set[str] = set()
    for token in text.split():
        key, sep, value = token.partition(":")
        if not sep or not value:
            raise NotationError(f"Bad token {token!r}: every token is key:value.")
        if key in seen:
            raise NotationError(f"The token {key!r} appears twice.")
        seen.add(key)
        if key in COLOURS:
            c = COLOURS.index(key)
            locs = value.split(",")
            if len(locs) != PIECES:
                raise NotationError(
                    f"Colour {key} needs exactly 4 locations, not {len(locs)}.")
            pieces[c] = tuple(parse_location(c, loc) for loc in locs)
        elif key == "turn":
            turn = colour_index(value)
        elif key == "tries":
            if not value.isdigit() or int(value) >= TRIES:
                raise NotationError(f"tries must be 0, 1 or 2, not {value!r}.")
            tries = int(value)
        elif key == "variants":
            names = value.split(",")
            for name in names:
                if name not in VARIANT_ORDER:
                    raise NotationError(
                        f"Unknown variant {name!r}: known are {', '.join(VARIANT_ORDER)}.")
            variants = frozenset(names)
        elif key == "winner":
            winner = colour_index(value)
        else:
            raise NotationError(f"Unknown token {key!r}.")
    pos_pieces = tuple(pieces)
    colours = [c for c in range(4) if pos_pieces[c] is not None]
    if len(colours) < 2:
        raise NotationError("A position needs at least two colours.")
    if turn is None:
        raise NotationError("The position says nobody's turn: add turn:C.")
    if pos_pieces[turn] is None:
        raise NotationError(f"turn:{COLOURS[turn]} names a colour that does not play.")
    _check_possible(pos_pieces, turn, tries, variants, winner)
    return Position(pos_pieces, turn, tries, variants, winner, occupancy(pos_pieces))


def _check_possible(pieces: tuple[tuple[int, ...] | None, ...], turn: int, tries: int,
                    variants: frozenset[str], winner: int | None) -> None:
    fields: dict[int, int] = {}
    finished = []
    for c, own in enumerate(pieces):
        if own is None:
            continue
        goal = [p for p in own if p >= GOAL_FIRST]
        if len(goal) != len(set(goal)):
            raise NotationError(f"Two {COLOURS[c]} pieces stand on the same goal field.")
        if len(goal) == PIECES:
            finished.append(c)
        for p in own:
            if 0 <= p < GOAL_FIRST:
                f = (START[c] + p) % TRACK_LEN
                if f in fields:
                    raise NotationError(f"Two pieces stand on track field {f}.")
                fields[f] = c
    if winner is not None:
        if pieces[winner] is None:
            raise NotationError(f"winner:{COLOURS[winner]} names a colour that does not play.")
        if winner not in finished:
            raise NotationError(
                f"winner:{COLOURS[winner]} does not have all four pieces in the goal.")
    if len(finished) > 1:
        raise NotationError("Two colours cannot both have all four pieces in the goal.")
    if finished and winner is None:
        raise NotationError(
            f"{COLOURS[finished[0]]} has all four pieces in the goal: add winner:{COLOURS[finished[0]]}.")
    if tries and winner is None:
        pos = Position(pieces, turn, tries, variants, winner)
        if in_play(pos, turn):
            raise NotationError(
                f"tries:{tries} only counts while {COLOURS[turn]} has no piece in play.")


def format_position(pos: Position) -> str:
    """The canonical text of ``pos``."""
    parts = []
    for c, own in enumerate(pos.pieces):
        if own is not None:
            parts.append(f"{COLOURS[c]}:" + ",".join(location_text(c, p) for p in own))
    parts.append(f"turn:{COLOURS[pos.turn]}")
    if pos.tries:
        parts.append(f"tries:{pos.tries}")
    if pos.variants:
        parts.append("variants:" + ",".join(v for v in VARIANT_ORDER if v in pos.variants))
    if pos.winner is not None:
        parts.append(f"winner:{COLOURS[pos.winner]}")
    return " ".join(parts)


def parse_with_roll(text: str) -> tuple[Position, int | None]:
    """A position with an optional ``roll:N`` token: the roll waiting for its move.

    A pending roll always has a legal move (a roll without one is played at
    once) and never comes after the end; anything else is refused.
    """
    if not isinstance(text, str):
        raise NotationError("The position is empty.")
    rolls = [t for t in text.split() if t.partition(":")[0] == "roll"]
    if len(rolls) > 1:
        raise NotationError("The token 'roll' appears twice.")
    pos = parse_position(" ".join(t for t in text.split() if t.partition(":")[0] != "roll"))
    if not rolls:
        return pos, None
    value = rolls[0].partition(":")[2]
    if len(value) != 1 or value not in "123456":
        raise NotationError(f"roll must be a die value from 1 to 6, not {value!r}.")
    roll = int(value)
    if pos.winner is not None:
        raise NotationError("The game is over: no roll can wait for a move.")
    if not legal_moves(pos, roll):
        raise NotationError(f"roll:{roll} gives {COLOURS[pos.turn]} no legal move, so it "
                            "cannot wait for one (such a roll is played at once).")
    return pos, roll


def format_with_roll(pos: Position, roll: int | None) -> str:
    """The canonical text of a position and its pending roll (``roll:N`` last)."""
    text = format_position(pos)
    return text if roll is None else f"{text} roll:{roll}"


__all__ = [
    "NotationError",
    "colour_index",
    "format_position",
    "format_with_roll",
    "location_text",
    "parse_location",
    "parse_position",
    "parse_with_roll",
]
