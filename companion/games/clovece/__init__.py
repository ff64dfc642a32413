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


def engine() -> Engine:
    from companion.games.clovece.engine.game import GAME

    return cast(Engine, GAME)


def host() -> HostFactory:
    from companion.games.clovece.host import CloveceHost

    return CloveceHost


def rules() -> Sequence[Topic]:
    from companion.games.clovece.rules_text import TOPICS

    return TOPICS


def variants() -> Sequence[str]:
    from companion.games.clovece.engine.rules import VARIANT_ORDER

    return VARIANT_ORDER


def match() -> MatchGame:
    from companion.games.clovece.selfplay import match_game

    return match_game()


def commands() -> RegisterCommands:
    from companion.games.clovece.commands import register

    return register


PLUGIN = GamePlugin(
    "clovece", "Člověče", engine, host, rules,
    config_keys=("players", "variants", "computer", "first", "computer_dice"),
    variants=variants, match=match, commands=commands)
