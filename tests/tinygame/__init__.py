"""The living example of docs/dev/DEVELOPING.md's "How to add a game": a two-player dice race.

Its own package (``engine.py``: the rules on the game protocol; ``host.py``: the table) and
its plugin below, which the tests add with :func:`companion.games.register` (the
conformance suite in ``tests/conformance/`` checks it like every registered game).
"""

from __future__ import annotations

from typing import cast

from companion.plugin import Engine, GamePlugin, HostFactory


def engine() -> Engine:
    from tests.tinygame.engine import GAME

    return cast(Engine, GAME)


def host() -> HostFactory:
    from tests.tinygame.host import RaceHost

    return RaceHost


INFO = GamePlugin("race", "Závod", engine, host)
"""The race's plugin (a game in the house would call it ``PLUGIN`` and add it to
:data:`companion.games.GAMES`)."""
