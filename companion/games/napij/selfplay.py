"""Random self-play of Člověče, napij se! through the generic driver, with a table's habits.

The engine speaks the protocol of every game (:mod:`companion.games.napij.engine.game`),
so the generic driver (:mod:`companion.selfplay.driver`) plays it: it samples the
throws, the shuffle and the drawn cards from a seeded generator.  What is napij's
own is a *chooser* for that driver, :class:`TableChooser`: uniformly random
among the legal plays and card choices, and a simulated table's habits - a
player owing a drink sometimes throws before drinking (``ThrowOwing``: void, and
the penalty), sometimes somebody drops the die or is called for a duty, sometimes
a player plays the bottle - said before chance acts (the driver's
``interject``).  With the family's own printed deck the chooser keeps the pile
on the table and takes its top card at every draw, so that the same seed plays
the same game with either deck.  The same seed replays the same game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from companion.games.napij.engine.actions import (
    Action,
    DeclareBottle,
    Drank,
    Draw,
    Duty,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.events import Event
from companion.games.napij.engine.game import GAME, NapijGame, Setup
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import UNSHUFFLED, can_declare_bottle, new_game
from companion.games.napij.engine.state import (
    CALLED_DUTIES,
    DeckMode,
    Phase,
    Rules,
    State,
    default_rules,
)
from companion.selfplay.driver import steps as driver_steps
from companion.selfplay.match import MatchGame

MAX_ACTIONS = 200_000
"""A safety net only: random games end far sooner (see the tests)."""

Pick = Callable[[State, Sequence[Action]], Action]


@dataclass(frozen=True)
class Habits:
    """How the simulated table behaves (probabilities per chance)."""

    forget_to_drink: float = 0.05
    """A player owing a due debt throws before drinking (the throw is void)."""
    call_duty: float = 0.005
    """Somebody drops the die, gets upset, ... (before a throw)."""
    play_bottle: float = 0.05
    """A player who may play the bottle does."""


QUIET = Habits(0.0, 0.0, 0.0)
"""A table with no habits: every debt drunk when due, no duties, no bottle."""


class TableChooser:
    """A chooser for :func:`companion.selfplay.driver.play` that plays napij as a table does.

    ``pick`` chooses among the plays and card choices (uniformly at random unless
    given); a due debt is drunk, or - with ``habits.forget_to_drink`` - the player
    throws anyway; :meth:`interject` calls duties and declares the bottle before a
    throw, and takes the printed deck's top card.
    """

    def __init__(self, rng: random.Random, habits: Habits = Habits(),
                 pick: Pick | None = None) -> None:
        self.random = rng.random
        self.rng = rng
        self.habits = habits
        self.pick = pick
        self.pile: list[int] | None = None
        """The printed deck on the table, top first (made at the first call)."""

    def _table(self, state: State) -> None:
        if self.pile is None:  # shuffled exactly as the driver shuffles a virtual deck
            order = list(range(len(state.rules.deck.numbers)))
            if state.physical:
                self.rng.shuffle(order)
            self.pile = [state.rules.deck.numbers[i] for i in order]

    def __call__(self, state: State, actions: Sequence[Action]) -> Action:
        self._table(state)
        if GAME.owing(state):
            return ThrowOwing() if self.random() < self.habits.forget_to_drink \
                else Drank(state.turn)
        if self.pick is not None:
            return self.pick(state, actions)
        n = len(actions)
        return actions[0] if n == 1 else actions[int(self.random() * n)]

    def interject(self, state: State) -> Action | None:
        """Before chance acts: the printed deck's top card, a called duty, the bottle."""
        phase = state.phase
        if state.physical:
            self._table(state)
        if phase is Phase.DRAW and state.physical:
            assert self.pile is not None
            card = self.pile.pop(0)
            self.pile.append(card)
            return Draw(card)
        if phase is not Phase.THROW or state.anyway:
            return None
        h = self.habits
        rnd = self.random
        if h.call_duty and rnd() < h.call_duty:
            colours = state.colours
            return Duty(colours[int(rnd() * len(colours))],
                        CALLED_DUTIES[int(rnd() * len(CALLED_DUTIES))])
        if h.play_bottle and not state.throws and rnd() < h.play_bottle \
                and can_declare_bottle(state) is Why.LEGAL:
            return DeclareBottle()
        return None


class _OnRules(NapijGame):
    """The protocol game on rules given as values (a board and deck not read from files)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)

    def new_game(self, setup: Setup) -> State:
        if setup.deck_mode is DeckMode.PHYSICAL:
            return new_game(self.rules, setup.players, setup.first, deck=DeckMode.PHYSICAL)
        return new_game(self.rules, setup.players, setup.first, UNSHUFFLED)


def game_for(rules: Rules | None) -> NapijGame:
    """The protocol game to drive: :data:`GAME`, or one on the given rules."""
    return GAME if rules is None or rules is default_rules() else _OnRules(rules)


def play_steps(rng: random.Random, players: int = 4, rules: Rules | None = None,
               choose: Pick | None = None, habits: Habits = Habits(),
               deck: DeckMode = DeckMode.VIRTUAL
               ) -> Iterator[tuple[State, Action, State, list[Event]]]:
    """Yield (before, action, after, events) for one game until somebody wins (the generic
    driver with a :class:`TableChooser`)."""
    chooser = TableChooser(rng, habits, choose)
    for step in driver_steps(game_for(rules), Setup(players, deck_mode=deck), rng, chooser,
                             MAX_ACTIONS):
        yield step.before, step.action, step.after, step.events


@dataclass
class GameRecord:
    winner: int | None
    actions: int
    throws: int
    drinks: dict[int, int]
    steps: list[Action] = field(default_factory=list)
    final: State | None = None


def play_game(players: int, rng: random.Random, rules: Rules | None = None,
              record: bool = False, habits: Habits = Habits(),
              deck: DeckMode = DeckMode.VIRTUAL) -> GameRecord:
    """One random game; ``record`` keeps every action for replays."""
    steps: list[Action] = []
    actions = throws = 0
    final: State | None = None
    for _before, action, after, _events in play_steps(rng, players, rules, habits=habits,
                                                      deck=deck):
        actions += 1
        if isinstance(action, Throw):
            throws += 1
        if record:
            steps.append(action)
        final = after
    assert final is not None
    drinks = {c: final.drunk[c] + final.debt(c) for c in final.colours}
    return GameRecord(final.winner, actions, throws, drinks, steps, final)


@dataclass
class SelfplayResult:
    games: int
    throws: int
    actions: int
    seconds: float
    wins: dict[int, int]
    drinks: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def throws_per_s(self) -> float:
        return self.throws / self.seconds if self.seconds else float("inf")


def selfplay(games: int, seed: int, players: int = 4, rules: Rules | None = None
             ) -> SelfplayResult:
    rng = random.Random(seed)
    wins: dict[int, int] = {}
    throws = actions = drinks = 0
    t0 = time.perf_counter()
    for _ in range(games):
        rec = play_game(players, rng, rules)
        throws += rec.throws
        actions += rec.actions
        drinks += sum(rec.drinks.values())
        assert rec.winner is not None
        wins[rec.winner] = wins.get(rec.winner, 0) + 1
    return SelfplayResult(games, throws, actions, time.perf_counter() - t0, wins, drinks)


def match_game() -> MatchGame:
    """What a match between computer levels plays (:mod:`companion.selfplay.match`): the
    table's habits interject at chance nodes (a bottle declared, a drink, a called duty)."""
    from companion.games.napij.levels import Seat

    return MatchGame(GAME, lambda n: Setup(n), Seat, TableChooser, lambda state: state.turn)
