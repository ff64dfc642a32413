"""Random self-play of Člověče, napij se!: seeded, reproducible, fast enough to benchmark.

The randomness lives here, not in the engine: the die, the shuffled deck, the
choices among the legal plays, and the table's habits (a player sometimes throws
before drinking what they owe, sometimes somebody drops the die, sometimes a
player plays the bottle).  The same seed replays the same game.

The deck comes in one of three ways (``deck``): ``None`` - the shuffled order is
given to ``new_game`` (the fast path of the benchmark); ``DeckMode.VIRTUAL`` -
the game starts unshuffled and the first action is a ``Shuffle``;
``DeckMode.PHYSICAL`` - the engine never knows the order: the driver keeps a
shuffled pile of its own, and every card drawn from it comes in as a ``Draw``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from companion.engines.napij.actions import (
    Action,
    DeclareBottle,
    Drank,
    Draw,
    Duty,
    Shuffle,
    Throw,
)
from companion.engines.napij.events import Event
from companion.engines.napij.reasons import Why
from companion.engines.napij.rules import (
    UNSHUFFLED,
    apply,
    can_declare_bottle,
    choices,
    legal_plays,
    new_game,
)
from companion.engines.napij.state import (
    CALLED_DUTIES,
    DeckMode,
    Phase,
    Rules,
    State,
    default_rules,
)

MAX_ACTIONS = 200_000
"""A safety net only: random games end far sooner (see the tests)."""

Chooser = Callable[[State, list[Action]], Action]


@dataclass(frozen=True)
class Habits:
    """How the simulated table behaves (probabilities per chance)."""

    forget_to_drink: float = 0.05
    """A debtor throws before drinking (the throw is void)."""
    call_duty: float = 0.005
    """Somebody drops the die, gets upset, ... (before a throw)."""
    play_bottle: float = 0.05
    """A player who may play the bottle does."""


def random_chooser(rng: random.Random) -> Chooser:
    def choose(state: State, options: list[Action]) -> Action:
        return options[int(rng.random() * len(options))]
    return choose


@dataclass
class GameRecord:
    winner: int | None
    actions: int
    throws: int
    drinks: dict[int, int]
    steps: list[Action] = field(default_factory=list)
    final: State | None = None


def shuffled_deck(rules: Rules, rng: random.Random) -> list[int]:
    order = list(rules.deck.numbers)
    rng.shuffle(order)
    return order


def play_steps(rng: random.Random, players: int = 4, rules: Rules | None = None,
               choose: Chooser | None = None, habits: Habits = Habits(),
               deck: DeckMode | None = None
               ) -> Iterator[tuple[State, Action, State, list[Event]]]:
    """Yield (before, action, after, events) for one random game until somebody wins."""
    rules = rules or default_rules()
    pick = choose or random_chooser(rng)
    order = shuffled_deck(rules, rng)
    if deck is None:
        state = new_game(rules, players, deck_order=order)
    elif deck is DeckMode.VIRTUAL:
        state = new_game(rules, players, deck_order=UNSHUFFLED)
    else:
        state = new_game(rules, players, deck=DeckMode.PHYSICAL)
    pile = list(order)  # the physical deck on the table, top first
    rnd = rng.random
    for _ in range(MAX_ACTIONS):
        phase = state.phase
        action: Action
        if phase is Phase.SHUFFLE:
            action = Shuffle(tuple(order))
        elif phase is Phase.DRAW:
            card = pile.pop(0)
            pile.append(card)
            action = Draw(card)
        else:
            action = _next_action(state, rnd, pick, habits)
        after, events = apply(state, action)
        yield state, action, after, events
        state = after
        if state.winner is not None:
            return
    raise RuntimeError("a self-play game did not end")


def _next_action(state: State, rnd: Callable[[], float], pick: Chooser,
                 habits: Habits) -> Action:
    phase = state.phase
    if phase is Phase.PLAY:
        return pick(state, list(legal_plays(state)))
    if phase is Phase.CHOOSE:
        return pick(state, list(choices(state)))
    c = state.turn
    if state.debt(c) and rnd() >= habits.forget_to_drink:
        return Drank(c)
    if habits.call_duty and rnd() < habits.call_duty:
        colours = state.colours
        return Duty(colours[int(rnd() * len(colours))],
                    CALLED_DUTIES[int(rnd() * len(CALLED_DUTIES))])
    if habits.play_bottle and not state.throws and rnd() < habits.play_bottle \
            and can_declare_bottle(state) is Why.LEGAL:
        return DeclareBottle()
    return Throw(int(rnd() * 6) + 1)


def play_game(players: int, rng: random.Random, rules: Rules | None = None,
              record: bool = False, habits: Habits = Habits(),
              deck: DeckMode | None = None) -> GameRecord:
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
    drinks = {c: final.drunk[c] + final.owed[c] + final.glasses[c] for c in final.colours}
    return GameRecord(final.winner, actions, throws, drinks, steps, final)


def replay(actions: list[Action], deck_order: list[int], players: int = 4,
           rules: Rules | None = None) -> State:
    """Play ``actions`` again from the start; the final state."""
    state = new_game(rules, players, deck_order=deck_order)
    for action in actions:
        state, _ = apply(state, action)
    return state


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
