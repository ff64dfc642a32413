"""Random self-play through the generic driver with a table's habits: seeded games never reach
an invalid position, keep their pieces, round trip through the notation, end, and replay
exactly from their journal records."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.game import replay
from companion.games.napij.engine.actions import (
    DeclareBottle,
    Drank,
    Draw,
    Duty,
    Play,
    Shuffle,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.events import VoidThrow
from companion.games.napij.engine.game import GAME, Setup
from companion.games.napij.engine.notation import format_position, parse_position
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import apply, legal_plays, preview, problems, why_not
from companion.games.napij.engine.state import PIECES, DeckMode, Phase
from companion.games.napij.selfplay import (
    MAX_ACTIONS,
    QUIET,
    Habits,
    TableChooser,
    play_game,
    play_steps,
    selfplay,
)
from companion.selfplay.driver import play as drive

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
    records = [GAME.setup_record(Setup(4)), *(GAME.encode(x) for x in a.steps)]
    assert replay(GAME, records).state == a.final


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
    for _b, _action, _a, events in play_steps(random.Random(5), habits=QUIET):
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


def test_it_is_a_chooser_for_the_generic_driver_with_the_tables_habits():
    rng = random.Random(9)
    chooser = TableChooser(rng, Habits(forget_to_drink=0.3, call_duty=0.02, play_bottle=0.2))
    game = drive(GAME, Setup(4), rng, chooser)
    assert game.state is not None and GAME.is_over(game.state)
    kinds = {type(a) for a in game.steps}
    assert {ThrowOwing, Drank, Duty, DeclareBottle, Throw, Play} <= kinds
    voids = sum(isinstance(e, VoidThrow) for e in game.events)
    assert voids == sum(isinstance(a, ThrowOwing) for a in game.steps) > 0
    # the habits come in through the chooser: not one of them is chance
    assert game.chances == sum(isinstance(a, Throw | Shuffle) for a in game.steps)


def test_a_printed_deck_is_the_pile_on_the_table_and_plays_the_virtual_decks_game():
    virtual = play_game(2, random.Random(3), record=True)
    table = play_game(2, random.Random(3), record=True, deck=DeckMode.PHYSICAL)
    drawn = [a for a in table.steps if isinstance(a, Draw)]
    assert drawn and table.final is not None and virtual.final is not None
    assert table.final.pieces == virtual.final.pieces and table.winner == virtual.winner
    assert [a for a in table.steps if not isinstance(a, Draw)] == virtual.steps[1:]
