"""napij se's hint: the strong level's play and one true reason."""

from __future__ import annotations

import random

from companion.games.napij.engine.actions import Offer
from companion.games.napij.engine.events import Captured, EnteredHome
from companion.games.napij.engine.notation import parse_position
from companion.games.napij.engine.rules import legal_plays, preview
from companion.games.napij.engine.state import Phase, default_rules
from companion.games.napij.hint import Why, card_hint, explain, hint, threats
from companion.games.napij.levels import decide, strong_play
from companion.games.napij.selfplay import play_steps
from companion.players.levels import Level

RULES = default_rules()
RED, GREEN = 0, 2


def test_a_knock_out_is_named_with_its_victim():
    state = parse_position("r:m5,m40,p,p g:m8,p,p,p bottle:m60 turn:r throws:3", RULES)
    advice = hint(state)
    assert advice is not None and advice.play == strong_play(state)
    assert advice.why is Why.CAPTURE and advice.reason == "vyhodí zeleného"


def test_an_escape_names_the_opponent_left_behind():
    state = parse_position("r:m20,m50,p,p g:m17,p,p,p bottle:m70 turn:r throws:5", RULES)
    assert threats(state, RED) == {0: {GREEN}}
    advice = hint(state)
    assert advice is not None and advice.why is Why.ESCAPE
    assert advice.reason == "uteče zelenému"


def test_no_hint_outside_the_play_phase():
    assert hint(parse_position("r:m5,p,p,p g:m8,p,p,p bottle:m60 turn:r", RULES)) is None


def test_every_hint_of_seeded_games_is_true_of_its_play():
    seen = set()
    for g in range(4):
        for before, _a, _after, _e in play_steps(random.Random(20 + g), 2):
            if before.phase is not Phase.PLAY:
                continue
            advice = hint(before)
            assert advice is not None and advice.play in legal_plays(before)
            seen.add(advice.why)
            events = preview(before, advice.play)
            if advice.why is Why.ONLY:
                assert len(legal_plays(before)) == 1
            elif advice.why is Why.CAPTURE:
                assert any(isinstance(e, Captured) and e.colour == advice.colour for e in events)
            elif advice.why is Why.HOME:
                assert any(isinstance(e, EnteredHome) for e in events)
            elif advice.why is Why.ESCAPE:
                assert advice.colour in set().union(*threats(before, before.turn).values())
    assert {Why.ONLY, Why.CAPTURE, Why.BEST} <= seen


def test_a_cards_answer_is_the_strong_levels_with_its_reason():
    for g in range(8):
        for before, _a, _after, _e in play_steps(random.Random(60 + g), 4):
            if before.phase is Phase.CHOOSE:
                answer = card_hint(before)
                assert answer is not None and answer[0] == decide(Level.STRONG, before)
                assert answer[1] and answer[1] == answer[1].lower()
                if isinstance(answer[0], Offer):
                    assert answer[1] == "jemu nabídka pomůže nejméně"
                return
    raise AssertionError("no card waited for a choice in eight seeded games")


def test_explain_says_only_when_one_play_is_legal():
    state = parse_position("r:m5,rh4,rh3,rh2 g:m30,p,p,p bottle:m60 turn:r throws:2", RULES)
    plays = legal_plays(state)
    if len(plays) == 1:
        assert explain(state, plays[0]).why is Why.ONLY
