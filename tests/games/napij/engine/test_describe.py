"""The Czech texts: every event, reason and duty has a whole sentence with Czech letters."""

from __future__ import annotations

import random
import re

import pytest

from companion.games.napij.engine import describe
from companion.games.napij.engine.events import (
    DeckShuffled,
    DrawDue,
    Moved,
    MustDrink,
    Offered,
    OfferNeeded,
    Swapped,
    TryFailed,
    TurnPassed,
)
from companion.games.napij.engine.reasons import CardWhy, ForfeitWhy, Reason, Why
from companion.games.napij.engine.state import DrinkReason
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import RULES

CZECH = re.compile("[áčďéěíňóřšťúůýž]", re.I)
SEED = "/work/shared/seeds/000_596c40204236a86f.txt"


def sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text[-1] in ".!?" and "  " not in text


@pytest.mark.parametrize("why", list(Why))
def test_every_reason_has_a_czech_sentence(why):
    text = describe.explain(Reason(why, 0))
    assert sentence(text) and CZECH.search(text)


@pytest.mark.parametrize("reason", list(DrinkReason))
def test_every_drink_duty_has_a_czech_sentence(reason):
    text = describe.describe_duty(MustDrink(1, 2, reason, 0))
    assert sentence(text) and text.startswith("Modrý")


def test_every_card_and_forfeit_outcome_has_a_sentence():
    assert set(describe.CARD_WHY) == set(CardWhy)
    assert set(describe.FORFEIT_WHY) == set(ForfeitWhy)
    for text in [*describe.CARD_WHY.values(), *describe.FORFEIT_WHY.values()]:
        assert sentence(text) and CZECH.search(text)


def test_sentences_are_our_own_words_not_the_seeds():
    with open(SEED, encoding="utf-8") as f:
        seed = f.read()
    texts = [*describe.EXPLAIN.values(), *describe.CARD_WHY.values(),
             *describe.FORFEIT_WHY.values()]
    for text in texts:
        for part in re.split(r"[,.!?] ?", text):
            assert len(part) < 25 or part not in seed, part


def test_grammar_of_the_variable_parts():
    assert describe.describe_event(Swapped(0, 0, 2, 1)) == \
        "Červený si vyměnil místo se zeleným."
    assert describe.describe_event(Swapped(2, 0, 1, 1)) == "Zelený si vyměnil místo s modrým."
    assert describe.describe_event(TryFailed(3, 2)) == "Šestka nepadla, žlutý má ještě jeden pokus."
    assert describe.describe_duty(MustDrink(0, 3, DrinkReason.CARD)) == \
        "Červený se musí napít třikrát, protože mu to ukládá karta."
    assert describe.describe_duty(MustDrink(2, 1, DrinkReason.HOME, 1)) == \
        "Zelený musí připít modrému na figurku v domku."
    assert describe.describe_event(Moved(1, 0, 25, 28, ()), RULES) == \
        "Karta posunula figurku modrého z pole m25 na pole m28."


def test_every_event_of_random_games_reads_as_czech_sentences():
    seen: set[str] = set()
    for seed in range(2):
        for _b, _a, after, events in play_steps(random.Random(seed)):
            for e in events:
                text = describe.describe_event(e, after.rules)
                assert sentence(text), text
                seen.add(type(e).__name__)
            line = describe.headline(events, after.rules)
            assert sentence(line)
    assert len(seen) > 20


def test_the_chance_events_of_the_deck_read_as_sentences():
    assert describe.describe_event(DeckShuffled(32)) == \
        "Balíček karet je zamíchaný a leží obrázky dolů."
    assert describe.describe_event(DrawDue(1, 0, True)) == \
        "Modrý si mimo pořadí bere vrchní kartu z balíčku; zadejte, jaké má číslo."
    assert describe.headline([TurnPassed(0, 1), DrawDue(0, 0, False)]).startswith("Červený si")


def test_offers_read_as_sentences_naming_the_deal():
    assert describe.describe_event(Offered(1, 27, 2), RULES) == (
        "Modrý nabízí zelenému, že ho smí vyhodit; zelený vybere figurku, nebo odmítne.")
    assert describe.describe_event(Offered(0, 31, 3), RULES) == (
        "Červený nabízí žlutému výměnu místa; žlutý vybere figurku, nebo odmítne.")
    assert describe.describe_event(OfferNeeded(2, 27, (0, 1))) == \
        "Zelený vybírá, kterému spoluhráči nabídne, co stojí na kartě."
