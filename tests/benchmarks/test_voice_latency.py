"""The voice benchmark still measures every game: each table says something after its input
(a benchmark that stops with "said nothing" writes no line of the results table)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is not installed")


def test_one_round_measures_every_games_voice():
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "voice_latency.py"),
                          "--rounds", "1"], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    for game in ("clovece", "gobbit", "napij"):
        assert f"\n{game}: " in run.stdout, run.stdout
