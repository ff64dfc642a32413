"""The listening robot plays from the WAV twin's sentences alone."""

from __future__ import annotations

import os
import random
import shutil

import pytest

from companion.devices.voice import WavAnnouncer
from companion.sim.listener import ListeningRobot, number, score
from tests.service.voice_tables import VoiceTable

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng (scripts/system-deps.sh) speaks the WAV")


@pytest.fixture
def no_fsync(monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def test_it_understands_the_numbers_and_judges_moves_by_their_words():
    assert number("dva") == 2 and number("tří") == 3 and number("dvanáct") == 12
    assert score("Tah jedna ze dvou: Z 5. pole na 9. pole, vyhodí modrého.") > \
        score("Tah dva ze dvou: Z domečku na start.") > score("Ze startu na páté pole.")


def listening_table(tmp_path, game: str, seed: int):
    voice = WavAnnouncer(tmp_path / f"{game}.wav", speed=1000)
    t = VoiceTable(tmp_path, game, seed, players=2, voice=voice)
    t.ctx.defaults["computer"] = ()  # both seats are the robot's: people who cannot see
    t.start()
    return t, voice, ListeningRobot(t.shell, voice, random.Random(seed), now=t.now)


@pytest.mark.long  # a whole game by ear: minutes; the napij se round below is the quick one
def test_it_plays_a_whole_clovece_game_in_the_voice_mode_from_what_it_heard(tmp_path,
                                                                            no_fsync):
    t, voice, robot = listening_table(tmp_path, "clovece", 5)
    try:
        heard = robot.play(max_actions=4000)
    finally:
        voice.close()
    pos = t.shell.host.state.pos
    assert heard.over and pos.winner is not None  # the game the robot heard won is won
    assert heard.sentences[-2].endswith("vyhrává!") or any(
        s.endswith("vyhrává!") for s in heard.sentences[-3:])
    assert heard.choices >= 10  # moves chosen among several, from their words alone
    assert heard.throws >= 50
    assert voice.status.available


def test_it_plays_a_napij_se_round_in_the_voice_mode_from_what_it_heard(tmp_path, no_fsync):
    t, voice, robot = listening_table(tmp_path, "napij", 5)
    try:
        heard = robot.play(max_actions=600, until_throws=30)
    finally:
        voice.close()
    assert heard.throws == 30 and heard.choices >= 1
    assert any("napij" in s.lower() for s in heard.sentences)  # the drinks were heard
    s = t.shell.host.turn.state
    assert sum(len([p for p in (s.pieces[c] or ()) if p >= 0]) for c in s.colours) > 0
