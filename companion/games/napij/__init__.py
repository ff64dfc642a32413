"""Člověče, napij se!: everything of the game in this folder, and its plugin (:data:`PLUGIN`).

Nothing is imported here but the plugin type: the factories below import the game's
modules when the companion first asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from companion.plugin import Engine, GamePlugin, HostFactory, RegisterCommands, Topic

if TYPE_CHECKING:
    from companion.selfplay.match import MatchGame


def make_engine() -> Engine:
    from companion.games.napij.engine.game import GAME

    return cast(Engine, GAME)


def make_host() -> HostFactory:
    from companion.games.napij.host import NapijHost

    return NapijHost


def rules_topics() -> Sequence[Topic]:
    from companion.games.napij.rules_text import TOPICS

    return TOPICS


def match_game() -> MatchGame:
    from companion.games.napij import selfplay

    return selfplay.match_game()


def add_commands() -> RegisterCommands:
    from companion.games.napij.commands import register

    return register


PLUGIN = GamePlugin(
    "napij", "Napij se!", make_engine, make_host, rules_topics, (("", "Člověče, napij se!"),),
    demo=(("first", "lot"),),  # the lot decides who starts, so the demo shows it
    config_keys=("players", "computer", "first", "computer_dice"),
    match=match_game, commands=add_commands)
