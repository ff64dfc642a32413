"""What several commands share: reading a die value and a number from the command line."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import RefusedError, UsageError

if TYPE_CHECKING:
    from companion.plugin import GamePlugin
    from companion.selfplay.match import MakeMatchGame
    from companion.service.config import Config


def refused(what: str, why: str) -> RefusedError:
    """A move the rules refuse.  The command line speaks English, the developer's language
    (its help, its errors, this frame); the rules' reason is the table's own Czech sentence,
    quoted as the panel shows it, so it can be checked against the game's screens."""
    return RefusedError(f"{what} is refused by the rules: „{why}“")


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message; a very long one is cut."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_roll(text: str) -> int:
    """A die value from the command line (1 to 6); one sentence otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > 2 or not 1 <= int(text) <= 6:
        raise UsageError(f"A roll is a number from 1 to 6, not {shown(text)}.")
    return int(text)


def seconds(text: str, what: str, *, maximum: float = 86_400.0) -> float:
    """A duration in seconds: a finite number from 0 to ``maximum``; one sentence otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number of seconds, not {shown(text)}.") from None
    if not math.isfinite(value) or not 0 <= value <= maximum:
        raise UsageError(f"{what} must be 0 to {maximum:g} seconds, not {shown(text)}.")
    return value


def seconds_arg(maximum: float = 86_400.0) -> Callable[[str], float]:
    """An argparse ``type`` for a duration: a finite number of seconds from 0 to ``maximum``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, not {shown(text)}") from None
        if not math.isfinite(value) or not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"0 to {maximum:g} seconds, not {shown(text)}")
        return value
    parse.__name__ = "seconds"
    return parse


def count_arg(minimum: int = 0, maximum: int = 2**31 - 1) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``minimum`` to ``maximum``."""
    def parse(text: str) -> int:
        text = text.strip()
        digits = text.lstrip("+-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
            raise argparse.ArgumentTypeError(f"a whole number, not {shown(text)}")
        value = int(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{minimum} to {maximum}, not {value}")
        return value
    parse.__name__ = "number"
    return parse


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a file name here (``None``: it can)."""
    if not text:
        return "an empty name"
    if "\0" in text:
        return "a name with a NUL character"
    if any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in text.split(os.sep)):
        return "a name longer than a file system allows"
    return None


def output_file(text: str, what: str) -> Path:
    """A file to write: its name must be usable, its folder must exist, it is not a folder."""
    problem = name_problem(text)
    if problem is not None or text.endswith(os.sep):
        raise UsageError(f"{what} must name a file to write, not {problem or shown(text)}.")
    path = Path(text)
    if path.is_dir():
        raise UsageError(f"{what} must name a file to write, not the folder {shown(text)}.")
    if not path.parent.is_dir():
        raise UsageError(f"The folder {shown(str(path.parent))} for {what} does not exist.")
    try:  # a folder that takes no files (/proc, a read-only card): said now, not at the end
        existed = path.exists()
        with open(path, "ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        raise UsageError(f"{what} {shown(text)} cannot be written "
                         f"({(exc.strerror or str(exc)).lower()}).") from None
    return path


def folder(text: str, what: str) -> Path:
    """A folder to keep files in (made when missing); one sentence when that cannot be."""
    problem = name_problem(text)
    if problem is not None:
        raise UsageError(f"{what} must name a folder, not {problem}.")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{what} {shown(text)} is a file, not a folder.")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{what} {shown(text)} cannot be made ({exc.strerror}).") from None
    return path


DEFAULT_CONFIG = "/etc/companion/companion.toml"
"""The configuration the service and ``companion pads`` read on the box."""


def load_config(args: argparse.Namespace, default: str | None = None, *,
                games: Sequence[GamePlugin]) -> Config:
    """The configuration of ``--config``, else ``default`` when that file exists, else the
    defaults; a bad file is one sentence (:class:`UsageError`).  ``games``: the games whose
    sections it may have (:func:`companion.games.playable`)."""
    from companion.service.config import Config, ConfigError, load  # noqa: F811

    path = getattr(args, "config", None) or default
    if path is not None and "\x00" in path:  # no file is named so (Path would raise)
        raise UsageError("The config file's name has a NUL character in it.")
    if path is None or path == default and not Path(path).exists():
        return Config()
    try:
        return load(path, games)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


# --- matches between computer levels ('selfplay GAME --seats ...') ---------------------------


def match_options(p: argparse.ArgumentParser) -> None:
    """The options of a match between computer levels on a game's ``selfplay`` parser."""
    p.add_argument("--seats", metavar="KINDS",
                   help="a match: one kind per seat in colour order, comma-separated, "
                        "random or a level (začátečník, normální, silný; or beginner, normal, "
                        "strong), e.g. silný,random,random,random; prints each kind's win share "
                        "with its 95%% interval")
    p.add_argument("--rotate", action="store_true",
                   help="with --seats: turn the seats by one colour every game, so that no "
                        "kind is favoured by its colour")
    p.add_argument("--workers", type=count_arg(1, 64), default=None,
                   help="with --seats: worker processes (default: one per core)")


def seat_kinds(text: str, players: int | None) -> list[str]:
    """The kinds of ``--seats`` (2 to 4 of them, agreeing with ``--players`` when given)."""
    from companion.selfplay.match import seat_kind

    kinds = []
    for part in text.split(","):
        try:
            kinds.append(seat_kind(part))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if not 2 <= len(kinds) <= 4:
        raise UsageError(f"--seats names 2 to 4 seats, not {len(kinds)}.")
    if players is not None and players != len(kinds):
        raise UsageError(f"--seats names {len(kinds)} seats but --players says {players}.")
    return kinds


def cmd_match(game: str, make: MakeMatchGame, args: argparse.Namespace) -> int:
    """``selfplay GAME --seats ...``: play the match and print every kind's win share
    (``make``: the game's :class:`~companion.selfplay.match.MatchGame`)."""
    from companion.selfplay.match import run_match

    kinds = seat_kinds(args.seats, args.players)
    result = run_match(game, make, kinds, args.games, args.seed, args.rotate, args.workers)
    print("\n".join(result.lines()))
    return 0
