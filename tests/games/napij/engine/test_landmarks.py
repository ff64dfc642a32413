"""Words that point at one field: every phrase of the places reads back, through a resolver of
its own, to exactly the field it names; landmarks count at most three fields; the board file
may name fields (labels)."""

from __future__ import annotations

import random

import pytest

from companion.games.napij.engine.actions import Play
from companion.games.napij.engine.board import default_board_text, parse_board
from companion.games.napij.engine.deck import default_deck
from companion.games.napij.engine.landmarks import (
    MAX_COUNT,
    PUB_FIELD,
    Case,
    gazetteer,
    landmark_count,
    phrase,
    resolve,
)
from companion.games.napij.engine.places import move_lines, step_path
from companion.games.napij.engine.state import BOTTLE, PUB, Rules
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import RULES, G, node

GAMES = 200
QUICK_GAMES = 20  # make test: every kind of play shows up in 20 games; the 200 run in test-long


def _field(n: int) -> int:
    return PUB_FIELD if n == PUB else G.field[n]


def test_every_place_of_the_board_reads_back_to_its_own_field_in_every_case():
    board = RULES.board
    for owner in range(4):
        own = {*board.lane[owner], board.rolling_pin[owner], *board.home[owner]}
        for n in range(G.nodes):
            f = G.field[n]
            if board.area[f] == "lane" and f not in own:
                continue  # another colour's lane and home: never this colour's place
            for case in Case:
                words = phrase(RULES, n, case, owner)
                assert resolve(RULES, words, owner) == {f}, (G.text[n], owner, case, words)
    assert resolve(RULES, "z hospody", 0) == {PUB_FIELD}
    assert resolve(RULES, "na kartě", 0) == set()  # twelve card fields: no words for one


def test_the_resolver_reads_the_grammar_not_a_list_of_the_phrases():
    assert resolve(RULES, "na 2. pole za modrou šipkou", 0) == {G.field[node("m25")]}
    assert resolve(RULES, "z 3. pole před modrým stanovištěm", 2) == {G.field[node("m21")]}
    assert resolve(RULES, "na 40. poli od svého stanoviště", 1) == {G.field[node("m64")]}
    assert resolve(RULES, "na 2. poli domku", 3) == {RULES.board.home[3][1]}
    # words for a landmark that is not distinctive mean every field they fit
    assert len(resolve(RULES, "na rozcestí", 0)) == 0
    assert resolve(RULES, "na 9. poli Černé stezky od modré strany", 0) == set()


def test_landmarks_are_the_distinctive_ones():
    kinds = sorted(m.kind for m in gazetteer(RULES).marks)
    assert kinds == ["arrow"] * 4 + ["junction"] * 6 + ["start"] * 4


def test_a_family_names_fields_of_their_print_with_labels():
    text = default_board_text().replace(
        'm17 = { kind = "normal", at = [0, 3], next = "m18" }',
        'm17 = { kind = "normal", at = [0, 3], next = "m18", label = "Studna" }')
    rules = Rules(parse_board(text, "labels.toml"), default_deck())
    g = rules.graph
    m17, m19 = g.node_of("m17"), g.node_of("m19")
    assert phrase(rules, m17, Case.AT, 0) == "na poli „Studna“"
    assert phrase(rules, m17, Case.FROM, 0) == "z pole „Studna“"
    assert phrase(rules, m19, Case.TO, 1) == "na 2. pole za polem „Studna“"
    assert resolve(rules, "na 2. pole za polem „Studna“", 1) == {g.field[m19]}


def test_two_fields_with_one_label_are_refused_by_the_board_check():
    text = default_board_text()
    for fid in ("m17", "m57"):
        line = next(x for x in text.splitlines() if x.startswith(f"{fid} = "))
        text = text.replace(line, line.replace(" }", ', label = "Studna" }'))
    with pytest.raises(Exception, match="label"):
        parse_board(text, "twice.toml")


@pytest.mark.parametrize("games", [QUICK_GAMES, pytest.param(GAMES, marks=pytest.mark.long)])
def test_d49_every_play_of_seeded_games_says_each_end_in_words_that_mean_that_field(games):
    """Every play made in seeded 4-player games (200 in test-long), through the words:
    source and target words differ, each resolves to exactly its field, and no landmark
    phrase counts more than three fields."""
    plays = 0
    for seed in range(games):
        for before, action, _after, _events in play_steps(random.Random(seed), 4):
            if not isinstance(action, Play):
                continue
            c = before.turn
            own = before.pieces[c]
            assert own is not None
            lines = move_lines(before, action)
            for step, line in zip(action.steps, lines, strict=True):
                frm = before.bottle if step.piece == BOTTLE else own[step.piece]
                to = step_path(before, step)[-1]
                source = phrase(RULES, frm, Case.FROM, c)
                goal = phrase(RULES, to, Case.TO, c)
                assert source != goal, line
                assert resolve(RULES, source, c) == {_field(frm)}, (line, source)
                assert resolve(RULES, goal, c) == {_field(to)}, (line, goal)
                assert landmark_count(source) <= MAX_COUNT and landmark_count(goal) <= MAX_COUNT
                assert f"{source} → {goal}" in line, line
                plays += 1
    assert plays > games * 300
