"""The deck file and the card notation."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engines.errors import NotationError
from companion.games.gobbit.engine.cards import (
    Card,
    Condition,
    format_card,
    load_deck,
    parse_card,
    parse_condition,
    standard_deck,
)


def test_the_box_holds_48_cards_of_the_documented_composition():
    deck = load_deck()
    assert len(deck) == 48
    species = Counter(c.species for c in deck)
    assert species == {"M": 15, "C": 18, "S": 12, "G": 3}
    assert {c.colour for c in deck if c.species != "G"} == {"b", "r", "y"}
    assert all(c.colour is None for c in deck if c.species == "G")
    for s, n in (("M", 5), ("C", 6), ("S", 4)):
        assert Counter(c.colour for c in deck if c.species == s) == {"b": n, "r": n, "y": n}


def test_every_expert_picture_is_on_eight_backs():
    assert Counter(c.back for c in load_deck()) == {cond: 8 for cond in Condition}


def test_gorillas_only_with_the_gorilla_rule():
    assert not any(c.species == "G" for c in standard_deck())
    assert sum(c.species == "G" for c in standard_deck({"gorilla"})) == 3


def test_the_standard_deck_is_read_once_and_is_the_deck_file_in_order():
    assert standard_deck({"gorilla"}) is standard_deck({"gorilla", "ghost"})
    assert standard_deck({"gorilla"}) == load_deck()
    assert standard_deck() == tuple(c for c in load_deck() if c.species != "G")


@pytest.mark.parametrize("text", ["Sb", "Cr", "My", "G", "SbR", "GE", "MyG"])
def test_cards_round_trip(text):
    assert format_card(parse_card(text)) == text


def test_faces_ignore_the_back():
    assert parse_card("SbR").face == parse_card("SbE").face == ("S", "b")
    assert format_card(parse_card("SbR"), back=False) == "Sb"
    assert str(Card("C", "y")) == "Cy"


@pytest.mark.parametrize("text", ["", "X", "S", "Sx", "Gb", "SbQ", "Sbr", "sb"])
def test_bad_cards_are_refused(text):
    with pytest.raises(NotationError, match="Bad card"):
        parse_card(text)


def test_backs_can_be_refused_where_only_faces_make_sense():
    with pytest.raises(NotationError):
        parse_card("SbR", allow_back=False)


def test_unknown_condition_names_the_known_ones():
    with pytest.raises(NotationError, match="reversed"):
        parse_condition("upside-down")


@pytest.mark.parametrize("text,fragment", [
    ("cards = 3", "[[cards]]"),
    ('[[cards]]\nspecies = "dragon"\ncolour = "red"\ncount = 1', "species"),
    ('[[cards]]\nspecies = "snake"\ncolour = "green"\ncount = 1', "colour"),
    ('[[cards]]\nspecies = "gorilla"\ncolour = "red"\ncount = 1', "no colour"),
    ('[[cards]]\nspecies = "snake"\ncolour = "red"\ncount = -1', "whole number"),
    ('[[cards]]\nspecies = "snake"\ncolour = "red"\ncount = 1\n[backs]\npictures = []',
     "picture"),
    ("[[cards]", "TOML"),
])
def test_a_bad_deck_file_is_refused_naming_the_problem(text, fragment):
    with pytest.raises(NotationError, match=fragment.replace("[", r"\[")):
        load_deck(text)


def test_a_family_deck_file_is_read():
    text = '[[cards]]\nspecies = "snake"\ncolour = "red"\ncount = 2\n' \
           '[[cards]]\nspecies = "gorilla"\ncount = 1\n[backs]\npictures = ["reversed"]\n'
    assert load_deck(text) == (Card("S", "r", Condition.REVERSED),) * 2 + (
        Card("G", None, Condition.REVERSED),)
