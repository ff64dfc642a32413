"""companion.dice.simboard: loading a board's firmware package, and a board on a pty."""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.dice.simboard import FirmwareNotFound, PtyBoard, load_board, load_firmware_lib
from companion.errors import UsageError
from tests.dice.support import wait_for


def test_the_shared_lib_is_loaded_under_the_names_the_boards_import() -> None:
    lib = load_firmware_lib()
    assert set(lib) == {"tableshims", "tablewire", "tablelink"}
    assert sys.modules["tablelink"] is lib["tablelink"]
    assert lib["tablewire"].__file__.endswith("firmware/lib/tablewire.py")


def test_a_missing_lib_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("tablewire", "tablelink"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(FirmwareNotFound, match="shared firmware is missing") as err:
        load_firmware_lib(tmp_path)
    assert isinstance(err.value, UsageError)


@pytest.fixture
def board_package(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "board"
    path.mkdir()
    (path / "__init__.py").write_text("VERSION = '9.9'\n")
    (path / "logic.py").write_text("from . import helper\nANSWER = helper.VALUE * 2\n")
    (path / "helper.py").write_text("VALUE = 21\n")
    yield path
    for name in [m for m in sys.modules if m.startswith("_test_board")]:
        del sys.modules[name]


def test_a_board_is_loaded_once_under_its_private_name(board_package: Path) -> None:
    asked: list[int] = []

    def where() -> Path:
        asked.append(1)
        return board_package

    fw = load_board("_test_board", where, ("logic",), "the test board")
    assert fw.VERSION == "9.9" and fw.logic.ANSWER == 42
    assert load_board("_test_board", where, ("logic",), "the test board") is fw
    assert asked == [1]  # the folder is asked for only when the package is loaded


def test_a_board_that_fails_to_load_leaves_nothing_behind(board_package: Path) -> None:
    (board_package / "logic.py").write_text("raise ImportError('broken')\n")
    with pytest.raises(ImportError, match="broken"):
        load_board("_test_board_broken", lambda: board_package, ("logic",), "the test board")
    assert not [m for m in sys.modules if m.startswith("_test_board_broken")]


class Echo(PtyBoard):
    """A board that answers every byte it reads with the same byte upper-cased."""

    def __init__(self, link_path: Path | None = None) -> None:
        super().__init__(link_path, "companion-test-", "echo")
        self._link = self  # the outbox the board counts as unacknowledged
        self.outbox: list[bytes] = []
        self.started = False
        self._run_board(self._start)

    def _start(self) -> None:
        self.started = True

    def _step(self) -> None:
        data = self._stream.read()
        if data:
            self._stream.write(data.upper())


def talk(path: str, data: bytes) -> bytes:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, data)
        got = b""

        def more() -> bool:
            nonlocal got
            if select.select([fd], [], [], 0.05)[0]:
                got += os.read(fd, 100)
            return len(got) >= len(data)

        assert wait_for(more)
        return got
    finally:
        os.close(fd)


def test_a_board_on_a_pty_answers_at_its_path_and_can_be_unplugged() -> None:
    with Echo() as board:
        assert board.started and board.plugged and board.unacked == 0
        assert os.path.realpath(board.path) == os.path.realpath(board.pts_path)
        assert talk(board.path, b"roll") == b"ROLL"
        board.unplug()
        assert not board.plugged and not os.path.lexists(board.path)
        board.replug()
        assert board.plugged and talk(board.path, b"again") == b"AGAIN"
        assert os.path.realpath(board.path) == os.path.realpath(board.pts_path)
        folder = os.path.dirname(board.path)
    assert not os.path.exists(folder)  # its own folder goes with it


def test_a_file_in_the_way_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "echo"
    path.write_text("precious")
    with pytest.raises(FileExistsError):
        Echo(path)
    assert path.read_text() == "precious"
