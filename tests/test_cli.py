"""The top of the command line: the service is the default command, and it starts without
building the game commands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion import cli


@pytest.mark.parametrize("argv", [[], ["run"], ["-v"], ["--config", "x.toml"],
                                  ["--config=x.toml", "run"]])
def test_bare_companion_runs_the_service(monkeypatch, argv):
    import companion.commands.service as service

    seen = []
    monkeypatch.setattr(service, "cmd_run", lambda args: seen.append(args) or 7)
    assert cli.main(argv) == 7
    assert len(seen) == 1


def test_a_service_start_does_not_import_the_game_commands():
    code = ("import sys, companion.cli as c\n"
            "import companion.commands.service as s\n"
            "s.cmd_run = lambda args: 0\n"
            "c.main([])\n"
            "print(sorted(m for m in sys.modules if m.startswith(\n"
            "    ('companion.engines.clovece', 'companion.engines.napij',\n"
            "     'companion.engines.gobbit', 'companion.commands.clovece'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_other_commands_still_get_the_full_parser(capsys):
    assert cli.main(["run", "--bogus"]) == 2
    assert "Unrecognized arguments: --bogus" in capsys.readouterr().err
