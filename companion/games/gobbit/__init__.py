"""Gobbit: everything of the game in this folder, and its plugin (:data:`PLUGIN`).

Nothing is imported here but the plugin type: the factories below import the game's
modules when the companion first asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from companion.plugin import Engine, GamePlugin, HostFactory, RegisterCommands, Topic


def make_engine() -> Engine:
    from companion.games.gobbit.engine.game import GAME

    return cast(Engine, GAME)


def make_host() -> HostFactory:
    from companion.games.gobbit.host import GobbitHost

    return GobbitHost


def rules_topics() -> Sequence[Topic]:
    from companion.games.gobbit.rules_text import TOPICS

    return TOPICS


def add_commands() -> RegisterCommands:
    from companion.games.gobbit.commands import register

    return register


PLUGIN = GamePlugin(
    "gobbit", "Gobbit", make_engine, make_host, rules_topics,
    (("cards", "Gobbit (rozhodčí)"), ("virtual", "Gobbit (balíček)")),
    config_keys=("seats",), uses_pads=True, commands=add_commands)
