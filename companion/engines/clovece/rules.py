"""The rules of Člověče, nezlob se as a pure engine.

No I/O, no clock, no randomness: the roll comes in, the new position and the
events come out, so every game replays exactly from its rolls and choices.

Pieces are stored per colour as *progress* counted from the colour's own start
field: ``HOUSE`` (-1) waiting in the house, ``0``…``39`` on the track (``0`` is the
start field, ``39`` the last field before it), ``40``…``43`` the goal fields
f1…f4.  The absolute track field of progress ``p`` is ``(START[c] + p) % 40``.
The text notation (:mod:`companion.engines.clovece.notation`) speaks absolute
fields; this module converts at the edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

COLOURS = ("r", "b", "g", "y")
"""Colour letters in clockwise order; the index is the colour's number."""
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
START = (0, 10, 20, 30)
"""Absolute track field of each colour's start field."""
TRACK_LEN = 40
HOUSE = -1
GOAL_FIRST = 40  # progress of f1
GOAL_LAST = 43  # progress of f4
PIECES = 4
TRIES = 3
SIX = 6

SEATS_BY_PLAYERS = {2: (RED, GREEN), 3: (RED, BLUE, GREEN), 4: (RED, BLUE, GREEN, YELLOW)}


class Variant(StrEnum):
    """House rules; all off by default."""

    MANDATORY_CAPTURE = "mandatory-capture"
    VOLUNTARY_ENTRY = "voluntary-entry"
    NO_JUMP_IN_GOAL = "no-jump-in-goal"
    SAFE_START = "safe-start"


VARIANT_ORDER = tuple(v.value for v in Variant)


class Position(NamedTuple):
    """One moment of the game: whose turn it is and where every piece stands.

    ``pieces[c]`` is the 4-tuple of progress values of colour ``c`` or ``None``
    when that colour does not play.  ``tries`` counts failed rolls of the
    current three-tries sequence.  ``winner`` is set once a colour has all four
    pieces in the goal.  ``occ`` is a derived cache (absolute track field ->
    1 + the colour standing there, or 0) that the engine fills to stay fast; it takes
    no part in equality, hashing or the notation.
    """

    pieces: tuple[tuple[int, ...] | None, ...]
    turn: int
    tries: int = 0
    variants: frozenset[str] = frozenset()
    winner: int | None = None
    occ: bytes | None = None

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c, p in enumerate(self.pieces) if p is not None)

    def _key(self) -> tuple[object, ...]:
        return (self[0], self[1], self[2], self[3], self[4])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return self._key() == other._key()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Position(pieces={self.pieces!r}, turn={self.turn!r}, tries={self.tries!r}, "
                f"variants={self.variants!r}, winner={self.winner!r})")


class Move(NamedTuple):
    """One legal move: a piece of ``colour`` goes from progress ``frm`` to ``to``.

    ``frm == HOUSE`` is entering onto the start field.  ``capture`` is the
    colour sent home by the move, or ``None``.
    """

    colour: int
    frm: int
    to: int
    capture: int | None


# --- events ---------------------------------------------------------------
# Frozen dataclasses (not tuples) so that events of different kinds never
# compare equal; the hot path shares prebuilt instances instead of making new ones.


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


Event = Entered | Moved | Captured | EnteredGoal | RollAgain | TryFailed | TurnPassed | Won


# --- errors ---------------------------------------------------------------


class RulesError(ValueError):
    """A request the rules cannot answer (the message is one sentence)."""


class GameOver(RulesError):
    pass


class IllegalMove(RulesError):
    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class AmbiguousMove(RulesError):
    pass


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


class Reason(NamedTuple):
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

_new = tuple.__new__
_DONE = PassReason.DONE
_FORFEIT = PassReason.FORFEIT
_BY_TRIES = PassReason.TRIES


def _after(pieces: tuple[tuple[int, ...] | None, ...], colour: int) -> int:
    n = (colour + 1) & 3
    while pieces[n] is None:
        n = (n + 1) & 3
    return n


# Immutable moves and events are made once and shared: the hot path only looks
# them up.  _MOVE[c][(frm + 1) * 7 + roll][occupant byte] is the Move of a
# colour-c piece from progress frm with roll (capturing the occupant, if any).
def _make_moves(c: int) -> tuple[tuple[Move, ...], ...]:
    rows = []
    for frm in range(HOUSE, GOAL_LAST + 1):
        for roll in range(7):
            to = 0 if frm == HOUSE else frm + roll
            rows.append(tuple(_new(Move, (c, frm, to, o - 1 if o else None)) for o in range(5)))
    return tuple(rows)


_MOVE = tuple(_make_moves(c) for c in range(4))
_MOVED = tuple(tuple(tuple(Moved(c, frm, frm + r) for r in range(7))
                     for frm in range(GOAL_LAST + 1)) for c in range(4))
_ENTERED = tuple(Entered(c) for c in range(4))
_ROLL_AGAIN = tuple(RollAgain(c) for c in range(4))
_WON = tuple(Won(c) for c in range(4))
_PASSED = tuple(tuple(tuple(TurnPassed(c, n, r) for r in (_DONE, _FORFEIT, _BY_TRIES))
                      for n in range(4)) for c in range(4))
_CAPTURED = tuple(tuple(tuple(Captured(c, v, f) for f in range(TRACK_LEN)) for v in range(4))
                  for c in range(4))
_ENTERED_GOAL = tuple(tuple(EnteredGoal(c, to) for to in range(GOAL_LAST + 1)) for c in range(4))
_TRY_FAILED = tuple(tuple(TryFailed(c, t) for t in range(TRIES)) for c in range(4))


def occupancy(pieces: tuple[tuple[int, ...] | None, ...]) -> bytes:
    """Absolute track field (0…39) -> 1 + the colour standing there, or 0 when empty."""
    occ = bytearray(TRACK_LEN)
    for c in range(4):
        ps = pieces[c]
        if ps is not None:
            fld = FIELD[c]
            for p in ps:
                f = fld[p]
                if f >= 0:
                    occ[f] = c + 1
    return bytes(occ)


def new_game(players: int = 4, variants: frozenset[str] | set[str] = frozenset(),
             first: int | None = None) -> Position:
    """The start position: every piece in its house; red starts unless ``first`` says."""
    if players not in SEATS_BY_PLAYERS:
        raise RulesError(f"Člověče is played by 2 to 4 players, not {players}.")
    unknown = set(variants) - set(VARIANT_ORDER)
    if unknown:
        raise RulesError(f"Unknown variant {sorted(unknown)[0]!r}.")
    seats = SEATS_BY_PLAYERS[players]
    pieces = tuple((HOUSE,) * PIECES if c in seats else None for c in range(4))
    turn = seats[0] if first is None else first
    if turn not in seats:
        raise RulesError(f"{COLOURS[turn]} does not play in a {players}-player game.")
    return Position(pieces, turn, 0, frozenset(variants), None, occupancy(pieces))


def track_field(colour: int, progress: int) -> int:
    """Absolute track field (0…39) of a piece of ``colour`` at track ``progress``."""
    return (START[colour] + progress) % TRACK_LEN


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


def _target(pos: Position, colour: int, frm: int, roll: int) -> tuple[int, int | None] | Reason:
    """Where a single piece goes with ``roll``: (to, captured colour) or why it cannot."""
    own = pos.pieces[colour]
    assert own is not None
    occ = pos.occ or occupancy(pos.pieces)
    if frm == HOUSE:
        if roll != SIX:
            return Reason(Why.HOUSE_NEEDS_SIX, colour, frm, roll)
        if 0 in own:
            return Reason(Why.START_HELD_BY_OWN, colour, frm, roll)
        o = occ[START[colour]]
        return 0, (o - 1 if o else None)
    to = frm + roll
    if to < GOAL_FIRST:
        field = FIELD[colour][to]
        other = occ[field] - 1
        if other < 0:
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

    The hot path of every game: written for speed, checked against
    :func:`_target` (the plain statement of the rules) by the tests.
    """
    c = pos[1]
    own = pos[0][c]
    assert own is not None
    occ = pos[5] or occupancy(pos[0])
    variants = pos[3]
    fld = FIELD[c]
    moves: list[Move] = []
    if HOUSE in own:
        duties = not variants or _VE not in variants
        if 0 not in own:
            if roll == SIX:
                o = occ[fld[0]]
                entry = _new(Move, (c, HOUSE, 0, o - 1 if o else None))
                if duties:
                    return [entry], "enter"
                moves.append(entry)
        elif duties:
            t = _target(pos, c, 0, roll)
            if not isinstance(t, Reason):
                return [_new(Move, (c, 0, t[0], t[1]))], "clear"
    safe = bool(variants) and _SS in variants
    c1 = c + 1
    for p in own:
        if p < 0:
            continue
        to = p + roll
        if to < GOAL_FIRST:
            f = fld[to]
            o = occ[f]
            if not o:
                moves.append(_new(Move, (c, p, to, None)))
            elif o != c1 and not (safe and START[o - 1] == f):
                moves.append(_new(Move, (c, p, to, o - 1)))
        elif to <= GOAL_LAST and to not in own:
            if variants and _NJ in variants:
                if any(g in own for g in range(max(p + 1, GOAL_FIRST), to)):
                    continue
            moves.append(_new(Move, (c, p, to, None)))
    return moves, ""


_last: tuple[Position | None, int, tuple[Move, ...]] = (None, 0, ())


def legal_moves(pos: Position, roll: int) -> list[Move]:
    """All distinct legal moves of the colour on turn for ``roll`` (1…6)."""
    global _last
    pieces, c, _tries, variants, winner, occ = pos
    if winner is not None:
        return []
    if roll not in _ROLLS:
        raise RulesError(f"A roll is 1 to 6, not {roll}.")
    if variants:
        moves, duty = _candidate_moves(pos, roll)
        if not duty and _MC in variants:
            captures = [m for m in moves if m[3] is not None]
            if captures:
                moves = captures
        _last = (pos, roll, tuple(moves))
        return moves
    # The official rules, the hot path of every game.  Same answers as
    # _candidate_moves (the tests compare them on random positions).
    own = pieces[c]
    assert own is not None
    if occ is None:
        occ = occupancy(pieces)
    fld = FIELD[c]
    table = _MOVE[c]
    if HOUSE in own:
        if 0 not in own:
            if roll == SIX:
                entry = table[SIX][occ[fld[0]]]
                _last = (pos, roll, (entry,))
                return [entry]
        else:
            o = occ[fld[roll]]
            if o != c + 1:
                clear = table[7 + roll][o]
                _last = (pos, roll, (clear,))
                return [clear]
    c1 = c + 1
    moves = []
    for p in own:
        if p < 0:
            continue
        to = p + roll
        if to < GOAL_FIRST:
            o = occ[fld[to]]
            if o != c1:
                moves.append(table[p * 7 + 7 + roll][o])
        elif to <= GOAL_LAST and to not in own:
            moves.append(table[p * 7 + 7 + roll][0])
    _last = (pos, roll, tuple(moves))
    return moves


_ROLLS = frozenset(range(1, 7))


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


def apply(pos: Position, roll: int, move: Move | None = None) -> tuple[Position, list[Event]]:
    """Play ``roll`` for the colour on turn, moving ``move`` (or the only legal move).

    Returns the new position and what happened.  With no legal move the
    three-tries rule or the forfeit applies; after a six the same colour rolls
    again; after anything else the turn passes clockwise.
    """
    if pos[4] is not None:
        raise GameOver(f"The game is over: {COLOURS[pos[4]]} has won.")
    last = _last
    if last[0] is pos and last[1] == roll:
        legal = last[2]
    else:
        legal_moves(pos, roll)
        legal = _last[2]
    pieces, colour, _tries, variants, _winner, occ = pos
    if occ is None:
        occ = occupancy(pieces)
    events: list[Event]
    if move is None:
        if not legal:
            if in_play(pos, colour):
                nxt = _after(pieces, colour)
                events = [_PASSED[colour][nxt][1]]
                return _new(Position, (pieces, nxt, 0, variants, None, occ)), events
            tries = pos[2] + 1
            if tries < TRIES:
                return (_new(Position, (pieces, colour, tries, variants, None, occ)),
                        [_TRY_FAILED[colour][tries]])
            nxt = _after(pieces, colour)
            events = [_PASSED[colour][nxt][2]]
            return _new(Position, (pieces, nxt, 0, variants, None, occ)), events
        if len(legal) > 1:
            raise AmbiguousMove(f"{len(legal)} moves are legal; say which piece moves.")
        move = legal[0]
    elif move not in legal:
        reason = why_not(pos, roll, move[1])
        raise IllegalMove(f"That move is not legal ({reason.why.value}).", reason)

    _c, frm, to, capture = move
    fld = FIELD[colour]
    own = pieces[colour]
    assert own is not None
    i = own.index(frm)
    new_own = own[:i] + (to,) + own[i + 1:]
    board = bytearray(occ)
    if frm >= 0:
        f = fld[frm]
        if f >= 0:
            board[f] = 0
        events = [_MOVED[colour][frm][roll]]
    else:
        events = [_ENTERED[colour]]
    new_list = list(pieces)
    new_list[colour] = new_own
    f = fld[to]
    if f >= 0:
        board[f] = colour + 1
        if capture is not None:
            vp = pieces[capture]
            assert vp is not None
            j = vp.index((f - START[capture]) % TRACK_LEN)
            new_list[capture] = vp[:j] + (HOUSE,) + vp[j + 1:]
            events.append(_CAPTURED[colour][capture][f])
    elif frm < GOAL_FIRST:
        events.append(_ENTERED_GOAL[colour][to])
    new_pieces = tuple(new_list)
    new_occ = bytes(board)
    if to >= GOAL_FIRST and min(new_own) >= GOAL_FIRST:
        events.append(_WON[colour])
        return _new(Position, (new_pieces, colour, 0, variants, colour, new_occ)), events
    if roll == SIX:
        events.append(_ROLL_AGAIN[colour])
        return _new(Position, (new_pieces, colour, 0, variants, None, new_occ)), events
    nxt = _after(pieces, colour)
    events.append(_PASSED[colour][nxt][0])
    return _new(Position, (new_pieces, nxt, 0, variants, None, new_occ)), events


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
