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
            "    ('companion.games.clovece.engine', 'companion.games.napij.engine',\n"
            "     'companion.games.gobbit.engine', 'companion.games.clovece.commands'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_other_commands_still_get_the_full_parser(capsys):
    assert cli.main(["run", "--bogus"]) == 2
    assert "Unrecognized arguments: --bogus" in capsys.readouterr().err


def _walk(parser, path):
    """Every option, positional argument and subcommand under ``parser``, with its help."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {c.dest: c.help for c in action._choices_actions}
            for name, sub in action.choices.items():
                yield [*path, name], helps.get(name)
                yield from _walk(sub, [*path, name])
        elif not isinstance(action, argparse._HelpAction):
            yield [*path, "/".join(action.option_strings) or action.dest], action.help


def test_every_subcommand_and_option_has_a_help_line():
    found = list(_walk(cli.build_parser(), ["companion"]))
    assert len(found) > 80  # the walk reaches the per-game commands and their options
    assert ["companion", "selfplay", "napij", "--seed"] in [p for p, _ in found]
    missing = [" ".join(path) for path, text in found if not (text and text.strip())]
    assert missing == []


def test_the_top_help_reads_as_plain_words():
    parser = cli.build_parser()
    assert parser.description == cli.DESCRIPTION
    assert "``" not in parser.format_help() and ":data:" not in parser.format_help()


def test_the_demo_plays_the_games_of_the_set_up(capsys):
    from companion.games import playable

    demo = cli.build_parser()._subparsers._group_actions[0].choices["demo"]
    game = next(a for a in demo._actions if a.dest == "game")
    assert "any the companion knows" in game.help
    assert cli.main(["demo", "--game", "chess", "--gif", "x.gif"]) == 2
    assert ", ".join(info.name for info in playable()) in capsys.readouterr().err


def _parsers(parser, path):
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, [*path, name])


def test_every_commands_help_reads_as_plain_words():
    """No reStructuredText from the docstrings (``code``, :mod:`x`, `x`) in any help."""
    import re

    markup = re.compile(r"``|:[a-z]+:`|`[^`\s][^`]*`|\*\*")
    helps = {" ".join(path): p.format_help() for path, p in _parsers(cli.build_parser(),
                                                                      ["companion"])}
    assert len(helps) > 25  # every command, every game's command, the pads' subcommands
    raw = {name: markup.findall(text) for name, text in helps.items() if markup.search(text)}
    assert raw == {}


@pytest.mark.parametrize("argv", [
    ["--config", "x.toml", "-v", "sim"], ["sim", "--config", "x.toml", "-v"],
    ["-v", "sim", "--config=x.toml"], ["--config", "y.toml", "sim", "--config", "x.toml", "-v"],
    ["pads", "calibrate", "--config", "x.toml", "-v"], ["pads", "-v", "show", "--config", "x.toml"],
])
def test_the_global_options_may_follow_the_command(argv):
    args = cli.build_parser().parse_args(argv)
    assert args.config == "x.toml" and args.verbose is True


def test_global_options_not_repeated_after_the_command_keep_their_value():
    args = cli.build_parser().parse_args(["--config", "x.toml", "-v", "pads", "show"])
    assert args.config == "x.toml" and args.verbose is True
    args = cli.build_parser().parse_args(["pads", "show"])
    assert args.config is None and args.verbose is False


def test_library_warnings_stay_out_of_the_terminal_unless_asked():
    """What 'companion run' on a laptop met: gpiozero's warnings before its own sentence."""
    code = ("import sys, warnings, companion.cli as c\n"
            "import companion.commands.service as s\n"
            "def noisy(args):\n"
            "    warnings.warn('Falling back from lgpio', RuntimeWarning, stacklevel=1)\n"
            "    raise c.UsageError('No GPIO pins can be used here.')\n"
            "s.cmd_run = noisy\n"
            "sys.exit(c.main(sys.argv[1:]))\n")
    quiet = subprocess.run([sys.executable, "-c", code, "run"], capture_output=True, text=True)
    assert quiet.returncode == 2 and quiet.stderr == "companion: No GPIO pins can be used here.\n"
    loud = subprocess.run([sys.executable, "-c", code, "run", "-v"], capture_output=True,
                          text=True)
    assert loud.returncode == 2 and "WARNING py.warnings:" in loud.stderr
    assert "Falling back from lgpio" in loud.stderr
    assert loud.stderr.endswith("companion: No GPIO pins can be used here.\n")
