from __future__ import annotations

import pytest
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


def test_the_demo_refuses_a_game_it_does_not_know(capsys):
    from companion.games import playable

    assert main(["demo", "--game", "ludo", "--gif", "x.gif"]) == 2
    known = ", ".join(info.name for info in playable())  # a game added later is among them
    assert known.startswith("clovece, napij, gobbit")
    assert f"The demo plays {known}, not 'ludo'." in capsys.readouterr().err


def test_the_demo_plays_any_registered_game_on_a_line_the_computer_can_play(tmp_path, capsys):
    """Gobbit: not the referee of real cards (it follows the table) but the virtual deck,
    flipped to the end; the winner is the engine's, by the journal."""
    gif = tmp_path / "gobbit.gif"
    assert main(["demo", "--game", "gobbit", "--seed", "3", "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    winners = out.split("winner: ")[1].split()[0].split(",")
    assert winners and set(winners) <= {"1", "2", "3", "4"}, out  # ties are Gobbit's
    with Image.open(gif) as im:
        assert im.n_frames == int(out.split("frames: ")[1].split()[0]) > 10


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
    text = wav.with_suffix(".txt").read_text("utf-8")
    # what the table's voice says by default: the start and what matters, not every throw
    assert text.startswith("Nová hra") and len(text.splitlines()) == said
    assert "Šestka nepadla" not in text


def test_the_demo_refuses_a_wav_it_cannot_write(tmp_path, capsys):
    assert main(["demo", "--game", "napij", "--gif", str(tmp_path / "a.gif"),
                 "--wav", str(tmp_path / "no" / "a.wav")]) == 2
    assert "--wav" in capsys.readouterr().err


def test_a_gif_the_disk_refuses_is_one_sentence_and_exit_2(capsys):
    assert main(["demo", "--game", "clovece", "--gif", "/dev/full", "--max-rolls", "2"]) == 2
    assert capsys.readouterr().err == ("companion: The display's GIF /dev/full cannot be "
                                       "written (no space left on device).\n")


def test_the_same_seed_gives_the_same_gif_byte_for_byte(tmp_path, capsys):
    a, b = tmp_path / "a.gif", tmp_path / "b.gif"
    for gif in (a, b):
        assert main(["demo", "--seed", "5", "--players", "2", "--gif", str(gif),
                     "--max-rolls", "40"]) == 0
    capsys.readouterr()
    assert a.read_bytes() == b.read_bytes()
    with Image.open(a) as im:
        assert im.n_frames > 40


def test_frame_time_counts_views_not_seconds():
    from companion.sim.demo import FrameTime
    from companion.ui.views import MessageView

    t = FrameTime(0.2)
    one, two = MessageView("a"), MessageView("b")
    assert t(one, 100.0) == 0.2 and t(one, 107.5) == 0.2  # a redraw: the same time
    assert t(two, 107.6) == 0.4


def test_the_demo_says_nothing_on_stderr_unless_asked(tmp_path):
    import subprocess
    import sys

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "companion", *extra, "demo", "--seed", "2",
                               "--players", "2", "--max-rolls", "5",
                               "--gif", str(tmp_path / "d.gif")],
                              capture_output=True, text=True, timeout=120)

    quiet = run()
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.startswith("winner: ")
    loud = run("-v")
    assert loud.returncode == 0 and "connected" in loud.stderr


def test_a_virtual_pixels_die_gives_the_same_gif_as_our_simulated_dice(tmp_path, capsys):
    serial, pixels = tmp_path / "serial.gif", tmp_path / "pixels.gif"
    for gif, dice in ((serial, "serial"), (pixels, "pixels")):
        assert main(["demo", "--seed", "3", "--players", "2", "--gif", str(gif),
                     "--max-rolls", "30", "--dice", dice]) == 0
    out = capsys.readouterr().out
    assert out.count("rolls: 30") == 2
    assert serial.read_bytes() == pixels.read_bytes()


def test_the_same_napij_seed_gives_the_same_gif_byte_for_byte(tmp_path, capsys):
    """The demo's determinism for napij se: the banners wait for the robot's ●, the computer's
    plays too, and nothing on the screen depends on the clock."""
    a, b = tmp_path / "a.gif", tmp_path / "b.gif"
    for gif in (a, b):
        assert main(["demo", "--game", "napij", "--seed", "3", "--players", "2",
                     "--gif", str(gif), "--max-rolls", "25"]) == 0
    capsys.readouterr()
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("game", [pytest.param("napij", marks=pytest.mark.long), "clovece"])
def test_the_readme_gif_is_what_its_command_makes(tmp_path, capsys, game):
    """The README's GIFs and the commands printed under them: made again, each shows the same
    frames, pixel for pixel (so a picture cannot drift from its command unnoticed; the arm64
    check compares Člověče's bytes too, but only after the tests)."""
    import re
    import shlex
    from pathlib import Path

    from PIL import ImageChops, ImageSequence

    root = Path(__file__).resolve().parents[2]
    readme = root / "README.md"
    text = " ".join(readme.read_text("utf-8").split())
    m = re.search(rf"`(companion demo --game {game} [^`]*--gif docs/img/demo-{game}\.gif[^`]*)`",
                  text)
    assert m, f"README.md: the {game} GIF's command is not under it"
    args = shlex.split(m.group(1))[1:]
    args[args.index("--gif") + 1] = str(tmp_path / "made.gif")
    if "--wav" in args:
        args[args.index("--wav") + 1] = str(tmp_path / "made.wav")
    assert main(args) == 0
    capsys.readouterr()
    if "--wav" in args:  # the README says the WAV carries the game's whole speech
        said = (tmp_path / "made.txt").read_text("utf-8")
        # two computer seats: their drinks are said and settle by themselves
        assert "vyhrává" in said and "pít nemusí" in said and " hodil " not in said
    with Image.open(root / f"docs/img/demo-{game}.gif") as doc, \
            Image.open(tmp_path / "made.gif") as made:
        shown = [f.convert("L") for f in ImageSequence.Iterator(doc)]
        again = [f.convert("L") for f in ImageSequence.Iterator(made)]
    hint = f"docs/img/demo-{game}.gif is not what `{m.group(1)}` makes now: run it again"
    assert len(shown) == len(again), hint
    for k, (x, y) in enumerate(zip(shown, again, strict=True)):
        assert ImageChops.difference(x, y).getbbox() is None, f"{hint} (frame {k})"
