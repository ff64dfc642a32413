"""A tiny game for the tests: a two-player dice race, written only to the game protocol.

Two pawns start at 0; the player on turn rolls, then steps either the whole
roll or just one field; whoever reaches the goal first wins.  It exists to show
that a game needs nothing but an engine, a host and one registry line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engines.errors import GameOver, IllegalMove, NotationError
from companion.engines.game import ROLL, Chance, Record, Source


@dataclass(frozen=True, slots=True)
class Setup:
    goal: int = 12


@dataclass(frozen=True, slots=True)
class State:
    goal: int
    pawns: tuple[int, int] = (0, 0)
    turn: int = 0
    roll: int | None = None
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Roll:
    value: int


@dataclass(frozen=True, slots=True)
class Step:
    fields: int


Action = Roll | Step


@dataclass(frozen=True, slots=True)
class Rolled:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Stepped:
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class Won:
    seat: int


Event = Rolled | Stepped | Won

NAMES = ("Hráč 1", "Hráč 2")


class Race:
    name = "race"
    title = "Závod"

    def default_setup(self) -> Setup:
        return Setup()

    def setup_record(self, setup: Setup) -> Record:
        return {"t": "game", "game": self.name, "goal": setup.goal}

    def setup_from_record(self, record: Record) -> Setup:
        goal = record.get("goal")
        if record.get("game") != self.name or not isinstance(goal, int) or goal < 1:
            raise NotationError("Not a race header.")
        return Setup(goal)

    def new_game(self, setup: Setup) -> State:
        return State(setup.goal)

    def chance(self, state: State) -> Chance | None:
        return ROLL if state.roll is None and state.winner is None else None

    def chance_action(self, state: State, outcome: int | Sequence[int],
                      src: Source = Source.DICE) -> Action:
        assert isinstance(outcome, int)
        return Roll(outcome)

    def to_move(self, state: State) -> int | None:
        return None if self.chance(state) or state.winner is not None else state.turn

    def legal_actions(self, state: State) -> list[Action]:
        if state.winner is not None:
            return []
        if state.roll is None:
            return [Roll(v) for v in ROLL.outcomes]
        return [Step(n) for n in dict.fromkeys((state.roll, 1))]

    def why_not(self, state: State, action: Action) -> str | None:
        return None if action in self.legal_actions(state) else "Teď se to nesmí."

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if state.winner is not None:
            raise GameOver("The race is over.")
        if action not in self.legal_actions(state):
            raise IllegalMove(f"{action!r} is not legal now.", code="not-now")
        if isinstance(action, Roll):
            return State(state.goal, state.pawns, state.turn, action.value), [
                Rolled(state.turn, action.value)]
        pawns = list(state.pawns)
        pawns[state.turn] += action.fields
        events: list[Event] = [Stepped(state.turn, pawns[state.turn])]
        if pawns[state.turn] >= state.goal:
            events.append(Won(state.turn))
            return State(state.goal, (pawns[0], pawns[1]), state.turn, None, state.turn), events
        return State(state.goal, (pawns[0], pawns[1]), 1 - state.turn), events

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def winners(self, state: State) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def parse(self, text: str) -> State:
        """``"5 3 1 12 4 -"``: the pawns, whose turn, the goal, the roll and the winner
        (``-``: none)."""
        try:
            a, b, turn, goal, roll, winner = (None if x == "-" else int(x) for x in text.split())
        except ValueError:
            raise NotationError(f"Cannot read the race {text!r}.") from None
        if a is None or b is None or turn not in (0, 1) or goal is None:
            raise NotationError(f"Cannot read the race {text!r}.")
        return State(goal, (a, b), turn, roll, winner)

    def format(self, state: State) -> str:
        roll, winner = ("-" if v is None else str(v) for v in (state.roll, state.winner))
        return f"{state.pawns[0]} {state.pawns[1]} {state.turn} {state.goal} {roll} {winner}"

    def encode(self, action: Action) -> Record:
        if isinstance(action, Roll):
            return {"t": "roll", "v": action.value}
        return {"t": "step", "n": action.fields}

    def decode(self, record: Record, state: State) -> Action:
        if record.get("t") == "roll" and isinstance(record.get("v"), int):
            return Roll(record["v"])
        if record.get("t") == "step" and isinstance(record.get("n"), int):
            return Step(record["n"])
        raise NotationError(f"Not a race record: {record!r}.")

    def describe(self, event: Event, state: State) -> str:
        if isinstance(event, Rolled):
            return f"{NAMES[event.seat]} hodil {event.value}."
        if isinstance(event, Stepped):
            return f"{NAMES[event.seat]} je na poli {event.to}."
        return f"{NAMES[event.seat]} vyhrává!"


GAME = Race()
