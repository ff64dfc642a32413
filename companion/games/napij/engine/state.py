"""The values of a game of Člověče, napij se!: the rules it is played by and one moment of it.

:class:`Rules` is the static data (board, deck, the compiled graph); :class:`State`
one immutable moment, with its :class:`Phase` computed from its fields.  The
constants and the drink reasons live here too, so that every other module of
the engine reads them from one place.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum

from companion.games.napij.engine.board import Board, default_board
from companion.games.napij.engine.deck import DECK_SIZE, Deck, default_deck
from companion.games.napij.engine.graph import Graph, compile_graph, distance_home

PUB = -1
"""The node of a piece in its pub."""
BOTTLE = -1
"""``Step.piece`` of the bottle."""
SIX = 6
TRIES = 3
PIECES = 4
CHAIN_CAP = DECK_SIZE
"""At most this many cards are drawn in one action (a safety net against endless chains)."""
UNSHUFFLED: tuple[int, ...] = ()
"""``new_game(deck_order=UNSHUFFLED)``: a virtual deck that waits for a :class:`Shuffle`."""


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


class DeckMode(StrEnum):
    VIRTUAL = "virtual"    # the companion shuffles (a Shuffle action) and draws
    PHYSICAL = "physical"  # the family's own cards: each drawn card comes in as a Draw action


class Phase(StrEnum):
    SHUFFLE = "shuffle"  # a virtual deck waits for its shuffle (before the first throw)
    THROW = "throw"
    PLAY = "play"
    CHOOSE = "choose"    # a drawn card waits for a choice (its drawer's, or an offered co-player's)
    DRAW = "draw"        # a physical deck: a piece must draw, the card comes in as an action
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


@dataclass(frozen=True, slots=True)
class Debt:
    """One drink duty not drunk yet, with why (the ledger keeps one per occurrence, D20).

    ``drinks`` are glasses to empty for :attr:`DrinkReason.GLASS`.  ``about`` is the
    colour toasted (``HOME``, ``WINNER``) or the colour that knocked the piece out
    (``KNOCKED_OUT``, and ``BOTTLE`` when the bottle knocked it out: who moved or pushed
    it; ``None`` for the pusher's own drink); ``card`` the card that gave the duty.
    ``answered``: the table has answered the announcement with "later" (a postponed
    debt); a duty just announced is not answered yet (D42).  ``own_turn``: incurred
    during its debtor's own turn, so due only before that player's next turn (D22).
    ``reason`` is ``None`` only in a position written by hand without one.
    """

    colour: int
    drinks: int
    reason: DrinkReason | None = None
    about: int | None = None
    card: int | None = None
    answered: bool = True
    own_turn: bool = False

    @property
    def glass(self) -> bool:
        return self.reason is DrinkReason.GLASS


@dataclass(frozen=True, slots=True)
class Pending:
    """A drawn card waiting for a choice: its drawer's (whom to act on, whom to offer the
    card's deal to), or - once ``offered`` names a co-player - that co-player's answer."""

    card: int
    colour: int
    piece: int
    offered: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """One moment of the game.

    ``pieces[c]`` is the 4-tuple of nodes of colour ``c`` (``PUB`` in the pub) or
    ``None`` when the colour does not play; ``immune[c][p]`` the rounds of
    immunity left.  ``bottle`` is the bottle's node, -1 before the first piece
    enters.  ``throws`` are the counted values of the turn so far; ``tries``
    the failed tries for a six; ``with_bottle`` whether the player on turn
    declared the bottle.  ``deck`` is the virtual deck's order, top card first
    (empty: not shuffled yet, or a physical deck: ``physical``).
    ``pending`` is a card waiting for a choice; ``queue`` the draws still to come
    (with a physical deck and no ``pending``, its first piece must draw now);
    ``chain`` the cards drawn so far in the action under way.
    ``debts`` is the drink ledger's open part, one :class:`Debt` per duty not drunk
    yet, oldest first; ``drunk`` the drinks drunk so far per colour.  ``anyway``: the
    player on turn, owing a due debt, chose to throw anyway (the throw that comes is
    void, D22).  ``owed``, ``glasses`` and ``later`` are the ledger's sums.
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
    debts: tuple[Debt, ...] = ()
    drunk: tuple[int, ...] = (0, 0, 0, 0)
    winner: int | None = None
    physical: bool = False
    chain: int = 0
    anyway: bool = False

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return Phase.OVER
        if self.pending is not None:
            return Phase.CHOOSE
        if self.queue:
            return Phase.DRAW
        if not self.deck and not self.physical:
            return Phase.SHUFFLE
        if self.throws and self.throws[-1] != SIX:
            return Phase.PLAY
        return Phase.THROW

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c, p in enumerate(self.pieces) if p is not None)

    @property
    def deck_mode(self) -> DeckMode:
        return DeckMode.PHYSICAL if self.physical else DeckMode.VIRTUAL

    @property
    def owed(self) -> tuple[int, ...]:
        """Drinks owed per colour (glasses apart)."""
        out = [0, 0, 0, 0]
        for d in self.debts:
            if not d.glass:
                out[d.colour] += d.drinks
        return tuple(out)

    @property
    def glasses(self) -> tuple[int, ...]:
        """Glasses to empty per colour."""
        out = [0, 0, 0, 0]
        for d in self.debts:
            if d.glass:
                out[d.colour] += d.drinks
        return tuple(out)

    @property
    def later(self) -> int:
        """What the player on turn incurred during this turn: due only before their next
        turn (D22)."""
        return sum(d.drinks for d in self.debts if d.own_turn and d.colour == self.turn)

    def debts_of(self, colour: int) -> tuple[Debt, ...]:
        """The colour's open duties, oldest first."""
        return tuple(d for d in self.debts if d.colour == colour)

    def unanswered(self) -> tuple[Debt, ...]:
        """Duties announced that the table has not answered yet (drunk or "later")."""
        return tuple(d for d in self.debts if not d.answered)

    def debt(self, colour: int) -> int:
        """Everything the colour owes (drinks and glasses)."""
        return sum(d.drinks for d in self.debts if d.colour == colour)

    def due(self, colour: int) -> int:
        """What the colour must have drunk before it throws now: its debt, less what the
        player on turn incurred during this turn (D22)."""
        if colour == self.turn:
            return sum(d.drinks for d in self.debts if d.colour == colour and not d.own_turn)
        return self.debt(colour)
