from __future__ import annotations

import pytest

from companion.engines.clovece.notation import format_position
from companion.engines.clovece.rules import BLUE, GREEN, RED
from companion.service.session import (
    SessionError,
    Settings,
    move_record,
    replay,
    replay_prefix,
    roll_record,
    start,
    step,
)

HEADER = Settings(2, frozenset(), frozenset({GREEN}), RED).header()


def test_the_header_round_trips():
    s = Settings(3, frozenset({"safe-start"}), frozenset({BLUE}), GREEN)
    assert Settings.from_header(s.header()) == s
    assert s.header()["computer"] == ["b"] and s.header()["first"] == "g"


def test_a_roll_without_a_legal_move_is_played_at_once():
    s = replay([HEADER, roll_record(3, "dice")])
    assert s.roll is None
    assert format_position(s.pos) == "r:h,h,h,h g:h,h,h,h turn:r tries:1"


def test_a_roll_with_moves_waits_for_the_move():
    s = replay([HEADER, roll_record(6, "dice")])
    assert s.roll == 6 and len(s.moves) == 1
    s = step(s, {"t": "move", "from": "h"})
    assert format_position(s.pos) == "r:0,h,h,h g:h,h,h,h turn:r"
    assert s.last_move is not None


def test_records_that_do_not_fit_are_refused():
    s = start(Settings(2))
    with pytest.raises(SessionError):
        step(s, {"t": "move", "from": "h"})
    with pytest.raises(SessionError):
        step(s, {"t": "roll", "v": 7})
    s6 = step(s, roll_record(6, "dice"))
    with pytest.raises(SessionError):
        step(s6, roll_record(2, "dice"))
    with pytest.raises(SessionError):
        step(s6, {"t": "move", "from": "12"})
    with pytest.raises(SessionError):
        step(s6, {"t": "move", "from": "nowhere"})
    with pytest.raises(SessionError):
        step(s, {"t": "dance"})


def test_replay_prefix_keeps_what_fits():
    records = [HEADER, roll_record(6, "dice"), {"t": "move", "from": "h"}, {"t": "move", "from": "0"}]
    s, used = replay_prefix(records)
    assert used == 3 and s.roll is None
    with pytest.raises(SessionError):
        replay(records)


def test_move_record_names_the_from_location():
    s = replay([HEADER, roll_record(6, "dice")])
    assert move_record(s.moves[0]) == {"t": "move", "from": "h"}


def test_a_journal_without_a_header_is_refused():
    with pytest.raises(SessionError):
        replay([roll_record(6, "dice")])
    with pytest.raises(SessionError):
        replay([{"t": "game", "game": "gobbit", "players": 2}])
