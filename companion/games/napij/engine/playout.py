"""Playing an action out: where a piece goes, and a mutable working copy of a state.

:class:`PlayOut` copies a :class:`State` into lists, moves pieces with every
effect of stopping somewhere (captures, the bottle, rolling pins, homes, card
fields queued for drawing), keeps the events and the drink ledger, and freezes
into a new state.  The pure functions before it (:func:`target_of`,
:func:`walk`, :func:`problem_at`) answer where a piece would end without
changing anything; the legality check of plays shares them.  Cards are
resolved by :mod:`companion.games.napij.engine.effects`, which works on a
:class:`PlayOut`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.games.napij.engine.events import (
    AtJunction,
    AtTurnOff,
    BottleMoved,
    BottlePlaced,
    BottlePushed,
    Captured,
    Entered,
    EnteredHome,
    Event,
    How,
    ImmunityEnded,
    Moved,
    MustDrink,
    Released,
    ReturnedToPub,
    Trapped,
    TurnPassed,
    Won,
)
from companion.games.napij.engine.graph import Graph
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.state import PIECES, PUB, SIX, Debt, DrinkReason, Pending, State

__all__ = ["PlayOut", "next_colour", "occupancy", "pass_turn", "problem_at",
           "shared_occupancy", "shorter_heading", "target_of", "walk"]

_occ_last: tuple[State | None, list[int]] = (None, [])


def shared_occupancy(state: State) -> list[int]:
    """:func:`occupancy`, shared for the last state asked about (callers must not change it)."""
    global _occ_last
    last = _occ_last  # read once: another thread may replace it meanwhile
    if last[0] is not state:
        last = _occ_last = (state, occupancy(state))
    return last[1]


def occupancy(state: State) -> list[int]:
    """Physical field -> ``4 * colour + piece`` of the piece standing there, or -1."""
    g = state.rules.graph
    occ = [-1] * len(g.board.fields)
    fld = g.field
    for c, own in enumerate(state.pieces):
        if own is not None:
            for p, n in enumerate(own):
                if n >= 0:
                    occ[fld[n]] = c * 4 + p
    return occ


def problem_at(g: Graph, occ: list[int], immune: Sequence[Sequence[int] | None], c: int,
               node: int) -> Why | None:
    """Why a piece of colour ``c`` may not end on ``node`` (``None``: it may)."""
    o = occ[g.field[node]]
    if o < 0:
        return None
    if o >> 2 == c:
        return Why.OWN_PIECE_ON_TARGET
    imm = immune[o >> 2]
    if imm is not None and imm[o & 3]:
        return Why.IMMUNE_ON_TARGET
    return None


def walk(g: Graph, occ: list[int], c: int, first: int, k: int) -> int | Why:
    """Move ``k`` fields, the first one onto ``first``, passing every stop on the way."""
    if first < 0:
        return Why.OVERSHOOTS_HOME
    thr = g.through[c]
    rank = g.home_rank
    n = first
    for _ in range(k - 1):
        t = thr[n]
        if t < 0:
            return Why.OVERSHOOTS_TRAP if g.is_trap[n] else Why.OVERSHOOTS_HOME
        if rank[n] >= 0 and occ[g.field[n]] >= 0:
            return Why.CANNOT_JUMP_IN_HOME
        n = t
    return n


def target_of(g: Graph, occ: list[int], immune: Sequence[Sequence[int] | None], c: int,
              loc: int, values: tuple[int, ...], exit_: int | None) -> int | Why:
    """Where a piece of colour ``c`` at ``loc`` ends with ``values`` (one die value, or all
    of the turn's together), or why it cannot."""
    total = sum(values)
    together = len(values) > 1
    end: int | Why
    if loc == PUB:
        if values[0] != SIX:
            return Why.PUB_NEEDS_SIX
        if exit_ is not None:
            return Why.BAD_EXIT
        s = g.start[c]
        if not together:
            problem = problem_at(g, occ, immune, c, s)
            if problem is Why.OWN_PIECE_ON_TARGET:
                return Why.START_HELD_BY_OWN
            return problem or s
        end = walk(g, occ, c, g.through[c][s], total - SIX)
    elif g.is_trap[loc]:
        if values[0] != SIX:
            return Why.TRAP_NEEDS_SIX
        if exit_ is not None:
            return Why.BAD_EXIT
        out = g.release[loc]
        if together:
            end = walk(g, occ, c, g.through[c][out], total - SIX)
            if end is Why.OVERSHOOTS_HOME and g.through[c][out] < 0:
                end = Why.OVERSHOOTS_TRAP
        else:
            end = out
    else:
        exits = g.exits[c][loc]
        if not exits:
            return Why.CANNOT_MOVE
        if exit_ is None:
            if len(exits) > 1:
                return Why.EXIT_NEEDED
            first = exits[0]
        elif exit_ in exits:
            first = exit_
        else:
            return Why.BAD_EXIT
        end = walk(g, occ, c, first, total)
    if isinstance(end, Why):
        return end
    return problem_at(g, occ, immune, c, end) or end


def next_colour(state: State, colour: int | None = None) -> int:
    """The playing colour after ``colour`` (the player on turn by default), clockwise."""
    c = state.turn if colour is None else colour
    n = (c + 1) & 3
    while state.pieces[n] is None:
        n = (n + 1) & 3
    return n


def shorter_heading(g: Graph, colour: int) -> int:
    """The stezka heading (+1/-1) by which a piece freed from the záchytka reaches the
    colour's home lane in fewer fields (the záchytka card's "shorter way home")."""
    best_h, best = 1, -1
    limit = 4 * g.nodes
    for h, node in ((1, g.zachytka[0]), (-1, g.zachytka[1])):
        n = g.release[node]
        steps = 1
        thr = g.through[colour]
        target = g.lane_entry[colour]
        while n != target and n >= 0 and steps < limit:
            n = thr[n]
            steps += 1
        if n == target and (best < 0 or steps < best):
            best_h, best = h, steps
    return best_h


class PlayOut:
    """A mutable copy of a state: plays steps and cards, then freezes into a new state.

    ``queue`` holds the pieces that stopped on card fields (colour, piece, node),
    in stopping order; ``pending`` a card waiting for a choice; ``chain`` the
    cards drawn so far in this action.
    """

    def __init__(self, st: State, occ: list[int] | None = None) -> None:
        self.st = st
        self.rules = st.rules
        self.g = st.rules.graph
        self.pieces: list[list[int]] = [list(p) if p is not None else [] for p in st.pieces]
        self.immune: list[list[int]] = [list(p) if p is not None else [] for p in st.immune]
        self.bottle = st.bottle
        self.debts: list[Debt] = list(st.debts)
        self.fresh = len(self.debts)
        """Debts from this index on were incurred by the action under way."""
        self.drunk = list(st.drunk)
        self.card: int | None = None
        """The card whose effect is being played out (the duties it gives name it)."""
        self.deck = list(st.deck)
        self.queue: list[tuple[int, int, int]] = list(st.queue)
        self.pending: Pending | None = st.pending
        self.chain = st.chain
        self.events: list[Event] = []
        self.colours = tuple(c for c, p in enumerate(st.pieces) if p is not None)
        self.winner: int | None = st.winner
        self.occ = list(occ if occ is not None else shared_occupancy(st))

    # ----- small pieces ---------------------------------------------------------------
    def drink(self, c: int, n: int, reason: DrinkReason, about: int | None = None,
              now: bool = False, by: int | None = None) -> None:
        """``c`` must drink: a :class:`MustDrink` event and a debt, not answered yet.  A debt
        of the player on turn is due only before their next turn (D22) unless ``now``.
        ``by``: who knocked the piece out (the debt says so; the event does not).  Equal
        duties of one action are one debt (two pieces knocked out by the same player)."""
        self.events.append(MustDrink(c, n, reason, about, self.card))
        own = c == self.st.turn and not now
        debt = Debt(c, n, reason, about if by is None else by, self.card, False, own)
        for i in range(self.fresh, len(self.debts)):
            d = self.debts[i]
            if replace(d, drinks=n) == debt:
                self.debts[i] = replace(d, drinks=d.drinks + n)
                return
        self.debts.append(debt)

    def settle(self, c: int, reason: DrinkReason | None = None) -> tuple[int, int]:
        """``c`` has drunk: everything it owed (``reason`` None), or the oldest duty of
        ``reason`` not answered yet.  The drinks and the glasses settled."""
        if reason is None:
            gone = [d for d in self.debts if d.colour == c]
        else:
            i = self.unanswered(c, reason)
            gone = [] if i is None else [self.debts[i]]
        if not gone:
            return 0, 0
        self.debts = [d for d in self.debts if all(d is not g for g in gone)]
        glasses = sum(d.drinks for d in gone if d.glass)
        drinks = sum(d.drinks for d in gone) - glasses
        self.drunk[c] += drinks + glasses
        return drinks, glasses

    def postpone(self, c: int, reason: DrinkReason) -> Debt | None:
        """The oldest duty of ``reason`` of ``c`` not answered yet stays as a debt."""
        i = self.unanswered(c, reason)
        if i is None:
            return None
        debt = self.debts[i] = replace(self.debts[i], answered=True)
        return debt

    def unanswered(self, c: int, reason: DrinkReason) -> int | None:
        for i, d in enumerate(self.debts):
            if d.colour == c and d.reason is reason and not d.answered:
                return i
        return None

    def lift(self, c: int, p: int) -> None:
        n = self.pieces[c][p]
        if n >= 0:
            self.occ[self.g.field[n]] = -1

    def put(self, c: int, p: int, node: int) -> None:
        self.pieces[c][p] = node
        if node >= 0:
            self.occ[self.g.field[node]] = c * 4 + p

    def to_pub(self, c: int, p: int) -> None:
        self.lift(c, p)
        self.pieces[c][p] = PUB
        self.immune[c][p] = 0

    def knock_out(self, c: int, p: int, by: int, how: How) -> None:
        node = self.pieces[c][p]
        self.to_pub(c, p)
        self.events.append(Captured(by, c, p, node, how))
        self.drink(c, 1, DrinkReason.BOTTLE if how is How.BOTTLE else DrinkReason.KNOCKED_OUT,
                   by=by)

    def holder(self, node: int) -> int:
        """``4 * colour + piece`` of the piece on ``node``'s field, or -1."""
        return self.occ[self.g.field[node]]

    def is_immune(self, o: int) -> bool:
        """Whether the piece ``o`` (``4 * colour + piece``) is immune."""
        return bool(self.immune[o >> 2][o & 3])

    def target_problem(self, c: int, node: int) -> Why | None:
        return problem_at(self.g, self.occ, self.immune, c, node)

    def walk(self, c: int, first: int, k: int) -> int | Why:
        return walk(self.g, self.occ, c, first, k)

    def place_bottle(self, c: int) -> None:
        if self.bottle >= 0:
            return
        g = self.g
        b = g.behind_start[c]
        for _ in range(len(g.board.main)):
            if self.occ[g.field[b]] < 0:
                break
            b = g.main_prev[b]
        self.bottle = b
        self.events.append(BottlePlaced(b))

    def push_bottle(self, c: int, node: int) -> None:
        g = self.g
        frm = self.bottle
        b = g.main_prev[node]
        for _ in range(len(g.board.main)):
            o = self.occ[g.field[b]]
            if o < 0 or not self.immune[o >> 2][o & 3]:
                break
            b = g.main_prev[b]
        self.bottle = b
        self.events.append(BottlePushed(c, frm, b))
        self.drink(c, 1, DrinkReason.BOTTLE)
        o = self.occ[g.field[b]]
        if o >= 0:
            self.knock_out(o >> 2, o & 3, c, How.BOTTLE)

    def arrive(self, c: int, p: int, node: int, event: Event) -> None:
        """Put the piece on ``node`` (checked by :meth:`target_problem`) with every effect
        of stopping there."""
        g = self.g
        frm = self.pieces[c][p]
        o = self.occ[g.field[node]]
        self.lift(c, p)
        self.events.append(event)
        if o >= 0:
            by_card = isinstance(event, Moved) and not event.values
            self.knock_out(o >> 2, o & 3, c, How.CARD if by_card else How.PIECE)
        self.put(c, p, node)
        if node == self.bottle:
            self.push_bottle(c, node)
        self.after_stop(c, p, node, frm)

    def after_stop(self, c: int, p: int, node: int, frm: int) -> None:
        g = self.g
        kind = g.kind[node]
        if kind == "rolling_pin":
            self.to_pub(c, p)
            self.events.append(ReturnedToPub(c, p, node, "rolling-pin"))
            self.drink(c, 1, DrinkReason.PUB)
        elif g.home_rank[node] >= 0:
            if frm < 0 or g.home_rank[frm] < 0:
                self.events.append(EnteredHome(c, p, node))
                for other in self.colours:
                    if other != c:
                        self.drink(other, 1, DrinkReason.HOME, c)
        elif kind == "trap":
            self.events.append(Trapped(c, p, node))
        elif kind == "junction":
            self.events.append(AtJunction(c, p, node))
        elif kind == "turnoff":
            self.events.append(AtTurnOff(c, p, node))
        elif kind == "card":
            self.queue.append((c, p, node))

    def card_move(self, c: int, p: int, node: int) -> None:
        """A card moves the piece onto ``node`` (checked), with every effect of stopping."""
        self.arrive(c, p, node, Moved(c, p, self.pieces[c][p], node, ()))

    # ----- one step of a play ------------------------------------------------------------
    def step(self, c: int, p: int, values: tuple[int, ...], exit_: int | None) -> Why | None:
        if not 0 <= p < PIECES:
            return Why.NO_PIECE
        loc = self.pieces[c][p]
        end = target_of(self.g, self.occ, self.immune, c, loc, values, exit_)
        if isinstance(end, Why):
            return end
        event: Event
        if loc == PUB:
            self.place_bottle(c)
            event = Entered(c, p, end)
        elif self.g.is_trap[loc]:
            event = Released(c, p, loc, end)
        else:
            event = Moved(c, p, loc, end, values)
        self.arrive(c, p, end, event)
        return None

    def bottle_step(self, c: int, values: tuple[int, ...]) -> Why | None:
        g = self.g
        frm = self.bottle
        n = frm
        for _ in range(sum(values)):
            n = g.main_next[n]
        o = self.occ[g.field[n]]
        if o >= 0 and self.immune[o >> 2][o & 3]:
            return Why.IMMUNE_ON_TARGET
        self.bottle = n
        self.events.append(BottleMoved(c, frm, n))
        if o >= 0:
            self.knock_out(o >> 2, o & 3, c, How.BOTTLE)
        return None

    # ----- finishing -----------------------------------------------------------------------
    def check_winner(self) -> bool:
        if self.winner is not None:
            return True
        g = self.g
        for c in self.colours:
            if all(n >= 0 and g.home_rank[n] >= 0 for n in self.pieces[c]):
                self.winner = c
                self.events.append(Won(c))
                for other in self.colours:
                    if other != c:
                        self.drink(other, 1, DrinkReason.WINNER, c)
                return True
        return False

    def waiting(self) -> bool:
        """Whether the cards wait for a choice or (a physical deck) for a drawn card."""
        return self.winner is None and (self.pending is not None or bool(self.queue))

    def freeze(self, turn: int, throws: tuple[int, ...] = (), tries: int = 0,
               with_bottle: bool = False, cards: bool = False, anyway: bool = False) -> State:
        """The new state; ``cards``: keep the waiting card, the draws to come and the chain
        (otherwise the card fields the play stopped on are dropped: nothing waits)."""
        st = self.st
        keep = cards and self.waiting()
        return State(
            st.rules,
            tuple(tuple(p) if c in self.colours else None for c, p in enumerate(self.pieces)),
            tuple(tuple(p) if c in self.colours else None for c, p in enumerate(self.immune)),
            self.bottle, turn, throws, tries, with_bottle, tuple(self.deck),
            self.pending if keep else None, tuple(self.queue) if keep else (),
            tuple(self.debts), tuple(self.drunk), self.winner, st.physical,
            self.chain if keep else 0, anyway)

    def end_turn(self) -> State:
        """Pass the turn clockwise (or stop: the game is over)."""
        return pass_turn(self.freeze(self.st.turn), self.events)


def pass_turn(st: State, events: list[Event]) -> State:
    """The turn passes clockwise: the next player's immune pieces count down one round, and
    what the last player incurred in the turn is now due before their next one."""
    if st.winner is not None:
        return st
    c = st.turn
    nxt = next_colour(st, c)
    immune = st.immune
    imm = immune[nxt]
    if imm is not None and any(imm):
        new = tuple(v - 1 if v else 0 for v in imm)
        for p in range(PIECES):
            if imm[p] == 1:
                events.append(ImmunityEnded(nxt, p))
        immune = immune[:nxt] + (new,) + immune[nxt + 1:]
    events.append(TurnPassed(c, nxt))
    debts = st.debts
    if any(d.own_turn for d in debts):
        debts = tuple(replace(d, own_turn=False) if d.own_turn else d for d in debts)
    return State(st.rules, st.pieces, immune, st.bottle, nxt, (), 0, False, st.deck, None, (),
                 debts, st.drunk, None, st.physical, 0)
