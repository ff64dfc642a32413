"""Every game the companion knows: one line per game in :data:`GAMES` (like python-chess's
``find_variant``).

Each game lives in its own folder, ``companion/games/<game>/``, whose ``__init__`` defines
its :class:`~companion.plugin.GamePlugin` as ``PLUGIN`` and imports nothing heavy: listing
the games imports no engine (a game's parts are imported when it is chosen).

Adding a game: its folder, and one line in :data:`GAMES` (tests add a tiny game of their
own with :func:`register`).
"""

from __future__ import annotations

from companion.games import clovece, gobbit, napij
from companion.plugin import GamePlugin, UnknownGame, find

__all__ = ["GAMES", "GamePlugin", "UnknownGame", "find_game", "playable", "register",
           "unregister"]

GAMES: list[GamePlugin] = [
    clovece.PLUGIN,
    napij.PLUGIN,
    gobbit.PLUGIN,
]
"""The games, in the set-up's order."""


def find_game(name: str) -> GamePlugin:
    """The plugin of ``name``; :class:`UnknownGame` with the known names otherwise."""
    return find(GAMES, name)


def register(plugin: GamePlugin) -> None:
    """Add (or replace) a game; tests register small games of their own."""
    for i, known in enumerate(GAMES):
        if known.name == plugin.name:
            GAMES[i] = plugin
            return
    GAMES.append(plugin)


def unregister(name: str) -> None:
    GAMES[:] = [p for p in GAMES if p.name != name]


def playable() -> list[GamePlugin]:
    """The games a table can play (those with a host), in registry order."""
    return [p for p in GAMES if p.host is not None]
