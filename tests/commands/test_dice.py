"""companion dice-sim / dice-read: scripts, keys, errors for people."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.dice import Step, parse_script
from companion.dice.reader import DiceDisconnected, DiceDrop, DiceReader, DiceRoll
from companion.dice.sim import SimulatedDice
from tests.dice.support import Collector, wait_for


def test_parse_script() -> None:
    assert parse_script("roll, roll:6 ,drop,unplug,wait:0.5,replug,noise") == [
        Step("roll"), Step("roll", 6), Step("drop"), Step("unplug"), Step("wait", 0.5),
        Step("replug"), Step("noise"),
    ]


@pytest.mark.parametrize("script", ["rol", "roll:7", "wait:x", "wait:-1", ",", "drop:3"])
def test_bad_scripts_are_one_sentence_and_exit_2(script: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-sim", "--script", script]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_link_in_a_missing_folder_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-sim", "--script", "roll", "--link", "/nonexistent/dir/dice"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_dice_read_rejects_bad_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-read", "loop://", "--rolls", "0"]) == 2


def test_script_reaches_a_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = str(tmp_path / "dice")
    got = Collector()
    reader = DiceReader(link, got, reconnect_interval=0.05)
    reader.start()
    try:
        code = main(["dice-sim", "--link", link, "--seed", "5", "--interval", "0.05",
                     "--script", "wait:0.3,roll:2,roll,drop,unplug,roll:6,replug,roll:1"])
        out = capsys.readouterr().out
    finally:
        reader.stop()
    assert code == 0, out
    rolls = got.of(DiceRoll)
    assert [r.seq for r in rolls] == [1, 2, 4, 5]
    assert [r.value for r in rolls][0] == 2 and [r.value for r in rolls][2:] == [6, 1]
    assert got.of(DiceDrop) == [DiceDrop(3, 420)]
    # the scripted unplug is reported once, between the drop and the six; the sim closing at
    # the end of the script may be reported too if the reader notices before it is stopped
    kinds = [type(e) for e in got.events if isinstance(e, DiceRoll | DiceDrop | DiceDisconnected)]
    gap = kinds[kinds.index(DiceDrop) + 1:]
    assert gap[:2] == [DiceDisconnected, DiceRoll]
    assert kinds[:kinds.index(DiceDrop)].count(DiceDisconnected) == 0
    assert kinds[kinds.index(DiceDrop) + 2:].count(DiceDisconnected) <= 1
    assert f"simulated dice at {link}" in out
    assert "sent 5 event(s); 0 not acknowledged" in out


def test_keys_from_stdin_as_a_subprocess(tmp_path: Path) -> None:
    link = str(tmp_path / "dice")
    got = Collector()
    reader = DiceReader(link, got, reconnect_interval=0.05)
    reader.start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "dice-sim", "--link", link, "--seed", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline()
        assert first.startswith(f"simulated dice at {link}")
        assert wait_for(lambda: reader.connected)
        proc.stdin.write("6x3d")
        proc.stdin.flush()
        assert wait_for(lambda: len(got.of(DiceDrop)) == 1)
        proc.stdin.write("q")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=10)
    finally:
        reader.stop()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert [r.value for r in got.of(DiceRoll)] == [6, 3]
    assert "keys:" in out  # the unknown key "x" got the help line


def test_dice_read_prints_events(tmp_path: Path) -> None:
    link = str(tmp_path / "dice")
    with SimulatedDice(seed=2, link_path=link) as dice:
        # rolled before anyone listens: they wait in the dice's outbox for the reader
        rolled = [dice.roll(4), dice.roll(5)]
        result = subprocess.run(
            [sys.executable, "-m", "companion", "dice-read", link, "--rolls", "2", "--timeout", "20"],
            capture_output=True, text=True, timeout=30,
        )
    assert result.returncode == 0, result.stderr
    assert "connected device_id=sim" in result.stdout
    assert "roll value=4 seq=1" in result.stdout and "roll value=5 seq=2" in result.stdout
    assert rolled == [4, 5]
    assert "stats:" in result.stdout and "rolls=2" in result.stdout


def test_dice_read_times_out_with_exit_1(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "dice-read", "loop://", "--rolls", "1",
         "--timeout", "0.3"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 1
    assert "only 0 of 1 rolls arrived" in result.stderr


def test_dice_read_of_a_port_that_does_not_exist_says_so_at_once_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nonexistent"
    assert main(["dice-read", str(missing)]) == 2  # no --timeout: it would wait for ever
    err = capsys.readouterr().err
    assert err == (f"companion: There is no dice port {missing}: plug the dice in, or give "
                   "its port (e.g. /dev/companion-dice).\n")


def test_dice_read_refuses_a_bad_baud_rate_instead_of_retrying_for_ever(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-read", "loop://", "--baudrate", "-1", "--timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert "--baudrate: 1 to" in err and err.count("\n") == 1


def test_dice_read_pixels_prints_what_a_die_sends(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import threading

    from companion.commands import dice as dice_cmd
    from companion.sim.pixels import SimPixels

    pixels = SimPixels(seed=2, name="Kostka")
    monkeypatch.setattr(dice_cmd, "pixels_port", pixels.port)
    pixels.port()
    assert pixels.die is not None
    die = pixels.die

    def throw() -> None:
        import time

        while not die.sent:  # it answered who-are-you: the companion listens
            time.sleep(0.01)
        die.crooked()
        die.roll(4)
        die.roll(2)

    threading.Thread(target=throw, daemon=True).start()
    try:
        assert main(["dice-read", "--pixels", "Kostka", "--rolls", "2", "--timeout", "20"]) == 0
    finally:
        pixels.close()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Pixels dice heard: Kostka; reading Kostka"
    assert out[1].startswith("connected device_id=Kostka firmware=pixels ")
    assert out[2:5] == ["crooked face_index=5", "roll value=4 seq=1", "roll value=2 seq=2"]
    assert out[5].startswith("stats: rolls=2 crooked=1")


def test_dice_read_wants_a_port_or_pixels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-read"]) == 2
    assert "--pixels" in capsys.readouterr().err
    assert main(["dice-read", "loop://", "--pixels"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["dice-read", "--pixels", "x" * 40]) == 2


def test_dice_read_pixels_without_bluetooth_is_one_sentence(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.commands import dice as dice_cmd
    from companion.dice.pixels.port import LoopThread, PortError

    class NoRadio:
        loop = LoopThread("no-radio")
        owns_loop = True

        async def scan(self, *a: object, **k: object) -> None:
            raise PortError("Bluetooth cannot scan here (no adapter); is BlueZ running and "
                            "the Pi's Bluetooth on?")

        async def close(self) -> None:
            pass

    monkeypatch.setattr(dice_cmd, "pixels_port", NoRadio)
    assert main(["dice-read", "--pixels"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: Bluetooth cannot scan here") and "Traceback" not in err


def test_dice_read_reads_our_wireless_die_over_the_air(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import threading

    from companion.commands import dice as dice_cmd
    from companion.dice.ble.bumble_port import BumbleNusPort
    from companion.dice.ble.virtual import VirtualBleDie
    from companion.dice.pixels.bumble_port import Air

    air = Air()
    die = VirtualBleDie(air, "Companion dice 0009", seed=0xABCDEF01)
    monkeypatch.setattr(dice_cmd, "ble_port", lambda: BumbleNusPort(air))

    def throw() -> None:
        import time

        while not die.connected:
            time.sleep(0.01)
        die.roll(3)
        die.roll(6)

    threading.Thread(target=throw, daemon=True).start()
    try:
        assert main(["dice-read", "ble://Companion dice 0009", "--rolls", "2",
                     "--timeout", "20"]) == 0
    finally:
        die.close()
        air.close()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("connected device_id=pico-virtual")
    rolls = [line for line in out if line.startswith("roll ")]
    assert rolls == ["roll value=3 seq=1", "roll value=6 seq=2"]


@pytest.mark.parametrize("kind", ["a folder", "a regular file"])
def test_dice_read_on_a_folder_or_a_regular_file_is_one_sentence_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    port = tmp_path
    if kind == "a regular file":
        port = tmp_path / "rolls.txt"
        port.write_text("not a dice\n")
    assert main(["dice-read", str(port), "--timeout", "5"]) == 2
    out = capsys.readouterr()
    from companion.commandline import shown

    assert out.err == (f"companion: The dice's port {shown(str(port))} is {kind}, not a serial "
                       "device.\n")
    assert "waiting" not in out.out + out.err


def test_dice_read_on_a_port_that_never_opens_is_one_sentence_and_exit_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-read", "socket://127.0.0.1:1", "--timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: The dice on 'socket://127.0.0.1:1' could not be opened in "
                          "1 s (") and err.endswith("may this user open it?\n")
    assert "Traceback" not in err
