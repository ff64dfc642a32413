"""Every game the companion knows, in one registry (like python-chess's ``find_variant``).

An entry names the game's engine (an object speaking
:class:`companion.engines.game.Game`), the host that plays it at the table
(:mod:`companion.service.hosts`), its rules text for the rules browser, and the
set-up choices the table offers as separate lines ("Gobbit (rozhodčí)",
"Gobbit (balíček)").  Entries hold dotted paths, not modules: a game's code is
imported only when the game is chosen, so the service starts fast and this
module depends on nothing.

Adding a game: an engine package, a host module, and one line in :data:`GAMES`
(tests register a tiny game of their own with :func:`register`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


class UnknownGame(LookupError):
    """No game of that name (the message is one sentence)."""


def load(path: str) -> Any:
    """The object at ``"module:attribute"`` (the module imported now)."""
    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GameInfo:
    name: str
    """Registry key, journal header ``game`` and CLI game name."""
    title: str
    """Czech name: ``"Člověče, nezlob se"``."""
    engine: str
    """``"module:attribute"`` of the engine's game object."""
    host: str | None = None
    """``"module:attribute"`` of the host class (``None``: not playable at the table)."""
    rules: str | None = None
    """``"module:attribute"`` of the rules browser's topics."""
    tables: tuple[tuple[str, str], ...] = ()
    """The set-up's game lines: (host mode, Czech label); one line with the title when empty."""
    demo: tuple[tuple[str, Any], ...] = ()
    """Set-up defaults ``companion demo`` plays this game with, beyond the configuration's
    (napij se: the lot decides who starts, so the demo shows it)."""

    def game(self) -> Any:
        """The engine's game object (imported now)."""
        return load(self.engine)

    def host_class(self) -> Any:
        if self.host is None:
            raise UnknownGame(f"The game {self.name!r} cannot be played at the table yet.")
        return load(self.host)

    def topics(self) -> Any:
        """The rules browser's topics: a sequence of (title, text)."""
        return load(self.rules) if self.rules else ()

    def table_lines(self) -> tuple[tuple[str, str], ...]:
        return self.tables or (("", self.title),)


GAMES: dict[str, GameInfo] = {
    "clovece": GameInfo("clovece", "Člověče", "companion.games.clovece.engine.game:GAME",
                        "companion.games.clovece.host:CloveceHost",
                        "companion.games.clovece.rules_text:TOPICS"),
    "napij": GameInfo("napij", "Napij se!", "companion.games.napij.engine.game:GAME",
                      "companion.games.napij.host:NapijHost",
                      "companion.games.napij.rules_text:TOPICS", (("", "Člověče, napij se!"),),
                      demo=(("first", "lot"),)),
    "gobbit": GameInfo("gobbit", "Gobbit", "companion.games.gobbit.engine.game:GAME",
                       "companion.games.gobbit.host:GobbitHost",
                       "companion.games.gobbit.rules_text:TOPICS",
                       (("cards", "Gobbit (rozhodčí)"), ("virtual", "Gobbit (balíček)"))),
}


def find_game(name: str) -> GameInfo:
    """The entry of ``name``; :class:`UnknownGame` with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGame(f"Unknown game {name!r}: the companion knows {known}.") from None


def register(info: GameInfo) -> None:
    """Add (or replace) a game; tests register small games of their own."""
    GAMES[info.name] = info


def unregister(name: str) -> None:
    GAMES.pop(name, None)


def playable() -> list[GameInfo]:
    """The games a table can play (those with a host), in registry order."""
    return [g for g in GAMES.values() if g.host is not None]
