"""A simple, predictable computer player for Člověče, napij se!.

Pure: the same state always gives the same decision, so a table can follow
(and replay) what the computer did.  It scores the position each legal play
leads to (before any card is drawn: the computer does not peek at the deck):
own pieces close to home are good, opponents close to home are bad, pieces in
the pub or a trap are far from home, drinks count a little.  For a card it
hits the opponent piece closest to its home; it offers a card's deal to the
co-player it helps least, and takes an offered deal with the piece that gains
most (declining when none gains); it plays the bottle when two or more
opponent pieces stand within six fields ahead of it and none of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.napij.engine.actions import Action, Choose, DeclareBottle, Play
from companion.games.napij.engine.deck import OFFER_EFFECTS, Effect
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import (
    Choice,
    can_declare_bottle,
    choices,
    legal_plays,
    outcome,
)
from companion.games.napij.engine.state import PUB, Phase, State

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


def distance(state: State, colour: int, node: int) -> int:
    """How far a piece of ``colour`` on ``node`` is from its home (the pub and the traps count
    extra: :data:`PUB_PENALTY`, :data:`TRAP_PENALTY`)."""
    return _distance(state, colour, node)


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


Distance = Callable[[State, int, int], float]
"""``distance(state, colour, node)``: how far a piece of ``colour`` on ``node`` is from home."""


def choose_target(state: State, way: Distance = distance) -> Choice | None:
    """The answer to a card that waits: whom to knock out or swap with, whom to offer a
    card's deal to, or - offered a deal - which piece takes it (or declining); ``way``
    measures how far a piece is from home (the strong level gives its own)."""
    options = choices(state)
    pending = state.pending
    if not options or pending is None:
        return None
    drawer = pending.colour
    effect = state.rules.deck.card(pending.card).effect
    own = state.pieces[drawer]
    assert own is not None
    mine = own[pending.piece]
    if effect in OFFER_EFFECTS:
        if pending.offered is None:
            # offer the deal to the co-player it helps least
            return min(options, key=lambda o: max(
                (_taking(state, effect, drawer, mine, o.colour, op, way)
                 for op in _main_pieces(state, o.colour)), default=0.0))

        def answer(o: Choice) -> float:  # declining is worth nothing either way
            return _taking(state, effect, drawer, mine, o.colour, o.piece, way) \
                if isinstance(o, Choose) else 0.0
        return max(options, key=answer)

    def key(ch: Choice) -> float:
        assert isinstance(ch, Choose)
        theirs = state.pieces[ch.colour]
        assert theirs is not None
        n = theirs[ch.piece]
        if effect is Effect.SWAP:
            # gain for us minus gain for them
            return (way(state, drawer, mine) - way(state, drawer, n)) + \
                (way(state, ch.colour, n) - way(state, ch.colour, mine))
        return -way(state, ch.colour, n)
    return max(options, key=key)


def _main_pieces(state: State, colour: int) -> list[int]:
    g = state.rules.graph
    own = state.pieces[colour] or ()
    return [p for p, n in enumerate(own) if n >= 0 and g.on_main[n]]


def _taking(state: State, effect: Effect, drawer: int, node: int, colour: int,
            piece: int, way: Distance) -> float:
    """What taking an offered deal with ``piece`` is worth to ``colour``: its piece's progress
    (it goes to the drawer's field ``node``) and the drawer's loss."""
    theirs = state.pieces[colour]
    assert theirs is not None
    n = theirs[piece]
    progress = way(state, colour, n) - way(state, colour, node)
    lands = PUB if effect is Effect.OFFER_KNOCK_OUT else n
    loss = way(state, drawer, lands) - way(state, drawer, node)
    return progress + 0.6 * loss


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
