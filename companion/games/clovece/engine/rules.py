"""The rules of Člověče, nezlob se as a pure engine.

No I/O, no clock, no randomness: the roll comes in, the new position and the
events come out, so every game replays exactly from its rolls and choices.

Pieces are stored per colour as *progress* counted from the colour's own start
field: ``HOUSE`` (-1) waiting in the house, ``0``…``39`` on the track (``0`` is the
start field, ``39`` the last field before it), ``40``…``43`` the goal fields
f1…f4.  The absolute track field of progress ``p`` is ``(START[c] + p) % 40``.
The text notation (:mod:`companion.games.clovece.engine.notation`) speaks absolute
fields; this module converts at the edges.

Random self-play runs millions of rolls, so the official rules (no variants)
have a hot path: :func:`legal_moves` and :func:`apply` answer from tables made
once at import (every Move and event prebuilt and shared), read who stands
where from ``Position.occ`` (one packed int, updated by one addition per move)
and apply reuses what legal_moves has just worked out for the same position.
The plain statement of the rules (:func:`_target`, :func:`_candidate_moves`,
:func:`in_play`) stays beside it, answers every variant, and the tests check
the hot path against it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NoReturn

from companion.engines.colours import BLUE as BLUE
from companion.engines.colours import (
    COLOURS as COLOURS,  # the letters r b g y; the index is the colour
)
from companion.engines.colours import GREEN as GREEN
from companion.engines.colours import RED as RED
from companion.engines.colours import SEATS_BY_PLAYERS as SEATS_BY_PLAYERS
from companion.engines.colours import YELLOW as YELLOW
from companion.engines.errors import AmbiguousMove, GameOver, IllegalMove, RulesError

START = (0, 10, 20, 30)
"""Absolute track field of each colour's start field."""
TRACK_LEN = 40
HOUSE = -1
GOAL_FIRST = 40  # progress of f1
GOAL_LAST = 43  # progress of f4
PIECES = 4
TRIES = 3
SIX = 6


class Variant(StrEnum):
    """House rules; all off by default."""

    MANDATORY_CAPTURE = "mandatory-capture"
    VOLUNTARY_ENTRY = "voluntary-entry"
    NO_JUMP_IN_GOAL = "no-jump-in-goal"
    SAFE_START = "safe-start"


VARIANT_ORDER = tuple(v.value for v in Variant)


class _PositionSlots:
    """The slots of a :class:`Position`, and the hot path's way to a new one at about a
    tuple's cost.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``,
    several times what ``tuple.__new__`` cost the former NamedTuple (measured: about a
    quarter of self-play's speed, ``benchmarks/engine_vs_ludopy.py``).  Position is a
    frozen dataclass built on this plain class and adds no slot of its own, so
    :func:`apply` makes one of these, sets its slots plainly (no call at all) and turns it
    into the frozen Position by ``__class__`` assignment, which CPython allows at once
    between a class and a subclass of the same layout.  What comes out is an ordinary
    Position (``type(p) is Position``, equal, hashed and frozen as any other); nothing
    else builds one this way.
    """

    __slots__ = ("pieces", "turn", "tries", "variants", "winner", "occ")
    pieces: tuple[tuple[int, ...] | None, ...]
    turn: int
    tries: int
    variants: frozenset[str]
    winner: int | None
    occ: int | None


@dataclass(frozen=True, slots=True)
class Position(_PositionSlots):
    """One moment of the game: whose turn it is and where every piece stands.

    ``pieces[c]`` is the 4-tuple of progress values of colour ``c`` or ``None``
    when that colour does not play.  ``tries`` counts failed rolls of the
    current three-tries sequence.  ``winner`` is set once a colour has all four
    pieces in the goal.  ``occ`` is a derived cache, :func:`occupancy` of
    ``pieces`` (who stands on which track and goal field, packed into one int),
    that the engine fills to stay fast; ``None`` means "not known, work it out".
    It takes no part in equality, hashing, the repr or the notation.
    """

    pieces: tuple[tuple[int, ...] | None, ...]
    turn: int
    tries: int = 0
    variants: frozenset[str] = frozenset()
    winner: int | None = None
    occ: int | None = field(default=None, compare=False, repr=False)

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c, p in enumerate(self.pieces) if p is not None)


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move: a piece of ``colour`` goes from progress ``frm`` to ``to``.

    ``frm == HOUSE`` is entering onto the start field.  ``capture`` is the
    colour sent home by the move, or ``None``.
    """

    colour: int
    frm: int
    to: int
    capture: int | None
    effect: _Effect | None = field(default=None, init=False, compare=False, repr=False)
    """What the move does, for :func:`apply` (see "tables for the hot path" below): set on
    the moves of the engine's own tables, ``None`` on a move made anywhere else (and on a
    copy made by ``dataclasses.replace``).  A function of the four fields above, so it
    takes no part in equality, hashing or the repr."""


# --- events ---------------------------------------------------------------
# Frozen dataclasses (not tuples) so that events of different kinds never
# compare equal; the hot path shares prebuilt instances instead of making new ones.


@dataclass(frozen=True, slots=True)
class Rolled:
    """A roll came for ``colour`` (made by the game protocol, :mod:`.game`; :func:`apply`
    takes the roll as an argument and never makes this event)."""

    colour: int
    value: int


@dataclass(frozen=True, slots=True)
class Entered:
    colour: int


@dataclass(frozen=True, slots=True)
class Moved:
    colour: int
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Captured:
    colour: int
    victim: int
    field: int  # absolute track field


@dataclass(frozen=True, slots=True)
class EnteredGoal:
    colour: int
    to: int


@dataclass(frozen=True, slots=True)
class RollAgain:
    colour: int


@dataclass(frozen=True, slots=True)
class TryFailed:
    colour: int
    tries: int  # failed tries so far (1 or 2)


class PassReason(StrEnum):
    DONE = "done"  # moved, no six
    FORFEIT = "forfeit"  # no legal move
    TRIES = "tries"  # three tries without a six


@dataclass(frozen=True, slots=True)
class TurnPassed:
    colour: int
    next: int
    reason: PassReason


@dataclass(frozen=True, slots=True)
class Won:
    colour: int


Event = (Rolled | Entered | Moved | Captured | EnteredGoal | RollAgain | TryFailed | TurnPassed
         | Won)


# --- why a piece cannot move ------------------------------------------------


class Why(StrEnum):
    LEGAL = "legal"
    NO_PIECE = "no-piece"
    HOUSE_NEEDS_SIX = "house-needs-six"
    START_HELD_BY_OWN = "start-held-by-own"
    OWN_PIECE_ON_TARGET = "own-piece-on-target"
    OVERSHOOTS_GOAL = "overshoots-goal"
    CANNOT_JUMP_IN_GOAL = "cannot-jump-in-goal"
    SAFE_ON_START = "safe-on-start"
    MUST_ENTER = "must-enter"
    MUST_CLEAR_START = "must-clear-start"
    MUST_CAPTURE = "must-capture"
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class Reason:
    why: Why
    colour: int
    frm: int
    roll: int
    other: int | None = None  # the colour that blocks, or the progress it overshoots by


# --- the rules ----------------------------------------------------------------

_MC = Variant.MANDATORY_CAPTURE.value
_VE = Variant.VOLUNTARY_ENTRY.value
_NJ = Variant.NO_JUMP_IN_GOAL.value
_SS = Variant.SAFE_START.value

FIELD: tuple[tuple[int, ...], ...] = tuple(
    tuple((START[c] + p) % TRACK_LEN for p in range(GOAL_FIRST)) + (-1,) * 4 + (-1,)
    for c in range(4)
)
"""``FIELD[c][p]``: absolute track field of progress ``p`` of colour ``c``; -1 off the track
(goal fields, and index -1 = the house)."""


_NEXT = (1, 2, 3, 0)  # the seat after each colour, clockwise (present or not)


def track_field(colour: int, progress: int) -> int:
    """Absolute track field (0…39) of a piece of ``colour`` at track ``progress``."""
    return (START[colour] + progress) % TRACK_LEN


def _after(pieces: tuple[tuple[int, ...] | None, ...], colour: int) -> int:
    n = _NEXT[colour]
    while pieces[n] is None:
        n = _NEXT[n]
    return n


# --- occupancy: who stands where -------------------------------------------------
# One int holding 3 bits per *slot*: 1 + the colour of the piece standing
# there, or 0.  Slot 1 + f is absolute track field f (0…39); slots 41…56 are
# the goal fields (41 + 4c + k is f(k+1) of colour c).  Slot 0 stays empty,
# so that a shift of 0 can mean "goes nowhere" in the tables below.  An int
# rather than a byte string because apply() then updates it with a single
# addition of a precomputed delta instead of copying a buffer; reading a slot
# costs a shift and a mask.

_OCC_BITS = 3
_OCC_MASK = (1 << _OCC_BITS) - 1


def _slot(colour: int, progress: int) -> int:
    """The occupancy slot of a piece of ``colour`` at ``progress``; 0 for the house."""
    if progress == HOUSE:
        return 0
    if progress < GOAL_FIRST:
        return 1 + track_field(colour, progress)
    return 1 + TRACK_LEN + PIECES * colour + progress - GOAL_FIRST


def occupancy(pieces: tuple[tuple[int, ...] | None, ...]) -> int:
    """Who stands where (track and goal fields), packed into one int: see ``Position.occ``."""
    occ = 0
    for c in range(4):
        ps = pieces[c]
        if ps is not None:
            for p in ps:
                if p != HOUSE:
                    shift = _OCC_BITS * _slot(c, p)
                    occ = occ & ~(_OCC_MASK << shift) | (c + 1) << shift
    return occ


def _occupant(occ: int, field: int) -> int | None:
    """The colour standing on absolute track ``field`` (0…39), or ``None``."""
    o = occ >> (_OCC_BITS * (1 + field)) & _OCC_MASK
    return o - 1 if o else None


# --- tables for the hot path ----------------------------------------------------
# Immutable moves and events are made once and shared: legal_moves() and apply()
# only look them up.  For colour c and roll r, indexed by a piece's progress p
# (the house, p = -1, is the last entry, so that ``t[p]`` works for it too, as
# with FIELD):
#
#   _LANDS[c][r][p]  the bit shift in ``occ`` of the slot where that piece
#                    would land (the own start for a house piece and a six),
#                    or 0 when it cannot move (past f4; the house without a six);
#   _MOVES[c][r][p]  its Move by the occupant code of that slot (0 empty,
#                    1 + the colour sent home), None where an own piece stands.
#
# Goal fields are slots too, so "never onto an own piece" is the same test on
# the track and in the goal.  The official rules need nothing more per piece;
# the duties (enter on a six, clear the start) are checked before.
#
# Each of those moves carries its effect (``Move.effect``, :func:`_effect`): its
# piece and target, the piece it sends home (colour and progress) or None, what it
# does to the occupancy (an int to add) and the events it causes before the turn
# goes on: Moved or Entered, then Captured or EnteredGoal or None (a plain tuple
# unpacks faster than the move's fields read one by one).  apply reads it off the move it is given, so no move is
# ever hashed or looked up on the hot path; an equal move made anew, which has no
# effect, is found in the tables as legal_moves found it (by its piece and the
# occupant of its landing slot).

_PROGRESSES = (*range(GOAL_LAST + 1), HOUSE)  # table order: 0…43, then the house last


def _landing(c: int, roll: int, p: int) -> int:
    if p == HOUSE:
        return _OCC_BITS * _slot(c, 0) if roll == SIX else 0
    return _OCC_BITS * _slot(c, p + roll) if p + roll <= GOAL_LAST else 0


def _moves_by_occupant(c: int, roll: int, p: int) -> tuple[Move | None, ...]:
    if not _landing(c, roll, p):
        return ()
    to = 0 if p == HOUSE else p + roll
    if to >= GOAL_FIRST:  # only own pieces stand in the goal
        return (_prebuilt(Move(c, p, to, None)), None, None, None, None)
    return tuple(None if o == c + 1 else _prebuilt(Move(c, p, to, o - 1 if o else None))
                 for o in range(5))


def _prebuilt(move: Move) -> Move:
    """``move`` with its effect on it: a move of the tables."""
    object.__setattr__(move, "effect", _effect(move))
    return move


_Effect = tuple[int, int, tuple[int, int] | None, int, Event, Event | None]
_Table = tuple[tuple[int, ...], tuple[tuple[Move | None, ...], ...]]

_TABLES: tuple[dict[int, _Table], ...] = ({}, {}, {}, {})
"""``_TABLES[c][r]`` is the pair (_LANDS[c][r], _MOVES[c][r]), made by :func:`_table` the
first time a game needs it: importing the engine (which the service does before its first
frame) pays nothing for tables a game may never use.  Plain dicts, not a dict subclass with
``__missing__``: CPython's specialised lookup serves exact dicts only, and the hot path
looks a table up on every roll."""


def _table(c: int, roll: int) -> _Table:
    """Colour ``c``'s tables for ``roll`` (1…6; ``KeyError`` otherwise), made the first time
    they are asked for."""
    if roll not in range(1, SIX + 1):
        raise KeyError(roll)
    table = _TABLES[c].get(roll)
    if table is None:
        table = (tuple(_landing(c, roll, p) for p in _PROGRESSES),
                 tuple(_moves_by_occupant(c, roll, p) for p in _PROGRESSES))
        _TABLES[c][roll] = table
    return table


_ENTERED = tuple(Entered(c) for c in range(4))
_ROLL_AGAIN = tuple(RollAgain(c) for c in range(4))
_WON = tuple(Won(c) for c in range(4))
_PASSED_DONE, _PASSED_FORFEIT, _PASSED_TRIES = (
    tuple(tuple(TurnPassed(c, n, reason) for n in range(4)) for c in range(4))
    for reason in (PassReason.DONE, PassReason.FORFEIT, PassReason.TRIES))
_TRY_FAILED = tuple(tuple(TryFailed(c, t) for t in range(TRIES)) for c in range(4))


def _effect(move: Move) -> _Effect:
    c, frm, to, capture = move.colour, move.frm, move.to, move.capture
    delta = (c + 1) << _OCC_BITS * _slot(c, to)
    if frm == HOUSE:
        first: Event = _ENTERED[c]
    else:
        first = Moved(c, frm, to)
        delta -= (c + 1) << _OCC_BITS * _slot(c, frm)
    second: Event | None = None
    sent_home = None
    if capture is not None:
        delta -= (capture + 1) << _OCC_BITS * _slot(c, to)
        field = track_field(c, to)
        second = Captured(c, capture, field)
        sent_home = (capture, (field - START[capture]) % TRACK_LEN)
    elif frm < GOAL_FIRST <= to:
        second = EnteredGoal(c, to)
    return frm, to, sent_home, delta, first, second


# --- the plain statement of the rules --------------------------------------------


def new_game(players: int = 4, variants: frozenset[str] | set[str] = frozenset(),
             first: int | None = None) -> Position:
    """The start position: every piece in its house; red starts unless ``first`` says."""
    if players not in SEATS_BY_PLAYERS:
        raise RulesError(f"Člověče is played by 2 to 4 players, not {players}.", code="setup")
    unknown = set(variants) - set(VARIANT_ORDER)
    if unknown:
        raise RulesError(f"Unknown variant {sorted(unknown)[0]!r}.", code="setup")
    seats = SEATS_BY_PLAYERS[players]
    pieces = tuple((HOUSE,) * PIECES if c in seats else None for c in range(4))
    turn = seats[0] if first is None else first
    if turn not in seats:
        raise RulesError(f"{COLOURS[turn]} does not play in a {players}-player game.",
                         code="setup")
    return Position(pieces, turn, 0, frozenset(variants), None, occupancy(pieces))


def next_colour(pos: Position, colour: int | None = None) -> int:
    """The colour after ``colour`` (default: the one on turn), clockwise."""
    return _after(pos.pieces, pos.turn if colour is None else colour)


def goal_piece_can_move(own: tuple[int, ...], progress: int, no_jump: bool) -> bool:
    """Whether a piece standing in the goal at ``progress`` can ever move again."""
    if no_jump:
        return progress < GOAL_LAST and (progress + 1) not in own
    return any(p not in own for p in range(progress + 1, GOAL_LAST + 1))


def in_play(pos: Position, colour: int | None = None) -> bool:
    """A colour is in play when a piece stands on the track or can still move in the goal."""
    c = pos.turn if colour is None else colour
    own = pos.pieces[c]
    assert own is not None
    no_jump = _NJ in pos.variants
    for p in own:
        if 0 <= p < GOAL_FIRST:
            return True
        if p >= GOAL_FIRST and goal_piece_can_move(own, p, no_jump):
            return True
    return False


_STUCK = frozenset(
    own for own in itertools.product((HOUSE, *range(GOAL_FIRST, GOAL_LAST + 1)), repeat=PIECES)
    if all(own.count(g) <= 1 for g in range(GOAL_FIRST, GOAL_LAST + 1))
    and not any(p >= GOAL_FIRST and goal_piece_can_move(own, p, False) for p in own))
"""Every own 4-tuple with no piece in play (see :func:`in_play`): pieces in the house and
goal pieces packed at the deepest end.  The same with or without no-jump-in-goal: a goal
piece can jump to a free field deeper in the goal exactly when some goal piece can step
to the field just after it."""


def _target(pos: Position, colour: int, frm: int, roll: int) -> tuple[int, int | None] | Reason:
    """Where a single piece goes with ``roll``: (to, captured colour) or why it cannot."""
    own = pos.pieces[colour]
    assert own is not None
    occ = occupancy(pos.pieces) if pos.occ is None else pos.occ
    if frm == HOUSE:
        if roll != SIX:
            return Reason(Why.HOUSE_NEEDS_SIX, colour, frm, roll)
        if 0 in own:
            return Reason(Why.START_HELD_BY_OWN, colour, frm, roll)
        return 0, _occupant(occ, START[colour])
    to = frm + roll
    if to < GOAL_FIRST:
        field = track_field(colour, to)
        other = _occupant(occ, field)
        if other is None:
            return to, None
        if other == colour:
            return Reason(Why.OWN_PIECE_ON_TARGET, colour, frm, roll, colour)
        if START[other] == field and _SS in pos.variants:
            return Reason(Why.SAFE_ON_START, colour, frm, roll, other)
        return to, other
    if to > GOAL_LAST:
        return Reason(Why.OVERSHOOTS_GOAL, colour, frm, roll, to - GOAL_LAST)
    if to in own:
        return Reason(Why.OWN_PIECE_ON_TARGET, colour, frm, roll, colour)
    if _NJ in pos.variants:
        for g in range(max(frm + 1, GOAL_FIRST), to):
            if g in own:
                return Reason(Why.CANNOT_JUMP_IN_GOAL, colour, frm, roll)
    return to, None


def _candidate_moves(pos: Position, roll: int) -> tuple[list[Move], str]:
    """Every move a piece could make, and which duty (if any) restricts them to one.

    The plain statement of the rules, piece by piece through :func:`_target`:
    the duty to enter on a six, then the duty to clear the own start, unless
    voluntary-entry is played; otherwise every piece that can move (entering
    first).  Mandatory capture is applied on top by :func:`legal_moves`, which
    also has a fast path for the official rules that the tests compare with this.
    """
    c = pos.turn
    own = pos.pieces[c]
    assert own is not None
    duties = _VE not in pos.variants
    moves: list[Move] = []
    if HOUSE in own:
        entry = _target(pos, c, HOUSE, roll)
        if not isinstance(entry, Reason):
            if duties:
                return [Move(c, HOUSE, *entry)], "enter"
            moves.append(Move(c, HOUSE, *entry))
        elif duties and 0 in own:
            clear = _target(pos, c, 0, roll)
            if not isinstance(clear, Reason):
                return [Move(c, 0, *clear)], "clear"
    for p in own:
        if p != HOUSE:
            t = _target(pos, c, p, roll)
            if not isinstance(t, Reason):
                moves.append(Move(c, p, *t))
    return moves, ""


# --- the hot path -----------------------------------------------------------------
# Every roll of a game is one legal_moves and one apply, and their cost is
# mostly the objects they must make (the move list, the new position, its
# pieces, the events) and the Python operations around them.  So: tables
# instead of arithmetic, prebuilt moves and events, one int for the occupancy,
# plain tuples where a value is unpacked often, and legal_moves leaves what it
# worked out to the apply that follows it.  Measured with
# benchmarks/engine_vs_ludopy.py; callgrind instruction counts per roll are the
# steadier guide on a noisy machine.

_Asked = tuple[Position | None, int, tuple[Move, ...], int]

_last: list[_Asked] = [(None, 0, (), 0)]
"""What legal_moves last worked out: (position, roll, moves) and the position's
occupancy, as the one item of a list.  A game asks legal_moves and then apply for
the same position object and roll; apply takes the moves from here and reads the
chosen one's effect off it instead of working them out again.  Keyed by identity,
so it is only ever reused for the very same (immutable) position; one tuple, read
and written whole.  (In a list because storing a list's item is one specialised
instruction, where storing a module global is a dict insert.)"""


def legal_moves(pos: Position, roll: int) -> list[Move]:
    """All distinct legal moves of the colour on turn for ``roll`` (1…6)."""
    if pos.winner is not None:
        return []
    c = pos.turn
    try:
        table = _TABLES[c][roll]
    except (KeyError, TypeError):
        try:
            table = _table(c, roll)
        except (KeyError, TypeError):
            raise RulesError(f"A roll is 1 to 6, not {roll}.", code="roll") from None
    occ = pos.occ
    if occ is None:
        occ = occupancy(pos.pieces)
    variants = pos.variants
    if variants:
        moves, duty = _candidate_moves(pos, roll)
        if not duty and _MC in variants:
            captures = [m for m in moves if m.capture is not None]
            if captures:
                moves = captures
        _last[0] = (pos, roll, tuple(moves), occ)
        return moves
    # The official rules, the hot path of every game: by table, with the same
    # answers as _candidate_moves (the tests compare them on random positions).
    # (7 is _OCC_MASK, written out: a constant is cheaper to load than a global; no
    # asserts for mypy here, they would cost a tenth of the time: the colour on turn
    # always plays, so its pieces are never None.)
    lands, moves_of = table
    # The four pieces by name: comparing two small ints is one specialised instruction,
    # where ``HOUSE in own`` costs a call a piece, and the loop over them is unrolled.
    # The duties come first while pieces wait in the house (HOUSE is the only negative
    # progress): on a six a house piece must enter, sending home whoever stands on the
    # start, unless an own piece holds it; the own start must be cleared when this roll
    # lets that piece go.
    p0, p1, p2, p3 = pos.pieces[c]  # type: ignore[misc]
    if roll == SIX:
        if p0 < 0 or p1 < 0 or p2 < 0 or p3 < 0:
            entry = moves_of[HOUSE][occ >> lands[HOUSE] & 7]
            if entry is not None:
                _last[0] = (pos, roll, (entry,), occ)
                return [entry]
            clear = moves_of[0][occ >> lands[0] & 7]  # (the own piece on the start)
            if clear is not None:
                _last[0] = (pos, roll, (clear,), occ)
                return [clear]
    elif (p0 == 0 or p1 == 0 or p2 == 0 or p3 == 0) and (p0 < 0 or p1 < 0 or p2 < 0 or p3 < 0):
        clear = moves_of[0][occ >> lands[0] & 7]
        if clear is not None:
            _last[0] = (pos, roll, (clear,), occ)
            return [clear]
    # Every piece that can go somewhere (a shift of 0: it cannot), unless an own piece
    # stands there (None); a piece's move is the table's by who stands where it lands.
    # Written out four times on purpose: a loop over the pieces costs some 4 % more
    # instructions a roll of self-play (callgrind, benchmarks/engine_instructions.py).
    moves = []
    shift = lands[p0]
    if shift:
        move = moves_of[p0][occ >> shift & 7]
        if move is not None:
            moves.append(move)
    shift = lands[p1]
    if shift:
        move = moves_of[p1][occ >> shift & 7]
        if move is not None:
            moves.append(move)
    shift = lands[p2]
    if shift:
        move = moves_of[p2][occ >> shift & 7]
        if move is not None:
            moves.append(move)
    shift = lands[p3]
    if shift:
        move = moves_of[p3][occ >> shift & 7]
        if move is not None:
            moves.append(move)
    _last[0] = (pos, roll, tuple(moves), occ)
    return moves


def why_not(pos: Position, roll: int, frm: int) -> Reason:
    """Why the piece of the colour on turn at progress ``frm`` may (``LEGAL``) or may not move."""
    colour = pos.turn
    if pos.winner is not None:
        return Reason(Why.GAME_OVER, colour, frm, roll, pos.winner)
    own = pos.pieces[colour]
    assert own is not None
    if frm not in own:
        return Reason(Why.NO_PIECE, colour, frm, roll)
    legal = legal_moves(pos, roll)
    if any(m.frm == frm for m in legal):
        return Reason(Why.LEGAL, colour, frm, roll)
    t = _target(pos, colour, frm, roll)
    if isinstance(t, Reason):
        return t
    _, duty = _candidate_moves(pos, roll)
    if duty == "enter":
        return Reason(Why.MUST_ENTER, colour, frm, roll)
    if duty == "clear":
        return Reason(Why.MUST_CLEAR_START, colour, frm, roll)
    return Reason(Why.MUST_CAPTURE, colour, frm, roll)


def _refuse(pos: Position, roll: int, move: Move) -> NoReturn:
    reason = why_not(pos, roll, move.frm)
    raise IllegalMove(f"That move is not legal ({reason.why.value}).", reason)


def _effect_in_tables(move: Move, roll: int, occ: int) -> _Effect:
    """The effect of a legal move made anew (not the tables' own): the tables' equal one's."""
    lands, moves_of = _TABLES[move.colour][roll]  # (made by legal_moves)
    same = moves_of[move.frm][occ >> lands[move.frm] & 7]
    assert same is not None and same.effect is not None
    return same.effect


def apply(pos: Position, roll: int, move: Move | None = None) -> tuple[Position, list[Event]]:
    """Play ``roll`` for the colour on turn, moving ``move`` (or the only legal move).

    Returns the new position and what happened.  With no legal move the
    three-tries rule or the forfeit applies; after a six the same colour rolls
    again; after anything else the turn passes clockwise.
    """
    asked, asked_roll, legal, occ = _last[0]
    if asked is not pos or asked_roll != roll:  # legal_moves was not just asked: ask it
        winner = pos.winner
        if winner is not None:
            raise GameOver(f"The game is over: {COLOURS[winner]} has won.",
                           Reason(Why.GAME_OVER, pos.turn, HOUSE, roll, winner))
        legal = tuple(legal_moves(pos, roll))  # (its return, not _last: threads)
        occ = occupancy(pos.pieces) if pos.occ is None else pos.occ
    pieces = pos.pieces
    colour = pos.turn
    own: tuple[int, ...] = pieces[colour]  # type: ignore[assignment]  # (it plays)
    tries = 0
    winner = None
    events: list[Event]
    if move is None and not legal:
        nxt = _NEXT[colour]
        while pieces[nxt] is None:
            nxt = _NEXT[nxt]
        if own not in _STUCK:  # in play: the turn is forfeited
            events = [_PASSED_FORFEIT[colour][nxt]]
        else:  # three tries for a six
            tries = pos.tries + 1
            if tries < TRIES:
                events = [_TRY_FAILED[colour][tries]]
                nxt = colour
            else:
                tries = 0
                events = [_PASSED_TRIES[colour][nxt]]
    else:
        if move is None:
            try:
                (move,) = legal
            except ValueError:
                raise AmbiguousMove(
                    f"{len(legal)} moves are legal; say which piece moves.") from None
        else:
            for m in legal:  # by identity first: a move compared by its fields costs a call
                if m is move:
                    break
            else:
                if move not in legal:
                    _refuse(pos, roll, move)
        # The move's effect: on the move itself when it comes from the tables; for an
        # equal move made anew, on the table's, found as legal_moves found it: by its
        # piece and the occupant of the slot where it lands (a legal move always has one).
        effect = move.effect
        if effect is None:
            effect = _effect_in_tables(move, roll, occ)
        frm, to, sent_home, delta, first, second = effect
        occ += delta
        # The moving piece is the first of ``own`` standing at ``frm``; unpacking the
        # 4-tuples and building the new ones whole is the cheapest way to replace one item.
        a, b, c, d = own
        if a == frm:
            own = (to, b, c, d)
        elif b == frm:
            own = (a, to, c, d)
        elif c == frm:
            own = (a, b, to, d)
        else:
            own = (a, b, c, to)
        red, blue, green, yellow = pieces
        if colour == RED:
            pieces = (own, blue, green, yellow)
        elif colour == BLUE:
            pieces = (red, own, green, yellow)
        elif colour == GREEN:
            pieces = (red, blue, own, yellow)
        else:
            pieces = (red, blue, green, own)
        if sent_home is not None:  # the victim's piece on the target field goes home
            victim, hit = sent_home  # (its colour and progress)
            board = list(pieces)
            sent = list(board[victim])  # type: ignore[arg-type]
            sent[sent.index(hit)] = HOUSE
            board[victim] = tuple(sent)
            pieces = tuple(board)
        if to >= GOAL_FIRST and min(own) >= GOAL_FIRST:  # only a move in the goal can win
            nxt = winner = colour
            last: Event = _WON[colour]
        elif roll == SIX:
            nxt = colour
            last = _ROLL_AGAIN[colour]
        else:
            nxt = _NEXT[colour]
            while pieces[nxt] is None:
                nxt = _NEXT[nxt]
            last = _PASSED_DONE[colour][nxt]
        events = [first, last] if second is None else [first, second, last]
    # The new Position, built as cheaply as the hot path needs (see _PositionSlots).
    new = _PositionSlots()
    new.pieces = pieces
    new.turn = nxt
    new.tries = tries
    new.variants = pos.variants
    new.winner = winner
    new.occ = occ
    new.__class__ = Position  # type: ignore[assignment]
    return new, events  # type: ignore[return-value]


def pieces_conserved(pos: Position) -> bool:
    """Every playing colour has four pieces and no field holds two of them."""
    seen: set[int] = set()
    for c in pos.colours:
        own = pos.pieces[c]
        assert own is not None
        if len(own) != PIECES:
            return False
        goal = [p for p in own if p >= GOAL_FIRST]
        if len(goal) != len(set(goal)):
            return False
        for p in own:
            if not HOUSE <= p <= GOAL_LAST:
                return False
            if 0 <= p < GOAL_FIRST:
                f = track_field(c, p)
                if f in seen:
                    return False
                seen.add(f)
    if pos.occ is not None and pos.occ != occupancy(pos.pieces):
        return False
    return True
