"""The tiny race is hosted by the real service end to end: registered with one line, chosen
in the set-up with the mock buttons, played with the pty dice, drawn on luma's dummy display,
journaled, and resumed after a restart - with no code of its own in the service."""

from __future__ import annotations

import pytest

from companion.games import playable, register, unregister
from companion.service.config import ConfigError, from_dict
from companion.storage.journal import Journal
from companion.ui.screens import render
from companion.ui.views import ListView, MessageView
from tests.service.rig import Rig
from tests.tinygame import INFO as RACE


@pytest.fixture
def race():
    register(RACE)
    yield
    unregister("race")


def test_the_race_is_played_through_the_real_adapters_and_resumed(tmp_path, race):
    rig = Rig(tmp_path, seed=4)
    try:
        rig.wait(lambda v: isinstance(v, ListView))
        while not rig.view.items[0].startswith("Hra: Závod"):
            rig.press("select")  # the game line
            rig.wait(lambda v: isinstance(v, ListView))
        rig.press("left")  # to "▶ Začít hru"
        rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
        rig.press("select")
        rig.wait(lambda v: isinstance(v, MessageView) and v.title == "Závod")
        rig.dice.roll(5)
        v = rig.wait(lambda v: isinstance(v, MessageView) and "o 5" in v.footer)
        rig.press("select")
        v = rig.wait(lambda v: isinstance(v, MessageView) and v.lines[0] == "Hráč 1: pole 5 z 12")
        assert rig.device.image.tobytes() == render(v).convert(rig.device.mode).tobytes()
        records = Journal(rig.cfg.data_path / "game.journal").load()
        assert records == [{"t": "game", "game": "race", "goal": 12}, {"t": "roll", "v": 5},
                           {"t": "step", "n": 5}]
    finally:
        rig.stop()
    again = Rig(tmp_path, seed=4)
    try:
        v = again.wait(lambda v: isinstance(v, MessageView) and v.title == "Závod")
        assert v.lines[0] == "Hráč 1: pole 5 z 12" and v.footer == "Hráč 2: hoď"
    finally:
        again.stop()


def test_the_configuration_may_name_a_registered_game(race):
    assert from_dict({"game": {"name": "race"}}, games=playable()).game.name == "race"
    unregister("race")
    with pytest.raises(ConfigError, match="game.name must be one of clovece"):
        from_dict({"game": {"name": "race"}}, games=playable())
