"""The deck format: the default deck (a reconstruction, our own Czech texts) and broken decks."""

from __future__ import annotations

import re

import pytest

from companion.games.napij.engine.deck import (
    DECK_SIZE,
    EFFECTS,
    DeckError,
    default_deck,
    default_deck_text,
    is_deck_text,
    load_deck,
    parse_deck,
)

TEXT = default_deck_text()
SEED = "/work/shared/seeds/000_596c40204236a86f.txt"


def problems_of(text: str) -> list[str]:
    with pytest.raises(DeckError) as exc:
        parse_deck(text, "d.toml")
    return exc.value.lines()


def test_the_default_deck_has_32_cards_numbered_1_to_32_and_says_it_is_a_reconstruction():
    d = default_deck()
    assert len(d.cards) == DECK_SIZE and sorted(d.numbers) == list(range(1, 33))
    assert d.reconstruction and "RECONSTRUCTION" in TEXT


def test_the_default_deck_uses_every_effect_and_mostly_helps():
    d = default_deck()
    used = {c.effect for c in d.cards}
    assert used == set(EFFECTS)
    helping = sum(1 for c in d.cards
                  if c.effect in ("forward", "knock_out", "swap", "catch_up", "immunity"))
    assert helping > DECK_SIZE // 2  # "most cards help"
    assert sum(1 for c in d.cards if c.effect == "blank") == 1


def test_card_texts_are_whole_czech_sentences_in_our_own_words():
    d = default_deck()
    czech = re.compile("[áčďéěíňóřšťúůýž]", re.I)
    with open(SEED, encoding="utf-8") as f:
        seed = f.read()
    for c in d.cards:
        assert c.text[0].isupper() and c.text[-1] in ".!?", c
        assert czech.search(c.text), c
        for sentence in re.split(r"(?<=[.!?]) ", c.text):
            assert len(sentence) < 20 or sentence not in seed, sentence


def test_numbers_in_the_texts_match_the_effects():
    words = {1: "jedno", 2: "dvě", 3: "tři", 4: "čtyři", 5: "pět", 6: "šest"}
    for c in default_deck().cards:
        if c.effect in ("forward", "back"):
            assert words[c.n] in c.text, c


def test_a_deck_must_have_32_cards():
    text = TEXT[:TEXT.rindex("[[card]]")]
    assert problems_of(text) == ["d.toml: The deck has 31 cards; the game has 32."]


def test_bad_cards_name_the_card_and_its_line():
    lines = TEXT.splitlines()
    text = TEXT.replace('effect = "catch_up"', 'effect = "teleport"', 1)
    header = next(i for i, line in enumerate(lines, 1) if line == "number = 12") - 1
    assert problems_of(text)[0].startswith(f"d.toml:{header}: card 12: effect must be one of")
    text = TEXT.replace('effect = "back"\nn = 2', 'effect = "back"', 1)
    assert any("card 18: The effect back needs n from 1 to 12" in x for x in problems_of(text))
    text = TEXT.replace("number = 5\n", "number = 4\n", 1)
    assert any("card 4: The number 4 is used twice" in x for x in problems_of(text))
    text = TEXT.replace('effect = "glass"', 'effect = "glass"\nn = 2', 1)
    assert any("card 29: The effect glass takes no n." in x for x in problems_of(text))
    text = TEXT.replace("Napij se.", "Napij se", 1)
    assert any("whole sentences" in x for x in problems_of(text))
    text = TEXT.replace("number = 3\n", "number = 3\ncolour = 1\n", 1)
    assert any("card 3: Unknown key 'colour'" in x for x in problems_of(text))


def test_syntax_errors_and_missing_cards():
    assert problems_of("[deck]\nname = 'x'\n") == [
        "d.toml: The deck needs its cards as [[card]] entries."]
    lines = problems_of("[[card]]\nnumber = \n")
    assert lines[0].startswith("d.toml:2: This is not valid TOML")


def test_a_deck_is_told_from_a_board(tmp_path):
    assert is_deck_text(TEXT) and not is_deck_text("[field]\n")
    path = tmp_path / "deck.toml"
    path.write_text(TEXT.replace("Napij se dvakrát.", "Napij se čtyřikrát.").replace(
        'effect = "drink"\nn = 2', 'effect = "drink"\nn = 4'), "utf-8")
    assert load_deck(path).card(26).n == 4
