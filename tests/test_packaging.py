"""An installed wheel works from any folder: the firmware ships inside the package.

The wheel is built offline from a copy of the sources (no build isolation: the
test environment's setuptools), installed with ``--no-deps`` into a fresh
virtual environment whose only extra path is this environment's
site-packages (the role ``--system-site-packages`` plays on the Pi, where the
dependencies come from Debian), and run from an unrelated folder.  The
checkout is nowhere on the path, so the simulated dice can only find the
firmware that the wheel carries.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "COMPANION_DICE_FIRMWARE", "VIRTUAL_ENV")}
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the companion wheel installed; its bin folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for folder in ("companion", "firmware"):
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
                   check=True, cwd=tmp, env=_env(), timeout=300)
    wheels = list(dist.glob("companion-*.whl"))
    assert len(wheels) == 1, wheels
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "companion_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheels[0])],
                   check=True, env=_env(), timeout=300)
    return venv / "bin"


def test_the_installed_package_carries_its_firmware(installed: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        [str(installed / "python"), "-c",
         "import companion, companion.dice.sim as s; print(companion.__file__); "
         "print(s.firmware_dir()); print((s.BOARD_DIR / 'main.py').is_file())"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=60, check=True)
    package, firmware, main = out.stdout.split("\n")[:3]
    venv = installed.parent.resolve()
    assert Path(package).resolve().is_relative_to(venv)  # the wheel's copy, not the checkout
    assert Path(firmware).resolve().is_relative_to(venv)
    assert main == "True"


def test_companion_demo_runs_from_another_folder(installed: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [str(installed / "companion"), "demo", "--game", "clovece", "--seed", "3", "--gif",
         "out.gif"], cwd=elsewhere, env=_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    gif = elsewhere / "out.gif"
    assert gif.read_bytes()[:4] == b"GIF8" and gif.stat().st_size > 10_000
    assert "winner:" in result.stdout


def test_a_wrong_firmware_variable_is_one_sentence(installed: Path, tmp_path: Path) -> None:
    env = _env() | {"COMPANION_DICE_FIRMWARE": str(tmp_path)}
    result = subprocess.run(
        [str(installed / "companion"), "demo", "--game", "clovece", "--seed", "3", "--gif",
         "out.gif"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith("companion: COMPANION_DICE_FIRMWARE points at")
    assert "Traceback" not in result.stderr


def test_companion_sim_runs_from_another_folder(installed: Path, tmp_path: Path) -> None:
    master, slave = pty.openpty()
    env = _env() | {"TERM": "xterm", "COLUMNS": "140", "LINES": "45",
                    "COMPANION_TERMINAL_MODE": "half"}
    proc = subprocess.Popen([str(installed / "companion"), "sim"], cwd=tmp_path, env=env,
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while "kostka: připojena".encode() not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        assert "kostka: připojena".encode() in seen, seen[-2000:]
        os.write(master, b"q")
        # keep reading while it quits: a full pty would block its next frame, and the quit
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert (tmp_path / ".companion-sim").is_dir()  # its data went to the folder it ran in
