"""The rules of Člověče, napij se! as a pure engine: its public entry points (docs/players/napij-rules.md).

No I/O, no clock, no randomness: the throws of the die, the deck's shuffle or
the cards a family draws from its own deck, and what the table calls out ("Red
drank", "Blue dropped the die") come in as *actions*
(:mod:`companion.games.napij.engine.actions`); :func:`apply` returns the new
:class:`~companion.games.napij.engine.state.State` and the events that happened
(:mod:`companion.games.napij.engine.events`), so every game replays exactly from its
actions.

A turn, in the engine's terms:

0. ``SHUFFLE`` (once, a virtual deck set up unshuffled): the deck's order comes
   in as a :class:`Shuffle` before the first throw.
1. ``THROW``: the player on turn may declare the bottle (:class:`DeclareBottle`),
   then throws (:class:`Throw`).  A six throws again; the turn's values are
   collected in ``State.throws``.  With no piece in play a player has three
   tries for a six.  A throw made while the thrower owes a due debt is void (D22).
2. ``PLAY``: once a throw is not a six, the player plays the turn as one
   :class:`Play`: either every value to a different piece (single die values
   only, in any order) or all values together by one piece, which then passes
   every stop on its way.  Every value must be used; when no play uses them all
   the turn is forfeited.  :func:`legal_moves` lists the distinct plays.
3. Cards (:mod:`companion.games.napij.engine.effects`): pieces that ended the play on
   card fields draw, in order, also out of turn; a card that needs a choice
   (whom to knock out, whom to swap with) waits in ``CHOOSE`` for a
   :class:`Choose`; with a physical deck every draw waits in ``DRAW`` for the
   :class:`Draw` of the card the family took.
4. The turn passes clockwise.

Pieces are stored as graph nodes (:mod:`companion.games.napij.engine.graph`), ``PUB``
for a piece in its pub.  Drink duties are :class:`MustDrink` events and the
ledger in the state (``owed``, ``glasses``, ``drunk``).  The play-out itself is
:class:`~companion.games.napij.engine.playout.PlayOut`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import permutations, product

from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS
from companion.engines.errors import GameOver, IllegalMove, RulesError
from companion.games.napij.engine import effects
from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Later,
    Offer,
    Play,
    Shuffle,
    Step,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.deck import IMMUNITY_ROUNDS, OFFER_EFFECTS
from companion.games.napij.engine.events import (
    BottleDeclared,
    DeckShuffled,
    Event,
    MustDrink,
    OwingThrow,
    Postponed,
    Settled,
    ThrowAgain,
    Thrown,
    TryFailed,
    TurnForfeited,
    VoidThrow,
)
from companion.games.napij.engine.graph import Graph
from companion.games.napij.engine.playout import (
    PlayOut,
    pass_turn,
    problem_at,
    shared_occupancy,
    target_of,
)
from companion.games.napij.engine.reasons import ForfeitWhy, Reason, Why
from companion.games.napij.engine.state import (
    BOTTLE,
    CALLED_DUTIES,
    PIECES,
    PUB,
    SIX,
    TRIES,
    UNSHUFFLED,
    Debt,
    DeckMode,
    DrinkReason,
    Phase,
    Rules,
    State,
    default_rules,
)

__all__ = [
    "UNSHUFFLED", "Choice", "apply", "can_declare_bottle", "choices", "chooser",
    "has_piece_in_play", "in_play", "legal_moves", "legal_plays", "needs_six", "new_game", "normalize", "outcome", "preview",
    "problems", "six_unusable", "start_events", "why_not", "why_piece", "winner_of",
]


# --- the game ---------------------------------------------------------------------------

def new_game(rules: Rules | None = None, players: int = 4, first: int | None = None,
             deck_order: Iterable[int] | None = None,
             deck: DeckMode | str = DeckMode.VIRTUAL) -> State:
    """Every piece in its pub, every player owing the opening drink.

    ``deck`` is the deck mode.  A virtual deck's ``deck_order`` is the shuffled
    deck, top card first (card numbers): the deck file's order when not given,
    and :data:`UNSHUFFLED` for a game that waits for a :class:`Shuffle` before
    its first throw.  A physical deck has no order (each card drawn comes in as
    a :class:`Draw`).  ``first`` is the colour that starts (the seed: whoever
    understood the rules least, or the highest throw); red by default.
    """
    rules = rules or default_rules()
    if players not in SEATS_BY_PLAYERS:
        raise RulesError(f"Člověče, napij se! is played by 2 to 4 players, not {players}.",
                         code="players")
    seats = SEATS_BY_PLAYERS[players]
    turn = seats[0] if first is None else first
    if turn not in seats:
        raise RulesError(f"{COLOURS[turn]} does not play in a {players}-player game.",
                         code="first")
    try:
        mode = DeckMode(deck)
    except ValueError:
        raise RulesError(f"The deck is virtual or physical, not {deck!r}.",
                         code="deck") from None
    physical = mode is DeckMode.PHYSICAL
    order: tuple[int, ...] = ()
    if physical:
        if deck_order is not None and tuple(deck_order):
            raise RulesError("A physical deck has no order the companion could know.",
                             code="deck")
    else:
        order = tuple(deck_order) if deck_order is not None else rules.deck.numbers
        if order != UNSHUFFLED and sorted(order) != sorted(rules.deck.numbers):
            raise RulesError("The deck order must name every card of the deck exactly once.",
                             code="deck")
    pieces = tuple((PUB,) * PIECES if c in seats else None for c in range(4))
    immune = tuple((0,) * PIECES if c in seats else None for c in range(4))
    debts = tuple(Debt(c, 1, DrinkReason.START, answered=False) for c in seats)
    return State(rules, pieces, immune, -1, turn, deck=order, debts=debts, physical=physical)


def start_events(state: State) -> list[Event]:
    """The duties of the start of the game (everybody drinks once)."""
    return [MustDrink(c, 1, DrinkReason.START) for c in state.colours]


def in_play(rules: Rules, node: int) -> bool:
    """A piece is in play unless it is in the pub, in its home or in a trap."""
    g = rules.graph
    return node >= 0 and g.home_rank[node] < 0 and not g.is_trap[node]


def has_piece_in_play(state: State, colour: int) -> bool:
    own = state.pieces[colour]
    return own is not None and any(in_play(state.rules, n) for n in own)


def _home_can_advance(state: State, colour: int) -> bool:
    g = state.rules.graph
    own = state.pieces[colour]
    assert own is not None
    home = g.home[colour]
    held = {g.home_rank[n] for n in own if n >= 0 and g.home_rank[n] >= 0}
    return any(r < len(home) - 1 and r + 1 not in held for r in held)


def needs_six(state: State, colour: int | None = None) -> bool:
    """Whether the three-tries rule applies: no piece in play and none can move in its home."""
    c = state.turn if colour is None else colour
    return not has_piece_in_play(state, c) and not _home_can_advance(state, c)


def can_declare_bottle(state: State) -> Why:
    """``LEGAL`` when the player on turn may declare the bottle now, else why not."""
    phase = state.phase
    if phase is not Phase.THROW:
        return _NOT_THROWING.get(phase, Why.NOT_THROW_PHASE)
    if state.throws or state.tries or state.with_bottle:
        return Why.BOTTLE_TOO_LATE
    if state.bottle < 0:
        return Why.BOTTLE_NOT_PLACED
    if not has_piece_in_play(state, state.turn):
        return Why.BOTTLE_NEEDS_PIECE_IN_PLAY
    return Why.LEGAL


_NOT_THROWING = {Phase.OVER: Why.GAME_OVER, Phase.SHUFFLE: Why.SHUFFLE_FIRST,
                 Phase.DRAW: Why.DRAW_PENDING}
"""Why nobody throws (or declares the bottle) now, where it is not "a play is due"."""


def _reach(g: Graph, colour: int, node: int, k: int, blocked: frozenset[int]) -> bool:
    """Whether a piece on ``node`` could move ``k`` fields on some way, other pieces ignored
    except ``blocked`` fields (own pieces packed at the back of the home, which cannot move)."""
    thr = g.through[colour]
    fld = g.field
    for first in g.exits[colour][node]:
        n = first
        if fld[n] in blocked:
            continue
        for _ in range(k - 1):
            n = thr[n]
            if n < 0 or fld[n] in blocked:
                break
        else:
            return True
    return False


def _packed_home(g: Graph, own: Sequence[int], colour: int) -> frozenset[int]:
    """The home fields of own pieces that can never move again (all fields behind them are
    taken by own pieces too)."""
    held = {g.home_rank[n] for n in own if n >= 0 and g.home_rank[n] >= 0}
    home = g.home[colour]
    packed = set()
    for r in range(len(home) - 1, -1, -1):
        if r not in held:
            break
        packed.add(g.field[home[r]])
    return frozenset(packed)


def six_unusable(state: State, colour: int) -> bool:
    """No play can ever use a six: no piece in the pub or a trap, none can move six fields.

    Sound: every play uses every value, so some piece would have to enter, be
    freed, or move at least six fields; pieces packed at the back of the home
    never move, so nobody can pass them.
    """
    if state.with_bottle:
        return False
    g = state.rules.graph
    own = state.pieces[colour]
    assert own is not None
    blocked = _packed_home(g, own, colour)
    for n in own:
        if n == PUB or g.is_trap[n] or _reach(g, colour, n, SIX, blocked):
            return False
    return True


def winner_of(state: State) -> int | None:
    g = state.rules.graph
    for c in state.colours:
        own = state.pieces[c]
        assert own is not None
        if all(n >= 0 and g.home_rank[n] >= 0 for n in own):
            return c
    return None



# --- plays ----------------------------------------------------------------------------------

def _shape(state: State, play: Play) -> Reason | None:
    """The checks a play must pass before it is played out: the values and the pieces."""
    c = state.turn
    phase = state.phase
    if phase is Phase.OVER:
        return Reason(Why.GAME_OVER, c)
    if phase is Phase.CHOOSE:
        return Reason(Why.CHOICE_PENDING, c)
    if phase is Phase.DRAW:
        return Reason(Why.DRAW_PENDING, c)
    if phase is Phase.SHUFFLE:
        return Reason(Why.SHUFFLE_FIRST, c)
    if phase is Phase.THROW:
        return Reason(Why.THROW_FIRST, c)
    values = state.throws
    steps = play.steps
    if not steps:
        return Reason(Why.VALUES_UNUSED, c)
    pool = list(values)
    for s in steps:
        if not s.values:
            return Reason(Why.VALUES_UNUSED, c, s.piece)
        if s.piece == BOTTLE and not state.with_bottle:
            return Reason(Why.BOTTLE_NOT_DECLARED, c, s.piece)
        if s.piece != BOTTLE and state.with_bottle:
            return Reason(Why.BOTTLE_DECLARED, c, s.piece)
        if s.piece != BOTTLE and not 0 <= s.piece < PIECES:
            return Reason(Why.NO_PIECE, c, s.piece)
        for v in s.values:
            if v in pool:
                pool.remove(v)
            else:
                return Reason(Why.NOT_A_THROWN_VALUE, c, s.piece, v)
    if len(steps) > 1:
        for s in steps:
            if len(s.values) > 1:
                return Reason(Why.TOGETHER_NEEDS_ALL, c, s.piece)
        seen: set[int] = set()
        for s in steps:
            if s.piece in seen:
                return Reason(Why.PIECE_TWICE, c, s.piece)
            seen.add(s.piece)
    if pool:
        if len(steps) == 1 and len(steps[0].values) > 1:
            return Reason(Why.TOGETHER_NEEDS_ALL, c, steps[0].piece)
        return Reason(Why.VALUES_UNUSED, c, steps[0].piece, pool[0])
    return None


def normalize(state: State, play: Play) -> Play:
    """The same play with canonical piece numbers for pieces in the pub (they are alike),
    together values in thrown order and exits only where a choice exists."""
    c = state.turn
    own = state.pieces[c]
    if own is None:
        return play
    g = state.rules.graph
    pubs = [p for p, n in enumerate(own) if n == PUB]
    used: dict[int, int] = {}
    steps = []
    for s in play.steps:
        piece = s.piece
        if 0 <= piece < PIECES and own[piece] == PUB:
            if piece not in used:
                free = [q for q in pubs if q not in used.values()]
                used[piece] = free[0] if free else piece
            piece = used[piece]
        values = s.values
        if len(play.steps) == 1 and len(values) > 1 and sorted(values) == sorted(state.throws):
            values = state.throws
        ex = s.exit
        if ex is not None and 0 <= piece < PIECES and own[piece] >= 0:
            exits = g.exits[c][own[piece]]
            if len(exits) == 1 and exits[0] == ex:
                ex = None
        steps.append(Step(piece, values, ex))
    return Play(tuple(steps))


def _run(state: State, play: Play, occ: list[int] | None = None,
         checked: bool = False) -> PlayOut | Reason:
    """Play out a play (no cards yet); the working copy, or why it is not legal."""
    if not checked:
        bad = _shape(state, play)
        if bad is not None:
            return bad
    sim = PlayOut(state, occ)
    c = state.turn
    for s in play.steps:
        why = sim.bottle_step(c, s.values) if s.piece == BOTTLE else \
            sim.step(c, s.piece, s.values, s.exit)
        if why is not None:
            return Reason(why, c, s.piece, s.values[0] if len(s.values) == 1 else sum(s.values))
    return sim



_last: tuple[State | None, tuple[Play, ...]] = (None, ())
_CURABLE = frozenset({Why.OWN_PIECE_ON_TARGET, Why.START_HELD_BY_OWN, Why.CANNOT_JUMP_IN_HOME})
"""Reasons a step may fail now but succeed after an earlier step of the same play."""


def legal_plays(state: State) -> list[Play]:
    """Every distinct legal play of the player on turn (``PLAY`` phase); plays that end in
    the same position are listed once."""
    global _last
    last = _last  # read once: another thread may replace it meanwhile
    if last[0] is state:
        return list(last[1])
    if state.phase is not Phase.PLAY:
        return []
    c = state.turn
    values = state.throws
    g = state.rules.graph
    occ = shared_occupancy(state)
    result: list[Play] = []
    if state.with_bottle:
        n = state.bottle
        for _ in range(sum(values)):
            n = g.main_next[n]
        if problem_at(g, occ, state.immune, -1, n) is None:
            result.append(Play((Step(BOTTLE, values),)))
        _last = (state, tuple(result))
        return result
    own = state.pieces[c]
    assert own is not None
    immune = state.immune
    pubs = [p for p, n in enumerate(own) if n == PUB]
    k = len(values)
    exits_of = g.exits[c]
    is_trap = g.is_trap
    on_board = [p for p, n in enumerate(own) if n >= 0 and (exits_of[n] or is_trap[n])]

    def exit_options(p: int) -> tuple[int | None, ...]:
        n = own[p]
        if n >= 0 and len(exits_of[n]) > 1:
            return tuple(exits_of[n])
        return (None,)

    # one piece takes everything (for a single value: the only kind of play)
    for p in on_board + pubs[:1]:
        for ex in exit_options(p):
            if not isinstance(target_of(g, occ, immune, c, own[p], values, ex), Why):
                result.append(Play((Step(p, values, ex),)))
    if 2 <= k <= PIECES:
        # every value to a different piece, in every order: played out, since one step
        # can open or close the way of the next; identical outcomes are listed once
        seen: set[tuple[object, ...]] = set()
        pieces = on_board + pubs[:k]
        # a step that fails on this position for a reason no earlier step can remove dooms
        # every ordering that contains it (only an own piece in the way can move away first)
        hopeless: set[tuple[int, int, int | None]] = set()
        for q in pieces:
            for v in set(values):
                for e in exit_options(q):
                    t = target_of(g, occ, immune, c, own[q], (v,), e)
                    if isinstance(t, Why) and t not in _CURABLE:
                        hopeless.add((q, v, e))
        pub_set = set(pubs)
        for order in dict.fromkeys(permutations(values)):
            for chosen in permutations(pieces, k):
                if pub_set:
                    used = [q for q in chosen if q in pub_set]
                    if used != pubs[:len(used)]:
                        continue  # pieces in the pub are alike: the first ones, in order
                for exits in product(*(exit_options(q) for q in chosen)):
                    if hopeless and any((q, v, e) in hopeless
                                        for q, v, e in zip(chosen, order, exits, strict=True)):
                        continue
                    play = Play(tuple(Step(q, (v,), e)
                                      for q, v, e in zip(chosen, order, exits, strict=True)))
                    sim = _run(state, play, occ, checked=True)
                    if isinstance(sim, Reason):
                        continue
                    sig = (tuple(tuple(p) for p in sim.pieces), sim.bottle, tuple(sim.queue),
                           _owed(sim))
                    if sig not in seen:
                        seen.add(sig)
                        result.append(play)
    _last = (state, tuple(result))
    return result


def _owed(sim: PlayOut) -> tuple[int, ...]:
    """What each colour owes after a play (its debts' order and details left aside)."""
    owed = [0, 0, 0, 0]
    for d in sim.debts:
        owed[d.colour] += d.drinks
    return tuple(owed)


def outcome(state: State, play: Play) -> State:
    """The position right after a legal play, before any card is drawn and before the turn
    passes (for computer players: they do not peek at the deck)."""
    sim = _run(state, normalize(state, play))
    if isinstance(sim, Reason):
        raise _illegal(sim, "That play")
    return sim.freeze(state.turn)


def preview(state: State, play: Play) -> list[Event]:
    """What a legal play does before any card is drawn (the cards stay face down)."""
    sim = _run(state, normalize(state, play))
    if isinstance(sim, Reason):
        raise _illegal(sim, "That play")
    return sim.events


Choice = Choose | Offer | Decline
"""What a player may answer a card that waits (``CHOOSE`` phase)."""


def chooser(state: State) -> int | None:
    """Whose choice a waiting card is: its drawer's, or the offered co-player's."""
    pending = state.pending
    if pending is None or state.winner is not None:
        return None
    return pending.colour if pending.offered is None else pending.offered


def choices(state: State) -> list[Choice]:
    """What the chooser of the pending card may answer (``CHOOSE`` phase): the opponent
    pieces a knock-out or swap acts on; for a card offering a deal, the co-players it may be
    offered to, then the offered co-player's pieces that may take it, or declining."""
    pending = state.pending
    if pending is None or state.winner is not None:
        return []
    sim = PlayOut(state)
    effect = state.rules.deck.card(pending.card).effect
    if effect in OFFER_EFFECTS:
        if pending.offered is None:
            return [Offer(oc) for oc in effects.offer_colours(sim, pending.colour)]
        oc = pending.offered
        return [*(Choose(oc, op) for op in effects.offered_pieces(sim, oc)), Decline(oc)]
    return [Choose(oc, op) for oc, op in effects.targets(sim, pending.colour, effect)]


def legal_moves(state: State) -> list[Action]:
    """The decisions open now: the plays (``PLAY``), the targets (``CHOOSE``), declaring the
    bottle (``THROW``).  Throws, shuffles, drawn cards, drinks and called duties are inputs,
    not decisions."""
    phase = state.phase
    if phase is Phase.PLAY:
        return list(legal_plays(state))
    if phase is Phase.CHOOSE:
        return list(choices(state))
    if phase is Phase.THROW and can_declare_bottle(state) is Why.LEGAL:
        return [DeclareBottle()]
    return []


def why_not(state: State, action: Action) -> Reason:
    """``LEGAL`` if ``action`` may be applied now, else the reason it may not."""
    c = state.turn
    if isinstance(action, Drank | Later | Duty) and action.colour not in state.colours:
        return Reason(Why.NOT_PLAYING, action.colour)
    if isinstance(action, Drank | Later):
        if not state.debt(action.colour):
            return Reason(Why.NOTHING_OWED, action.colour)
        if (action.reason is not None or isinstance(action, Later)) and not any(
                d.colour == action.colour and d.reason is action.reason
                for d in state.unanswered()):
            return Reason(Why.NOTHING_ANNOUNCED, action.colour)
        return Reason(Why.LEGAL, action.colour)
    if isinstance(action, Duty):
        if action.reason not in CALLED_DUTIES:
            return Reason(Why.NOT_A_CALLED_DUTY, action.colour)
        return Reason(Why.LEGAL, action.colour)
    phase = state.phase
    if phase is Phase.OVER:
        return Reason(Why.GAME_OVER, c, detail=state.winner)
    if isinstance(action, Throw):
        if not 1 <= action.value <= 6:
            return Reason(Why.BAD_VALUE, c, detail=action.value)
        if phase is Phase.CHOOSE:
            return Reason(Why.CHOICE_PENDING, c)
        if phase is not Phase.THROW:
            return Reason(_NOT_THROWING.get(phase, Why.NOT_THROW_PHASE), c)
        return Reason(Why.LEGAL, c)
    if isinstance(action, Shuffle):
        if phase is not Phase.SHUFFLE:
            return Reason(Why.NOT_SHUFFLE_PHASE, c)
        if sorted(action.order) != sorted(state.rules.deck.numbers):
            return Reason(Why.BAD_SHUFFLE, c)
        return Reason(Why.LEGAL, c)
    if isinstance(action, Draw):
        if phase is not Phase.DRAW:
            return Reason(Why.NO_DRAW_PENDING, c)
        drawer = state.queue[0][0]
        if action.card not in state.rules.deck.by_number:
            return Reason(Why.NOT_A_CARD, drawer, detail=action.card)
        return Reason(Why.LEGAL, drawer, state.queue[0][1])
    if isinstance(action, DeclareBottle):
        return Reason(can_declare_bottle(state), c)
    if isinstance(action, ThrowOwing):
        if phase is not Phase.THROW:
            return Reason(_NOT_THROWING.get(phase, Why.NOT_THROW_PHASE), c)
        if not state.due(c):
            return Reason(Why.NOTHING_OWED, c)
        if state.anyway:
            return Reason(Why.THROW_FIRST, c)
        return Reason(Why.LEGAL, c)
    if isinstance(action, Choose | Offer | Decline):
        pending = state.pending
        if pending is None:
            return Reason(Why.NO_CHOICE_PENDING, c)
        who = chooser(state)
        assert who is not None
        if isinstance(action, Decline) and action.colour != pending.offered:
            return Reason(Why.NOT_YOUR_CHOICE, action.colour)
        if action not in choices(state):
            piece = action.piece if isinstance(action, Choose) else -1
            return Reason(Why.BAD_CHOICE, who, piece, action.colour)
        return Reason(Why.LEGAL, who)
    if not isinstance(action, Play):
        raise TypeError(f"not an action of Člověče, napij se!: {action!r}")
    play = normalize(state, action)
    sim = _run(state, play)
    if isinstance(sim, Reason):
        return sim
    return Reason(Why.LEGAL, c)


def why_piece(state: State, piece: int) -> Reason:
    """Why a piece of the player on turn takes part in no legal play (``LEGAL`` if it does):
    the "why?" help of the table."""
    c = state.turn
    own = state.pieces[c]
    assert own is not None
    if state.phase is not Phase.PLAY:
        return why_not(state, Play((Step(piece, (1,)),)))
    if any(s.piece == piece for p in legal_plays(state) for s in p.steps):
        return Reason(Why.LEGAL, c, piece)
    if state.with_bottle:
        return Reason(Why.BOTTLE_DECLARED, c, piece)
    g = state.rules.graph
    n = own[piece]
    exits: tuple[int | None, ...] = (None,)
    if n >= 0 and len(g.exits[c][n]) > 1:
        exits = tuple(g.exits[c][n])
    found: Reason | None = None
    tries = [state.throws] + [(v,) for v in dict.fromkeys(state.throws)]
    for values in tries:
        for ex in exits:
            sim = PlayOut(state)
            why = sim.step(c, piece, values, ex)
            if why is not None and found is None:
                found = Reason(why, c, piece, values[0] if len(values) == 1 else sum(values))
    return found or Reason(Why.VALUES_UNUSED, c, piece)


# --- apply ----------------------------------------------------------------------------------

def _illegal(reason: Reason, what: str) -> IllegalMove:
    return IllegalMove(f"{what} is not legal now ({reason.why.value}).", reason)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one action; the new state and the events, or :class:`IllegalMove` (and
    :class:`GameOver` for anything but drinks and duties after the end)."""
    if isinstance(action, Drank):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "Settling the drinks")
        c = action.colour
        sim = PlayOut(state)
        i = None if action.reason is None else sim.unanswered(c, action.reason)
        named = None if i is None else sim.debts[i]
        drinks, glasses = sim.settle(c, action.reason)
        settled = Settled(c, drinks, glasses, action.reason)
        if named is not None:
            settled = replace(settled, about=named.about, card=named.card)
        return _same_turn(sim, state), [settled]
    if isinstance(action, Later):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "Leaving the drink for later")
        sim = PlayOut(state)
        debt = sim.postpone(action.colour, action.reason)
        assert debt is not None
        return _same_turn(sim, state), [Postponed(action.colour, debt.drinks, action.reason,
                                                  debt.own_turn, debt.about, debt.card)]
    if isinstance(action, Duty):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "That duty")
        sim = PlayOut(state)
        sim.drink(action.colour, 1, action.reason, now=not _turn_begun(state))
        return _same_turn(sim, state), sim.events
    if state.winner is not None:
        raise GameOver(f"The game is over: {COLOURS[state.winner]} has won.",
                       Reason(Why.GAME_OVER, state.turn, detail=state.winner))
    if isinstance(action, Throw):
        return _throw(state, action.value)
    if isinstance(action, Shuffle):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "That shuffle")
        return replace(state, deck=tuple(action.order)), [DeckShuffled(len(action.order))]
    if isinstance(action, Draw):
        return _draw(state, action)
    if isinstance(action, DeclareBottle):
        why = can_declare_bottle(state)
        if why is not Why.LEGAL:
            raise _illegal(Reason(why, state.turn), "Declaring the bottle")
        return replace(state, with_bottle=True), [BottleDeclared(state.turn)]
    if isinstance(action, ThrowOwing):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "Throwing while owing")
        return replace(state, anyway=True), [OwingThrow(state.turn)]
    if isinstance(action, Choose | Offer | Decline):
        return _choose(state, action)
    if not isinstance(action, Play):
        raise TypeError(f"not an action of Člověče, napij se!: {action!r}")
    played = _run(state, normalize(state, action))
    if isinstance(played, Reason):
        raise _illegal(played, "That play")
    played.check_winner()
    effects.resolve(played)
    return _settle(played, state), played.events


def _turn_begun(state: State) -> bool:
    """Whether the player on turn has begun the turn (thrown, tried for a six, declared the
    bottle): a duty called before that is due before the throw to come (D22)."""
    return bool(state.throws or state.tries or state.with_bottle
                or state.phase is not Phase.THROW)


def _same_turn(sim: PlayOut, state: State) -> State:
    return sim.freeze(state.turn, state.throws, state.tries, state.with_bottle, cards=True,
                      anyway=state.anyway)


def _settle(sim: PlayOut, state: State) -> State:
    """After a play, a choice or a drawn card: wait for the next choice or draw, or pass the
    turn."""
    if sim.waiting():
        return sim.freeze(state.turn, cards=True)
    return sim.end_turn()


def _throw(state: State, value: int) -> tuple[State, list[Event]]:
    r = why_not(state, Throw(value))
    if r.why is not Why.LEGAL:
        raise _illegal(r, "A throw")
    c = state.turn
    events: list[Event]
    if state.due(c):  # a debt due before this throw: the throw is void (D22)
        sim = PlayOut(state)
        sim.events.append(VoidThrow(c, value))
        sim.drink(c, 1, DrinkReason.CHEATING, now=True)
        sim.drink(c, 1, DrinkReason.DELAY, now=True)
        return _same_turn(sim, replace(state, anyway=False)), sim.events
    events = [Thrown(c, value)]
    if not state.throws and not state.with_bottle and needs_six(state, c):
        if value != SIX:
            tries = state.tries + 1
            if tries >= TRIES:
                events.append(TurnForfeited(c, ForfeitWhy.TRIES))
                return pass_turn(state, events), events
            events.append(TryFailed(c, tries))
            return replace(state, tries=tries), events
        events.append(ThrowAgain(c))
        return replace(state, throws=(SIX,), tries=0), events
    after = replace(state, throws=state.throws + (value,), tries=0)
    if value == SIX:
        if six_unusable(after, c):
            events.append(TurnForfeited(c, ForfeitWhy.SIX_UNUSABLE))
            return pass_turn(after, events), events
        events.append(ThrowAgain(c))
        return after, events
    if not legal_plays(after):
        events.append(TurnForfeited(c, ForfeitWhy.NO_MOVE))
        return pass_turn(after, events), events
    return after, events


def _choose(state: State, action: Choice) -> tuple[State, list[Event]]:
    r = why_not(state, action)
    if r.why is not Why.LEGAL:
        raise _illegal(r, "That choice")
    pending = state.pending
    assert pending is not None
    sim = PlayOut(state)
    sim.pending = None
    sim.card = pending.card
    if isinstance(action, Offer):
        effects.offer_to(sim, pending, action.colour)  # now the co-player answers
    elif isinstance(action, Decline):
        effects.decline(sim, pending)
    else:
        effects.chosen(sim, pending, action.colour, action.piece)
    if sim.pending is None:
        sim.check_winner()
        effects.resolve(sim)
    return _settle(sim, state), sim.events


def _draw(state: State, action: Draw) -> tuple[State, list[Event]]:
    r = why_not(state, action)
    if r.why is not Why.LEGAL:
        raise _illegal(r, "That card")
    sim = PlayOut(state)
    colour, piece, _node = sim.queue.pop(0)
    effects.draw_card(sim, colour, piece, action.card)
    effects.resolve(sim)
    return _settle(sim, state), sim.events


# --- checks used by the tests and the notation ----------------------------------------------

def problems(state: State) -> list[str]:
    """Everything impossible about a state (empty for every state the engine produces)."""
    out: list[str] = []
    g = state.rules.graph
    seen: dict[int, str] = {}
    for c in state.colours:
        own = state.pieces[c]
        imm = state.immune[c]
        assert own is not None
        if len(own) != PIECES or imm is None or len(imm) != PIECES:
            out.append(f"{COLOURS[c]} does not have four pieces")
            continue
        for p, n in enumerate(own):
            if n == PUB:
                if imm[p]:
                    out.append(f"{COLOURS[c]} piece {p + 1} is immune in the pub")
                continue
            if not 0 <= n < g.nodes:
                out.append(f"{COLOURS[c]} piece {p + 1} is nowhere")
                continue
            owner = g.colour_of_field[g.field[n]]
            if g.kind[n] in ("lane", "rolling_pin", "home") and owner != c:
                out.append(f"{COLOURS[c]} piece {p + 1} stands in the lane of "
                           f"{COLOURS[owner] if owner is not None else '?'}")
            if g.kind[n] == "rolling_pin":
                out.append(f"{COLOURS[c]} piece {p + 1} stands on a rolling pin")
            f = g.field[n]
            if f in seen:
                out.append(f"two pieces on {g.board.id_of(f)}")
            seen[f] = COLOURS[c]
            if not 0 <= imm[p] <= IMMUNITY_ROUNDS:
                out.append(f"{COLOURS[c]} piece {p + 1} has bad immunity")
    if state.bottle >= 0:
        if not g.on_main[state.bottle]:
            out.append("the bottle is off the main track")
        elif g.field[state.bottle] in seen:
            out.append("the bottle shares a field with a piece")
    if state.physical:
        if state.deck:
            out.append("a physical deck has an order")
    elif state.deck and sorted(state.deck) != sorted(state.rules.deck.numbers):
        out.append("the deck order is not the deck")
    if any(v < 0 for v in state.drunk) or any(d.drinks < 1 for d in state.debts):
        out.append("negative drinks")
    for d in state.debts:
        if d.colour not in state.colours:
            out.append(f"{COLOURS[d.colour]} owes, but does not play")
        elif d.own_turn and d.colour != state.turn:
            out.append(f"{COLOURS[d.colour]} incurred a debt in a turn that is not theirs")
    if state.anyway and (not state.due(state.turn) or state.phase is not Phase.THROW):
        out.append("a throw while owing without a due debt")
    if any(v != SIX for v in state.throws[:-1]) or any(not 1 <= v <= 6 for v in state.throws):
        out.append("throws other than sixes before the last")
    w = winner_of(state)
    if state.winner is not None and w != state.winner:
        out.append("the winner does not have all four pieces home")
    if state.winner is None and w is not None:
        out.append(f"{COLOURS[w]} has all four pieces home but is not the winner")
    return out
