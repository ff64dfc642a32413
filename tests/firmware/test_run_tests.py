# cpython-only: drives Node
"""tests/firmware/run_tests.mjs, the MicroPython runner, reports failures (so a green run means something)."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.firmware import FIRMWARE, ROOT, TOOLS

RUNNER = Path(TOOLS) / "run_tests.mjs"
MODULE = Path(TOOLS) / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not MODULE.is_dir(),
    reason="Node or tests/firmware/node_modules missing (make firmware-check installs them)",
)


def fake_checkout(tmp_path: Path, test_source: str) -> Path:
    """A checkout with the real firmware, and one board's test package of our own."""
    (tmp_path / "firmware").symlink_to(FIRMWARE)
    tests = tmp_path / "tests" / "firmware"
    (tests / "dice").mkdir(parents=True)
    real = Path(ROOT) / "tests" / "firmware"
    for init in ("__init__.py", "dice/__init__.py"):
        (tests / init).write_text((real / init).read_text())
    (tests / "dice" / "test_sample.py").write_text(test_source)
    (tests / "dice" / "test_cpython.py").write_text(
        "# cpython-only\ndef test_x():\n    raise AssertionError\n")
    return tmp_path


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(RUNNER), "--root", str(root), "-v"], capture_output=True, text=True, timeout=120
    )


def test_a_failing_test_fails_the_run(tmp_path: Path) -> None:
    source = (
        "import sys\n"
        "def test_good():\n    assert sys.implementation.name == 'micropython'\n"
        "def test_bad():\n    assert 1 + 1 == 3, 'arithmetic'\n"
    )
    result = run(fake_checkout(tmp_path, source))
    assert result.returncode == 1
    assert "FAIL tests.firmware.dice.test_sample::test_bad" in result.stdout
    assert "ok   tests.firmware.dice.test_sample::test_good" in result.stdout
    assert "1 passed, 1 failed" in result.stdout
    assert "dice/test_cpython.py" in result.stdout  # left to CPython, not run


def test_passing_tests_pass_the_run(tmp_path: Path) -> None:
    source = "from dice import fair\ndef test_face():\n    assert fair.face_of(5) == 6\n"
    result = run(fake_checkout(tmp_path, source))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed, 0 failed" in result.stdout
