from __future__ import annotations

import pytest

from companion.games.clovece.engine.notation import (
    NotationError,
    format_position,
    format_with_roll,
    location_text,
    parse_location,
    parse_position,
    parse_with_roll,
)
from companion.games.clovece.engine.rules import BLUE, GREEN, HOUSE, RED, YELLOW, new_game


@pytest.mark.parametrize("text", [
    "r:h,h,h,h g:h,h,h,h turn:r",
    "r:0,h,f1,39 b:10,9,h,f4 g:h,20,21,h y:30,h,h,29 turn:y",
    "r:h,h,h,h g:5,h,h,h turn:r tries:2",
    "r:5,h,h,h g:6,h,h,h turn:g variants:mandatory-capture,no-jump-in-goal",
    "r:f1,f2,f3,f4 g:10,h,h,h turn:r winner:r",
    "r:12,h,h,h b:h,h,h,h g:h,h,h,h turn:b variants:mandatory-capture,voluntary-entry,no-jump-in-goal,safe-start",
])
def test_canonical_positions_round_trip(text):
    assert format_position(parse_position(text)) == text


def test_token_order_and_variant_order_are_normalised():
    text = "variants:no-jump-in-goal,mandatory-capture turn:g g:6,h,h,h r:5,h,h,h"
    assert format_position(parse_position(text)) == (
        "r:5,h,h,h g:6,h,h,h turn:g variants:mandatory-capture,no-jump-in-goal")


def test_locations_are_absolute_fields_and_own_goal_fields():
    pos = parse_position("r:0,39,f1,h b:10,9,f4,h turn:r")
    assert pos.pieces[RED] == (0, 39, 40, HOUSE)
    assert pos.pieces[BLUE] == (0, 39, 43, HOUSE)  # 9 is blue's last track field


@pytest.mark.parametrize("colour,field,progress", [
    (RED, 0, 0), (BLUE, 10, 0), (GREEN, 20, 0), (YELLOW, 30, 0),
    (GREEN, 19, 39), (YELLOW, 0, 10),
])
def test_location_conversion(colour, field, progress):
    assert parse_location(colour, str(field)) == progress
    assert location_text(colour, progress) == str(field)


def test_new_game_formats_as_expected():
    assert format_position(new_game(3)) == "r:h,h,h,h b:h,h,h,h g:h,h,h,h turn:r"


@pytest.mark.parametrize("text,fragment", [
    ("", "empty"),
    ("r:h,h,h,h turn:r", "two colours"),
    ("r:h,h,h g:h,h,h,h turn:r", "exactly 4"),
    ("r:h,h,h,h g:h,h,h,h", "turn"),
    ("r:h,h,h,h g:h,h,h,h turn:b", "does not play"),
    ("r:h,h,h,h g:h,h,h,h turn:x", "Unknown colour"),
    ("r:h,h,h,40 g:h,h,h,h turn:r", "Bad location"),
    ("r:h,h,h,f5 g:h,h,h,h turn:r", "Bad location"),
    ("r:h,h,h,05 g:h,h,h,h turn:r", "Bad location"),
    ("r:h,h,h,-1 g:h,h,h,h turn:r", "Bad location"),
    ("r:5,h,h,h g:5,h,h,h turn:r", "track field 5"),
    ("r:f1,f1,h,h g:h,h,h,h turn:r", "same goal field"),
    ("r:h,h,h,h g:h,h,h,h turn:r tries:3", "tries"),
    ("r:h,h,h,h g:h,h,h,h turn:r tries:x", "tries"),
    ("r:5,h,h,h g:h,h,h,h turn:r tries:1", "no piece in play"),
    ("r:h,h,h,h g:h,h,h,h turn:r variants:flying", "Unknown variant"),
    ("r:h,h,h,h g:h,h,h,h turn:r winner:r", "does not have all four"),
    ("r:f1,f2,f3,f4 g:h,h,h,h turn:r", "add winner:r"),
    ("r:h,h,h,h g:h,h,h,h turn:r turn:g", "twice"),
    ("r:h,h,h,h g:h,h,h,h turn:r colour:r", "Unknown token"),
    ("r:h,h,h,h g:h,h,h,h turn:r junk", "key:value"),
])
def test_bad_positions_get_one_clear_sentence(text, fragment):
    with pytest.raises(NotationError) as err:
        parse_position(text)
    message = str(err.value)
    assert fragment in message
    assert "\n" not in message and message.endswith(".")


def test_the_pending_roll_is_one_more_token_written_last():
    pos, roll = parse_with_roll("roll:4 r:5,15,h,h g:8,h,h,h turn:r")
    assert roll == 4 and pos == parse_position("r:5,15,h,h g:8,h,h,h turn:r")
    assert format_with_roll(pos, roll) == "r:5,15,h,h g:8,h,h,h turn:r roll:4"
    assert format_with_roll(pos, None) == format_position(pos)
    assert parse_with_roll("r:5,15,h,h g:8,h,h,h turn:r") == (pos, None)


@pytest.mark.parametrize("text,fragment", [
    ("r:h,h,h,h g:h,h,h,h turn:r roll:5", "no legal move"),
    ("r:f1,f2,f3,f4 g:h,h,h,h turn:r winner:r roll:6", "over"),
    ("r:5,h,h,h g:8,h,h,h turn:r roll:0", "1 to 6"),
    ("r:5,h,h,h g:8,h,h,h turn:r roll:06", "1 to 6"),
    ("r:5,h,h,h g:8,h,h,h turn:r roll:1 roll:1", "twice"),
    ("r:5,h,h,h g:8,h,h,h turn:r tries:x roll:1", "tries"),
])
def test_a_pending_roll_that_cannot_be_is_refused(text, fragment):
    with pytest.raises(NotationError, match=fragment):
        parse_with_roll(text)
