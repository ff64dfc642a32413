"""What a game gives the companion: one typed plugin value per game.

A :class:`GamePlugin` holds a game's names, the set-up's table lines and the
factories of its parts.  The factories import the game's modules only when they
are called, so a list of plugins costs nothing at start-up: the service imports
the engine and host of the game on the table, and nothing of the others.

The core never imports the games: the top layer (the commands, the simulator,
the demo) hands :func:`companion.games.playable` to the parts that need the list
(the shell's table lines, the configuration's game sections, the phone view's
rules topics), and a game's facts bring their own page snapshot and voice
(:mod:`companion.service.hosts.facts`).

The engine is typed as ``Game[object, object, object, object]``: the core replays a
journal and asks the winners without knowing a game's own state and action types
(a game's factory casts its engine to that, the one place the types are forgotten).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import argparse

    from companion.engines.game import Game
    from companion.selfplay.match import MatchGame
    from companion.service.hosts.base import GameHost, HostContext

Topic: TypeAlias = tuple[str, str]
"""A rules topic: (title, text)."""

SetupValue: TypeAlias = "str | int | float | bool | tuple[str, ...]"
"""A set-up default as the configuration gives it (a game section's value)."""

Engine: TypeAlias = "Game[object, object, object, object]"
"""A game's engine as the core sees it (its own types forgotten)."""

HostFactory: TypeAlias = "Callable[[HostContext, str], GameHost]"
"""Makes the host of a table line: ``factory(ctx, mode)`` (``mode``: the line's host mode)."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The command line's subparsers (the top level's, or one per-game command's)."""

RegisterCommands: TypeAlias = "Callable[[Subcommands, dict[str, Subcommands]], None]"
"""Adds a game's commands: ``register(commands, games)`` with the top-level subparsers and,
by per-game command (``moves``, ``apply``, ``selfplay``...), its subparsers."""


class UnknownGame(LookupError):
    """No game of that name, or one that cannot be played at the table (one sentence)."""


def no_topics() -> Sequence[Topic]:
    return ()


@dataclass(frozen=True)
class GamePlugin:
    """One game: its names, its set-up lines and its parts (each imported when asked for)."""

    name: str
    """Registry key, journal header ``game``, CLI game name and configuration section."""
    title: str
    """Czech name for the set-up and the rules browser (short: it fits the panel)."""
    engine: Callable[[], Engine]
    """The engine's game object (:class:`companion.engines.game.Game`)."""
    host: Callable[[], HostFactory] | None = None
    """What makes the host that plays it at the table (``None``: not playable at the table)."""
    rules: Callable[[], Sequence[Topic]] = no_topics
    """The rules browser's topics."""
    tables: tuple[tuple[str, str], ...] = ()
    """The set-up's game lines: (host mode, Czech label); one line with the title when empty."""
    demo: tuple[tuple[str, SetupValue], ...] = ()
    """Set-up defaults ``companion demo`` plays this game with, beyond the configuration's."""
    config_keys: tuple[str, ...] | None = None
    """The keys of its configuration section that are typed and checked as ``[game]``'s keys
    of the same names (and read from an older file's ``[game]``); ``None``: its section takes
    any keys, handed to its host as they are."""
    variants: Callable[[], Sequence[str]] | None = None
    """The house-rule variants its ``variants`` key may name (checked in the configuration)."""
    uses_pads: bool = False
    """Played with the slap pads: a service starting with it wires them at once."""
    match: Callable[[], MatchGame] | None = None
    """What a match between computer levels needs of it (``None``: it has no levels).  A
    module-level function, so that a match's worker processes can be handed it."""
    commands: Callable[[], RegisterCommands] | None = None
    """Its command-line commands (``moves``, ``apply``, ``selfplay``...)."""

    def table_lines(self) -> tuple[tuple[str, str], ...]:
        return self.tables or (("", self.title),)

    def host_factory(self) -> HostFactory:
        """What makes its host; :class:`UnknownGame` when it cannot be played at the table."""
        if self.host is None:
            raise UnknownGame(f"The game {self.name!r} cannot be played at the table yet.")
        return self.host()

    def topics(self) -> Sequence[Topic]:
        return self.rules()


def find(games: Sequence[GamePlugin], name: str) -> GamePlugin:
    """The plugin of ``name`` among ``games``; :class:`UnknownGame` naming the known ones."""
    for plugin in games:
        if plugin.name == name:
            return plugin
    known = ", ".join(p.name for p in games)
    raise UnknownGame(f"Unknown game {name!r}: the companion knows {known}.")


def starting_game(games: Sequence[GamePlugin], name: str) -> GamePlugin:
    """The game a table starts with: the one named (the configuration's ``game.name``), else
    the first of ``games``."""
    for plugin in games:
        if plugin.name == name:
            return plugin
    return games[0]
