"""companion.engines.game: the header check every game's set-up reader and replay share."""

from __future__ import annotations

import pytest

from companion.engines.errors import NotationError
from companion.engines.game import HEADER, check_header, replay
from tests.tinygame.engine import GAME as TINY


def test_a_header_of_the_game_passes() -> None:
    check_header({"t": HEADER, "game": "clovece", "players": 4}, "clovece")


@pytest.mark.parametrize(("record", "why"), [
    ({"t": "move", "game": "clovece"}, "not a game header"),
    ({"game": "clovece"}, "not a game header"),
    ({"t": HEADER, "game": "gobbit"}, "holds a game of 'gobbit', not 'clovece'"),
    ({"t": HEADER}, "holds a game of None"),
])
def test_anything_else_is_refused_in_one_sentence(record: dict, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        check_header(record, "clovece")


def test_replay_checks_the_journals_header() -> None:
    with pytest.raises(NotationError, match="does not start with a game header"):
        replay(TINY, [])
    with pytest.raises(NotationError, match=f"holds a game of 'gobbit', not {TINY.name!r}"):
        replay(TINY, [{"t": HEADER, "game": "gobbit"}])
