"""Člověče, napij se! on the game protocol: set-up headers, chance, records, replays, Czech."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.engines.errors import NotationError, RulesError
from companion.engines.game import ROLL, ChanceKind, replay
from companion.games import find_game
from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Later,
    Offer,
    Play,
    Shuffle,
    Step,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.board import default_board_text
from companion.games.napij.engine.deck import default_deck_text
from companion.games.napij.engine.events import (
    DeckShuffled,
    OwingThrow,
    Settled,
    Thrown,
    VoidThrow,
)
from companion.games.napij.engine.game import GAME, Setup, file_hash
from companion.games.napij.engine.state import BOTTLE, DeckMode, DrinkReason, Phase, State
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import BLUE_TO_M28, landing, node, pos, with_top

R, B, GR, Y = 0, 1, 2, 3
CZECH = re.compile("[áčďéěíňóřšťúůýž]", re.I)


def records_of(setup: Setup, seed: int) -> tuple[list[dict[str, object]], State]:
    """A whole seeded game played directly, as a journal (JSON text and back), and its end."""
    records: list[dict[str, object]] = [GAME.setup_record(setup)]
    final = None
    for _before, action, after, _events in play_steps(random.Random(seed), setup.players,
                                                      deck=setup.deck_mode):
        records.append(json.loads(json.dumps(GAME.encode(action))))
        final = after
    assert final is not None and final.winner is not None
    return records, final


def test_the_registry_finds_this_game():
    assert find_game("napij").engine() is GAME
    assert GAME.name == "napij" and GAME.title == "Člověče, napij se!"


# --- replays ----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [DeckMode.VIRTUAL, DeckMode.PHYSICAL])
def test_a_whole_seeded_game_replays_from_its_journal(mode):
    setup = Setup(players=3, deck_mode=mode)
    records, final = records_of(setup, seed=7)
    kinds = {r["t"] for r in records[1:]}
    assert {"throw", "play", "drank"} <= kinds
    assert ("shuffle" in kinds) is (mode is DeckMode.VIRTUAL)
    assert ("draw" in kinds) is (mode is DeckMode.PHYSICAL)
    done = replay(GAME, records)
    assert done.error is None and done.used == len(records)
    assert done.state == final and GAME.is_over(done.state)
    assert GAME.winners(done.state) == (final.winner,)


def test_a_replay_keeps_the_longest_good_prefix():
    records, _final = records_of(Setup(players=2), seed=4)
    broken = records[:20] + [{"t": "throw", "v": 9}] + records[20:]
    done = replay(GAME, broken)
    assert done.used == 20 and done.error is not None and done.error.code == "bad-value"


def test_the_protocol_alone_plays_a_game_to_its_end():
    """Chance from a seeded generator, decisions from legal_actions, debts settled by the
    table: nothing but the protocol's methods."""
    rng = random.Random(5)
    state = GAME.new_game(Setup(players=2, deck_mode=DeckMode.PHYSICAL))
    seen = set()
    for _ in range(20_000):
        if GAME.is_over(state):
            break
        chance = GAME.chance(state)
        seen.add(chance.kind if chance else GAME.to_move(state))
        if state.phase is Phase.THROW and state.debt(state.turn):
            action: Action = Drank(state.turn)
        elif chance is not None:
            action = GAME.chance_action(state, rng.choice(chance.outcomes))
        else:
            assert GAME.to_move(state) is not None
            action = rng.choice(GAME.legal_actions(state))
        assert GAME.why_not(state, action) is None
        state, _events = GAME.apply(state, action)
    assert GAME.is_over(state) and GAME.chance(state) is None
    assert {ChanceKind.ROLL, ChanceKind.DRAW, R, GR} <= seen


# --- chance, who acts, what is legal ------------------------------------------------------------

def test_a_virtual_game_starts_with_the_shuffle():
    state = GAME.new_game(Setup(players=2))
    chance = GAME.chance(state)
    assert chance is not None and chance.kind is ChanceKind.SHUFFLE and chance.size == 32
    assert GAME.to_move(state) is None and GAME.legal_actions(state) == []
    order = list(range(32))
    random.Random(1).shuffle(order)
    shuffle = GAME.chance_action(state, order)
    assert isinstance(shuffle, Shuffle)
    assert shuffle.order == tuple(state.rules.deck.numbers[i] for i in order)
    for bad in ([0] * 32, list(range(31)), 3):
        with pytest.raises(NotationError):
            GAME.chance_action(state, bad)
    after, events = GAME.apply(state, shuffle)
    assert events == [DeckShuffled(32)]
    # everybody owes the opening drink: red decides first (settle, or throw anyway)
    assert GAME.chance(after) is None and GAME.to_move(after) == R
    assert GAME.legal_actions(after) == [Drank(R), ThrowOwing()]
    after, _ = GAME.apply(after, Drank(R))
    assert GAME.chance(after) == ROLL and GAME.to_move(after) is None
    assert GAME.chance_action(after, 6) == Throw(6)
    with pytest.raises(NotationError):
        GAME.chance_action(after, 7)


def test_who_acts_and_what_is_legal_in_each_phase():
    throw = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    assert GAME.to_move(throw) is None
    assert GAME.legal_actions(throw) == [Throw(v) for v in range(1, 7)] + [DeclareBottle()]
    playing = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r throws:3")
    assert GAME.to_move(playing) == R and GAME.chance(playing) is None
    assert GAME.legal_actions(playing) == [Play((Step(0, (3,)),))]
    choosing, _ = landing(BLUE_TO_M28, "m25=3", 10)
    assert GAME.to_move(choosing) == B
    assert set(GAME.legal_actions(choosing)) == {Choose(R, 0), Choose(GR, 0)}
    offering, _ = landing(BLUE_TO_M28, "m25=3", 27)  # offered a knock-out: blue picks
    assert GAME.to_move(offering) == B
    assert GAME.legal_actions(offering) == [Offer(R), Offer(GR)]
    answering, _ = GAME.apply(offering, Offer(GR))
    assert GAME.to_move(answering) == GR and answering.turn == B
    assert GAME.legal_actions(answering) == [Choose(GR, 0), Decline(GR)]
    drawing = pos("r:m40,p,p,p b:m28,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:physical "
                  "draw:b1@m28#0")
    chance = GAME.chance(drawing)
    assert chance is not None and chance.kind is ChanceKind.DRAW
    assert chance.outcomes == drawing.rules.deck.numbers
    assert GAME.legal_actions(drawing) == [Draw(n) for n in chance.outcomes]
    assert GAME.chance_action(drawing, 12) == Draw(12)
    over = pos("r:rh1,rh2,rh3,rh4 g:m20,p,p,p bottle:m60 turn:r owe:g1 winner:r")
    assert GAME.legal_actions(over) == [] and GAME.to_move(over) is None
    with pytest.raises(RulesError):
        GAME.chance_action(over, 3)


def test_while_the_player_on_turn_owes_the_state_waits_for_that_players_decision():
    owing = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r owe:r2@card.5,g1@start")
    assert GAME.chance(owing) is None and GAME.to_move(owing) == R
    assert GAME.legal_actions(owing) == [Drank(R), ThrowOwing()]
    settled, events = GAME.apply(owing, Drank(R))
    assert events == [Settled(R, 2, 0)] and GAME.chance(settled) == ROLL
    anyway, events = GAME.apply(owing, ThrowOwing())
    assert events == [OwingThrow(R)] and anyway.anyway
    assert GAME.chance(anyway) == ROLL and GAME.to_move(anyway) is None
    assert "throw:owing" in GAME.format(anyway).split()
    void, events = GAME.apply(anyway, GAME.chance_action(anyway, 6))
    assert VoidThrow(R, 6) in events and not void.anyway and void.owed[R] == 4
    assert GAME.to_move(void) == R and GAME.legal_actions(void) == [Drank(R), ThrowOwing()]
    with pytest.raises(RulesError):
        GAME.apply(anyway, ThrowOwing())  # said once, then chance
    with pytest.raises(RulesError):
        GAME.apply(settled, ThrowOwing())  # nothing is due
    later = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r throws:6 owe:r1@card.5^")
    assert GAME.chance(later) == ROLL  # incurred in this turn: due only next turn (D22)


def test_the_tables_call_outs_are_accepted_whenever_legal_but_never_listed():
    choosing, _ = landing(BLUE_TO_M28, "m25=3", 10)
    over = pos("r:rh1,rh2,rh3,rh4 g:m20,p,p,p bottle:m60 turn:r owe:g1 winner:r")
    for state in (choosing, over):
        listed = GAME.legal_actions(state)
        duty = Duty(GR, DrinkReason.UPSET)
        assert duty not in listed and Drank(GR) not in listed
        after, _ = GAME.apply(state, duty)
        assert after.owed[GR] == state.owed[GR] + 1 and after.phase is state.phase
        after, events = GAME.apply(after, Drank(GR))
        assert events == [Settled(GR, after.drunk[GR], 0)] and after.phase is state.phase


def test_why_not_is_one_czech_sentence_or_none():
    playing = pos("r:m20,m23,p,p g:m30,p,p,p bottle:m25 turn:r throws:3")
    assert GAME.why_not(playing, Play((Step(1, (3,)),))) is None
    text = GAME.why_not(playing, Play((Step(0, (3,)),)))
    assert text == "Figurka by skončila na poli, kde už stojí tvoje vlastní figurka."
    for action in (Throw(4), Drank(R), Draw(3), Shuffle((1,)), Choose(GR, 0)):
        text = GAME.why_not(playing, action)
        assert text and text.endswith(".") and CZECH.search(text) and text.count(". ") == 0


def test_describe_says_each_event_in_czech():
    state = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    after, events = GAME.apply(state, Throw(5))
    assert events[0] == Thrown(R, 5)
    assert GAME.describe(events[0], after) == "Červený hodil pětku."


def test_parse_and_format_are_the_notation():
    text = "r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r throws:6,3 deck:physical"
    assert GAME.format(GAME.parse(text)) == text
    with pytest.raises(NotationError):
        GAME.parse("r:m20 turn:r")


# --- records ------------------------------------------------------------------------------------

def every_kind_of_action() -> list[tuple[State, Action]]:
    throw = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    split = pos("r:m12,m10,p,p g:p,p,p,p bottle:m60 turn:r throws:6,3")
    choosing, _ = landing(BLUE_TO_M28, "m25=3", 10)
    offering, _ = landing(BLUE_TO_M28, "m25=3", 27)
    return [
        (throw, Throw(4)),
        (throw, DeclareBottle()),
        (pos("r:p,p,p,p g:p,p,p,p turn:r deck:unshuffled"), Shuffle((3, 1, 2))),
        (pos(with_top(BLUE_TO_M28, 1)), Draw(17)),
        (split, Play((Step(0, (6,)), Step(1, (3,), node("c1+"))))),
        (split, Play((Step(2, (6, 3)),))),
        (pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r with:bottle throws:5"),
         Play((Step(BOTTLE, (5,)),))),
        (choosing, Choose(GR, 0)),
        (offering, Offer(GR)),
        (offering, Decline(GR)),
        (throw, Drank(Y)),
        (throw, Drank(Y, DrinkReason.CARD)),
        (throw, Later(B, DrinkReason.KNOCKED_OUT)),
        (throw, ThrowOwing()),
        (throw, Duty(B, DrinkReason.DROPPED_DICE)),
    ]


def test_every_kind_of_action_round_trips_through_its_record():
    cases = every_kind_of_action()
    assert {type(a) for _s, a in cases} == set(Action.__args__)  # type: ignore[attr-defined]
    for state, action in cases:
        record = GAME.encode(action)
        text = json.dumps(record)
        assert len(text) < 120 and "\n" not in text
        assert GAME.decode(json.loads(text), state) == action


def test_records_are_compact_and_readable():
    assert GAME.encode(Throw(5)) == {"t": "throw", "v": 5}
    assert GAME.encode(Choose(GR, 1)) == {"t": "choose", "piece": "g2"}
    assert GAME.encode(Offer(Y)) == {"t": "offer", "c": "y"}
    assert GAME.encode(Decline(R)) == {"t": "decline", "c": "r"}
    assert GAME.encode(Duty(R, DrinkReason.UPSET)) == {"t": "duty", "c": "r", "why": "upset"}
    assert GAME.encode(Drank(R)) == {"t": "drank", "c": "r"}
    assert GAME.encode(Drank(R, DrinkReason.START)) == {"t": "drank", "c": "r", "why": "start"}
    assert GAME.encode(Later(GR, DrinkReason.CARD)) == {"t": "later", "c": "g", "why": "card"}
    assert GAME.encode(ThrowOwing()) == {"t": "throw-owing"}
    assert GAME.encode(Play((Step(BOTTLE, (6, 2)),))) == {"t": "play",
                                                          "steps": [["bottle", [6, 2]]]}


@pytest.mark.parametrize("record", [
    {"t": "jump"}, {"t": "throw"}, {"t": "throw", "v": "5"}, {"t": "throw", "v": True},
    {"t": "draw", "card": None}, {"t": "shuffle", "order": "1,2"}, {"t": "play"},
    {"t": "play", "steps": []}, {"t": "play", "steps": [[5, [3]]]},
    {"t": "play", "steps": [[1, 3]]}, {"t": "play", "steps": [[1, [3], 99999]]},
    {"t": "choose", "piece": "x1"}, {"t": "choose", "piece": "g5"}, {"t": "drank", "c": 2},
    {"t": "duty", "c": "r", "why": "home"}, {"t": "offer", "c": 1}, {"t": "decline"},
    {"t": "drank", "c": "r", "why": "beer"}, {"t": "later", "c": "r"},
])
def test_unreadable_records_are_one_sentence(record):
    state = pos("r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r")
    with pytest.raises(NotationError) as exc:
        GAME.decode(record, state)
    assert str(exc.value).endswith(".") and "\n" not in str(exc.value)


# --- the header ---------------------------------------------------------------------------------

def test_the_header_round_trips_and_makes_the_same_game():
    setup = Setup(players=3, first=B, deck_mode=DeckMode.PHYSICAL)
    record = GAME.setup_record(setup)
    assert record == {"t": "game", "game": "napij", "players": 3, "first": "b",
                      "deck": "physical", "board": "default",
                      "board_hash": file_hash(default_board_text()), "cards": "default",
                      "cards_hash": file_hash(default_deck_text())}
    back = GAME.setup_from_record(json.loads(json.dumps(record)))
    assert (back.players, back.first, back.deck_mode) == (3, B, DeckMode.PHYSICAL)
    assert back.board_hash == record["board_hash"] and back.deck_hash == record["cards_hash"]
    assert GAME.new_game(back) == GAME.new_game(setup)
    assert GAME.setup_record(back) == record
    assert GAME.setup_record(GAME.default_setup())["first"] == "r"


def test_a_family_board_file_is_named_and_hashed(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(default_board_text().replace('m12 = { kind = "normal"',
                                                 'm12 = { kind = "card"'), "utf-8")
    setup = Setup(players=2, board_file=str(path))
    record = GAME.setup_record(setup)
    assert record["board"] == str(path) and record["board_hash"] != file_hash(
        default_board_text())
    state = GAME.new_game(GAME.setup_from_record(record))
    assert state.rules.graph.is_card[node("m12")]
    assert GAME.with_rules(setup).parse("r:m12,p,p,p g:p,p,p,p bottle:m60 turn:r").rules \
        is state.rules


def test_a_resumed_game_refuses_a_file_that_changed_or_went_away(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text(default_deck_text(), "utf-8")
    record = GAME.setup_record(Setup(deck_file=str(path)))
    GAME.setup_from_record(record)  # unchanged: fine
    path.write_text(default_deck_text().replace("Napij se.", "Napij se pořádně."), "utf-8")
    with pytest.raises(NotationError) as exc:
        GAME.setup_from_record(record)
    assert str(exc.value) == (f"The deck file {path} has changed since this game began, so "
                              "the game cannot go on with it.")
    path.unlink()
    with pytest.raises(NotationError) as exc:
        GAME.setup_from_record(record)
    assert str(exc.value) == f"The deck file {path} cannot be read (there is no deck file here)."
    stale = dict(GAME.setup_record(Setup()), board_hash="0123456789ab")
    with pytest.raises(NotationError, match="board file default has changed"):
        GAME.setup_from_record(stale)


@pytest.mark.parametrize("change,words", [
    ({"game": "clovece"}, "not the header"),
    ({"t": "throw"}, "not the header"),
    ({"players": 5}, "2 to 4 players"),
    ({"players": True}, "2 to 4 players"),
    ({"first": "y", "players": 3}, "does not play"),
    ({"first": "x"}, "Unknown colour"),
    ({"deck": "shuffled"}, "virtual or physical"),
    ({"cards": None}, "needs cards"),
    ({"board_hash": ""}, "needs board_hash"),
])
def test_bad_headers_are_refused_with_one_sentence(change, words):
    record = dict(GAME.setup_record(Setup()), **change)
    with pytest.raises(NotationError) as exc:
        GAME.setup_from_record(record)
    assert words in str(exc.value) and str(exc.value).endswith(".")


def test_a_broken_data_file_is_one_sentence(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text(default_deck_text().replace('effect = "glass"', 'effect = "beer"'), "utf-8")
    with pytest.raises(NotationError) as exc:
        GAME.setup_record(Setup(deck_file=str(path)))
    assert str(exc.value).startswith(f"{path}:") and "effect must be one of" in str(exc.value)
