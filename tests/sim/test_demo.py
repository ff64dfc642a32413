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
