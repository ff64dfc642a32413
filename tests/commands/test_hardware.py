"""``companion pins`` checks the pin map of the configuration it is given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pins(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *argv, "pins"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_the_configs_pin_overrides_are_checked(tmp_path):
    clash = tmp_path / "clash.toml"
    clash.write_text('[pins]\nbuzzer = 5\n"buttons.left" = 5\n')
    done = pins("--config", str(clash))
    assert done.returncode == 2 and "5" in done.stderr and "Traceback" not in done.stderr


def test_a_missing_or_garbage_config_is_one_sentence_and_exit_2(tmp_path):
    garbage = tmp_path / "garbage.toml"
    garbage.write_bytes(b"\xff\xfe not toml [[[")
    for path in (tmp_path / "missing.toml", garbage):
        done = pins("--config", str(path))
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_without_a_config_the_default_map_fits():
    done = pins()
    assert done.returncode == 0 and "fits the header" in done.stdout
