"""Člověče's computer seat at each level (:mod:`companion.players.levels`).

* začátečník: a legal move drawn "at random" - but from the position itself
  (:func:`~companion.players.levels.unit_draw`), so the same position and roll
  always give the same move and a table can follow it - taking a capture when
  one is there only every other time or so (:data:`BEGINNER_CAPTURES`);
* normální: :mod:`companion.games.clovece.bot`, the heuristic the table has always had;
* silný: :mod:`companion.games.clovece.strong`, an evaluation with a search over the die.

:func:`choose` answers a position and a roll; :func:`chooser` is the same as a chooser
``(state, moves) -> move`` of the self-play driver (:mod:`companion.selfplay.driver`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece import strong as clovece_strong
from companion.games.clovece.engine.game import State
from companion.games.clovece.engine.rules import Move, Position, legal_moves
from companion.players.levels import Level, unit_draw

BEGINNER_CAPTURES = 0.5
"""How often the beginner takes a capture that is there (else any move, a capture too)."""


def _key(pos: Position, roll: int) -> list[int]:
    out = [roll, pos.turn, pos.tries]
    for c, own in enumerate(pos.pieces):
        if own is not None:
            out += [c * 64 + p + 1 for p in own]
    return out


def beginner(pos: Position, roll: int) -> Move | None:
    """The beginner's move (see the module docstring), or ``None`` when none is legal."""
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    key = _key(pos, roll)
    captures = [m for m in moves if m.capture is not None]
    if captures and unit_draw(*key, 1) < BEGINNER_CAPTURES:
        return captures[int(unit_draw(*key, 2) * len(captures))]
    return moves[int(unit_draw(*key, 3) * len(moves))]


_CHOOSE: dict[Level, Callable[[Position, int], Move | None]] = {
    Level.BEGINNER: beginner,
    Level.NORMAL: clovece_bot.choose,
    Level.STRONG: clovece_strong.choose,
}


def choose(level: Level, pos: Position, roll: int) -> Move | None:
    """The move a computer seat of ``level`` plays, or ``None`` when no move is legal."""
    return _CHOOSE[level](pos, roll)


def chooser(level: Level) -> Callable[[State, Sequence[Move]], Move]:
    """:func:`choose` at ``level`` as a chooser of the protocol's moves of a pending roll."""
    pick = _CHOOSE[level]

    def choose_move(state: State, moves: Sequence[Move]) -> Move:
        if not moves:
            raise ValueError("There is no legal move to choose from.")
        if len(moves) == 1 or state.roll is None:
            return moves[0]
        move = pick(state.pos, state.roll)
        return move if move is not None and move in moves else moves[0]

    return choose_move
