"""The strong computer seat of Člověče (*silný*): an evaluation and a short expectimax.

Pure: the same position and roll always give the same move.

**The evaluation** (:func:`evaluate`) scores a position for one colour as the
race it leaves.  Every piece is worth its progress in fields, ``entered`` more
than a piece in the house (leaving needs a six), ``convex * p * p / 40`` more
at progress ``p`` (the pieces in front count more: with three or four players
the board is crowded, and bringing one piece home, where nobody can hit it,
beats moving them all a little), and ``goal`` more in the goal, a little more
the deeper.  From that it loses what it is expected to lose before its colour
moves again: the chance it is hit times its worth.  The player who moves next
is looked at exactly (:func:`next_loss`: each of its six rolls, its legal
moves with the duties to enter and to clear the start, taking a capture
``greedy`` of the time and otherwise any move alike); the others by where
their pieces stand: 1 to 6 fields behind hits with one roll (``hit6``), 7 to
12 after a six (``hit12``), and an opponent that waits to enter hits its own
start field on a six (``entry``; three tries when it has no piece in play).  A
colour's score is its race minus ``opponents`` times the mean of the
opponents' races.

**The search** (:func:`choose`): each legal move of the roll is played and the
position it leaves is scored; a six throws again, so after a six the position is
worth the best move of each next roll, averaged over the six rolls (expectimax
over the die, one throw deep).  Between moves worth the same the piece further
ahead goes (``front``).

**Two players** (``deep``): with a roll of 1 to 5 the search
looks further, at the opponent's whole throw (each of its six rolls, the move
*normální* would play, :func:`companion.games.clovece.bot.choose`) and then the own
next throw (the best move of each roll), and scores the positions it reaches, where
the opponent is to move, by :func:`win_chance`: the evaluation as a chance to win.
An expectimax averages what it finds at its leaves, which is only right for a
chance; the fields of the evaluation are not one (a lead of ten fields is worth
more near the end).  After a six every move throws again, so the one-throw search
above decides as before.

The weights depend on the number of players (:data:`WEIGHTS`); two players' ``convex`` 0.5
comes from an exactly solved end game (``benchmarks/clovece_solve.py``:
silný moved the back piece where the front one should go).  They were tuned
by seeded self-play with common random numbers (``benchmarks/clovece_tune.py``);
what each level does and how strong it is: ``docs/players/computer-players.md``; what was
tried and dropped on the way: ``docs/dev/research/computer-players-tuning.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from companion.games.clovece import bot as clovece_bot
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    GOAL_LAST,
    HOUSE,
    SIX,
    START,
    TRACK_LEN,
    Move,
    Position,
    Variant,
    apply,
    in_play,
    legal_moves,
)

_SAFE_START = Variant.SAFE_START.value


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (a field of progress is the unit)."""

    entered: float = 10.0
    """A piece out of the house, on top of its progress."""
    convex: float = 0.0
    """A piece at progress ``p`` is worth ``convex * p * p / 40`` more: the pieces in front
    count more (with many players the board is crowded and a piece brought home is safe)."""
    goal: float = 6.0
    """A piece in the goal, on top of its progress (it can no longer be hit)."""
    goal_depth: float = 0.5
    """Each goal field deeper."""
    risk: float = 1.0
    """Scales the expected loss of the colour's own pieces."""
    risk_them: float = 1.0
    """Scales the expected loss of the opponents' pieces (relative to ``risk``)."""
    hit6: float = 1 / 6
    """The chance of a hit by a piece 1 to 6 fields behind."""
    hit12: float = 1 / 36
    """The chance of a hit by a piece 7 to 12 fields behind (a six first)."""
    entry: float = 1 / 6
    """The chance of a hit on an opponent's start field while it has a piece to enter."""
    greedy: float = 0.5
    """How often the next player is expected to take a capture it has (else it moves any of
    its legal moves alike)."""
    opponents: float = 1.0
    """The weight of the opponents' mean race against the colour's own."""
    leader: float = 0.0
    """Extra weight of the best opponent's race."""
    front: float = 0.001
    """Per field of the moving piece's progress: between moves worth the same, the piece
    further ahead goes."""
    deep: bool = False
    """Two players, a roll of 1 to 5: look further, at the opponent's whole throw (it is
    expected to play as *normální*) and the own next throw (the best move of each roll), and
    score the positions there by :func:`win_chance`."""
    chance_lead: float = 0.2932
    """:func:`win_chance`: the weight of the evaluation over the root of the fields left."""
    chance_left: float = 0.0234
    """:func:`win_chance`: the weight of the fields left (per 100)."""


WEIGHTS: dict[int, Weights] = {
    2: Weights(deep=True, convex=0.5),
    3: Weights(convex=2.0),
    4: Weights(convex=3.5),
}
"""The tuned weights by the number of players (docs/dev/research/computer-players-tuning.md has the figures)."""


def weights_for(pos: Position) -> Weights:
    """The weights for a game of as many players as ``pos`` has."""
    return WEIGHTS[sum(own is not None for own in pos.pieces)]


_TRIES3 = 1 - (5 / 6) ** 3
"""A colour with no piece in play throws three times for a six."""


def races(pos: Position, w: Weights, me: int = -1, skip: int = -1) -> list[float]:
    """Every colour's race: its pieces' worth minus what it expects to lose before it moves
    again (index = colour; 0.0 for a colour that does not play).  ``skip``: the hits of that
    colour on ``me``'s pieces are left out (:func:`next_loss` counts them exactly)."""
    pieces = pos.pieces
    board: list[int] = [-1] * TRACK_LEN  # colour on each field
    waiting = [False, False, False, False]  # a piece in the house and the own start free
    in_play = [False, False, False, False]  # a piece on the track
    for c in range(4):
        own = pieces[c]
        if own is None:
            continue
        start = START[c]
        for p in own:
            if 0 <= p < GOAL_FIRST:
                board[(start + p) % TRACK_LEN] = c
                in_play[c] = True
        if HOUSE in own and 0 not in own:
            waiting[c] = True
    safe_start = _SAFE_START in pos.variants
    hit6, hit12, entry = w.hit6, w.hit12, w.entry
    entered, goal, depth = w.entered, w.goal, w.goal_depth
    convex = w.convex / TRACK_LEN
    out = [0.0, 0.0, 0.0, 0.0]
    for c in range(4):
        own = pieces[c]
        if own is None:
            continue
        start = START[c]
        total = 0.0
        risk = w.risk if c == me else w.risk * w.risk_them
        skipped = skip if c == me else -1
        for p in own:
            if p == HOUSE:
                continue
            worth = entered + p + convex * p * p
            if p >= GOAL_FIRST:
                total += worth + goal + depth * (p - GOAL_FIRST)
                continue
            if safe_start and p == 0:
                total += worth
                continue
            field = (start + p) % TRACK_LEN
            chance = 0.0
            for d in range(1, 13):
                g = field - d
                o = board[g]  # (a negative index wraps around the track)
                if o < 0 or o == c or (o == skipped and d <= SIX):
                    continue
                # the attacker's progress there; it must not turn into its goal first
                if (g - START[o]) % TRACK_LEN + d < GOAL_FIRST:
                    chance += hit6 if d <= SIX else hit12
            for o in range(4):
                if o != c and o != skipped and waiting[o]:
                    s = START[o]
                    if field == s:
                        chance += entry if in_play[o] else _TRIES3
                    elif 0 < (field - s) % TRACK_LEN <= SIX:
                        chance += entry * hit6
            if chance > 1.0:
                chance = 1.0
            total += worth - risk * chance * worth
        out[c] = total
    return out


def next_loss(pos: Position, colour: int, w: Weights) -> float:
    """What ``colour`` expects to lose to the player on turn (another colour): each of its six
    rolls, its legal moves (the duties to enter and to clear its start come first; three
    tries for a six when it has no piece in play), a capture of ``colour`` taken ``greedy``
    of the time, else any legal move alike."""
    total = 0.0
    greedy = w.greedy
    entered, convex, start = w.entered, w.convex / TRACK_LEN, START[colour]
    for roll in range(1, SIX + 1):
        moves = legal_moves(pos, roll)
        best = share = 0.0
        for m in moves:
            if m.capture == colour:
                p = (START[m.colour] + m.to - start) % TRACK_LEN  # the victim's progress
                worth = entered + p + convex * p * p
                if worth > best:
                    best = worth
                share += worth
        if best:
            total += greedy * best + (1 - greedy) * share / len(moves)
    if not in_play(pos):  # only a six moves it, and it has three tries for one
        return total * _TRIES3
    return total / SIX


def evaluate(pos: Position, colour: int, w: Weights | None = None) -> float:
    """How good ``pos`` is for ``colour`` (higher is better): its race minus the opponents'
    (their mean, the leader's weighed ``leader`` more); the hits of the player on turn, when
    that is an opponent, counted exactly."""
    if pos.winner is not None:
        return 1e6 if pos.winner == colour else -1e6
    w = w or weights_for(pos)
    if pos.turn != colour:
        r = races(pos, w, colour, pos.turn)
        r[colour] -= w.risk * next_loss(pos, colour, w)
    else:
        r = races(pos, w, colour)
    others = [r[c] for c in range(4) if c != colour and pos.pieces[c] is not None]
    if not others:
        return r[colour]
    return r[colour] - w.opponents * sum(others) / len(others) - w.leader * max(others)


def fields_left(pos: Position) -> int:
    """The fields all colours' pieces still have to go (a piece in the house: 54)."""
    return sum(54 if p == HOUSE else max(0, GOAL_LAST - p)
               for own in pos.pieces if own is not None for p in own)


def win_chance(pos: Position, colour: int, w: Weights) -> float:
    """:func:`evaluate` as a chance to win, for the deep search: a logistic function of the
    evaluation over the root of the fields left (a lead counts more near the end) and of the
    fields left, fitted on positions of silný's games against *normální*
    (docs/dev/research/computer-players-tuning.md).  1 or 0 for a game that is over."""
    if pos.winner is not None:
        return 1.0 if pos.winner == colour else 0.0
    left = fields_left(pos)
    x = w.chance_lead * evaluate(pos, colour, w) / math.sqrt(left + 20) + w.chance_left * left / 100
    return 1 / (1 + math.exp(-x))


def _best_of_throw(pos: Position, score: Callable[[Position], float]) -> float:
    """The colour on turn throws: the best ``score`` after a move of each roll, averaged
    over the six rolls (a roll with no move: the position it leaves)."""
    total = 0.0
    for roll in range(1, SIX + 1):
        moves = legal_moves(pos, roll)
        if not moves:
            total += score(apply(pos, roll)[0])
        else:
            total += max(score(apply(pos, roll, m)[0]) for m in moves)
    return total / SIX


def _reply_then_own(pos: Position, colour: int, w: Weights) -> float:
    """The opponent throws (it is on turn) and plays as *normální*; then ``colour``'s own
    throw.  After a six or a failed try of the opponent the position is scored as it is."""
    total = 0.0
    for roll in range(1, SIX + 1):
        move = clovece_bot.choose(pos, roll)
        after = apply(pos, roll, move)[0]
        if after.winner is None and after.turn == colour:
            total += _best_of_throw(after, lambda p: win_chance(p, colour, w))
        else:
            total += win_chance(after, colour, w)
    return total / SIX


def _after_six(pos: Position, colour: int, w: Weights) -> float:
    """A position where ``colour`` throws again: the best move of each roll, averaged."""
    return _best_of_throw(pos, lambda p: evaluate(p, colour, w))


def move_value(pos: Position, roll: int, move: Move, w: Weights | None = None) -> float:
    """What playing ``move`` is worth to the colour on turn (after a six: expected over the
    next throw)."""
    w = w or weights_for(pos)
    colour = pos.turn
    after, _ = apply(pos, roll, move)
    if after.winner is None and after.turn == colour:
        return _after_six(after, colour, w)
    return evaluate(after, colour, w)


def choose(pos: Position, roll: int, w: Weights | None = None) -> Move | None:
    """The move *silný* plays, or ``None`` when no move is legal."""
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    w = w or weights_for(pos)
    best, best_value = moves[0], -1e18
    if w.deep and roll != SIX and len(pos.colours) == 2:
        colour = pos.turn
        for m in moves:
            after = apply(pos, roll, m)[0]
            v = (win_chance(after, colour, w) if after.winner is not None
                 else _reply_then_own(after, colour, w)) + w.front * 1e-3 * m.frm
            if v > best_value:
                best, best_value = m, v
        return best
    for m in moves:
        v = move_value(pos, roll, m, w) + w.front * m.frm
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
