"""Člověče, nezlob se: everything of the game in this folder, and its plugin (:data:`PLUGIN`).

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
    from companion.games.clovece.engine.game import GAME

    return cast(Engine, GAME)


def make_host() -> HostFactory:
    from companion.games.clovece.host import CloveceHost

    return CloveceHost


def rules_topics() -> Sequence[Topic]:
    from companion.games.clovece.rules_text import TOPICS

    return TOPICS


def house_variants() -> Sequence[str]:
    from companion.games.clovece.engine.rules import VARIANT_ORDER

    return VARIANT_ORDER


def match_game() -> MatchGame:
    from companion.games.clovece import selfplay

    return selfplay.match_game()


def add_commands() -> RegisterCommands:
    from companion.games.clovece.commands import register

    return register


PLUGIN = GamePlugin(
    "clovece", "Člověče", make_engine, make_host, rules_topics,
    config_keys=("players", "variants", "computer", "first", "computer_dice"),
    variants=house_variants, match=match_game, commands=add_commands)
