"""Every registered game keeps the promises of the protocol on states its own play reaches:
``why_not`` is ``None`` exactly for the legal actions (and ``apply`` refuses the others with
the rules' error; an action outside ``legal_actions`` that ``apply`` takes must be one
``why_not`` allows), every chance outcome is an action ``why_not`` allows, and the notation
reads back what it wrote: ``parse(format(s)) == s``.

The states are sampled from seeded games of the generic driver (:mod:`companion.selfplay.driver`);
the actions tried on a state are its legal ones and every action played anywhere in those games
(most of them illegal there).
"""

from __future__ import annotations

import random
from typing import Any

from companion.engines.errors import RulesError
from companion.engines.game import ChanceKind
from companion.selfplay.driver import steps

SEEDS = range(3)
SAMPLES = 30
"""States kept per seeded game, evenly spread from the first to the last."""


def sampled(game: Any) -> tuple[list[Any], list[Any], int]:
    """The sampled states of :data:`SEEDS` games, every distinct action played in them, and
    how many of the played actions were players' choices (a pure dice race, where every move
    follows from the roll, has none)."""
    setup = game.default_setup()
    states: list[Any] = []
    played: dict[Any, None] = {}
    choices = 0
    for seed in SEEDS:
        seen = [game.new_game(setup)]
        for step in steps(game, setup, random.Random(seed)):
            played.setdefault(step.action)
            choices += not step.chance
            seen.append(step.after)
        every = max(1, len(seen) // SAMPLES)
        states += [*seen[::every], seen[-1]]
    return states, list(played), choices


def outcomes(chance: Any) -> list[Any]:
    if chance.kind is ChanceKind.SHUFFLE:
        return [list(range(chance.size)), list(reversed(range(chance.size)))]
    return list(chance.outcomes)


def test_why_not_is_none_exactly_for_the_actions_apply_takes_and_every_legal_one(entry):
    game = entry.engine()
    states, played, choices = sampled(game)
    decisions = accepted = 0
    for state in states:
        chance = game.chance(state)
        if game.is_over(state):
            assert game.legal_actions(state) == [] and chance is None, game.format(state)
            continue
        if chance is not None:
            for outcome in outcomes(chance):
                action = game.chance_action(state, outcome)
                assert game.why_not(state, action) is None, (game.format(state), action)
            continue
        decisions += 1
        legal = game.legal_actions(state)
        assert legal, game.format(state)
        for action in dict.fromkeys([*legal, *played]):
            reason = game.why_not(state, action)
            if action in legal:
                assert reason is None, (game.format(state), action, reason)
                continue
            assert reason is None or (isinstance(reason, str) and reason)
            try:
                game.apply(state, action)
            except RulesError:
                assert reason is not None, (game.format(state), action)
            else:  # a move the table may make though nobody would choose it (napij: a throw
                # before the debt is drunk costs two more drinks): why_not must allow it
                assert reason is None, (game.format(state), action, reason)
                accepted += 1
    # the samples hold decisions, not only chance, whenever the games played had any
    assert decisions >= len(SEEDS) or choices == 0, (decisions, choices)


def test_the_notation_reads_back_every_state_it_writes(entry):
    game = entry.engine()
    states, _, _ = sampled(game)
    for state in states:
        text = game.format(state)
        assert isinstance(text, str) and text
        assert game.parse(text) == state, text
        assert game.format(game.parse(text)) == text
