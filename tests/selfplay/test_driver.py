"""The shared self-play driver: any game of the protocol, chance sampled from a seeded generator."""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

import pytest

from companion.engines.game import ROLL, Chance, ChanceKind, replay
from companion.games.clovece.engine import game as clovece
from companion.games.clovece.selfplay import play_game
from companion.games.gobbit.engine import game as gobbit
from companion.games.gobbit.engine.rules import Deal, Discard, Finish, Flip
from companion.selfplay.driver import GameRecord, random_chooser, sample, steps
from companion.selfplay.driver import play as drive


class Pile(NamedTuple):
    stones: int
    turn: int = 0
    drawn: int | None = None  # the card drawn this turn: how many stones one may take at most


class PileGame:
    """A 10-line game: draw a card 1-3 (chance), take 1..card stones; who takes the last wins."""

    name, title = "pile", "Hromádka"

    def new_game(self, setup: int) -> Pile: return Pile(setup)
    def chance(self, s: Pile) -> Chance | None:
        return Chance(ChanceKind.DRAW, (1, 2, 3)) if s.drawn is None and s.stones else None
    def chance_action(self, s: Pile, outcome: int) -> tuple[str, int]: return ("draw", outcome)
    def legal_actions(self, s: Pile) -> list[tuple[str, int]]:
        return [("take", n) for n in range(1, min(s.drawn or 0, s.stones) + 1)]
    def apply(self, s: Pile, a: tuple[str, int]) -> tuple[Pile, list[str]]:
        if a[0] == "draw":
            return s._replace(drawn=a[1]), [f"drew {a[1]}"]
        return Pile(s.stones - a[1], 1 - s.turn if s.stones > a[1] else s.turn), [f"took {a[1]}"]
    def is_over(self, s: Pile) -> bool: return s.stones == 0
    def winners(self, s: Pile) -> tuple[int, ...]: return (s.turn,) if s.stones == 0 else ()


def test_it_plays_any_game_even_a_ten_line_one():
    game = drive(PileGame(), 20, random.Random(3))
    assert game.state is not None and game.state.stones == 0
    taken = [a[1] for a in game.steps if a[0] == "take"]
    assert sum(taken) == 20 and game.chances == len(taken)  # one draw before every take
    assert all(a[1] <= d[1] for d, a in zip(game.steps[::2], game.steps[1::2], strict=True))
    assert game.winners == (game.state.turn,) and game.winner == game.state.turn
    assert len(game.events) == len(game.steps)


def test_the_same_seed_plays_the_same_game_and_other_seeds_others():
    a = drive(PileGame(), 30, random.Random(7))
    assert drive(PileGame(), 30, random.Random(7)) == a
    assert any(drive(PileGame(), 30, random.Random(s)).steps != a.steps for s in range(8, 12))


def test_a_game_that_does_not_end_in_time_raises():
    with pytest.raises(RuntimeError, match="did not end within 5 actions"):
        drive(PileGame(), 1000, random.Random(1), max_actions=5)


def test_steps_yields_every_applied_action_with_its_states():
    out = list(steps(PileGame(), 6, random.Random(2)))
    assert out[0].before == Pile(6) and out[0].chance and not out[1].chance
    assert all(a.after == b.before for a, b in zip(out, out[1:], strict=False))
    assert out[-1].after.stones == 0


def test_chance_outcomes_are_sampled_from_what_the_node_waits_for():
    rng = random.Random(4)
    rolls = Counter(sample(ROLL, rng) for _ in range(6000))
    assert set(rolls) == {1, 2, 3, 4, 5, 6} and min(rolls.values()) > 850
    assert {sample(Chance(ChanceKind.DRAW, (7, 9)), rng) for _ in range(50)} == {7, 9}
    order = sample(Chance(ChanceKind.SHUFFLE, size=48), rng)
    assert isinstance(order, tuple) and sorted(order) == list(range(48))
    assert order != tuple(range(48))
    with pytest.raises(ValueError):
        sample(Chance(ChanceKind.DRAW), rng)


def test_the_random_chooser_draws_nothing_for_a_single_choice():
    rng = random.Random(5)
    choose = random_chooser(rng)
    state = rng.getstate()
    assert choose(None, ["only"]) == "only" and rng.getstate() == state
    picks = Counter(choose(None, "abc") for _ in range(3000))
    assert set(picks) == set("abc") and min(picks.values()) > 850


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_whole_games_of_clovece(players):
    setup = clovece.Setup(players)
    game = drive(clovece.GAME, setup, random.Random(players))
    assert game.state is not None and clovece.GAME.is_over(game.state)
    assert game.winner == game.state.pos.winner is not None
    assert game.rolls == game.chances == sum(isinstance(a, clovece.Roll) for a in game.steps)
    folded = replay(clovece.GAME, [clovece.GAME.setup_record(setup),
                                   *(clovece.GAME.encode(a) for a in game.steps)])
    assert folded.state == game.state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_over_the_protocol_clovece_plays_the_fast_paths_game_for_the_same_seed(seed):
    fast = play_game(4, frozenset(), random.Random(seed), record=True)
    slow = drive(clovece.GAME, clovece.Setup(4), random.Random(seed))
    assert slow.steps == fast.steps and slow.state == fast.state
    assert slow.winners == fast.winners and slow.rolls == fast.rolls


@pytest.mark.parametrize("seats", [2, 4])
def test_it_plays_whole_games_of_gobbit(seats):
    game = drive(gobbit.GAME, gobbit.Setup(seats), random.Random(seats))
    assert game.state is not None and game.state.over
    assert isinstance(game.steps[0], Deal) and game.chances == 1
    # the random chooser takes only what legal_actions lists: flips, discards, the finish
    assert all(isinstance(a, Flip | Discard | Finish) for a in game.steps[1:])
    assert sum(isinstance(a, Flip) for a in game.steps) >= len(game.state.graveyard)
    assert game.winners == gobbit.GAME.winners(game.state)


def test_a_record_without_a_single_winner_has_no_winner():
    assert GameRecord((1, 3), 0).winner is None and GameRecord((), 0).winner is None
    assert GameRecord((2,), 5).winner == 2 and GameRecord((2,), 5).rolls == 5
