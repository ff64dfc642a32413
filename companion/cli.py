"""The ``companion`` command line.

Subcommands come from each game's plugin (:attr:`companion.plugin.GamePlugin.commands`)
and from the modules of :mod:`companion.commands`; each has ``register(commands,
games)`` where ``commands`` is the top-level subparsers object and ``games`` maps a
per-game command (``moves``, ``apply``, ``selfplay``, ``judge``, ``watch``) to its
subparsers (one parser per game).

Errors are for people: bad input prints one sentence on stderr and exits 2; a
move the rules refuse exits 1.  No traceback reaches the terminal.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, cast

from companion.errors import RefusedError, UsageError

if TYPE_CHECKING:
    from companion.plugin import Subcommands

DESCRIPTION = ("The companion referees Czech table games at a real table: the table service "
               "(the default command), its simulator, and tools for each game's rules.")

GAME_COMMANDS: dict[str, str] = {
    "moves": "print the legal moves of a position as JSON",
    "apply": "apply a roll (and a move) to a position and print the result",
    "selfplay": "play seeded random games and print their speed",
    "watch": "watch a seeded computer-vs-computer game in the terminal",
    "judge": "rule on one moment of play",
}


def printable(text: str) -> str:
    """``text`` with control characters written as escapes (a message quotes what was typed,
    and a terminal must not get a line break or an escape sequence out of it)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


INTERNAL_ERROR = 70
"""Exit code of a failure that is a bug, not bad input (sysexits' EX_SOFTWARE)."""


class Parser(argparse.ArgumentParser):
    """argparse that reports bad input as one sentence (exit 2), not a usage dump.

    Every command's parser also takes the global options (``--config``, ``-v``), so they
    may follow the command (``companion sim --config FILE``) as well as precede it; given
    in both places, the later one wins.  ``global_options=False``: the top level, which
    declares them itself.
    """

    def __init__(self, *args: Any, global_options: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if global_options:
            add_global_options(self, argparse.SUPPRESS)

    def error(self, message: str) -> NoReturn:
        if len(message) > 300:  # argparse quotes the whole bad value: keep the sentence short
            message = message[:300] + "…"
        text = message[0].upper() + message[1:] if message else "Bad arguments"
        if not text.endswith("."):
            text += "."
        raise UsageError(f"{text} See '{self.prog} --help'.")


Handler = Callable[[argparse.Namespace], int | None]


def add_global_options(parser: argparse.ArgumentParser, default: Any = None) -> None:
    """``--config FILE`` and ``-v``; ``default=SUPPRESS`` on a command's parser, so that an
    option not given there leaves the one given before the command."""
    parser.add_argument("--config", metavar="FILE", default=default,
                        help="configuration file (TOML)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        default=False if default is None else default,
                        help="log debugging detail (and the libraries' warnings)")


def build_parser() -> Parser:
    parser = Parser(prog="companion", description=DESCRIPTION, global_options=False)
    add_global_options(parser)
    from companion.commands import dice, hardware, pads, service
    from companion.games import GAMES

    # every parser below is a Parser (its errors are sentences); the commands see the
    # subparsers as argparse's, which they are
    commands = cast("Subcommands", parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=Parser))
    games: dict[str, Subcommands] = {}
    for name, text in GAME_COMMANDS.items():
        sub = commands.add_parser(name, help=text, description=text)
        games[name] = cast("Subcommands", sub.add_subparsers(
            dest="game", metavar="GAME", required=True, parser_class=Parser))

    for plugin in GAMES:
        if plugin.commands is not None:
            plugin.commands()(commands, games)
    for module in (dice, hardware, pads, service):
        module.register(commands, games)
    return parser


def _service_only(argv: Sequence[str]) -> argparse.Namespace | None:
    """``companion [--config FILE] [-v] [run]``: the service, read without building the whole
    command line (whose game commands import the engines), so that the service starts fast."""
    i = 0
    while i < len(argv):  # only the service's own words, else the full parser decides
        a = argv[i]
        if a == "--config" and i + 1 < len(argv):
            i += 2
            continue
        if a not in ("run", "-v", "--verbose") and not a.startswith("--config="):
            return None
        i += 1
    quick = Parser(prog="companion", add_help=False, global_options=False)
    add_global_options(quick)
    quick.add_argument("command", nargs="?", choices=("run",))
    return quick.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _service_only(argv)
        if args is None:
            parser = build_parser()
            args = parser.parse_args(argv)
        logging.basicConfig(
            level=logging.DEBUG if args.verbose else logging.INFO,
            format="%(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        # Libraries' warnings (gpiozero's pin factory fallbacks...) go to the log, and only
        # with -v: without it the companion's own sentence is the first thing said.
        logging.captureWarnings(True)
        logging.getLogger("py.warnings").setLevel(
            logging.WARNING if args.verbose else logging.CRITICAL + 1)
        handler: Handler | None = getattr(args, "func", None)
        if handler is None:
            from companion.commands.service import cmd_run  # the default command

            handler = cmd_run
        return int(handler(args) or 0)
    except (UsageError, RefusedError) as exc:
        print(f"companion: {printable(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still one sentence for the person, the detail in the log
        logging.getLogger("companion").debug("internal error", exc_info=True)
        print(f"companion: internal error ({type(exc).__name__}); run with -v for the details.",
              file=sys.stderr)
        return INTERNAL_ERROR
    finally:
        logging.captureWarnings(False)
