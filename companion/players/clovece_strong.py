"""The strong computer seat of Člověče (*silný*): an evaluation and a short expectimax.

Pure: the same position and roll always give the same move.

**The evaluation** (:func:`evaluate`) scores a position for one colour as the
race it leaves: every piece is worth its progress in fields (a piece out of the
house is worth ``entered`` more than one in it, because leaving needs a six; a
piece in the goal gets ``goal`` on top, and a little more the deeper it
stands), minus what it is expected to lose before its colour moves again - the
chance it is hit times what it would lose (its worth above the house).  The
chance of a hit is counted from the pieces behind it: an opponent 1 to 6 fields
behind hits with one roll (``hit6``), 7 to 12 behind only after a six
(``hit12``); standing on an opponent's start field while that opponent waits
with a piece in the house is a hit whenever it throws a six (it must enter:
``entry``, more when it has three tries).  The colour's score is its own race
minus ``opponents`` times the mean of the opponents' races (the leader's race
weighs ``leader`` more), all measured the same way.

**The search** (:func:`choose`): each legal move of the roll is played and the
position it leaves is scored; a six rolls again, so after a six the position is
worth what the best move of each next roll is worth, averaged over the six
rolls (expectimax over the die, one throw deep).  Ties go to the earlier move.

The weights were tuned by seeded self-play (``benchmarks/clovece_levels.py``,
see ``docs/players.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engines.clovece.rules import (
    GOAL_FIRST,
    HOUSE,
    SIX,
    START,
    TRACK_LEN,
    Move,
    Position,
    Variant,
    apply,
    legal_moves,
)

_SAFE_START = Variant.SAFE_START.value


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (fields of progress are the unit)."""

    entered: float = 10.0
    """A piece out of the house, on top of its progress."""
    goal: float = 6.0
    """A piece in the goal, on top of its progress (it can no longer be hit)."""
    goal_depth: float = 0.5
    """Each goal field deeper."""
    risk: float = 1.0
    """Scales the expected loss of every piece."""
    hit6: float = 1 / 6
    """The chance of a hit by a piece 1 to 6 fields behind."""
    hit12: float = 1 / 36
    """The chance of a hit by a piece 7 to 12 fields behind (a six first)."""
    entry: float = 1 / 6
    """The chance of a hit on an opponent's start field while it has a piece to enter."""
    opponents: float = 0.6
    """The weight of the opponents' mean race against the colour's own."""
    leader: float = 0.0
    """Extra weight of the best opponent's race."""
    risk_them: float = 1.0
    """Scales the expected loss of the opponents' pieces (relative to ``risk``)."""


DEFAULT = Weights()

_TRIES3 = 1 - (5 / 6) ** 3


def races(pos: Position, w: Weights = DEFAULT, me: int = -1) -> list[float]:
    """Every colour's race (index = colour; 0.0 for a colour that does not play)."""
    pieces = pos.pieces
    board: list[int] = [-1] * TRACK_LEN  # colour on each field
    waiting = [False, False, False, False]  # a piece in the house and the own start free
    for c in range(4):
        own = pieces[c]
        if own is None:
            continue
        start = START[c]
        for p in own:
            if 0 <= p < GOAL_FIRST:
                board[(start + p) % TRACK_LEN] = c
        if HOUSE in own and 0 not in own:
            waiting[c] = True
    safe_start = _SAFE_START in pos.variants
    hit6, hit12, entry = w.hit6, w.hit12, w.entry
    entered, goal, depth = w.entered, w.goal, w.goal_depth
    out = [0.0, 0.0, 0.0, 0.0]
    for c in range(4):
        own = pieces[c]
        if own is None:
            continue
        start = START[c]
        total = 0.0
        risk = w.risk if c == me else w.risk * w.risk_them
        for p in own:
            if p == HOUSE:
                continue
            if p >= GOAL_FIRST:
                total += entered + p + goal + depth * (p - GOAL_FIRST)
                continue
            worth = entered + p
            field = (start + p) % TRACK_LEN
            if safe_start and p == 0:
                total += worth
                continue
            chance = 0.0
            for d in range(1, 13):
                g = field - d
                o = board[g]  # (a negative index wraps around the track)
                if o < 0 or o == c:
                    continue
                # the attacker's progress there; it must not turn into its goal first
                if (g - START[o]) % TRACK_LEN + d < GOAL_FIRST:
                    chance += hit6 if d <= SIX else hit12
            for o in range(4):
                if o != c and waiting[o]:
                    s = START[o]
                    if field == s:
                        chance += entry if _in_play(pieces[o]) else _TRIES3
                    elif 0 < (field - s) % TRACK_LEN <= SIX:
                        chance += entry * hit6
            if chance > 1.0:
                chance = 1.0
            total += worth - risk * chance * worth
        out[c] = total
    return out


def _in_play(own: tuple[int, ...] | None) -> bool:
    """Whether a colour has a piece on the track (its entry then comes with one try, not
    three; a piece that can still move in the goal is not counted: a close enough guess)."""
    return own is not None and any(0 <= p < GOAL_FIRST for p in own)


def evaluate(pos: Position, colour: int, w: Weights = DEFAULT) -> float:
    """How good ``pos`` is for ``colour`` (higher is better)."""
    if pos.winner is not None:
        return 1e6 if pos.winner == colour else -1e6
    r = races(pos, w, colour)
    others = [r[c] for c in range(4) if c != colour and pos.pieces[c] is not None]
    if not others:
        return r[colour]
    return r[colour] - w.opponents * sum(others) / len(others) - w.leader * max(others)


def _after_six(pos: Position, colour: int, w: Weights) -> float:
    """A position where ``colour`` rolls again: the best move of each roll, averaged."""
    total = 0.0
    for roll in range(1, SIX + 1):
        moves = legal_moves(pos, roll)
        if not moves:
            total += evaluate(apply(pos, roll)[0], colour, w)
            continue
        best = -1e9
        for m in moves:
            v = evaluate(apply(pos, roll, m)[0], colour, w)
            if v > best:
                best = v
        total += best
    return total / SIX


def move_value(pos: Position, roll: int, move: Move, w: Weights = DEFAULT) -> float:
    """What playing ``move`` is worth to the colour on turn."""
    colour = pos.turn
    after, _ = apply(pos, roll, move)
    if after.winner is None and after.turn == colour:
        return _after_six(after, colour, w)
    return evaluate(after, colour, w)


def choose(pos: Position, roll: int, w: Weights = DEFAULT) -> Move | None:
    """The move *silný* plays, or ``None`` when no move is legal."""
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    best, best_value = moves[0], -1e18
    for m in moves:
        v = move_value(pos, roll, m, w)
        if v > best_value:
            best, best_value = m, v
    return best


def attackers(pos: Position, colour: int, progress: int) -> list[int]:
    """The opponents that could hit a piece of ``colour`` standing at track ``progress``
    with their next throw, nearest first: a piece 1 to 6 fields behind it (that does not
    turn into its own goal before), or a piece waiting in the house to enter onto the
    start field it stands on."""
    if not 0 <= progress < GOAL_FIRST:
        return []
    if progress == 0 and _SAFE_START in pos.variants:
        return []
    pieces = pos.pieces
    field = (START[colour] + progress) % TRACK_LEN
    found: list[tuple[int, int]] = []
    for o in range(4):
        own = pieces[o]
        if own is None or o == colour:
            continue
        near = TRACK_LEN
        for p in own:
            if 0 <= p < GOAL_FIRST:
                d = (field - START[o] - p) % TRACK_LEN
                if 1 <= d <= SIX and p + d < GOAL_FIRST:
                    near = min(near, d)
        if HOUSE in own and 0 not in own:
            d = (field - START[o]) % TRACK_LEN
            if d == 0:
                near = 0
        if near < TRACK_LEN:
            found.append((near, o))
    return [o for _, o in sorted(found)]
