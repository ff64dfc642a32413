"""The rules of Gobbit as a pure engine.

No I/O, no clock, no randomness: the shuffle comes in as an action (:class:`Deal`,
a permutation of the deck, applied to the empty table of :func:`undealt`; or
already applied by :func:`new_game`, which deals a shuffled list), flips and
touches come in as actions, and :func:`apply` returns the new state and the
events.  Every game replays exactly from its deal and its actions.

What the rules refuse raises the family of :mod:`companion.engines.errors`:
:class:`~companion.engines.errors.IllegalMove` with a :class:`Reason` (its
``why`` is a :class:`Refused`, the error's ``code``), :class:`GameOver` after
the end; a set-up that cannot be played raises
:class:`~companion.engines.errors.RulesError` (code ``"setup"``).

A touch moment is ruled by the judge (:mod:`companion.games.gobbit.engine.judge`): the
engine builds the :class:`~companion.games.gobbit.engine.judge.Situation` from its
state, asks for the ruling and moves the cards.  Decisions the rules leave open
are numbered in ``docs/players/gobbit-rules.md`` (``D<n>`` in the comments).

Card order: ``decks[i]`` is seat ``i + 1``'s face-down deck, index 0 on top;
``piles[i]`` its face-up pile, the last card on top; ``graveyard`` the last card
on top.  A pile that is won is turned over and put under the deck, so its bottom
card comes up first; a pile that goes to the graveyard is turned over onto it,
so its bottom card ends on top (its back sets the next expert condition).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.engines.errors import GameOver, IllegalMove, RulesError
from companion.games.gobbit.engine.cards import (
    GORILLA,
    RULE_ORDER,
    Card,
    Condition,
    Rule,
    standard_deck,
)
from companion.games.gobbit.engine.judge import (
    TO_GRAVEYARD,
    Destination,
    Kind,
    Ruling,
    Situation,
    Touch,
    Why,
    judge,
)

MIN_SEATS, MAX_SEATS = 2, 8


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a Gobbit game (see the module docstring for the card order).

    ``turn`` is the seat whose turn it is (the engine skips seats with an empty
    deck when it looks for who flips, FAQ 5).  ``gorilla`` is the seat whose gorilla
    attack is live, ``strays`` the seats with a card flipped out of turn that still
    has to go to the graveyard (FAQ 4), ``ghosts`` and ``out`` the seats without
    cards (ghosts with the ghost rule, otherwise out of the game).
    """

    decks: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    graveyard: tuple[Card, ...] = ()
    turn: int = 1
    rules: frozenset[str] = frozenset()
    expert: bool = False
    gorilla: int | None = None
    strays: frozenset[int] = frozenset()
    ghosts: frozenset[int] = frozenset()
    out: frozenset[int] = frozenset()
    over: bool = False

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, len(self.decks) + 1))

    def deck(self, seat: int) -> tuple[Card, ...]:
        return self.decks[seat - 1]

    def pile(self, seat: int) -> tuple[Card, ...]:
        return self.piles[seat - 1]

    def top(self, seat: int) -> Card | None:
        pile = self.piles[seat - 1]
        return pile[-1] if pile else None


# --- actions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the shuffle.  ``order`` is a permutation of the deck's card indexes
    (``standard_deck(rules)`` in deck-file order): ``order[0]`` is dealt first."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Flip:
    """``seat`` turns the top card of its deck face up (out of turn if it is not its turn)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Touches:
    """The touches of one moment, ruled together by the judge; ``uncertainty_ms`` is the
    pads' timing uncertainty when they were made (D28), kept so that replays rule alike."""

    touches: tuple[Touch, ...]
    uncertainty_ms: float = 0.0


@dataclass(frozen=True, slots=True)
class Discard:
    """``seat`` puts the card it flipped out of turn on the graveyard (FAQ 4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Finish:
    """Nobody can flip any more and the table is done: the game ends (FAQ 20, D11)."""


Action = Deal | Flip | Touches | Discard | Finish


# --- events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards were dealt; ``first`` flips first, ``counts``: the cards of every seat,
    seat 1 first."""

    first: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Flipped:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class FlippedOutOfTurn:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class GorillaAttack:
    seat: int


@dataclass(frozen=True, slots=True)
class GorillaDiscarded:
    """FAQ 7: a gorilla that was the seat's last card goes to the graveyard."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class StrayDiscarded:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Judged:
    ruling: Ruling


@dataclass(frozen=True, slots=True)
class Fouled:
    seat: int
    why: Why


@dataclass(frozen=True, slots=True)
class PileMoved:
    """``seat``'s face-up pile of ``size`` cards went to ``dest`` (a seat or the graveyard)."""

    seat: int
    dest: Destination
    size: int


@dataclass(frozen=True, slots=True)
class DeckCardBuried:
    """FAQ 14: a seat fouled without face-up cards; its deck's top card went to the graveyard."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class GobbitWon:
    seat: int


@dataclass(frozen=True, slots=True)
class BecameGhost:
    seat: int


@dataclass(frozen=True, slots=True)
class LeftGame:
    seat: int


@dataclass(frozen=True, slots=True)
class ConditionChanged:
    condition: Condition | None


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    counts: tuple[int, ...]  # cards of every seat, seat 1 first


Event = (Dealt | Flipped | FlippedOutOfTurn | GorillaAttack | GorillaDiscarded | StrayDiscarded
         | Judged | Fouled | PileMoved | DeckCardBuried | GobbitWon | BecameGhost | LeftGame
         | ConditionChanged | GameEnded)


# --- why the rules refuse an action ---------------------------------------------


class Refused(StrEnum):
    """Why :func:`apply` refuses an action (the ``code`` of the :class:`IllegalMove`)."""

    NOT_DEALT = "not-dealt"  # the cards are not dealt yet: only a Deal
    DEALT = "dealt"  # a second Deal
    BAD_DEAL = "bad-deal"  # the order is not a permutation of the deck
    NO_SEAT = "no-seat"  # a seat that is not at the table
    STRAY_FIRST = "stray-first"  # a card flipped out of turn must go to the graveyard first
    EMPTY_DECK = "empty-deck"  # a flip without a face-down card
    NO_STRAY = "no-stray"  # a discard without a card flipped out of turn
    CAN_STILL_FLIP = "can-still-flip"  # a finish while somebody can flip
    GAME_OVER = "game-over"  # anything after the end (raised as GameOver)


@dataclass(frozen=True, slots=True)
class Reason:
    """A refusal: ``why``, the seat it is about (``None``: the table) and, for
    :attr:`Refused.BAD_DEAL`, how many cards the deck has."""

    why: Refused
    seat: int | None = None
    cards: int = 0


# --- queries ------------------------------------------------------------------


def _check_setup(seats: int, first: int, rules: frozenset[str]) -> None:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RulesError(f"Gobbit is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}.",
                         code="setup")
    if not 1 <= first <= seats:
        raise RulesError(f"The first player must be a seat from 1 to {seats}, not {first}.",
                         code="setup")
    unknown = rules - set(RULE_ORDER)
    if unknown:
        raise RulesError(f"Unknown rule {sorted(unknown)[0]!r}.", code="setup")


def _deal(state: State, cards: Sequence[Card]) -> State:
    """``state`` (an empty table) with ``cards`` dealt one at a time, clockwise from its
    ``turn``; each dealt card lands on top of its deck (D6)."""
    seats = len(state.decks)
    if len(cards) < seats:
        raise RulesError("There are fewer cards than players.", code="setup")
    decks: list[tuple[Card, ...]] = [() for _ in range(seats)]
    for i, card in enumerate(cards):
        s = (state.turn - 1 + i) % seats
        decks[s] = (card, *decks[s])
    return replace(state, decks=tuple(decks))


def undealt(seats: int, first: int = 1, rules: Iterable[str] = (),
            expert: bool = False) -> State:
    """The table before the deal: no card anywhere, waiting for a :class:`Deal` (D27)."""
    rules = frozenset(rules)
    _check_setup(seats, first, rules)
    return State(((),) * seats, ((),) * seats, (), first, rules, expert)


def new_game(seats: int, cards: Sequence[Card], first: int = 1,
             rules: Iterable[str] = (), expert: bool = False) -> State:
    """Deal ``cards`` (already shuffled: the order is an input) one at a time, clockwise from
    ``first``; each dealt card lands on top of its deck (D6)."""
    return _deal(undealt(seats, first, rules, expert), cards)


def dealt(state: State) -> bool:
    """Whether the cards are on the table: a table without a single card waits for the deal
    (D27; a game that ends with every card on the graveyard still has them there)."""
    return state.over or bool(state.graveyard) or any(state.decks) or any(state.piles)


def deck_size(state: State) -> int:
    """How many cards a :class:`Deal` on this table orders (the box, by the table's rules)."""
    return len(standard_deck(state.rules))


def next_seat(state: State, seat: int) -> int:
    return seat % len(state.decks) + 1


def on_turn(state: State) -> int | None:
    """The seat that flips next: from ``turn`` clockwise, the first with a face-down card."""
    seat = state.turn
    for _ in state.seats:
        if state.decks[seat - 1]:
            return seat
        seat = next_seat(state, seat)
    return None


def condition(state: State) -> Condition | None:
    """The expert condition in force: the picture on the back of the graveyard's top card."""
    if not state.expert or not state.graveyard:
        return None
    return state.graveyard[-1].back


def card_counts(state: State) -> tuple[int, ...]:
    """Cards each seat owns (deck and face-up pile), seat 1 first (D12)."""
    return tuple(len(d) + len(p) for d, p in zip(state.decks, state.piles, strict=True))


def winners(state: State) -> tuple[int, ...]:
    """FAQ 21: the seats with the most cards once the game is over (more than one: a draw)."""
    if not state.over:
        return ()
    counts = card_counts(state)
    best = max(counts)
    return tuple(s for s, c in zip(state.seats, counts, strict=True) if c == best and best > 0)


def all_cards(state: State) -> list[Card]:
    """Every card on the table (decks, piles, graveyard): a game never creates or loses one."""
    out: list[Card] = []
    for d in state.decks:
        out += d
    for p in state.piles:
        out += p
    out += state.graveyard
    return out


def active_seats(state: State) -> tuple[int, ...]:
    """Seats still at the table (ghosts included, players who left excluded)."""
    return tuple(s for s in state.seats if s not in state.out)


def situation(state: State, touches: Iterable[Touch] = (),
              uncertainty_ms: float = 0.0) -> Situation:
    """The judge's view of this state with the given touches (D10: touches by or on seats
    that left the game are dropped) and the pads' timing uncertainty (D28)."""
    seats = active_seats(state)
    kept = tuple(t for t in touches
                 if t.seat in seats and (t.target == "g" or t.target in seats))
    return Situation(
        tops={s: (None if s in state.ghosts else state.top(s)) for s in seats},
        ghosts=state.ghosts & frozenset(seats),
        graveyard=state.graveyard[-1] if state.graveyard else None,
        rules=state.rules,
        expert=condition(state),
        gorilla=state.gorilla,
        touches=kept,
        uncertainty_ms=uncertainty_ms,
    )


def legal_actions(state: State) -> list[Action]:
    """Flips, discards and the finish the state allows; a :class:`Touches` is always allowed
    while the game runs (any touch can be judged).  Before the deal: none (the
    :class:`Deal` is chance's, too many to list)."""
    if state.over or not dealt(state):
        return []
    if state.strays:
        return [Discard(s) for s in sorted(state.strays)]
    turn = on_turn(state)
    if turn is None:
        return [Finish()]
    flips: list[Action] = [Flip(turn)]
    flips += [Flip(s) for s in state.seats if s != turn and state.decks[s - 1]]
    return flips


# --- applying actions ---------------------------------------------------------


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one action; raise :class:`IllegalMove` (one sentence, a :class:`Reason`) if the
    rules refuse it and :class:`GameOver` after the end."""
    if state.over:
        raise GameOver("The game is over.", Reason(Refused.GAME_OVER))
    events: list[Event] = []
    if isinstance(action, Deal):
        return _apply_deal(state, action.order, events), events
    if not dealt(state):
        raise IllegalMove("The cards are not dealt yet.", Reason(Refused.NOT_DEALT))
    before = condition(state)
    ends = False
    if isinstance(action, Flip):
        state = _flip(state, action.seat, events)
    elif isinstance(action, Touches):
        state, ends = _touches(state, action.touches, events, action.uncertainty_ms)
    elif isinstance(action, Discard):
        state = _discard(state, action.seat, events)
    elif isinstance(action, Finish):
        if state.strays:
            raise IllegalMove("A card flipped out of turn must go to the graveyard first.",
                              Reason(Refused.STRAY_FIRST, min(state.strays)))
        seat = on_turn(state)
        if seat is not None:
            raise IllegalMove(f"Seat {seat} can still flip: the game goes on.",
                              Reason(Refused.CAN_STILL_FLIP, seat))
        state = replace(state, over=True)
        events.append(GameEnded(winners(state), card_counts(state)))
        return state, events
    else:  # pragma: no cover - the type checker sees every action above
        raise TypeError(f"unknown action {action!r}")
    after = condition(state)
    if after != before and state.expert:
        events.append(ConditionChanged(after))
    state = _settle(state, events, force_over=ends)
    return state, events


def _apply_deal(state: State, order: Sequence[int], events: list[Event]) -> State:
    if dealt(state):
        raise IllegalMove("The cards are already dealt.", Reason(Refused.DEALT))
    cards = standard_deck(state.rules)
    if sorted(order) != list(range(len(cards))):
        raise IllegalMove(f"The shuffle must be a permutation of the {len(cards)} cards.",
                          Reason(Refused.BAD_DEAL, None, len(cards)))
    state = _deal(state, [cards[i] for i in order])
    events.append(Dealt(state.turn, card_counts(state)))
    return state


def _check_seat(state: State, seat: int) -> None:
    if seat not in state.seats:
        raise IllegalMove(f"There is no seat {seat} at this table.", Reason(Refused.NO_SEAT, seat))


def _flip(state: State, seat: int, events: list[Event]) -> State:
    _check_seat(state, seat)
    if state.strays:
        stray = min(state.strays)
        raise IllegalMove(f"Seat {stray} must first put the card it flipped out of turn "
                          "on the graveyard.", Reason(Refused.STRAY_FIRST, stray))
    deck = state.decks[seat - 1]
    if not deck:
        raise IllegalMove(f"Seat {seat} has no face-down card to flip.",
                          Reason(Refused.EMPTY_DECK, seat))
    card, rest = deck[0], deck[1:]
    decks = _set(state.decks, seat, rest)
    turn = on_turn(state)
    if seat != turn:
        # FAQ 4: the card lies face up (it can be attacked) until it goes to the graveyard.
        events.append(FlippedOutOfTurn(seat, card))
        gorilla = None if state.gorilla == seat else state.gorilla
        return replace(state, decks=decks, piles=_set(state.piles, seat, state.pile(seat) + (card,)),
                              strays=state.strays | {seat}, gorilla=gorilla)
    if card.species == GORILLA and not rest:
        # FAQ 7 (D8): a gorilla as the last card is lost, with or without the gorilla rule.
        events.append(GorillaDiscarded(seat, card))
        return replace(state, decks=decks, graveyard=state.graveyard + (card,),
                              turn=next_seat(state, seat), gorilla=None)
    piles = _set(state.piles, seat, state.pile(seat) + (card,))
    events.append(Flipped(seat, card))
    if card.species == GORILLA and Rule.GORILLA.value in state.rules:
        # The gorilla attacks now; its player then flips again onto the gorilla.
        events.append(GorillaAttack(seat))
        return replace(state, decks=decks, piles=piles, turn=seat, gorilla=seat)
    return replace(state, decks=decks, piles=piles, turn=next_seat(state, seat), gorilla=None)


def _discard(state: State, seat: int, events: list[Event]) -> State:
    _check_seat(state, seat)
    if seat not in state.strays:
        raise IllegalMove(f"Seat {seat} has no card flipped out of turn to discard.",
                          Reason(Refused.NO_STRAY, seat))
    pile = state.pile(seat)
    card = pile[-1]
    events.append(StrayDiscarded(seat, card))
    return replace(state, piles=_set(state.piles, seat, pile[:-1]),
                          graveyard=state.graveyard + (card,), strays=state.strays - {seat})


def _touches(state: State, touches: Iterable[Touch], events: list[Event],
             uncertainty_ms: float = 0.0) -> tuple[State, bool]:
    """Judge one moment and move the cards; the flag says the game ends (FAQ 20)."""
    sit = situation(state, touches, uncertainty_ms)
    if len(sit.seats) < 2:
        return state, False
    ruling = judge(sit)
    events.append(Judged(ruling))
    # FAQ 20: the only seat that can still flip ends the game with one successful defence.
    with_deck = [s for s in state.seats if state.decks[s - 1]]
    last = with_deck[0] if len(with_deck) == 1 else None
    decks = list(state.decks)
    piles = list(state.piles)
    graveyard = list(state.graveyard)
    for seat in ruling.fouls:
        events.append(Fouled(seat, next(v.why for v in ruling.verdicts
                                        if v.touch.seat == seat and v.kind is Kind.FOUL)))
    if ruling.gobbit is not None:
        events.append(GobbitWon(ruling.gobbit))
    for seat, dest in sorted(ruling.piles.items()):  # D7: piles move in seat order
        pile = piles[seat - 1]
        piles[seat - 1] = ()
        if dest == TO_GRAVEYARD:
            graveyard += reversed(pile)
        else:
            assert isinstance(dest, int)
            decks[dest - 1] = decks[dest - 1] + pile
        events.append(PileMoved(seat, dest, len(pile)))
    for seat in ruling.buried:
        deck = decks[seat - 1]
        if deck:  # D3: with no face-down card either there is nothing left to lose
            decks[seat - 1] = deck[1:]
            graveyard.append(deck[0])
            events.append(DeckCardBuried(seat, deck[0]))
    moved = frozenset(ruling.piles)
    gorilla = None if state.gorilla in moved else state.gorilla
    turn = state.turn if ruling.gobbit is None else ruling.gobbit
    if ruling.gobbit is not None:
        gorilla = None  # FAQ 19: the winner starts a fresh round
    new = replace(state, decks=tuple(decks), piles=tuple(piles), graveyard=tuple(graveyard),
                         turn=turn, gorilla=gorilla, strays=state.strays - moved)
    ends = last is not None and any(
        v.decisive and v.kind is Kind.DEFENCE and v.touch.seat == last for v in ruling.verdicts)
    return new, ends


def _settle(state: State, events: list[Event], force_over: bool = False) -> State:
    """Seats without cards become ghosts (or leave); the game ends when at most one seat
    holds cards (FAQ 21) or when ``force_over`` (FAQ 20)."""
    ghosts, out = set(state.ghosts), set(state.out)
    for seat in state.seats:
        if seat in ghosts or seat in out:
            continue
        if not state.decks[seat - 1] and not state.piles[seat - 1]:
            if Rule.GHOST.value in state.rules:
                ghosts.add(seat)
                events.append(BecameGhost(seat))
            else:
                out.add(seat)
                events.append(LeftGame(seat))
    state = replace(state, ghosts=frozenset(ghosts), out=frozenset(out),
                           strays=state.strays - ghosts - out)
    holders = [s for s, n in zip(state.seats, card_counts(state), strict=True) if n]
    if not state.over and (force_over or len(holders) <= 1):
        state = replace(state, over=True)
        events.append(GameEnded(winners(state), card_counts(state)))
    return state


def _set(items: tuple[tuple[Card, ...], ...], seat: int,
         value: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return items[:seat - 1] + (value,) + items[seat:]


def replay(state: State, actions: Iterable[Action]) -> tuple[State, list[Event]]:
    """Apply ``actions`` in order; the same deal and actions always give the same game."""
    log: list[Event] = []
    for action in actions:
        state, events = apply(state, action)
        log += events
    return state, log
