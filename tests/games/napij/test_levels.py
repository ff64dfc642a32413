"""napij se's computer seat at each level: legal decisions, pure choices, the strong race."""

from __future__ import annotations

import random

import pytest

from companion.games.napij import bot as napij_bot
from companion.games.napij.engine.actions import Choose, DeclareBottle, Drank, Play, Throw
from companion.games.napij.engine.game import GAME, Setup
from companion.games.napij.engine.notation import parse_position
from companion.games.napij.engine.rules import choices, legal_plays
from companion.games.napij.engine.state import Phase, default_rules
from companion.games.napij.levels import (
    Seat,
    beginner,
    decide,
    expected_way,
    opponents_on_main,
    race,
    strong_play,
    strong_target,
    strong_value,
    way_home,
)
from companion.games.napij.selfplay import play_steps
from companion.players.levels import LEVELS, Level
from companion.selfplay.driver import play

RULES = default_rules()
RED, GREEN = 0, 2


def decisions(games: int, seed: int) -> list:
    """Every state of seeded random games where somebody decides something."""
    out = []
    for g in range(games):
        for before, _action, _after, _events in play_steps(random.Random(seed + g), 2):
            if before.phase in (Phase.PLAY, Phase.CHOOSE):
                out.append(before)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_decides_legally_and_the_same_way_twice(level):
    for state in decisions(2, 40)[::4]:
        action = decide(level, state)
        legal = legal_plays(state) if state.phase is Phase.PLAY else choices(state)
        assert action in legal
        assert decide(level, state) == action


def test_normal_is_the_heuristic_the_table_always_had():
    for state in decisions(1, 7)[::3]:
        assert decide(Level.NORMAL, state) == napij_bot.decide(state)


def test_the_beginner_knocks_out_only_some_of_the_time():
    from companion.games.napij.levels import _captures  # noqa: PLC2701 (the test's own look)

    chances = []
    for state in decisions(12, 3):
        if state.phase is Phase.PLAY:
            plays = legal_plays(state)
            hits = [p for p in plays if _captures(state, p)]
            if hits and len(hits) < len(plays):
                chances.append(state)
    assert len(chances) > 40
    took = sum(_captures(s, beginner(s)) for s in chances) / len(chances)
    assert 0.4 < took < 0.95


def test_the_strong_race_counts_a_piece_in_front_of_an_opponent_as_at_risk():
    safe = parse_position("r:m20,p,p,p g:m10,p,p,p bottle:m60 turn:g", RULES)
    exposed = parse_position("r:m20,p,p,p g:m17,p,p,p bottle:m60 turn:g", RULES)
    assert race(exposed, RED) < race(safe, RED)
    assert strong_value(exposed, RED) < strong_value(safe, RED)


def test_the_expected_way_home_is_never_shorter_than_the_fewest_fields():
    g = RULES.graph
    for colour in (RED, GREEN):
        way, from_pub = expected_way(RULES, colour)
        fewest = RULES.distance(colour)
        assert way[g.home[colour][-1]] == 0
        reachable = [n for n in range(g.nodes) if fewest[n] < 10_000]
        assert all(way[n] >= fewest[n] - 1e-9 for n in reachable)
        assert from_pub > way[g.start[colour]]
        assert expected_way(RULES, colour) is expected_way(RULES, colour)  # cached
    way, _ = expected_way(RULES, RED)
    fewest = RULES.distance(RED)
    m9, m13 = g.node_of("m9"), g.node_of("m13")
    # the fewest fields count m10's stezka as taken from m9; a throw rarely stops on it
    assert fewest[m9] < fewest[m13] and way[m9] > way[m13]


def test_the_strong_level_stops_on_a_junction_rather_than_counting_on_hitting_one():
    # red on m9 is 1 field before the stezka's junction m10 and 4 before the shortcut's
    # junction m13: the normal level counts m10 as taken and will not move it past; the
    # strong one takes the 4 onto m13, which it reaches for certain
    state = parse_position("r:m9,m45,p,p g:m70,p,p,p bottle:m79 turn:r throws:4", RULES)
    best = strong_play(state)
    assert best is not None and best.steps[0].piece == 0
    normal = napij_bot.choose_play(state)
    assert normal is not None and normal.steps[0].piece == 1


def test_the_strong_level_knocks_out_the_piece_closest_to_home_as_it_expects_it():
    # card 10 of the default deck: knock out an opponent piece on the main track; green's
    # piece on m9 is no more fields from home than the one on m16 (the stezka from m10
    # counted as taken: the normal level takes the first), the one on m16 is nearer as the
    # throws will take them
    state = parse_position("r:m20,p,p,p g:m9,m16,p,p bottle:m79 turn:r card:10@r1#1", RULES)
    g = RULES.graph
    m9, m16 = g.node_of("m9"), g.node_of("m16")
    assert RULES.distance(GREEN)[m9] <= RULES.distance(GREEN)[m16]
    assert way_home(state, GREEN, m16) < way_home(state, GREEN, m9)
    assert napij_bot.choose_target(state) == Choose(GREEN, 0)
    assert strong_target(state) == decide(Level.STRONG, state) == Choose(GREEN, 1)


def test_the_opponents_on_the_main_track_are_found_by_field_not_the_pub():
    state = parse_position("r:m20,m50,p,p g:m17,p,p,p bottle:m70 turn:r", RULES)
    red, green = state.pieces[RED], state.pieces[GREEN]
    assert red is not None and green is not None
    assert opponents_on_main(state, RED) == {green[0]: GREEN}
    assert opponents_on_main(state, GREEN) == {red[0]: RED, red[1]: RED}


def test_the_strong_level_runs_from_a_piece_right_behind_it():
    # red on m20 has green 3 behind it; moving it 5 takes it out of reach, moving the far
    # piece leaves it there
    state = parse_position("r:m20,m50,p,p g:m17,p,p,p bottle:m70 turn:r throws:5", RULES)
    best = strong_play(state)
    assert best is not None and best.steps[0].piece == 0


def test_a_seat_drinks_when_it_owes_and_declares_its_bottle_before_throwing():
    seat = Seat(Level.STRONG)
    owing = parse_position("r:m5,p,p,p g:m30,p,p,p bottle:m60 turn:r owe:r2@card.4", RULES)
    assert GAME.owing(owing)
    assert seat(owing, GAME.legal_actions(owing)) == Drank(RED)
    bottle = parse_position("r:m5,p,p,p g:m62,m64,p,p bottle:m60 turn:r", RULES)
    assert seat.interject(bottle) == DeclareBottle() == napij_bot.decide(bottle)
    quiet = parse_position("r:m5,p,p,p g:m30,p,p,p bottle:m60 turn:r", RULES)
    assert seat.interject(quiet) is None
    assert Seat(Level.BEGINNER).interject(bottle) is None  # the beginner never plays it


def test_seats_of_every_level_finish_a_game_through_the_driver():
    seats = {RED: Seat(Level.STRONG), GREEN: Seat(Level.BEGINNER)}

    def choose(state, actions):
        who = GAME.to_move(state)
        return seats[who](state, actions)

    def interject(state):
        return seats[state.turn].interject(state)

    record = play(GAME, Setup(2), random.Random(5), choose, interject=interject)
    assert record.winner in (RED, GREEN)
    assert any(isinstance(a, Play) for a in record.steps)
    assert any(isinstance(a, Throw) for a in record.steps)
