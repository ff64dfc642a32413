"""The levels' names and the beginner's pure draw."""

from __future__ import annotations

import pytest

from companion.players.levels import CZECH, DEFAULT_LEVEL, LEVELS, Level, level_of, unit_draw


@pytest.mark.parametrize("text, level", [
    ("silný", Level.STRONG), ("Silný", Level.STRONG), ("silny", Level.STRONG),
    ("strong", Level.STRONG), (" normální ", Level.NORMAL), ("normal", Level.NORMAL),
    ("začátečník", Level.BEGINNER), ("zacatecnik", Level.BEGINNER), ("BEGINNER", Level.BEGINNER),
])
def test_a_level_is_read_in_czech_or_english_with_or_without_accents(text, level):
    assert level_of(text) is level


def test_an_unknown_level_names_the_levels():
    with pytest.raises(ValueError, match="začátečník, normální, silný"):
        level_of("expert")


def test_every_level_has_a_czech_name_and_normal_is_the_default():
    assert [CZECH[lv] for lv in LEVELS] == ["začátečník", "normální", "silný"]
    assert DEFAULT_LEVEL is Level.NORMAL


def test_the_draw_is_pure_and_spread_over_the_unit_interval():
    assert unit_draw(1, 2, 3) == unit_draw(1, 2, 3)
    draws = [unit_draw(i, 7) for i in range(4000)]
    assert all(0.0 <= d < 1.0 for d in draws)
    assert len(set(draws)) == 4000
    for k in range(4):  # each quarter gets about a quarter
        assert 850 < sum(k / 4 <= d < (k + 1) / 4 for d in draws) < 1150
    assert unit_draw(1, 2) != unit_draw(2, 1)  # the order counts
