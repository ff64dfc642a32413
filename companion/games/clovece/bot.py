"""A simple, predictable strategy for a computer seat in Člověče.

Scores every legal move and takes the best; ties go to the piece furthest
ahead.  Pure: the same position and roll always give the same move, so a
table can follow (and replay) what the computer did.  :func:`choose_action`
is the same strategy as a chooser of the self-play driver
(:mod:`companion.selfplay.driver`) over the game protocol.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.clovece.engine.game import State
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    HOUSE,
    START,
    TRACK_LEN,
    Move,
    Position,
    legal_moves,
)


def _threatened(pos: Position, colour: int, field: int) -> bool:
    """Whether an opponent stands 1…6 fields behind ``field`` on the track."""
    for c in pos.colours:
        if c == colour:
            continue
        own = pos.pieces[c]
        assert own is not None
        for p in own:
            if 0 <= p < GOAL_FIRST:
                behind = (field - (START[c] + p)) % TRACK_LEN
                # the opponent must not have turned into its goal before reaching field
                if 1 <= behind <= 6 and p + behind < GOAL_FIRST:
                    return True
    return False


def score(pos: Position, move: Move) -> float:
    colour = move.colour
    s = 0.0
    if move.capture is not None:
        s += 100
    if move.to >= GOAL_FIRST and move.frm < GOAL_FIRST:
        s += 80
    if move.frm == HOUSE:
        s += 60
    if move.to < GOAL_FIRST:
        here = (START[colour] + move.to) % TRACK_LEN
        if _threatened(pos, colour, here):
            s -= 40
    if 0 <= move.frm < GOAL_FIRST and _threatened(pos, colour, (START[colour] + move.frm) % TRACK_LEN):
        s += 30
    s += move.frm / 100  # prefer the piece further ahead
    return s


def choose(pos: Position, roll: int) -> Move | None:
    """The move the computer plays, or ``None`` when no move is legal."""
    moves = legal_moves(pos, roll)
    if not moves:
        return None
    return max(moves, key=lambda m: score(pos, m))


def choose_action(state: State, moves: Sequence[Move]) -> Move:
    """The move the computer plays among ``moves`` (the protocol's legal actions of a pending
    roll): ``choose(state.pos, state.roll)`` as a chooser ``(state, actions) -> action``."""
    if not moves:
        raise ValueError("There is no legal move to choose from.")
    return max(moves, key=lambda m: score(state.pos, m))
