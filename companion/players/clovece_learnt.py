"""A learnt evaluation of two-player Člověče for the strong level (*silný*).

:func:`value` is the chance that ``me`` wins a two-player position, a logistic
function of the sparse features of :func:`features`: the hand-made evaluation of
:mod:`companion.players.clovece_strong` (its race and risk), and beside it the
counts of each colour's pieces on every track field (by progress), in the house
and in each pattern of the goal, whether it has a piece in play, and the chance
each piece is hit (by where it stands).  The weights (:data:`WEIGHTS`, in
:mod:`companion.players.clovece_td_weights`) were learnt from self-play by
temporal differences: ``benchmarks/clovece_td.py`` re-learns them.

Pure and deterministic: the same position gives the same value.
"""

from __future__ import annotations

import math

from companion.engines.clovece.rules import (
    GOAL_FIRST,
    HOUSE,
    SIX,
    START,
    TRACK_LEN,
    Position,
    in_play,
    legal_moves,
)

from .clovece_td_weights import WEIGHTS

BINS = 8
"""The track in bins of five fields (progress 0-4, 5-9, ...): where a piece at risk stands."""

# feature indices
BIAS = 0
HAND = 1
ON_TURN = 2
_SIDE = 3  # then two blocks, one per side (me, the opponent)
_TRACK = 0  # 40 counts by progress
_HOUSE = 40  # 5: one-hot of the number in the house
_GOAL = 45  # 16: one-hot of the goal's pattern
_STUCK = 61  # 1: no piece in play
_HIT = 62  # 8: the chance a piece is hit on the next turn, by its bin
_FAR = 70  # 8: pieces 7-12 fields ahead of an enemy piece, by bin
SIDE_LEN = 78
SIZE = _SIDE + 2 * SIDE_LEN

HAND_SCALE = 1 / 50
"""The hand-made evaluation in units of 50 fields."""

_TRIES3 = 1 - (5 / 6) ** 3


def _goal_pattern(own: tuple[int, ...]) -> int:
    mask = 0
    for p in own:
        if p >= GOAL_FIRST:
            mask |= 1 << (p - GOAL_FIRST)
    return mask


def features(pos: Position, me: int, hand: float) -> dict[int, float]:
    """The sparse features of a two-player position for ``me`` (index → value); ``hand`` is the
    hand-made evaluation of it for ``me``."""
    pieces = pos.pieces
    opp = next(c for c in range(4) if c != me and pieces[c] is not None)
    f: dict[int, float] = {BIAS: 1.0, HAND: hand * HAND_SCALE}
    if pos.turn == me:
        f[ON_TURN] = 1.0
    fields: list[dict[int, int]] = [{}, {}]  # absolute field → progress, per side
    for side, c in ((0, me), (1, opp)):
        own = pieces[c]
        assert own is not None
        base = _SIDE + side * SIDE_LEN
        house = 0
        for p in own:
            if p == HOUSE:
                house += 1
            elif p < GOAL_FIRST:
                k = base + _TRACK + p
                f[k] = f.get(k, 0.0) + 1.0
                fields[side][(START[c] + p) % TRACK_LEN] = p
        f[base + _HOUSE + house] = 1.0
        f[base + _GOAL + _goal_pattern(own)] = 1.0
        if not in_play(pos, c):
            f[base + _STUCK] = 1.0
    # the player on turn: its exact hits (each roll's legal moves)
    mover = pos.turn
    victim_side = 0 if mover == opp else 1
    victim = me if mover == opp else opp
    hits: dict[int, float] = {}
    for roll in range(1, SIX + 1):
        for m in legal_moves(pos, roll):
            if m.capture == victim:
                field = (START[mover] + m.to) % TRACK_LEN
                hits[field] = hits.get(field, 0.0) + 1.0
    share = 1 / SIX
    if not in_play(pos, mover):
        share = _TRIES3  # only a six moves it, with three tries
    base = _SIDE + victim_side * SIDE_LEN
    for field, n in hits.items():
        p = fields[victim_side].get(field)
        if p is None:
            continue
        k = base + _HIT + p * BINS // GOAL_FIRST
        f[k] = f.get(k, 0.0) + min(1.0, n * share)
    # the side that moves after: pieces 1-6 fields ahead of an enemy (the threat waits a turn)
    # and 7-12 ahead, for both sides
    for side in (0, 1):
        enemy = 1 - side
        base = _SIDE + side * SIDE_LEN
        for field, p in fields[side].items():
            near = far = False
            for efield, q in fields[enemy].items():
                d = (field - efield) % TRACK_LEN
                if q + d >= GOAL_FIRST:
                    continue
                if d <= SIX and side != victim_side:
                    near = True
                elif SIX < d <= 2 * SIX:
                    far = True
            if near:
                k = base + _HIT + p * BINS // GOAL_FIRST
                f[k] = f.get(k, 0.0) + 1 / SIX
            if far:
                k = base + _FAR + p * BINS // GOAL_FIRST
                f[k] = f.get(k, 0.0) + 1.0
    return f


def logit(f: dict[int, float], weights: list[float] | tuple[float, ...] = WEIGHTS) -> float:
    """The weighted sum of the features ``f``."""
    return sum(weights[k] * v for k, v in f.items())


def squash(x: float) -> float:
    """The logistic function, safe from overflow."""
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1 / (1 + math.exp(-x))
