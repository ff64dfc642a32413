"""What every game host shares: set-up options and the seats of people and computers."""

from __future__ import annotations

import logging

import pytest

from companion.service.hosts.base import (
    ALL_COMPUTER,
    HostContext,
    Option,
    seat_options,
    set_seat_option,
    yes_no,
)
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def test_an_option_shows_its_value_in_words_and_goes_round():
    o = Option("first", "Začíná", ("red", "lot"), ("červený", "los"), "lot")
    assert o.line == "Začíná: los" and o.next_value() == "red"
    assert Option("x", "X", (1, 2), ("jedna", "dvě"), 7).line == "X: 7"  # a value off the list
    assert yes_no("v", "Varianta", True).line == "Varianta: ano"


@pytest.mark.parametrize("players, seats", [(2, (RED, GREEN)), (3, (RED, BLUE, GREEN)),
                                            (4, (RED, BLUE, GREEN, YELLOW))])
def test_the_seats_of_a_count_of_players_are_offered_each_person_or_computer(players, seats):
    opts = seat_options(players, {GREEN})
    assert opts[0].key == "players" and opts[0].line == f"Hráči: {players}"
    assert [o.key for o in opts[1:]] == [f"seat:{c}" for c in seats]
    assert [o.line.split(": ")[1] for o in opts[1:]] == [
        "počítač" if c == GREEN else "člověk" for c in seats]


def test_choosing_a_seat_gives_it_to_the_computer_or_back_and_says_when_nobody_is_left():
    assert set_seat_option("players", 3, 2, {RED}) == (3, {RED}, None)
    assert set_seat_option("seat:2", True, 2, set()) == (2, {GREEN}, None)
    assert set_seat_option("seat:0", True, 2, {GREEN}) == (2, {RED, GREEN}, ALL_COMPUTER)
    assert set_seat_option("seat:2", False, 2, {RED, GREEN}) == (2, {RED}, None)
    # a computer seat beyond the count of players does not make the table the computer's
    assert set_seat_option("seat:0", True, 2, {YELLOW}) == (2, {RED, YELLOW}, None)
    assert set_seat_option("first", "lot", 2, {RED}) is None  # not a seat: the host's own


def test_with_levels_a_seat_offers_the_computer_at_each_level():
    from companion.players.levels import Level
    from companion.service.hosts.base import seat_level

    opts = seat_options(2, {GREEN}, {GREEN: Level.STRONG})
    assert [o.line for o in opts[1:]] == ["Červený: člověk", "Zelený: PC silný"]
    red = opts[1]
    order = [red.value]
    for _ in range(4):
        red = Option(red.key, red.label, red.values, red.texts, red.next_value())
        order.append(red.value)
    assert order == [False, Level.NORMAL, Level.STRONG, Level.BEGINNER, False]
    assert seat_options(2, {GREEN}, {})[2].line == "Zelený: PC normální"  # the default
    assert seat_level(False) is None and seat_level(True) is Level.NORMAL
    assert seat_level(Level.BEGINNER) is Level.BEGINNER and seat_level("silný") is Level.STRONG


def test_levels_go_to_a_header_and_back_and_a_bad_one_plays_the_default(caplog):
    from companion.players.levels import Level

    # the warning is heard whatever level an earlier test in this worker left the logger at
    caplog.set_level(logging.WARNING, logger="companion.service.hosts.base")
    from companion.service.hosts.base import levels_from_record, levels_record

    record = levels_record({GREEN: Level.STRONG, RED: Level.BEGINNER}, {GREEN, BLUE})
    assert record == {"b": "normal", "g": "strong"}  # only the computer seats; the default
    assert levels_from_record(record) == {BLUE: Level.NORMAL, GREEN: Level.STRONG}
    assert levels_from_record({"g": "expert", "x": "strong", "y": 3}) == {}
    assert "unknown level 'expert'" in caplog.text
    assert levels_from_record(None) == {} and levels_from_record(["g"]) == {}


def test_a_game_reads_only_its_own_section_and_the_older_keys_it_names(tmp_path):
    """The shared ``defaults`` (``[game]``'s keys of older files) reach a host only for the
    keys it names; a new game names none and sees only ``[<game>]``."""
    from companion.service.hosts.base import setup_defaults
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(),
                      defaults={"players": 2, "computer": ("g",), "max_seats": 4},
                      game_defaults={"race": {"goal": 20}, "clovece": {"players": 3}})

    assert setup_defaults(ctx, "race") == {"goal": 20}
    assert setup_defaults(ctx, "clovece", ("players", "computer")) == {
        "players": 3, "computer": ("g",)}


def test_an_option_key_is_read_as_its_family_and_member():
    from companion.service.hosts.base import OptionKey, seat_key

    assert OptionKey.parse("seat:3") == OptionKey("seat", "3")
    assert OptionKey.parse("players") == OptionKey("players")
    assert OptionKey.parse("variant:safe-start").member == "safe-start"
    for key in ("seat:3", "players", "rule:ghost"):
        assert OptionKey.parse(key).text == key
    assert seat_key(2) == "seat:2"
