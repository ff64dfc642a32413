"""The boards' package (hardware/boards) on the path, and one regeneration of every output
into a temporary folder per test session (needs KiCad: skipped without it, unless
HARDWARE_REQUIRE_KICAD is set, as `make hardware-check` does, which then fails)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))


def kicad_missing() -> str | None:
    """Why the KiCad steps cannot run here, or None."""
    if not Path("/usr/bin/python3").exists():
        return "no /usr/bin/python3 (KiCad's Python)"
    if subprocess.run(["/usr/bin/python3", "-c", "import pcbnew"], capture_output=True).returncode:
        return "KiCad's pcbnew module is not installed (scripts/hardware-deps.sh installs it)"
    return None


@pytest.fixture(scope="session")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    why = kicad_missing()
    if why:
        if os.environ.get("HARDWARE_REQUIRE_KICAD"):
            pytest.fail(why)
        pytest.skip(why)
    from boards import build

    out = tmp_path_factory.mktemp("hardware")
    summary = build.build(out)
    return out, summary
