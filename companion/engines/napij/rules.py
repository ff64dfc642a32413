"""The rules of Člověče, napij se! as a pure engine (docs/napij-rules.md).

No I/O, no clock, no randomness: the throws of the die, the shuffled deck order
and what the table calls out ("Red drank", "Blue dropped the die") come in as
*actions*; :func:`apply` returns the new :class:`State` and the events that
happened, so every game replays exactly from its actions.

A turn, in the engine's terms:

1. ``THROW``: the player on turn may declare the bottle (:class:`DeclareBottle`),
   then throws (:class:`Throw`).  A six throws again; the turn's values are
   collected in ``State.throws``.  With no piece in play a player has three
   tries for a six.  A throw made while the thrower owes drinks is void.
2. ``PLAY``: once a throw is not a six, the player plays the turn as one
   :class:`Play`: either every value to a different piece (single die values
   only, in any order) or all values together by one piece, which then passes
   every stop on its way.  Every value must be used; when no play uses them all
   the turn is forfeited.  :func:`legal_moves` lists the distinct plays.
3. Cards: pieces that ended the play on card fields draw, in order, also out of
   turn; a card that needs a choice (whom to knock out, whom to swap with)
   waits in ``CHOOSE`` for a :class:`Choose`.
4. The turn passes clockwise.

Pieces are stored as graph nodes (:mod:`companion.engines.napij.graph`), ``PUB``
for a piece in its pub.  Drink duties are :class:`MustDrink` events and the
ledger in the state (``owed``, ``glasses``, ``drunk``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from enum import StrEnum
from itertools import permutations, product
from typing import NamedTuple

from .board import COLOURS, Board, default_board
from .deck import DECK_SIZE, IMMUNITY_ROUNDS, MOVING_EFFECTS, Deck, default_deck
from .graph import Graph, compile_graph, distance_home

PUB = -1
BOTTLE = -1
"""``Step.piece`` of the bottle."""
SIX = 6
TRIES = 3
PIECES = 4
CHAIN_CAP = DECK_SIZE
"""At most this many cards are drawn in one action (a safety net against endless chains)."""
SEATS_BY_PLAYERS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


class Rules:
    """The board and the deck a game is played with, compiled once (static data)."""

    def __init__(self, board: Board, deck: Deck) -> None:
        self.board = board
        self.deck = deck
        self.graph: Graph = compile_graph(board)
        self._dist: dict[int, tuple[int, ...]] = {}

    def distance(self, colour: int) -> tuple[int, ...]:
        """Optimistic steps from every node to the colour's deepest home field."""
        if colour not in self._dist:
            self._dist[colour] = distance_home(self.graph, colour)
        return self._dist[colour]

    def __repr__(self) -> str:
        return f"Rules({self.board.name!r}, {self.deck.name!r})"


@functools.cache
def default_rules() -> Rules:
    """The shipped board and deck (both reconstructions)."""
    return Rules(default_board(), default_deck())


class Phase(StrEnum):
    THROW = "throw"
    PLAY = "play"
    CHOOSE = "choose"
    OVER = "over"


class DrinkReason(StrEnum):
    START = "start"                # everybody, at the start of the game
    KNOCKED_OUT = "knocked-out"    # a piece knocked out by a co-player (piece or card)
    BOTTLE = "bottle"              # knocked out by the bottle, or pushed the bottle
    PUB = "pub"                    # a piece went back to the pub (rolling pin, card)
    CARD = "card"                  # a card says drink (n times)
    GLASS = "glass"                # a card says empty the glass
    EVERYBODY = "everybody"        # a card says everybody drinks
    HOME = "home"                  # everybody but the player whose piece entered its home
    WINNER = "winner"              # everybody but the winner, to the winner's honour
    DROPPED_DICE = "dropped-dice"  # called by the table
    DELAY = "delay"                # called by the table (also after a void throw)
    CHEATING = "cheating"          # called by the table (also after a void throw)
    UPSET = "upset"                # called by the table


CALLED_DUTIES = (DrinkReason.DROPPED_DICE, DrinkReason.DELAY, DrinkReason.CHEATING,
                 DrinkReason.UPSET)
"""The duties people call out; they come in as :class:`Duty` actions."""


class Pending(NamedTuple):
    """A drawn card waiting for its drawer's choice."""

    card: int
    colour: int
    piece: int
    chain: int


class State(NamedTuple):
    """One moment of the game.

    ``pieces[c]`` is the 4-tuple of nodes of colour ``c`` (``PUB`` in the pub) or
    ``None`` when the colour does not play; ``immune[c][p]`` the rounds of
    immunity left.  ``bottle`` is the bottle's node, -1 before the first piece
    enters.  ``throws`` are the counted values of the turn so far; ``tries``
    the failed tries for a six; ``with_bottle`` whether the player on turn
    declared the bottle.  ``deck`` is the deck order, top card first.
    ``pending``/``queue`` hold a card waiting for a choice and the draws after
    it.  ``owed``/``glasses``/``drunk`` are the drink ledger per colour.
    """

    rules: Rules
    pieces: tuple[tuple[int, ...] | None, ...]
    immune: tuple[tuple[int, ...] | None, ...]
    bottle: int
    turn: int
    throws: tuple[int, ...] = ()
    tries: int = 0
    with_bottle: bool = False
    deck: tuple[int, ...] = ()
    pending: Pending | None = None
    queue: tuple[tuple[int, int, int], ...] = ()
    owed: tuple[int, ...] = (0, 0, 0, 0)
    glasses: tuple[int, ...] = (0, 0, 0, 0)
    drunk: tuple[int, ...] = (0, 0, 0, 0)
    winner: int | None = None

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return Phase.OVER
        if self.pending is not None:
            return Phase.CHOOSE
        if self.throws and self.throws[-1] != SIX:
            return Phase.PLAY
        return Phase.THROW

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c, p in enumerate(self.pieces) if p is not None)

    def debt(self, colour: int) -> int:
        return self.owed[colour] + self.glasses[colour]


# --- actions --------------------------------------------------------------------------

class Throw(NamedTuple):
    value: int


class DeclareBottle(NamedTuple):
    """The player on turn plays the bottle this turn (said before the first throw)."""


class Step(NamedTuple):
    """One piece's part of a play: ``values`` are one die value, or all of the turn's."""

    piece: int
    values: tuple[int, ...]
    exit: int | None = None
    """The node a piece standing on a junction goes to first (``None`` elsewhere)."""


class Play(NamedTuple):
    steps: tuple[Step, ...]


class Choose(NamedTuple):
    """The drawer of a card picks the opponent piece it acts on."""

    colour: int
    piece: int


class Drank(NamedTuple):
    """The table says: this player has drunk what they owed."""

    colour: int


class Duty(NamedTuple):
    """The table calls a duty: dropped die, needless delay, cheating, getting upset."""

    colour: int
    reason: DrinkReason


Action = Throw | DeclareBottle | Play | Choose | Drank | Duty


# --- events ---------------------------------------------------------------------------

class Thrown(NamedTuple):
    colour: int
    value: int


class ThrowAgain(NamedTuple):
    colour: int


class TryFailed(NamedTuple):
    colour: int
    tries: int


class VoidThrow(NamedTuple):
    colour: int
    value: int


class BottleDeclared(NamedTuple):
    colour: int


class BottlePlaced(NamedTuple):
    node: int


class BottleMoved(NamedTuple):
    colour: int
    frm: int
    to: int


class BottlePushed(NamedTuple):
    colour: int
    frm: int
    to: int


class Entered(NamedTuple):
    colour: int
    piece: int
    to: int


class Released(NamedTuple):
    colour: int
    piece: int
    frm: int
    to: int


class Moved(NamedTuple):
    colour: int
    piece: int
    frm: int
    to: int
    values: tuple[int, ...]
    """The die values used; empty when a card moved the piece."""


class How(StrEnum):
    PIECE = "piece"
    BOTTLE = "bottle"
    CARD = "card"


class Captured(NamedTuple):
    by: int
    """The colour that knocked the piece out (for the bottle: who moved or pushed it)."""
    colour: int
    piece: int
    node: int
    how: How


class ReturnedToPub(NamedTuple):
    colour: int
    piece: int
    node: int
    cause: str
    """``"rolling-pin"`` or ``"card"``."""


class EnteredHome(NamedTuple):
    colour: int
    piece: int
    node: int


class Trapped(NamedTuple):
    colour: int
    piece: int
    node: int


class AtJunction(NamedTuple):
    colour: int
    piece: int
    node: int


class AtTurnOff(NamedTuple):
    colour: int
    piece: int
    node: int


class CardDrawn(NamedTuple):
    colour: int
    piece: int
    card: int
    out_of_turn: bool


class CardWhy(StrEnum):
    OFF_MAIN = "off-main"      # the drawer stands on a shortcut: moving cards skip it
    OVERSHOOT = "overshoot"    # forward n would pass the end of the home: stays put
    BLOCKED = "blocked"        # the field the card sends it to is held (own or immune piece)
    NO_TARGET = "no-target"    # no opponent piece the card could act on
    IMMUNE = "immune"          # the drawer's own immunity protects it
    BLANK = "blank"            # the family's own card: the table decides


class CardNoEffect(NamedTuple):
    colour: int
    card: int
    why: CardWhy


class ChoiceNeeded(NamedTuple):
    colour: int
    card: int
    options: tuple[tuple[int, int], ...]


class Swapped(NamedTuple):
    colour: int
    piece: int
    other: int
    other_piece: int


class ImmunityGranted(NamedTuple):
    colour: int
    piece: int
    rounds: int


class ImmunityEnded(NamedTuple):
    colour: int
    piece: int


class CardChainStopped(NamedTuple):
    draws: int


class MustDrink(NamedTuple):
    colour: int
    drinks: int
    reason: DrinkReason
    about: int | None = None
    """For ``HOME`` and ``WINNER``: the colour being toasted."""


class Settled(NamedTuple):
    colour: int
    drinks: int
    glasses: int


class ForfeitWhy(StrEnum):
    NO_MOVE = "no-move"            # no play uses all the values
    SIX_UNUSABLE = "six-unusable"  # no piece could ever use this six: no need to throw again
    TRIES = "tries"                # three tries without a six


class TurnForfeited(NamedTuple):
    colour: int
    why: ForfeitWhy


class TurnPassed(NamedTuple):
    colour: int
    next: int


class Won(NamedTuple):
    colour: int


Event = (Thrown | ThrowAgain | TryFailed | VoidThrow | BottleDeclared | BottlePlaced
         | BottleMoved | BottlePushed | Entered | Released | Moved | Captured | ReturnedToPub
         | EnteredHome | Trapped | AtJunction | AtTurnOff | CardDrawn | CardNoEffect
         | ChoiceNeeded | Swapped | ImmunityGranted | ImmunityEnded | CardChainStopped
         | MustDrink | Settled | TurnForfeited | TurnPassed | Won)


# --- why an action is not legal ---------------------------------------------------------

class Why(StrEnum):
    LEGAL = "legal"
    GAME_OVER = "game-over"
    NOT_PLAYING = "not-playing"
    THROW_FIRST = "throw-first"              # a play before the throws are complete
    NOT_THROW_PHASE = "not-throw-phase"      # a throw while a play or a choice is due
    CHOICE_PENDING = "choice-pending"
    NO_CHOICE_PENDING = "no-choice-pending"
    BAD_VALUE = "bad-value"                  # a die value outside 1..6
    NO_PIECE = "no-piece"
    PUB_NEEDS_SIX = "pub-needs-six"
    TRAP_NEEDS_SIX = "trap-needs-six"
    START_HELD_BY_OWN = "start-held-by-own"
    OWN_PIECE_ON_TARGET = "own-piece-on-target"
    IMMUNE_ON_TARGET = "immune-on-target"
    OVERSHOOTS_HOME = "overshoots-home"
    CANNOT_JUMP_IN_HOME = "cannot-jump-in-home"
    OVERSHOOTS_TRAP = "overshoots-trap"
    CANNOT_MOVE = "cannot-move"              # in its home with no free field ahead
    NOT_A_THROWN_VALUE = "not-a-thrown-value"
    VALUES_UNUSED = "values-unused"
    TOGETHER_NEEDS_ALL = "together-needs-all"
    PIECE_TWICE = "piece-twice"
    EXIT_NEEDED = "exit-needed"
    BAD_EXIT = "bad-exit"
    BOTTLE_DECLARED = "bottle-declared"
    BOTTLE_NOT_DECLARED = "bottle-not-declared"
    BOTTLE_NOT_PLACED = "bottle-not-placed"
    BOTTLE_NEEDS_PIECE_IN_PLAY = "bottle-needs-piece-in-play"
    BOTTLE_TOO_LATE = "bottle-too-late"
    BAD_CHOICE = "bad-choice"
    NOTHING_OWED = "nothing-owed"
    NOT_A_CALLED_DUTY = "not-a-called-duty"


class Reason(NamedTuple):
    why: Why
    colour: int
    piece: int = -1
    detail: int | None = None
    """A die value, a number of fields or a colour, depending on ``why``."""


class RulesError(ValueError):
    """A request the rules cannot answer (the message is one sentence)."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class IllegalMove(RulesError):
    pass


class GameOver(RulesError):
    pass


# --- the game ---------------------------------------------------------------------------

def new_game(rules: Rules | None = None, players: int = 4, first: int | None = None,
             deck_order: Iterable[int] | None = None) -> State:
    """Every piece in its pub, every player owing the opening drink.

    ``deck_order`` is the shuffled deck, top card first (card numbers); the
    deck file's order when not given.  ``first`` is the colour that starts (the
    seed: whoever understood the rules least, or the highest throw); red by
    default.
    """
    rules = rules or default_rules()
    if players not in SEATS_BY_PLAYERS:
        raise RulesError(f"Člověče, napij se! is played by 2 to 4 players, not {players}.")
    seats = SEATS_BY_PLAYERS[players]
    turn = seats[0] if first is None else first
    if turn not in seats:
        raise RulesError(f"{COLOURS[turn]} does not play in a {players}-player game.")
    deck = tuple(deck_order) if deck_order is not None else rules.deck.numbers
    if sorted(deck) != sorted(rules.deck.numbers):
        raise RulesError("The deck order must name every card of the deck exactly once.")
    pieces = tuple((PUB,) * PIECES if c in seats else None for c in range(4))
    immune = tuple((0,) * PIECES if c in seats else None for c in range(4))
    owed = tuple(1 if c in seats else 0 for c in range(4))
    return State(rules, pieces, immune, -1, turn, deck=deck, owed=owed)


def start_events(state: State) -> list[Event]:
    """The duties of the start of the game (everybody drinks once)."""
    return [MustDrink(c, 1, DrinkReason.START) for c in state.colours]


def next_colour(state: State, colour: int | None = None) -> int:
    c = state.turn if colour is None else colour
    n = (c + 1) & 3
    while state.pieces[n] is None:
        n = (n + 1) & 3
    return n


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
    if state.phase is not Phase.THROW:
        return Why.GAME_OVER if state.phase is Phase.OVER else Why.NOT_THROW_PHASE
    if state.throws or state.tries or state.with_bottle:
        return Why.BOTTLE_TOO_LATE
    if state.bottle < 0:
        return Why.BOTTLE_NOT_PLACED
    if not has_piece_in_play(state, state.turn):
        return Why.BOTTLE_NEEDS_PIECE_IN_PLAY
    return Why.LEGAL


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


def _six_unusable(state: State, colour: int) -> bool:
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


# --- where a piece goes (pure; shared by the play-out and the fast legality check) -----------

_occ_last: tuple[State | None, list[int]] = (None, [])


def _occupancy(state: State) -> list[int]:
    """:func:`occupancy`, shared for the last state asked about (callers must not change it)."""
    global _occ_last
    if _occ_last[0] is not state:
        _occ_last = (state, occupancy(state))
    return _occ_last[1]


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


def _problem(g: Graph, occ: list[int], immune: Sequence[Sequence[int] | None], c: int,
             node: int) -> Why | None:
    o = occ[g.field[node]]
    if o < 0:
        return None
    if o >> 2 == c:
        return Why.OWN_PIECE_ON_TARGET
    imm = immune[o >> 2]
    if imm is not None and imm[o & 3]:
        return Why.IMMUNE_ON_TARGET
    return None


def _walk(g: Graph, occ: list[int], c: int, first: int, k: int) -> int | Why:
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


def _target(g: Graph, occ: list[int], immune: Sequence[Sequence[int] | None], c: int,
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
            problem = _problem(g, occ, immune, c, s)
            if problem is Why.OWN_PIECE_ON_TARGET:
                return Why.START_HELD_BY_OWN
            return problem or s
        end = _walk(g, occ, c, g.through[c][s], total - SIX)
    elif g.is_trap[loc]:
        if values[0] != SIX:
            return Why.TRAP_NEEDS_SIX
        if exit_ is not None:
            return Why.BAD_EXIT
        out = g.release[loc]
        if together:
            end = _walk(g, occ, c, g.through[c][out], total - SIX)
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
        end = _walk(g, occ, c, first, total)
    if isinstance(end, Why):
        return end
    return _problem(g, occ, immune, c, end) or end


# --- the mutable working copy used to play out an action ------------------------------------

class _Sim:
    """A mutable copy of a state: plays steps and cards, then freezes into a new state."""

    def __init__(self, st: State, occ: list[int] | None = None) -> None:
        self.st = st
        self.rules = st.rules
        self.g = st.rules.graph
        self.pieces: list[list[int]] = [list(p) if p is not None else [] for p in st.pieces]
        self.immune: list[list[int]] = [list(p) if p is not None else [] for p in st.immune]
        self.bottle = st.bottle
        self.owed = list(st.owed)
        self.glasses = list(st.glasses)
        self.drunk = list(st.drunk)
        self.deck = list(st.deck)
        self.queue: list[tuple[int, int, int]] = list(st.queue)
        self.events: list[Event] = []
        self.colours = tuple(c for c, p in enumerate(st.pieces) if p is not None)
        self.winner: int | None = st.winner
        self.occ = list(occ if occ is not None else _occupancy(st))

    # ----- small pieces ---------------------------------------------------------------
    def drink(self, c: int, n: int, reason: DrinkReason, about: int | None = None) -> None:
        if reason is DrinkReason.GLASS:
            self.glasses[c] += n
        else:
            self.owed[c] += n
        self.events.append(MustDrink(c, n, reason, about))

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
        self.drink(c, 1, DrinkReason.BOTTLE if how is How.BOTTLE else DrinkReason.KNOCKED_OUT)

    def holder(self, node: int) -> int:
        return self.occ[self.g.field[node]]

    def target_problem(self, c: int, node: int) -> Why | None:
        return _problem(self.g, self.occ, self.immune, c, node)

    def walk(self, c: int, first: int, k: int) -> int | Why:
        return _walk(self.g, self.occ, c, first, k)

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

    # ----- one step of a play ------------------------------------------------------------
    def step(self, c: int, p: int, values: tuple[int, ...], exit_: int | None) -> Why | None:
        if not 0 <= p < PIECES:
            return Why.NO_PIECE
        loc = self.pieces[c][p]
        end = _target(self.g, self.occ, self.immune, c, loc, values, exit_)
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

    # ----- cards ---------------------------------------------------------------------------
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

    def resolve_cards(self, chain: int) -> Pending | None:
        """Draw for every piece waiting on a card field, in order; stop at a choice."""
        g = self.g
        while self.queue and self.winner is None:
            c, p, node = self.queue.pop(0)
            if self.pieces[c][p] != node or not g.is_card[node]:
                continue
            if chain >= CHAIN_CAP:
                self.events.append(CardChainStopped(chain))
                self.queue.clear()
                break
            number = self.deck.pop(0)
            self.deck.append(number)
            chain += 1
            self.events.append(CardDrawn(c, p, number, c != self.st.turn))
            pending = self.card_effect(c, p, number, chain)
            if pending is not None:
                return pending
            self.check_winner()
        return None

    def targets(self, c: int, effect: str) -> tuple[tuple[int, int], ...]:
        g = self.g
        out = []
        for oc in self.colours:
            if oc == c:
                continue
            for op, n in enumerate(self.pieces[oc]):
                if n >= 0 and g.on_main[n]:
                    if effect == "knock_out" and self.immune[oc][op]:
                        continue
                    out.append((oc, op))
        return tuple(out)

    def card_effect(self, c: int, p: int, number: int, chain: int) -> Pending | None:
        g = self.g
        card = self.rules.deck.card(number)
        e = card.effect
        node = self.pieces[c][p]
        if e in MOVING_EFFECTS and (node < 0 or not g.on_main[node]):
            self.events.append(CardNoEffect(c, number, CardWhy.OFF_MAIN))
            return None
        if e == "forward":
            end = self.walk(c, g.exits[c][node][0], card.n) if g.exits[c][node] else \
                Why.OVERSHOOTS_HOME
            if isinstance(end, Why) or (g.home_rank[end] >= 0 and self.holder(end) >= 0):
                # more fields than are left up to the home: the piece stays where it is
                self.events.append(CardNoEffect(c, number, CardWhy.OVERSHOOT))
            elif self.target_problem(c, end):
                self.events.append(CardNoEffect(c, number, CardWhy.BLOCKED))
            else:
                self.arrive(c, p, end, Moved(c, p, node, end, ()))
        elif e == "back":
            end = node
            for _ in range(card.n):
                end = g.main_prev[end]
            if self.target_problem(c, end):
                self.events.append(CardNoEffect(c, number, CardWhy.BLOCKED))
            else:
                self.arrive(c, p, end, Moved(c, p, node, end, ()))
        elif e == "pub":
            if self.immune[c][p]:
                self.events.append(CardNoEffect(c, number, CardWhy.IMMUNE))
            else:
                self.to_pub(c, p)
                self.events.append(ReturnedToPub(c, p, node, "card"))
                self.drink(c, 1, DrinkReason.PUB)
        elif e in ("knock_out", "swap"):
            options = self.targets(c, e)
            if not options:
                self.events.append(CardNoEffect(c, number, CardWhy.NO_TARGET))
            elif len(options) == 1:
                self.chosen(c, p, e, *options[0])
            else:
                self.events.append(ChoiceNeeded(c, number, options))
                return Pending(number, c, p, chain)
        elif e == "catch_up":
            n = node
            target = -1
            for _ in range(len(g.board.main) - 1):
                n = g.main_next[n]
                o = self.occ[g.field[n]]
                if o >= 0 and o >> 2 != c and not self.immune[o >> 2][o & 3]:
                    target = n
                    break
            if target < 0:
                self.events.append(CardNoEffect(c, number, CardWhy.NO_TARGET))
            else:
                self.arrive(c, p, target, Moved(c, p, node, target, ()))
        elif e == "immunity":
            self.immune[c][p] = IMMUNITY_ROUNDS
            self.events.append(ImmunityGranted(c, p, IMMUNITY_ROUNDS))
        elif e == "zachytka":
            h = shorter_heading(self.g, c)
            end = g.zachytka[0 if h > 0 else 1]
            if self.target_problem(c, end):
                self.events.append(CardNoEffect(c, number, CardWhy.BLOCKED))
            else:
                self.arrive(c, p, end, Moved(c, p, node, end, ()))
        elif e == "drink":
            self.drink(c, card.n, DrinkReason.CARD)
        elif e == "glass":
            self.drink(c, 1, DrinkReason.GLASS)
        elif e == "everybody":
            for x in self.colours:
                self.drink(x, 1, DrinkReason.EVERYBODY)
        else:  # blank
            self.events.append(CardNoEffect(c, number, CardWhy.BLANK))
        return None

    def chosen(self, c: int, p: int, effect: str, oc: int, op: int) -> None:
        g = self.g
        if effect == "knock_out":
            self.knock_out(oc, op, c, How.CARD)
            return
        a = self.pieces[c][p]
        b = self.pieces[oc][op]
        self.lift(c, p)
        self.lift(oc, op)
        self.put(c, p, b)
        self.put(oc, op, a)
        self.events.append(Swapped(c, p, oc, op))
        for who, piece, node in ((c, p, b), (oc, op, a)):
            if g.kind[node] == "card":
                self.queue.append((who, piece, node))
            elif g.kind[node] == "junction":
                self.events.append(AtJunction(who, piece, node))

    # ----- finishing -----------------------------------------------------------------------
    def freeze(self, turn: int, throws: tuple[int, ...] = (), tries: int = 0,
               with_bottle: bool = False, pending: Pending | None = None) -> State:
        st = self.st
        return State(
            st.rules,
            tuple(tuple(p) if c in self.colours else None for c, p in enumerate(self.pieces)),
            tuple(tuple(p) if c in self.colours else None for c, p in enumerate(self.immune)),
            self.bottle, turn, throws, tries, with_bottle, tuple(self.deck), pending,
            tuple(self.queue) if pending is not None else (), tuple(self.owed),
            tuple(self.glasses), tuple(self.drunk), self.winner)

    def end_turn(self) -> State:
        """Pass the turn clockwise (or stop: the game is over)."""
        return _pass_turn(self.freeze(self.st.turn), self.events)


def _pass_turn(st: State, events: list[Event]) -> State:
    """The turn passes clockwise: the next player's immune pieces count down one round."""
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
    return State(st.rules, st.pieces, immune, st.bottle, nxt, (), 0, False, st.deck, None, (),
                 st.owed, st.glasses, st.drunk, None)


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


# --- plays ----------------------------------------------------------------------------------

def _shape(state: State, play: Play) -> Reason | None:
    """The checks a play must pass before it is played out: the values and the pieces."""
    c = state.turn
    phase = state.phase
    if phase is Phase.OVER:
        return Reason(Why.GAME_OVER, c)
    if phase is Phase.CHOOSE:
        return Reason(Why.CHOICE_PENDING, c)
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
         checked: bool = False) -> _Sim | Reason:
    """Play out a play (no cards yet); the working copy, or why it is not legal."""
    if not checked:
        bad = _shape(state, play)
        if bad is not None:
            return bad
    sim = _Sim(state, occ)
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
    if _last[0] is state:
        return list(_last[1])
    if state.phase is not Phase.PLAY:
        return []
    c = state.turn
    values = state.throws
    g = state.rules.graph
    occ = _occupancy(state)
    result: list[Play] = []
    if state.with_bottle:
        n = state.bottle
        for _ in range(sum(values)):
            n = g.main_next[n]
        if _problem(g, occ, state.immune, -1, n) is None:
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
            if not isinstance(_target(g, occ, immune, c, own[p], values, ex), Why):
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
                    t = _target(g, occ, immune, c, own[q], (v,), e)
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
                           tuple(sim.owed))
                    if sig not in seen:
                        seen.add(sig)
                        result.append(play)
    _last = (state, tuple(result))
    return result


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


def choices(state: State) -> list[Choose]:
    """The targets the drawer of the pending card may choose (``CHOOSE`` phase)."""
    if state.pending is None or state.winner is not None:
        return []
    sim = _Sim(state)
    effect = state.rules.deck.card(state.pending.card).effect
    return [Choose(oc, op) for oc, op in sim.targets(state.pending.colour, effect)]


def legal_moves(state: State) -> list[Action]:
    """The decisions open now: the plays (``PLAY``), the targets (``CHOOSE``), declaring the
    bottle (``THROW``).  Throws, drinks and called duties are inputs, not decisions."""
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
    if isinstance(action, Drank | Duty) and action.colour not in state.colours:
        return Reason(Why.NOT_PLAYING, action.colour)
    if isinstance(action, Drank):
        if not state.debt(action.colour):
            return Reason(Why.NOTHING_OWED, action.colour)
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
            return Reason(Why.NOT_THROW_PHASE, c)
        return Reason(Why.LEGAL, c)
    if isinstance(action, DeclareBottle):
        return Reason(can_declare_bottle(state), c)
    if isinstance(action, Choose):
        if state.pending is None:
            return Reason(Why.NO_CHOICE_PENDING, c)
        if action not in choices(state):
            return Reason(Why.BAD_CHOICE, state.pending.colour, action.piece, action.colour)
        return Reason(Why.LEGAL, state.pending.colour)
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
            sim = _Sim(state)
            why = sim.step(c, piece, values, ex)
            if why is not None and found is None:
                found = Reason(why, c, piece, values[0] if len(values) == 1 else sum(values))
    return found or Reason(Why.VALUES_UNUSED, c, piece)


# --- apply ----------------------------------------------------------------------------------

def _illegal(reason: Reason, what: str) -> IllegalMove:
    return IllegalMove(f"{what} is not legal now ({reason.why.value}).", reason)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one action; the new state and the events, or :class:`IllegalMove`."""
    if isinstance(action, Drank):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "Settling the drinks")
        c = action.colour
        sim = _Sim(state)
        drinks, glasses = sim.owed[c], sim.glasses[c]
        sim.drunk[c] += drinks + glasses
        sim.owed[c] = 0
        sim.glasses[c] = 0
        return _same_turn(sim, state), [Settled(c, drinks, glasses)]
    if isinstance(action, Duty):
        r = why_not(state, action)
        if r.why is not Why.LEGAL:
            raise _illegal(r, "That duty")
        sim = _Sim(state)
        sim.drink(action.colour, 1, action.reason)
        return _same_turn(sim, state), sim.events
    if state.winner is not None:
        raise GameOver(f"The game is over: {COLOURS[state.winner]} has won.",
                       Reason(Why.GAME_OVER, state.turn, detail=state.winner))
    if isinstance(action, Throw):
        return _throw(state, action.value)
    if isinstance(action, DeclareBottle):
        why = can_declare_bottle(state)
        if why is not Why.LEGAL:
            raise _illegal(Reason(why, state.turn), "Declaring the bottle")
        return state._replace(with_bottle=True), [BottleDeclared(state.turn)]
    if isinstance(action, Choose):
        return _choose(state, action)
    played = _run(state, normalize(state, action))
    if isinstance(played, Reason):
        raise _illegal(played, "That play")
    played.check_winner()
    pending = played.resolve_cards(0)
    if pending is not None:
        return played.freeze(state.turn, pending=pending), played.events
    return played.end_turn(), played.events


def _same_turn(sim: _Sim, state: State) -> State:
    return sim.freeze(state.turn, state.throws, state.tries, state.with_bottle, state.pending)


def _throw(state: State, value: int) -> tuple[State, list[Event]]:
    r = why_not(state, Throw(value))
    if r.why is not Why.LEGAL:
        raise _illegal(r, "A throw")
    c = state.turn
    events: list[Event]
    if state.debt(c):
        sim = _Sim(state)
        sim.events.append(VoidThrow(c, value))
        sim.drink(c, 1, DrinkReason.CHEATING)
        sim.drink(c, 1, DrinkReason.DELAY)
        return _same_turn(sim, state), sim.events
    events = [Thrown(c, value)]
    if not state.throws and not state.with_bottle and needs_six(state, c):
        if value != SIX:
            tries = state.tries + 1
            if tries >= TRIES:
                events.append(TurnForfeited(c, ForfeitWhy.TRIES))
                return _pass_turn(state, events), events
            events.append(TryFailed(c, tries))
            return state._replace(tries=tries), events
        events.append(ThrowAgain(c))
        return state._replace(throws=(SIX,), tries=0), events
    after = state._replace(throws=state.throws + (value,), tries=0)
    if value == SIX:
        if _six_unusable(after, c):
            events.append(TurnForfeited(c, ForfeitWhy.SIX_UNUSABLE))
            return _pass_turn(after, events), events
        events.append(ThrowAgain(c))
        return after, events
    if not legal_plays(after):
        events.append(TurnForfeited(c, ForfeitWhy.NO_MOVE))
        return _pass_turn(after, events), events
    return after, events


def _choose(state: State, action: Choose) -> tuple[State, list[Event]]:
    r = why_not(state, action)
    if r.why is not Why.LEGAL:
        raise _illegal(r, "That choice")
    pending = state.pending
    assert pending is not None
    sim = _Sim(state)
    effect = state.rules.deck.card(pending.card).effect
    sim.chosen(pending.colour, pending.piece, effect, action.colour, action.piece)
    sim.check_winner()
    nxt = sim.resolve_cards(pending.chain)
    if nxt is not None:
        return sim.freeze(state.turn, pending=nxt), sim.events
    return sim.end_turn(), sim.events


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
    if sorted(state.deck) != sorted(state.rules.deck.numbers):
        out.append("the deck order is not the deck")
    if any(v < 0 for v in state.owed + state.glasses + state.drunk):
        out.append("negative drinks")
    if any(v != SIX for v in state.throws[:-1]) or any(not 1 <= v <= 6 for v in state.throws):
        out.append("throws other than sixes before the last")
    w = winner_of(state)
    if state.winner is not None and w != state.winner:
        out.append("the winner does not have all four pieces home")
    if state.winner is None and w is not None:
        out.append(f"{COLOURS[w]} has all four pieces home but is not the winner")
    return out
