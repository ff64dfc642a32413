"""The announcer's kinds and priorities, volume and speed."""

from __future__ import annotations

import shutil
import time
import wave

import pytest

from companion.devices.voice import HOST, Ranked, SilentAnnouncer, WavAnnouncer

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng (scripts/system-deps.sh) speaks the WAV")
LONG = "Červený stojí na 12. poli. " * 12


def playing(voice: WavAnnouncer) -> None:
    """Wait until the latest announcement is being heard."""
    for _ in range(3000):
        if voice.history[-1].first_sample_at is not None:
            return
        time.sleep(0.002)
    raise AssertionError("the voice never started")


def test_a_newer_announcement_cuts_the_older_of_its_kind_only(tmp_path):
    voice = WavAnnouncer(tmp_path / "a.wav", speed=1.0)
    try:
        voice.say_as(LONG, kind="screen")
        playing(voice)
        voice.say_as("Zelený hází.", kind="event")  # waits behind it
        voice.say_as("Nabídka.", kind="screen")  # cuts the long reading, not the event
        assert voice.wait(30)
    finally:
        voice.close()
    first, event, menu = voice.history
    assert first.cut and not event.dropped and not event.cut and not menu.cut
    assert first.text.startswith("Červený stojí na dvanáctém poli.")  # said as words


def test_a_higher_priority_goes_before_what_waits(tmp_path):
    voice = WavAnnouncer(tmp_path / "b.wav", speed=50.0)
    try:
        voice.say_as(LONG, kind="screen")
        playing(voice)
        voice.say_as("Modrý hází.", kind="event")
        voice.say_as("Hráč 2 byl první o 80 ms.", kind="ruling", priority=2)
        voice.say("Červený se napije.")  # a host's own: priority HOST
        assert voice.wait(30)
    finally:
        voice.close()
    spoken = sorted(list(voice.history)[1:], key=lambda a: a.first_sample_at or 0)
    assert [a.text for a in spoken] == [
        "Hráč dva byl první o osmdesát milisekund.", "Červený se napije.", "Modrý hází."]
    assert voice.history[-1].priority == HOST


def test_volume_and_speed_reach_espeak(tmp_path):
    lengths = {}
    for rate, amp in ((165, 100), (330, 100), (165, 30)):
        path = tmp_path / f"{rate}-{amp}.wav"
        voice = WavAnnouncer(path, speed=1000)
        assert isinstance(voice, Ranked)
        voice.tune(words_per_minute=rate, amplitude=amp)
        voice.say("Červený hodil šestku a hází znovu.")
        voice.wait(30)
        voice.close()
        with wave.open(str(path)) as w:
            frames = w.readframes(w.getnframes())
            lengths[rate, amp] = (w.getnframes(), max(abs(int.from_bytes(frames[i:i + 2], "little",
                                                                           signed=True))
                                                      for i in range(0, len(frames), 2)))
    assert lengths[330, 100][0] < 0.7 * lengths[165, 100][0]  # faster: shorter
    assert lengths[165, 30][1] < 0.6 * lengths[165, 100][1]  # quieter: lower peaks


def test_the_silent_twin_keeps_kinds_and_tuning():
    voice = SilentAnnouncer()
    voice.say("Ahoj.")
    voice.say_as("Nabídka.", kind="screen")
    voice.tune(words_per_minute=190, amplitude=150)
    assert voice.kinds == [("", HOST), ("screen", 0)]
    assert (voice.words_per_minute, voice.amplitude) == (190, 150)
