"""The voice port with espeak-ng's real Czech audio: the WAV twin, the aplay path, the silent twin."""

from __future__ import annotations

import array
import math
import subprocess
import sys
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from companion.devices.voice import (
    WORDS_PER_MINUTE,
    EspeakAnnouncer,
    SilentAnnouncer,
    VoiceStatus,
    WavAnnouncer,
    create_announcer,
)

TURN = "Červený hází šestku."
MOVE = "Modrý bere figurku zelenému."
HOME = "Žlutý má všechny figurky v domečku."
LONG = ("Hra začíná. Červený hraje první, po něm modrý, zelený a žlutý. "
        "Kdo hodí šestku, nasadí figurku a hází znovu. Kdo dojde domů první, vyhrává.")


def espeak_pcm(text: str) -> bytes:
    """espeak-ng's own audio of ``text`` (its samples, without the WAV header)."""
    out = subprocess.run(["espeak-ng", "-v", "cs", "-s", str(WORDS_PER_MINUTE), "--stdout"],
                         input=text.encode(), capture_output=True, check=True).stdout
    return out[out.index(b"data") + 8:]


def read_wav(path: Path) -> tuple[Any, bytes]:
    """The WAV file's parameters (channels, width, rate, frames...) and its samples."""
    with wave.open(str(path), "rb") as w:
        return w.getparams(), w.readframes(w.getnframes())


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def script(path: Path, body: str) -> str:
    """A small executable Python program standing in for espeak-ng or aplay."""
    path.write_text(f"#!{sys.executable}\nimport os, sys, time\n{body}\n")
    path.chmod(0o755)
    return str(path)


# --- the WAV twin ------------------------------------------------------------------------------


def test_every_announcement_in_order_with_espeaks_own_audio(tmp_path):
    out = tmp_path / "voice.wav"
    voice = WavAnnouncer(out, speed=50)
    for text in (TURN, MOVE, HOME):
        voice.say(text)
    assert voice.wait(timeout=30)
    voice.close()
    params, frames = read_wav(out)
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 22050)
    assert frames == espeak_pcm(TURN) + espeak_pcm(MOVE) + espeak_pcm(HOME)
    assert [a.text for a in voice.history] == [TURN, MOVE, HOME]
    assert all(a.latency is not None and a.latency > 0 and not a.cut for a in voice.history)
    assert voice.status == VoiceStatus()


def test_the_audio_is_a_voice_of_the_right_length_and_loudness(tmp_path):
    out = tmp_path / "turn.wav"
    voice = WavAnnouncer(out, speed=50)
    voice.say(TURN)
    voice.wait(timeout=30)
    voice.close()
    params, frames = read_wav(out)
    seconds = params.nframes / params.framerate
    assert 1.0 < seconds < 3.5  # four Czech words at 165 words a minute
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    assert rms > 500 and max(abs(s) for s in samples) > 5000  # speech, not silence or hum
    loud = sum(1 for s in samples if abs(s) > 1000) / len(samples)
    assert 0.1 < loud < 0.95  # words and the gaps between them


def test_a_new_announcement_cuts_the_one_playing_and_drops_those_waiting(tmp_path):
    out = tmp_path / "cut.wav"
    voice = WavAnnouncer(out, speed=2)  # LONG plays for about 4 s
    voice.say(LONG)
    voice.say(MOVE)  # waits behind it...
    wait_until(lambda: voice.history[0].first_sample_at is not None)
    time.sleep(0.3)
    voice.say(TURN, cut=True)  # ...and is dropped with the cut
    assert voice.wait(timeout=30)
    voice.close()
    long, move, turn = voice.history
    assert long.cut and 0 < long.samples < len(espeak_pcm(LONG)) // 4
    assert move.dropped and move.samples == 0 and move.first_sample_at is None
    assert not turn.cut and not turn.dropped
    _, frames = read_wav(out)
    assert frames == espeak_pcm(LONG)[: long.samples * 2] + espeak_pcm(TURN)


def test_a_full_queue_drops_the_stalest_waiting_announcement(tmp_path):
    voice = WavAnnouncer(tmp_path / "q.wav", speed=1, max_pending=2)
    voice.say(LONG)
    wait_until(lambda: voice.history[0].first_sample_at is not None)
    for text in ("jedna", "dva", "tři"):
        voice.say(text)
    first, one, two, three = voice.history
    assert one.dropped and not two.dropped and not three.dropped
    voice.close()  # stops now: the one playing is cut, the rest dropped
    assert first.cut and two.dropped and three.dropped
    assert read_wav(tmp_path / "q.wav")[0].nframes == first.samples


def test_saying_never_waits_for_the_voice(tmp_path):
    stuck = script(tmp_path / "espeak-ng", "time.sleep(60)")  # a voice that never answers
    voice = WavAnnouncer(tmp_path / "x.wav", espeak=stuck)
    voice.say(TURN)
    voice.say(MOVE)  # returns although the first one is stuck
    assert not voice.wait(timeout=0.3)
    assert [a.text for a in voice.history] == [TURN, MOVE]
    voice.close()  # kills the stuck process
    assert read_wav(tmp_path / "x.wav")[0].nframes == 0


def test_a_missing_espeak_is_reported_once_and_nothing_breaks(tmp_path):
    voice = WavAnnouncer(tmp_path / "none.wav", espeak=str(tmp_path / "no-such-espeak"))
    seen: list[VoiceStatus] = []
    voice.on_status.append(seen.append)
    voice.say(TURN)
    voice.say(MOVE)
    assert voice.wait(timeout=10)
    voice.close()
    assert len(seen) == 1 and seen[0] == voice.status
    assert not voice.status.available and voice.status.reason == "no-espeak"
    assert "no-such-espeak is not installed" in voice.status.describe()
    params, _ = read_wav(tmp_path / "none.wav")
    assert params.nframes == 0  # still a valid WAV file


def test_blank_text_is_not_an_announcement(tmp_path):
    voice = WavAnnouncer(tmp_path / "b.wav", speed=50)
    voice.say("  \n ")
    voice.close()
    assert not voice.history


# --- the Pi: espeak-ng into aplay --------------------------------------------------------------

RECORDER = """
n = len([f for f in os.listdir(os.environ["VOICE_OUT"]) if f.endswith(".args")])
base = os.path.join(os.environ["VOICE_OUT"], str(n))
open(base + ".args", "w").write("\\n".join(sys.argv[1:]))
data = sys.stdin.buffer.read()
open(base + ".raw", "wb").write(data)
if os.environ.get("VOICE_SLOW") and n == 0:
    time.sleep(60)  # a long announcement still playing
"""


@pytest.fixture
def card(tmp_path, monkeypatch):
    """A stand-in for aplay that keeps what it was given, one pair of files per announcement."""
    out = tmp_path / "card"
    out.mkdir()
    monkeypatch.setenv("VOICE_OUT", str(out))
    return script(tmp_path / "aplay", RECORDER), out


def test_the_pi_streams_espeaks_audio_to_aplay_as_raw_samples(card):
    aplay, out = card
    voice = EspeakAnnouncer(aplay=aplay, device="plughw:CARD=Device")
    voice.say(TURN)
    voice.say(MOVE)
    assert voice.wait(timeout=30)
    voice.close()
    assert (out / "0.args").read_text().split("\n") == [
        "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", "22050", "-D", "plughw:CARD=Device",
        "-"]
    assert (out / "0.raw").read_bytes() == espeak_pcm(TURN)
    assert (out / "1.raw").read_bytes() == espeak_pcm(MOVE)
    assert voice.history[0].samples == len(espeak_pcm(TURN)) // 2
    assert voice.status.available


def test_the_pi_cuts_the_playing_announcement(card, monkeypatch):
    aplay, out = card
    monkeypatch.setenv("VOICE_SLOW", "1")
    voice = EspeakAnnouncer(aplay=aplay)
    voice.say(LONG)
    wait_until(lambda: (out / "0.raw").exists())  # the card has it and is "playing"
    voice.say(TURN, cut=True)
    assert voice.wait(timeout=30)  # the first aplay was stopped, so this one came through
    voice.close()
    assert voice.history[0].cut and not voice.history[1].cut
    assert (out / "1.raw").read_bytes() == espeak_pcm(TURN)


def test_a_missing_sound_card_is_reported_once_and_recovers(tmp_path, card):
    failing = script(tmp_path / "aplay-fails", """
sys.stdin.buffer.read()
print("aplay: main:831: audio open error: No such file or directory", file=sys.stderr)
sys.exit(1)
""")
    voice = EspeakAnnouncer(aplay=failing)
    seen: list[VoiceStatus] = []
    voice.on_status.append(seen.append)
    voice.say(TURN)
    voice.say(MOVE)
    assert voice.wait(timeout=30)
    assert len(seen) == 1 and seen[0].reason == "no-sound-card"
    assert "audio open error" in seen[0].describe()
    voice.aplay = card[0]  # the speaker is plugged in
    voice.say(HOME)
    assert voice.wait(timeout=30)
    voice.close()
    assert [s.available for s in seen] == [False, True]


def test_a_missing_aplay_or_espeak_on_the_pi(tmp_path, card):
    no_aplay = EspeakAnnouncer(aplay=str(tmp_path / "no-aplay"))
    no_espeak = EspeakAnnouncer(aplay=card[0], espeak=str(tmp_path / "no-espeak"))
    for voice in (no_aplay, no_espeak):
        voice.say(TURN)
        assert voice.wait(timeout=30)
        voice.close()
    assert no_aplay.status.reason == "no-aplay" and no_espeak.status.reason == "no-espeak"


def test_real_aplay_plays_to_alsas_null_device():
    voice = EspeakAnnouncer(device="null")  # ALSA's null device: needs no sound card
    voice.say(TURN)
    assert voice.wait(timeout=30)
    voice.close()
    assert voice.status.available, voice.status.describe()
    assert voice.history[0].samples == len(espeak_pcm(TURN)) // 2 and not voice.history[0].cut


def test_real_aplay_on_a_card_that_is_not_there():
    voice = EspeakAnnouncer(device="hw:CARD=NoSuchCard")
    voice.say(TURN)
    assert voice.wait(timeout=30)
    voice.close()
    assert voice.status.reason == "no-sound-card"
    assert "aplay: " in voice.status.detail  # aplay's own summary, not ALSA's first detail


# --- the silent twin and the choice ------------------------------------------------------------


def test_the_silent_twin_keeps_the_texts_in_order():
    voice = SilentAnnouncer()
    voice.say(TURN)
    voice.say(" ")
    voice.say(MOVE, cut=True)
    assert voice.wait() and voice.spoken == [TURN, MOVE] and voice.status.available
    voice.close()


def test_the_silent_twin_keeps_only_the_latest_sentences():
    """The service runs the silent twin for days when the voice is off."""
    from companion.devices.voice import SPOKEN_KEPT

    voice = SilentAnnouncer()
    for k in range(10 * SPOKEN_KEPT):
        voice.say_as(f"věta {k}", kind="event", priority=k % 3)
    assert SPOKEN_KEPT <= len(voice.spoken) <= 2 * SPOKEN_KEPT
    assert len(voice.kinds) == len(voice.spoken)
    assert voice.spoken[-1] == f"věta {10 * SPOKEN_KEPT - 1}" and voice.kinds[-1] == (
        "event", (10 * SPOKEN_KEPT - 1) % 3)
    n = len(voice.spoken)
    assert voice.spoken[0] == f"věta {10 * SPOKEN_KEPT - n}"


def test_the_announcer_a_configuration_names(tmp_path):
    assert isinstance(create_announcer("silent"), SilentAnnouncer)
    wav = create_announcer("wav", wav_file=tmp_path / "c.wav")
    assert isinstance(wav, WavAnnouncer)
    wav.close()
    pi = create_announcer("espeak", device="default")
    assert isinstance(pi, EspeakAnnouncer) and pi.device == "default"
    pi.close()
    with pytest.raises(ValueError, match="espeak, wav or silent"):
        create_announcer("radio")
