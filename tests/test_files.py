"""Every file a person hands the companion is read with a limit: one sentence, bounded time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.files import TooBig, read_limited, size_words

ROOT = Path(__file__).resolve().parents[1]


def test_a_file_under_the_limit_is_read_whole(tmp_path):
    f = tmp_path / "a.toml"
    f.write_bytes(b"x" * 100)
    assert read_limited(f, 100) == b"x" * 100


def test_one_byte_over_is_refused_with_the_file_and_the_limit(tmp_path):
    f = tmp_path / "a.toml"
    f.write_bytes(b"x" * 1025)
    with pytest.raises(TooBig) as err:
        read_limited(f, 1024, "board file")
    assert str(err.value) == (f"The board file {f} is larger than the 1 KiB this companion "
                              "reads; choose a smaller file.")
    assert isinstance(err.value, OSError)


def test_endless_devices_and_fifos_end_in_bounded_time(tmp_path):
    t0 = time.monotonic()
    with pytest.raises(TooBig):
        read_limited("/dev/zero", 1 << 20)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a writer that never writes nor closes
    try:
        with pytest.raises(TooBig) as err:
            read_limited(fifo, 100, "config file")
    finally:
        os.close(writer)
    assert time.monotonic() - t0 < 3
    assert str(err.value) == (f"The config file {fifo} is a fifo that gave no end within 1 s; "
                              "choose a regular file.")  # not "larger than the 256 KiB"


def test_a_folder_is_not_a_file(tmp_path):
    with pytest.raises(IsADirectoryError):
        read_limited(tmp_path, 100)


def test_sizes_in_words():
    assert [size_words(n) for n in (100, 2048, 3 << 20)] == ["100 bytes", "2 KiB", "3 MiB"]


@pytest.mark.parametrize("argv", [
    ["board", "check", "/dev/zero"],
    ["--config", "/dev/zero", "pins"],
])
def test_the_command_line_says_one_sentence_and_exits_2(argv):
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True,
                          text=True, timeout=30, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert "larger than the" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert time.monotonic() - t0 < 15  # the interpreter's start under load; the read is instant
