"""Člověče, napij se!'s computer seat at each level (:mod:`companion.players.levels`).

* začátečník: a legal play drawn "at random" from the state itself
  (:func:`~companion.players.levels.unit_draw`: the same state always gets the
  same answer), taking a play that knocks an opponent out only every other time
  or so; a card's choice drawn alike; it never plays the bottle;
* normální: :mod:`companion.games.napij.bot`, the heuristic the table has always had;
* silný: :func:`strong_play` - a race of its own: each piece's way home
  expected over the throws (:func:`expected_way`: a junction's shortcut or the
  stezka counts only when a throw stops the piece on the junction, where the
  normal level counts every one as taken), and, for every own piece on the main
  track, the risk of being knocked out before its colour moves again: an
  opponent piece 1 to 6 main-track fields behind it hits it about one time in
  six (a piece with immunity is safe), and the loss is the way the piece has
  made; the opponents' races weigh ``OPPONENTS``.  Cards and the bottle are
  decided as the normal level does.  (Tried and measured no better against the
  normal level, see docs/players/computer-players.md: the front pieces counting more, as in
  Člověče; a bonus or a malus for stopping on a card field; threats 7 to 12
  fields behind; the bottle as a threat; a heavier trap; a search over the next
  player's throws and reply; the bottle decided by the expected value of the
  turn.)

:func:`decide` is the decision at a level (as :func:`napij_bot.decide`); :class:`Seat`
is the same as a chooser of the self-play driver, which also drinks a computer's
debts and declares its bottle before the throw (``interject``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from companion.games.napij import bot as napij_bot
from companion.games.napij.engine.actions import Action, Drank, Play
from companion.games.napij.engine.events import Captured
from companion.games.napij.engine.game import GAME
from companion.games.napij.engine.playout import target_of
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import Choice, choices, legal_plays, outcome, preview
from companion.games.napij.engine.state import PUB, Phase, Rules, State
from companion.players.levels import Level, unit_draw

BEGINNER_CAPTURES = 0.5
"""How often the beginner takes a play that knocks somebody out when there is one."""

OPPONENTS = 0.8
"""The weight of the opponents' mean race."""
HIT = 1 / 6
"""The chance an opponent piece 1 to 6 main-track fields behind knocks a piece out."""
RISK = 1.0
"""Scales the expected loss of the colour's own pieces."""
_UNREACHABLE = 10_000
"""What the engine's fewest-fields measure gives a node no piece of the colour reaches."""



# --- the beginner ------------------------------------------------------------------------------


def _key(state: State) -> list[int]:
    out = [state.turn, state.tries, len(state.deck), *state.throws]
    for c, own in enumerate(state.pieces):
        if own is not None:
            out += [c * 1024 + n + 2 for n in own]
    return out


def _captures(state: State, play: Play) -> bool:
    return any(isinstance(e, Captured) and e.colour != state.turn for e in preview(state, play))


def beginner(state: State) -> Action | None:
    """The beginner's decision now (see the module docstring)."""
    key = _key(state)
    phase = state.phase
    if phase is Phase.PLAY:
        plays = legal_plays(state)
        if not plays:
            return None
        hits = [p for p in plays if _captures(state, p)]
        if hits and unit_draw(*key, 1) < BEGINNER_CAPTURES:
            return hits[int(unit_draw(*key, 2) * len(hits))]
        return plays[int(unit_draw(*key, 3) * len(plays))]
    if phase is Phase.CHOOSE:
        options = choices(state)
        return options[int(unit_draw(*key, 4) * len(options))] if options else None
    return None


# --- the strong level ---------------------------------------------------------------------------


def opponents_on_main(state: State, colour: int) -> dict[int, int]:
    """The main-track fields that pieces of ``colour``'s opponents stand on, with their colour."""
    on_main = state.rules.graph.on_main
    return {n: c for c in state.colours if c != colour
            for n in state.pieces[c] or () if n >= 0 and on_main[n]}


TRAP_WAIT = napij_bot.TRAP_PENALTY
"""What a trap costs beyond its way out, in fields (as the normal level counts it)."""
PUB_WAIT = napij_bot.PUB_PENALTY
"""What waiting in the pub costs beyond the way from the start field, in fields."""
TOLERANCE = 1e-6
"""The expected ways home are iterated until no field changes by more than this."""


@functools.lru_cache(maxsize=16)
def expected_way(rules: Rules, colour: int) -> tuple[tuple[float, ...], float]:
    """The fields a piece of ``colour`` still has to go from every node, expected over the
    throws, and from its pub: the normal level's measure (the fewest fields) counts every
    junction as taken, but a piece takes a shortcut or the stezka only when a throw stops it
    on the junction exactly, so most pieces go round.

    A piece at ``n`` takes a throw ``t`` (1 to 6, equally likely) that it may legally take
    alone on an empty board, to the exit that leaves it least to go; the throws it may not
    take, and one that would stop it on its rolling pin, go to another piece (they do not
    count).  So ``way(n)`` is the mean of ``t + way(target)`` over its usable throws, ``0`` in
    the deepest home field; a trap is its way out plus :data:`TRAP_WAIT`, the pub the start
    field's way plus :data:`PUB_WAIT`.  Solved by iteration from the fewest fields (a few dozen
    sweeps; cached per board and colour)."""
    g = rules.graph
    fewest = rules.distance(colour)
    way = [float(d) for d in fewest]
    occ = [-1] * len(g.board.fields)
    nobody: tuple[None, ...] = (None, None, None, None)
    deepest = g.home[colour][-1]
    pin = g.pin[colour]
    start = g.start[colour]
    exits_of = g.exits[colour]
    moves: list[tuple[int, list[tuple[int, tuple[int, ...]]]]] = []
    traps: list[int] = []
    for n in range(g.nodes):
        if n == deepest or n == pin or fewest[n] >= _UNREACHABLE:
            continue
        if g.is_trap[n]:
            traps.append(n)
            continue
        usable = []
        for t in range(1, 7):
            exits = exits_of[n] if len(exits_of[n]) > 1 else (None,)
            ends = tuple(e for ex in exits for e in (target_of(g, occ, nobody, colour, n, (t,), ex),)
                         if not isinstance(e, Why) and e != pin)
            if ends:
                usable.append((t, ends))
        if usable:
            moves.append((n, usable))
    way[deepest] = 0.0
    for _ in range(1000):
        change = 0.0
        way[pin] = way[start] + PUB_WAIT
        for n in traps:
            new = way[g.release[n]] + 1 + TRAP_WAIT
            change = max(change, abs(new - way[n]))
            way[n] = new
        for n, usable in moves:
            new = sum(t + min(way[e] for e in ends) for t, ends in usable) / len(usable)
            change = max(change, abs(new - way[n]))
            way[n] = new
        if change < TOLERANCE:
            break
    return tuple(way), way[start] + PUB_WAIT


def way_home(state: State, colour: int, node: int) -> float:
    """How far a piece of ``colour`` on ``node`` (or in the pub) is from home, expected over
    the throws (:func:`expected_way`)."""
    way, from_pub = expected_way(state.rules, colour)
    return from_pub if node == PUB else way[node]


def race(state: State, colour: int) -> float:
    """``colour``'s race: the expected way its pieces have made (:func:`expected_way`) minus
    the expected loss of those within an opponent's reach."""
    g = state.rules.graph
    way, from_pub = expected_way(state.rules, colour)
    own = state.pieces[colour]
    assert own is not None
    immune = state.immune[colour] or ()
    where = opponents_on_main(state, colour)
    total = 0.0
    for i, n in enumerate(own):
        worth = from_pub - way[n] if n != PUB else 0.0
        if where and n >= 0 and g.on_main[n] and not (immune and immune[i]):
            chance = 0.0
            back = n
            for _ in range(6):
                back = g.main_prev[back]
                if back < 0:
                    break
                if back in where:
                    chance += HIT
            total += worth - RISK * min(1.0, chance) * worth
        else:
            total += worth
    return total


def strong_value(state: State, colour: int) -> float:
    """How good ``state`` is for ``colour``: its race against the opponents' mean race."""
    mine = race(state, colour)
    others = [race(state, c) for c in state.colours if c != colour]
    return mine - OPPONENTS * sum(others) / max(1, len(others))


def strong_play(state: State) -> Play | None:
    """The play *silný* makes: the one whose position (before any card) is worth most."""
    plays = legal_plays(state)
    if not plays:
        return None
    if len(plays) == 1:
        return plays[0]
    c = state.turn
    return max(plays, key=lambda p: strong_value(outcome(state, p), c))


def strong_target(state: State) -> Choice | None:
    """The strong level's answer to a card that waits: the normal level's rules (knock out
    the opponent closest to home, offer a deal to the co-player it helps least, ...) with
    the way home expected over the throws (:func:`way_home`)."""
    return napij_bot.choose_target(state, way_home)


def strong(state: State) -> Action | None:
    """The strong level's decision now: a play, a card's choice, declaring the bottle or
    ``None`` (the next input is a throw)."""
    if state.phase is Phase.PLAY:
        return strong_play(state)
    if state.phase is Phase.CHOOSE:
        return strong_target(state)
    return napij_bot.decide(state)


_DECIDE: dict[Level, Callable[[State], Action | None]] = {
    Level.BEGINNER: beginner,
    Level.NORMAL: napij_bot.decide,
    Level.STRONG: strong,
}


def decide(level: Level, state: State) -> Action | None:
    """The decision of a computer seat of ``level`` now, or ``None`` when the next input is a
    throw (or the game is over)."""
    return _DECIDE[level](state)


class Seat:
    """A computer seat of ``level`` as a chooser of :func:`companion.selfplay.driver.play`:
    it drinks what it owes when it is due, plays and answers cards at its level, and
    declares the bottle before its first throw when its level would (``interject``)."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.decide = _DECIDE[level]

    def __call__(self, state: State, actions: Sequence[Action]) -> Action:
        if GAME.owing(state):
            return Drank(state.turn)
        action = self.decide(state)
        return action if action is not None and action in actions else actions[0]

    def interject(self, state: State) -> Action | None:
        if state.phase is Phase.THROW and not state.anyway and not state.throws:
            return self.decide(state)
        return None
