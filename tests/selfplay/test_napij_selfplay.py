"""Random self-play: seeded games never reach an invalid position, keep their pieces, round
trip through the notation, end, and replay exactly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.napij.actions import Play, Throw
from companion.engines.napij.notation import format_position, parse_position
from companion.engines.napij.reasons import Why
from companion.engines.napij.rules import apply, legal_plays, preview, problems, why_not
from companion.engines.napij.state import PIECES, Phase
from companion.selfplay.napij import (
    MAX_ACTIONS,
    Habits,
    play_game,
    play_steps,
    replay,
    selfplay,
    shuffled_deck,
)
from tests.engines.napij.helpers import RULES

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=5, deadline=None)
@given(seeds, st.sampled_from([2, 3, 4]))
def test_random_games_stay_valid_keep_their_pieces_and_round_trip(seed, players):
    rng = random.Random(seed)
    steps = 0
    for before, action, after, _events in play_steps(rng, players):
        steps += 1
        assert problems(after) == [], (format_position(before), action)
        assert all(len(p) == PIECES for p in after.pieces if p is not None)
        assert len(after.colours) == players
        text = format_position(after)
        assert parse_position(text) == after
        if isinstance(action, Play):
            assert action in legal_plays(before)
        if after.phase is Phase.PLAY and steps % 5 == 0:
            for p in legal_plays(after):
                assert why_not(after, p).why is Why.LEGAL
                preview(after, p)
    assert after.winner is not None and steps < MAX_ACTIONS


@settings(max_examples=4, deadline=None)
@given(seeds)
def test_the_same_seed_replays_the_same_game(seed):
    a = play_game(4, random.Random(seed), record=True)
    b = play_game(4, random.Random(seed), record=True)
    assert a.steps == b.steps and a.final == b.final and a.winner == b.winner
    deck = shuffled_deck(RULES, random.Random(seed))
    assert replay(a.steps, deck) == a.final


def test_games_end_and_someone_wins_with_every_player_count():
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        rec = play_game(players, random.Random(seed))
        assert rec.winner is not None and rec.throws > 0
        assert set(rec.drinks) == set(rec.final.colours if rec.final else ())


def test_table_habits_show_up_in_the_game():
    rng = random.Random(5)
    voids = bottles = 0
    for _b, _action, _a, events in play_steps(rng, habits=Habits(forget_to_drink=0.5,
                                                                play_bottle=0.3)):
        voids += sum(1 for e in events if type(e).__name__ == "VoidThrow")
        bottles += sum(1 for e in events if type(e).__name__ == "BottleDeclared")
    assert voids > 0 and bottles > 0
    quiet = Habits(forget_to_drink=0.0, call_duty=0.0, play_bottle=0.0)
    for _b, _action, _a, events in play_steps(random.Random(5), habits=quiet):
        assert not any(type(e).__name__ in ("VoidThrow", "BottleDeclared") for e in events)


def test_selfplay_counts_games_and_wins():
    result = selfplay(2, seed=3, players=2)
    assert result.games == 2 and sum(result.wins.values()) == 2
    assert result.throws > 0 and result.games_per_s > 0 and result.drinks > 0


def test_a_throw_is_always_accepted_in_the_throw_phase():
    state = parse_position("r:m20,p,p,p g:p,p,p,p bottle:m60 turn:r")
    for v in range(1, 7):
        after, events = apply(state, Throw(v))
        assert events and not problems(after)
