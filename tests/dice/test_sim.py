"""companion.dice.sim: the simulated dice runs the firmware's own code on a pty."""

from __future__ import annotations

import os
import select
import shutil
from pathlib import Path

import pytest

from companion.dice import protocol
from companion.dice import sim as sim_module
from companion.dice.protocol import Hello, Roll
from companion.dice.sim import (
    FIRMWARE_ENV,
    FirmwareNotFound,
    SimulatedDice,
    firmware_dir,
    load_firmware,
)
from companion.errors import UsageError
from tests.dice.support import wait_for


def read_frames(fd: int, want: int, timeout: float = 3.0) -> list[protocol.Message]:
    """Decode frames arriving on ``fd`` (a pty slave) until ``want`` of them came."""
    splitter = protocol.Splitter()
    messages: list[protocol.Message] = []

    def more() -> bool:
        if select.select([fd], [], [], 0.05)[0]:
            messages.extend(protocol.decode(line) for line in splitter.feed(os.read(fd, 4096)))
        return len(messages) >= want

    assert wait_for(more, timeout)
    return messages


def open_slave(path: str) -> int:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    os.set_blocking(fd, False)
    return fd


def test_the_path_is_a_symlink_to_a_pty() -> None:
    with SimulatedDice(seed=1) as dice:
        assert os.path.islink(dice.path)
        assert os.path.realpath(dice.path) == os.path.realpath(dice.pts_path)
        assert dice.pts_path.startswith("/dev/pts/")
    assert not os.path.lexists(dice.path)


def read_until(fd: int, wanted: protocol.Message, timeout: float = 5.0) -> list[protocol.Message]:
    """Frames arriving on ``fd`` until ``wanted`` came (heartbeats may come between)."""
    splitter = protocol.Splitter()
    messages: list[protocol.Message] = []

    def seen() -> bool:
        if select.select([fd], [], [], 0.05)[0]:
            messages.extend(protocol.decode(line) for line in splitter.feed(os.read(fd, 4096)))
        return wanted in messages

    assert wait_for(seen, timeout), messages
    return messages


def test_it_speaks_the_protocol_and_answers_sync() -> None:
    with SimulatedDice(seed=1, device_id="table-2") as dice:
        fd = open_slave(dice.path)
        try:
            os.write(fd, protocol.encode(protocol.Sync()))
            got = read_until(fd, Hello("table-2", "sim-1.0.0", dice.boot_id, 1))
            assert not any(isinstance(m, Roll) for m in got)
            dice.roll(4)
            got = read_until(fd, Roll(dice.boot_id, 1, 4))
            rolls = [m for m in got if isinstance(m, Roll)]
            # one roll; sent again (same number) while unacknowledged when the test is slow
            assert rolls and all(m == Roll(dice.boot_id, 1, 4) for m in rolls), rolls
        finally:
            os.close(fd)


def test_seeded_rolls_repeat_and_are_faces() -> None:
    with SimulatedDice(seed=42) as first, SimulatedDice(seed=42) as second:
        a = [first.roll() for _ in range(30)]
        b = [second.roll() for _ in range(30)]
    assert a == b
    assert set(a) <= {1, 2, 3, 4, 5, 6} and len(set(a)) > 1


def test_roll_refuses_impossible_faces() -> None:
    with SimulatedDice(seed=1) as dice:
        for bad in (0, 7, -1):
            with pytest.raises(ValueError):
                dice.roll(bad)
        assert dice.sent == []


def test_unplug_removes_the_path_and_replug_resends(tmp_path: Path) -> None:
    path = str(tmp_path / "companion-dice")
    with SimulatedDice(seed=3, link_path=path) as dice:
        dice.unplug()
        assert not os.path.lexists(path) and not dice.plugged
        face = dice.roll()
        dice.replug()
        assert os.path.islink(path) and dice.plugged
        fd = open_slave(path)
        try:
            os.write(fd, protocol.encode(protocol.Sync()))
            got = read_frames(fd, 3)
            assert Roll(dice.boot_id, 1, face) in got
            assert dice.unacked == 1
            os.write(fd, protocol.encode(protocol.Ack(dice.boot_id, 1)))
            assert wait_for(lambda: dice.unacked == 0)
            assert dice.acked == 1
        finally:
            os.close(fd)


def test_a_file_in_the_way_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "dice"
    path.write_text("precious")
    with pytest.raises(FileExistsError):
        SimulatedDice(link_path=path)
    assert path.read_text() == "precious"


def test_the_firmware_is_the_checkouts_top_level_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FIRMWARE_ENV, raising=False)
    checkout = Path(sim_module.__file__).resolve().parents[2]
    assert firmware_dir() == checkout / "firmware" / "dice" / "dice"
    assert (sim_module.BOARD_DIR / "main.py").is_file()  # the whole flash image ships
    assert load_firmware().link.RESEND_MS == 300


def test_a_missing_firmware_is_explained(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(FIRMWARE_ENV, str(tmp_path))
    with pytest.raises(FirmwareNotFound, match="holds no dice firmware") as err:
        firmware_dir()
    assert isinstance(err.value, UsageError)  # the CLI prints the sentence and exits with 2
    monkeypatch.delenv(FIRMWARE_ENV)
    monkeypatch.setattr(sim_module, "BOARD_DIR", tmp_path / "nowhere")
    with pytest.raises(FirmwareNotFound, match="reinstall the companion"):
        firmware_dir()


def test_the_variable_may_point_at_another_copy(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    copy = tmp_path / "dice"
    shutil.copytree(sim_module.BOARD_DIR / "dice", copy)
    monkeypatch.setenv(FIRMWARE_ENV, str(copy))
    assert firmware_dir() == copy
