"""Seeded self-play of any game that speaks the protocol (:mod:`companion.engines.game`).

The engines are pure; the randomness lives here.  At a chance node the driver
samples the outcome from what ``game.chance(state)`` waits for - ``ROLL``: one
of the die values, ``SHUFFLE``: a permutation of the cards, ``DRAW``: one of the
outcomes - and turns it into an action with ``game.chance_action``; otherwise a
chooser picks one of ``game.legal_actions(state)`` (uniformly at random unless
told otherwise).  A game's own table habits go in through the chooser (a game's own
chooser class, handed in by its plugin's match): what it picks at a decision, and what
it says before chance acts (``interject``).  The same seed always plays the same game, and the actions it
returns replay through :func:`companion.engines.game.replay` to the same state.

Draws: a uniform pick among ``n`` items is ``floor(random() * n)`` (no draw when
``n == 1``), so the driver over the protocol plays exactly the games of a game's own
fast self-play for the same seed when that one draws alike; a
shuffle is ``Random.shuffle`` of ``range(size)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from math import floor
from typing import Any, Generic, TypeVar

from companion.engines.game import Chance, ChanceKind, Game

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")
U = TypeVar("U")

MAX_ACTIONS = 1_000_000
"""A safety net only: a game that has not ended after this many actions raises."""


@dataclass
class GameRecord(Generic[S, A, E]):
    """One self-played game."""

    winners: tuple[int, ...]
    chances: int
    """Chance actions taken (in a dice race: the rolls)."""
    steps: list[A] = field(default_factory=list)
    """Every action in order, chance ones included (kept when the driver records)."""
    events: list[E] = field(default_factory=list)
    """Every event in order (kept when the driver records)."""
    state: S | None = None
    """The final state."""

    @property
    def winner(self) -> int | None:
        """The only winner; ``None`` for a draw or a game nobody won."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def rolls(self) -> int:
        """The chance actions under the name the dice races' self-play has always used."""
        return self.chances


class RandomChooser:
    """Picks uniformly among the legal actions: ``floor(random() * n)``, no draw for one."""

    def __init__(self, rng: random.Random) -> None:
        self.random = rng.random

    def __call__(self, state: object, actions: Sequence[A]) -> A:
        n = len(actions)
        return actions[0] if n == 1 else actions[floor(self.random() * n)]


def random_chooser(rng: random.Random) -> RandomChooser:
    """A chooser drawing from ``rng``."""
    return RandomChooser(rng)


Chooser = Callable[[Any, Sequence[Any]], Any]
"""``choose(state, legal_actions) -> action``."""

Interject = Callable[[Any], Any]
"""``interject(state) -> action | None``, asked at every chance node: an action the table takes
before chance acts (a bottle declared, a called duty, a card drawn from the family's own
pile), or ``None`` to let the driver sample chance.  A chooser may carry one as its
``interject`` attribute."""


def sample(chance: Chance, rng: random.Random) -> int | tuple[int, ...]:
    """An outcome of ``chance`` drawn from ``rng``."""
    if chance.kind is ChanceKind.SHUFFLE:
        order = list(range(chance.size))
        rng.shuffle(order)
        return tuple(order)
    if not chance.outcomes:
        raise ValueError(f"A {chance.kind.value} chance node without outcomes.")
    return chance.outcomes[floor(rng.random() * len(chance.outcomes))]


@dataclass(frozen=True)
class Step(Generic[S, A, E]):
    """One applied action: the state before, the action, the state after and the events."""

    before: S
    action: A
    after: S
    events: list[E]
    chance: bool


def steps(game: Game[S, A, E, U], setup: U, rng: random.Random,
          choose: Callable[[S, Sequence[A]], A] | None = None,
          max_actions: int = MAX_ACTIONS,
          interject: Callable[[S], A | None] | None = None) -> Iterator[Step[S, A, E]]:
    """Play one game from ``setup``, yielding every applied action until the game is over.

    ``interject`` (or the chooser's ``interject`` attribute) is asked at every chance node
    (:data:`Interject`); a ``Step`` it made is not counted as chance."""
    pick: Callable[[S, Sequence[A]], A] = choose or random_chooser(rng)
    table = interject or getattr(choose, "interject", None)
    state = game.new_game(setup)
    for _ in range(max_actions):
        if game.is_over(state):
            return
        chance = game.chance(state)
        said = table(state) if chance is not None and table is not None else None
        if said is not None:
            action = said
            chance = None
        elif chance is not None:
            action = game.chance_action(state, sample(chance, rng))
        else:
            actions = game.legal_actions(state)
            if not actions:
                raise RuntimeError(f"A game of {game.name} that is not over offers no action.")
            action = pick(state, actions)
        after, events = game.apply(state, action)
        yield Step(state, action, after, events, chance is not None)
        state = after
    if not game.is_over(state):
        raise RuntimeError(f"A self-play game of {game.name} did not end "
                           f"within {max_actions} actions.")


def play(game: Game[S, A, E, U], setup: U, rng: random.Random,
         choose: Callable[[S, Sequence[A]], A] | None = None,
         max_actions: int = MAX_ACTIONS,
         interject: Callable[[S], A | None] | None = None) -> GameRecord[S, A, E]:
    """One whole game: its actions, events and final state (see :func:`steps`)."""
    record: GameRecord[S, A, E] = GameRecord((), 0)
    state = game.new_game(setup)
    for step in steps(game, setup, rng, choose, max_actions, interject):
        record.steps.append(step.action)
        record.events += step.events
        record.chances += step.chance
        state = step.after
    record.state = state
    record.winners = game.winners(state)
    return record
