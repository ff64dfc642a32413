"""The buzzer's patterns on the speaker: the same rhythm as PCM, fed to aplay on the voice's
device, a new beep cutting the old one."""

from __future__ import annotations

import io
import sys

import pytest

from companion.devices.buzzer import PATTERNS, steps
from companion.devices.speaker_beeps import RATE, SpeakerBeeps, pcm


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_pattern_lasts_as_long_as_on_the_buzzer_and_rings_only_in_its_beeps(name):
    data = pcm(name)
    total = sum(round(s * RATE) for _, s in steps(name))
    assert len(data) == 2 * total
    samples = memoryview(data).cast("h")
    hz, first = steps(name)[0]
    on = round(first * RATE)
    assert max(abs(v) for v in samples[:on]) > 10_000  # the first beep sounds
    assert abs(samples[0]) < 200 and abs(samples[on - 1]) < 2000  # ramped: no click
    if len(steps(name)) > 1:
        gap = round(steps(name)[1][1] * RATE)
        assert max(abs(v) for v in samples[on:on + gap]) == 0  # the pause is silent


class FakeProc:
    def __init__(self, argv, **kwargs):
        self.argv = argv
        self.stdin = io.BytesIO()
        self.stdin.close = lambda: None  # keep what was written to look at it
        self.killed = False
        FakeProc.started.append(self)

    def poll(self):
        return None if not self.killed else -9

    def kill(self):
        self.killed = True

    def wait(self):
        return -9


def test_beeps_go_to_aplay_on_the_voice_device_and_a_new_one_cuts_the_old():
    FakeProc.started = []
    heard = []
    beeps = SpeakerBeeps("plughw:CARD=Device", command=sys.executable, popen=FakeProc)
    beeps.listener = heard.append
    beeps.play("turn")
    beeps.play("win")
    first, second = FakeProc.started
    assert first.argv[1:] == ["-q", "-D", "plughw:CARD=Device", "-t", "raw", "-f", "S16_LE",
                              "-c", "1", "-r", str(RATE), "-"]
    assert first.killed and not second.killed
    assert second.stdin.getvalue() == pcm("win")
    assert heard == ["turn", "win"]
    beeps.close()
    assert second.killed


def test_without_aplay_the_beeps_reach_only_the_listener():
    heard = []
    beeps = SpeakerBeeps(command="no-such-player-here")
    beeps.listener = heard.append
    beeps.play("six")
    assert beeps.command is None and heard == ["six"]
    with pytest.raises(ValueError):
        beeps.play("kazoo")
