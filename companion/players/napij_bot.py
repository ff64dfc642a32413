"""A simple, predictable computer player for Člověče, napij se!.

Pure: the same state always gives the same decision, so a table can follow
(and replay) what the computer did.  It scores the position each legal play
leads to (before any card is drawn: the computer does not peek at the deck):
own pieces close to home are good, opponents close to home are bad, pieces in
the pub or a trap are far from home, drinks count a little.  For a card it
hits the opponent piece closest to its home; it plays the bottle when two or
more opponent pieces stand within six fields ahead of it and none of its own.
"""

from __future__ import annotations

from companion.engines.napij.actions import Action, Choose, DeclareBottle, Play
from companion.engines.napij.deck import Effect
from companion.engines.napij.reasons import Why
from companion.engines.napij.rules import can_declare_bottle, choices, legal_plays, outcome
from companion.engines.napij.state import PUB, Phase, State

PUB_PENALTY = 8
TRAP_PENALTY = 10


def _distance(state: State, colour: int, node: int) -> int:
    rules = state.rules
    dist = rules.distance(colour)
    g = rules.graph
    if node == PUB:
        return dist[g.start[colour]] + PUB_PENALTY
    d = dist[node]
    if g.is_trap[node]:
        d += TRAP_PENALTY
    return d


def value(state: State, colour: int) -> float:
    """How good ``state`` is for ``colour`` (higher is better)."""
    score = 0.0
    for c in state.colours:
        own = state.pieces[c]
        assert own is not None
        total = sum(_distance(state, c, n) for n in own)
        score += -total if c == colour else 0.6 * total / max(1, len(state.colours) - 1)
    score -= 0.5 * state.debt(colour)
    return score


def choose_play(state: State) -> Play | None:
    plays = legal_plays(state)
    if not plays:
        return None
    c = state.turn
    return max(plays, key=lambda p: value(outcome(state, p), c))


def choose_target(state: State) -> Choose | None:
    options = choices(state)
    if not options or state.pending is None:
        return None
    chooser = state.pending.colour
    effect = state.rules.deck.card(state.pending.card).effect
    own = state.pieces[chooser]
    assert own is not None
    mine = own[state.pending.piece]

    def key(ch: Choose) -> float:
        theirs = state.pieces[ch.colour]
        assert theirs is not None
        n = theirs[ch.piece]
        if effect is Effect.SWAP:
            # gain for us minus gain for them
            return (_distance(state, chooser, mine) - _distance(state, chooser, n)) + \
                (_distance(state, ch.colour, n) - _distance(state, ch.colour, mine))
        return -_distance(state, ch.colour, n)
    return max(options, key=key)


def wants_bottle(state: State) -> bool:
    if can_declare_bottle(state) is not Why.LEGAL:
        return False
    g = state.rules.graph
    n = state.bottle
    ahead = []
    for _ in range(6):
        n = g.main_next[n]
        ahead.append(g.field[n])
    mine = theirs = 0
    for c in state.colours:
        own = state.pieces[c]
        assert own is not None
        for node in own:
            if node >= 0 and g.field[node] in ahead:
                if c == state.turn:
                    mine += 1
                else:
                    theirs += 1
    return mine == 0 and theirs >= 2


def decide(state: State) -> Action | None:
    """The computer's decision now: a play, a card target, declaring the bottle, or ``None``
    when the next input is a throw (or the game is over)."""
    phase = state.phase
    if phase is Phase.PLAY:
        return choose_play(state)
    if phase is Phase.CHOOSE:
        return choose_target(state)
    if phase is Phase.THROW and not state.throws and wants_bottle(state):
        return DeclareBottle()
    return None
