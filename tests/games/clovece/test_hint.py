"""The hint: the strong level's move and one true reason in Czech."""

from __future__ import annotations

import random

import pytest

from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import BLUE, GREEN, HOUSE, apply, legal_moves, new_game
from companion.games.clovece.hint import Why, explain, hint, reason_words
from companion.games.clovece.strong import attackers, choose


@pytest.mark.parametrize("position, roll, why, words", [
    ("r:5,15,f1,f2 g:8,h,h,h turn:r", 3, Why.CAPTURE, "vyhodí zeleného"),
    ("r:37,15,h,h g:30,h,h,h turn:r", 3, Why.GOAL, "jde do cíle"),
    ("r:12,22,h,h g:8,h,h,h turn:r", 4, Why.ESCAPE, "uteče zelenému"),
    ("r:10,h,h,h b:h,h,h,h g:h,h,h,h y:h,h,h,h turn:r", 6, Why.ONLY, "jiný tah není"),
])
def test_the_hint_names_the_strong_move_and_why(position, roll, why, words):
    pos = parse_position(position)
    advice = hint(pos, roll)
    assert advice is not None and advice.move == choose(pos, roll)
    assert advice.why is why and advice.reason == words


def test_an_escape_names_the_opponent_it_leaves_behind():
    pos = parse_position("r:32,5,h,h b:28,h,h,h turn:r")  # blue's 28 is 4 behind red's 32
    assert attackers(pos, 0, 32) == [BLUE]
    advice = explain(pos, 5, next(m for m in legal_moves(pos, 5) if m.frm == 32))
    assert (advice.why, advice.colour, advice.reason) == (Why.ESCAPE, BLUE, "uteče modrému")


def test_moving_the_threatened_piece_within_reach_is_no_escape():
    pos = parse_position("r:32,5,h,h b:28,h,h,h turn:r")
    move = next(m for m in legal_moves(pos, 1) if m.frm == 32)  # 33: blue still 5 behind
    assert explain(pos, 1, move).why is not Why.ESCAPE


def test_no_hint_without_a_legal_move():
    assert hint(parse_position("r:h,h,h,h g:h,h,h,h turn:r"), 3) is None


def test_every_reason_has_words_and_names_its_colour():
    for why in Why:
        assert reason_words(why) and reason_words(why) == reason_words(why).lower()
    assert reason_words(Why.CAPTURE, GREEN) == "vyhodí zeleného"
    assert reason_words(Why.THREATEN, GREEN) == "dostane na dosah zeleného"


def test_every_hint_of_seeded_games_is_true_of_its_move():
    rng = random.Random(6)
    seen = set()
    for _ in range(6):
        pos = new_game(4)
        while pos.winner is None:
            roll = rng.randint(1, 6)
            advice = hint(pos, roll)
            moves = legal_moves(pos, roll)
            if advice is not None:
                m = advice.move
                seen.add(advice.why)
                if advice.why is Why.ONLY:
                    assert len(moves) == 1
                elif advice.why is Why.CAPTURE:
                    assert m.capture == advice.colour
                elif advice.why is Why.GOAL:
                    assert m.frm < 40 <= m.to
                elif advice.why is Why.ESCAPE:
                    assert advice.colour in attackers(pos, m.colour, m.frm)
                elif advice.why is Why.ENTER:
                    assert m.frm == HOUSE
            pos, _ = apply(pos, roll, rng.choice(moves) if moves else None)
    assert {Why.ONLY, Why.CAPTURE, Why.GOAL, Why.ESCAPE} <= seen
