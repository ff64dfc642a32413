from __future__ import annotations

from PIL import Image

from companion.cli import main


def test_the_demo_plays_through_the_real_adapters_and_writes_every_frame(tmp_path, capsys):
    gif = tmp_path / "demo.gif"
    assert main(["demo", "--game", "clovece", "--seed", "4", "--players", "2",
                 "--gif", str(gif), "--max-rolls", "25"]) == 0
    out = capsys.readouterr().out
    frames = int(out.split("frames: ")[1].split()[0])
    rolls = int(out.split("rolls: ")[1].split()[0])
    assert rolls == 25
    with Image.open(gif) as im:
        assert im.n_frames == frames > 25
        assert im.size == (256, 128)


def test_the_demo_refuses_other_games(capsys):
    assert main(["demo", "--game", "gobbit", "--gif", "x.gif"]) == 2


def test_the_napij_demo_writes_every_frame_and_every_announcement(tmp_path, capsys):
    import shutil
    import wave

    gif, wav = tmp_path / "napij.gif", tmp_path / "napij.wav"
    assert main(["demo", "--game", "napij", "--seed", "2", "--players", "2", "--gif", str(gif),
                 "--wav", str(wav), "--max-rolls", "12"]) == 0
    out = capsys.readouterr().out
    frames = int(out.split("frames: ")[1].split()[0])
    said = int(out.split("announcements: ")[1].split()[0])
    assert int(out.split("rolls: ")[1].split()[0]) == 12
    with Image.open(gif) as im:
        assert im.n_frames == frames > 12
    assert said >= 1  # at least the opening toast
    with wave.open(str(wav)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        if shutil.which("espeak-ng"):
            assert w.getnframes() > w.getframerate() * said  # every announcement, whole


def test_the_demo_refuses_a_wav_it_cannot_write(tmp_path, capsys):
    assert main(["demo", "--game", "napij", "--gif", str(tmp_path / "a.gif"),
                 "--wav", str(tmp_path / "no" / "a.wav")]) == 2
    assert "--wav" in capsys.readouterr().err
