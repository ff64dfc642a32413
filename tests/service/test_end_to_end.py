"""The whole table through its real adapters: mock pins, the pty dice, the dummy display."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engines.game import replay
from companion.games.clovece.engine.game import GAME
from companion.games.clovece.engine.notation import format_position
from companion.games.clovece.screens import CloveceTurnView
from companion.storage.journal import Journal
from companion.ui.views import ListView, MessageView
from tests.service.rig import Rig

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.stop()


def is_turn(v) -> bool:
    return isinstance(v, CloveceTurnView)


def start(rig: Rig) -> CloveceTurnView:
    rig.wait(lambda v: isinstance(v, ListView))
    rig.press("left")
    rig.wait(lambda v: v.selected == len(v.items) - 1)
    rig.press("select")
    return rig.wait(is_turn)


def test_a_scripted_game_start_through_buttons_and_dice(rig):
    v = start(rig)
    assert v.player == "Červený" and v.prompt == "Hoď kostkou"
    rig.wait(lambda v: v.dice == "ok")
    rig.dice.roll(6)
    v = rig.wait(lambda v: is_turn(v) and v.roll is None and "nasadil" in v.event)
    assert format_position(v.position) == "r:0,h,h,h g:h,h,h,h turn:r"
    rig.dice.roll(4)
    v = rig.wait(lambda v: is_turn(v) and v.player == "Zelený")
    assert format_position(v.position) == "r:4,h,h,h g:h,h,h,h turn:g"
    records = Journal(rig.cfg.data_path / "game.journal").load()
    assert [r["t"] for r in records] == ["game", "roll", "move", "roll", "move"]


def test_the_frame_on_the_panel_is_the_rendered_screen(rig):
    start(rig)
    rig.wait(lambda v: v.dice == "ok")
    seen = []
    rig.app.screen.listeners.append(lambda im, t: seen.append(im.tobytes()))
    rig.dice.roll(2)
    v = rig.wait(lambda v: is_turn(v) and v.tries == 1)
    rig.wait(lambda v: bool(seen))
    assert rig.device.image.convert("1").tobytes() == seen[-1]
    assert v.event == "Červený hodil 2, šestka nepadla."


def test_long_press_menu_and_undo_through_the_pins(rig):
    start(rig)
    rig.wait(lambda v: v.dice == "ok")
    rig.dice.roll(3)
    rig.wait(lambda v: is_turn(v) and v.tries == 1)
    rig.press("select", long=True)
    rig.wait(lambda v: isinstance(v, ListView) and v.title == "Nabídka")
    rig.press("right")
    rig.press("select")
    rig.wait(lambda v: isinstance(v, MessageView) and v.title == "Vrátit hod 3?")
    rig.press("select")
    v = rig.wait(lambda v: is_turn(v) and v.event == "Vráceno: hod 3.")
    assert v.tries == 0
    assert len(Journal(rig.cfg.data_path / "game.journal").load()) == 1


def test_dice_unplugged_in_the_middle_of_a_turn(rig):
    start(rig)
    rig.wait(lambda v: v.dice == "ok")
    rig.dice.roll(6)
    rig.wait(lambda v: is_turn(v) and "nasadil" in v.event)
    rig.dice.unplug()
    v = rig.wait(lambda v: v.dice == "lost", timeout=8)
    assert v.manual_roll is not None and v.event.startswith("Kostka odpojena")
    rig.dice.roll(5)  # rolled while the cable is out: kept by the dice, not lost
    rig.dice.replug()
    v = rig.wait(lambda v: is_turn(v) and v.player == "Zelený", timeout=8)
    assert format_position(v.position) == "r:5,h,h,h g:h,h,h,h turn:g"
    records = Journal(rig.cfg.data_path / "game.journal").load()
    assert [r.get("v") for r in records if r["t"] == "roll"] == [6, 5]  # once, not twice


def test_without_a_dice_the_buttons_enter_the_roll(tmp_path):
    rig = Rig(tmp_path, dice=False)
    try:
        v = start(rig)
        assert v.dice == "missing" and v.manual_roll == 1
        rig.press("left")
        rig.wait(lambda v: v.manual_roll == 6)
        rig.press("select")
        v = rig.wait(lambda v: is_turn(v) and "nasadil" in v.event)
        assert format_position(v.position) == "r:0,h,h,h g:h,h,h,h turn:r"
    finally:
        rig.stop()


CRASHER = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, {tests!r})
    from service.rig import Rig
    rig = Rig(__import__("pathlib").Path({data!r}), seed=5)
    from companion.ui.views import ListView, MessageView
    from companion.games.clovece.screens import CloveceTurnView
    rig.wait(lambda v: isinstance(v, ListView))
    rig.press("left"); rig.wait(lambda v: v.selected == len(v.items) - 1); rig.press("select")
    rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.dice == "ok")
    for n, value in enumerate({rolls!r}):
        before = rig.app.ctx.journal.load()
        rig.dice.roll(value)
        rig.wait(lambda v: len(rig.app.ctx.journal.load()) > len(before))
        time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGKILL)  # the plug is pulled
""")


def test_resume_after_the_process_is_killed(tmp_path):
    rolls = [6, 6, 2, 3, 1, 1, 6, 4]
    data = tmp_path / "data"
    proc = subprocess.run(
        [sys.executable, "-c", CRASHER.format(tests=str(ROOT / "tests"), data=str(data),
                                               rolls=rolls)],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == -9, proc.stderr[-2000:]
    expected = replay(GAME, Journal(data / "game.journal").load()).state
    rig = Rig(data, seed=6)
    try:
        v = rig.wait(is_turn)
        assert v.position == expected.pos and v.roll == expected.roll
        events = [getattr(x, "event", "") for x in rig.views]
        assert "Hra pokračuje, kde skončila." in events, events
        assert format_position(v.position).startswith("r:")
    finally:
        rig.stop()


def test_a_bad_config_stops_with_one_sentence(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[display]\ndriver = "plasma"\n')
    proc = subprocess.run([sys.executable, "-m", "companion", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith("companion: display.driver must be one of")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_napij_se_through_the_real_adapters_announces_and_calls_the_dropped_die(tmp_path):
    from companion.devices.voice import SilentAnnouncer
    from companion.games.napij.views import NapijView

    voice = SilentAnnouncer()
    rig = Rig(tmp_path, game="napij", announcer=voice)
    try:
        rig.wait(lambda v: isinstance(v, ListView) and v.items[0] == "Hra: Člověče, napij se!")
        rig.press("left")
        rig.wait(lambda v: v.selected == len(v.items) - 1)
        rig.press("select")
        v = rig.wait(lambda v: isinstance(v, NapijView) and v.banner is not None)
        assert v.banner.title == "Napijte se!"
        # the host's drink duty first (priority 1), then the game's event lines
        assert voice.spoken[0] == "Všichni se napijí na začátek hry." and voice.kinds[0] == ("", 1)
        assert all(k == ("", 0) for k in voice.kinds[1:])
        assert rig.app.hardware.buzzer is not None and "drink-start" in rig.app.hardware.buzzer.played
        assert v.prompt == "● vypili  ◀ později"
        rig.press("select")  # everybody drank: one press
        rig.wait(lambda v: isinstance(v, NapijView) and v.prompt == "Hoď kostkou")
        rig.dice.roll(3)
        rig.wait(lambda v: isinstance(v, NapijView) and "Šestka nepadla" in v.event)
        rig.dice.drop()
        v = rig.wait(lambda v: isinstance(v, NapijView) and v.banner is not None)
        assert v.banner.lines == ("spadlá kostka",) and v.prompt == "● vypito  ◀ později"
        records = Journal(rig.cfg.data_path / "game.journal").load()
        assert [r["t"] for r in records] == ["game", "shuffle", "drank", "drank", "throw",
                                             "duty"]
        assert records[-1] == {"t": "duty", "c": "r", "why": "dropped-dice"}
        host_said = [x for x, k in zip(voice.spoken, voice.kinds, strict=True) if k == ("", 1)]
        assert host_said[-1] == "Červený se musí napít, protože shodil kostku."
    finally:
        rig.stop()


def test_a_missing_config_file_is_named_as_missing(tmp_path):
    missing = tmp_path / "nowhere.toml"
    proc = subprocess.run([sys.executable, "-m", "companion", "--config", str(missing)],
                          capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr == f"companion: The config file {missing} does not exist.\n"


def test_a_held_left_on_the_turn_screen_shows_the_hint_through_the_pins(tmp_path):
    """The real buttons: a held ◀ runs through a list elsewhere, but on a game's screen with
    hints on it is one long press and shows "Nápověda"; ● goes back to the game.
    (Held past the arrows' run delay: a long press must outlast it here.)"""
    rig = Rig(tmp_path, long_press=0.5)
    try:
        _held_left_shows_the_hint(rig)
    finally:
        rig.stop()


def _held_left_shows_the_hint(rig: Rig) -> None:
    start(rig)
    rig.wait(lambda v: v.dice == "ok")
    rig.press("left", long=True)
    v = rig.wait(lambda v: isinstance(v, MessageView) and v.title.startswith("Nápověda"))
    assert "hoď kostkou" in " ".join(v.lines).lower()
    rig.press("select")
    rig.wait(is_turn)
    assert rig.app.controller.held_left_is_long()
    rig.app.controller.ctx.prefs = replace(rig.app.controller.ctx.prefs, hints=False)
    assert not rig.app.controller.held_left_is_long()  # hints off: a held ◀ runs again
