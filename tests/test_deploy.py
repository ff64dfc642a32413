"""The Pi set-up files: the script parses, the unit runs the service unprivileged."""

from __future__ import annotations

import configparser
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_setup_script_is_valid_shell():
    subprocess.run(["sh", "-n", str(ROOT / "scripts" / "setup-pi.sh")], check=True)
    subprocess.run(["sh", "-n", str(ROOT / "scripts" / "system-deps.sh")], check=True)


def test_the_unit_runs_the_service_as_an_unprivileged_user():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "scripts" / "companion.service")
    service = unit["Service"]
    assert service["User"] == "companion" and service["User"] != "root"
    assert service["ExecStart"].split()[:2] == ["/opt/companion/venv/bin/companion", "--config"]
    assert service["ExecStart"].endswith(" run")
    assert service["Restart"] == "on-failure"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_files_the_setup_script_installs_exist():
    script = (ROOT / "scripts" / "setup-pi.sh").read_text()
    for rel in ("examples/companion.toml", "scripts/99-companion-dice.rules",
                "scripts/companion.service"):
        assert rel in script and (ROOT / rel).is_file(), rel
