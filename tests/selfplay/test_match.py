"""Matches between computer levels: seats, rotation, seeds, shares and their intervals."""

from __future__ import annotations

import pytest

from companion.engines.colours import BLUE, GREEN, RED, YELLOW
from companion.games import find_game
from companion.games.clovece.selfplay import match_game
from companion.selfplay.match import (
    RANDOM,
    game_seed,
    kind_name,
    play_one,
    run_match,
    seat_kind,
    seating,
    wilson,
)


def test_a_seat_is_random_or_a_level_in_any_spelling():
    assert seat_kind("random") == RANDOM and seat_kind(" Random ") == RANDOM
    assert seat_kind("silný") == seat_kind("silny") == seat_kind("strong") == "strong"
    assert kind_name("strong") == "silný" and kind_name(RANDOM) == "random"
    with pytest.raises(ValueError, match="random or a level"):
        seat_kind("expert")


def test_wilsons_interval_holds_the_share_and_narrows_with_games():
    lo, hi = wilson(90, 100)
    assert lo < 0.9 < hi and round(lo, 3) == 0.826 and round(hi, 3) == 0.945
    lo4, hi4 = wilson(3600, 4000)
    assert hi4 - lo4 < 0.02 and lo4 < 0.9 < hi4
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_rotation_sits_every_kind_in_every_colour_equally_often():
    kinds = ["strong", RANDOM, RANDOM, RANDOM]
    where = [next(c for c, k in seating(kinds, i, True).items() if k == "strong")
             for i in range(8)]
    assert sorted(where) == sorted([RED, BLUE, GREEN, YELLOW] * 2)
    assert seating(["strong", RANDOM], 1, True) == {RED: RANDOM, GREEN: "strong"}
    assert all(seating(kinds, i, False)[RED] == "strong" for i in range(4))


def test_a_game_is_the_same_for_its_seed_and_index_wherever_it_is_played():
    a = [play_one(match_game, ["strong", RANDOM], 3, i, True) for i in range(6)]
    b = [play_one(match_game, ["strong", RANDOM], 3, i, True) for i in range(6)]
    assert a == b and set(a) <= {"strong", RANDOM}
    assert game_seed(3, 1) != game_seed(1, 3)


def test_a_match_counts_wins_by_kind_and_does_not_depend_on_the_workers():
    one = run_match("clovece", match_game, ["strong", "beginner"], 30, seed=5, workers=1, chunk=7)
    two = run_match("clovece", match_game, ["strong", "beginner"], 30, seed=5, workers=2, chunk=4)
    assert one.wins == two.wins and sum(one.wins.values()) + one.unfinished == 30
    assert one.share("strong") > one.share("beginner")  # seeded: the same every run
    lines = one.lines()
    assert lines[0].startswith("clovece: 30 games, 2 players (silný, začátečník), seats rotated")
    assert lines[1].lstrip().startswith("silný") and "95 % interval" in lines[1]


def test_a_kind_in_several_seats_shares_its_wins():
    r = run_match("clovece", match_game, ["strong", RANDOM, RANDOM, RANDOM], 8, seed=2, workers=1)
    assert r.seats(RANDOM) == 3 and sum(r.wins.values()) == 8
    assert "3 seats" in next(line for line in r.lines()[1:] if "random" in line)


def test_a_game_without_levels_has_no_match_and_a_wrong_count_of_seats_is_refused():
    assert find_game("gobbit").match is None  # no computer levels: no match
    with pytest.raises(ValueError, match="2 to 4"):
        run_match("clovece", match_game, ["strong"], 2, workers=1)
