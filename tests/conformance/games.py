"""The games the conformance suite checks: every entry of :data:`companion.games.GAMES`
(read when the tests are collected) and the tiny game of ``tests/tinygame``, added to the
registry for its tests as a contributor adds a game.  No test names a game."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from companion.games import GAMES, GamePlugin, register, unregister
from companion.service.hosts.base import NOT_COUNTED
from companion.service.shell import RESUMED, VOICE_BACK, VOICE_LOST
from tests.tinygame import INFO as TINY

NEWS = (*VOICE_LOST.values(), VOICE_BACK, RESUMED, NOT_COUNTED, "Nelze uložit: disk je plný.",
        "Nelze uložit: disk je jen pro čtení.")
"""What the shell tells a game's screen through ``notify`` (the longest are wider than the
panel): each is shown whole mid-game."""


def entries() -> list[GamePlugin]:
    """Every game to check, by name (the registry's own, then the tiny one if not there)."""
    found = {p.name: p for p in GAMES}
    found.setdefault(TINY.name, TINY)
    return [found[name] for name in sorted(found)]


def ids(info: GamePlugin) -> str:
    return info.name


@contextmanager
def registered(info: GamePlugin) -> Iterator[GamePlugin]:
    """``info`` in the registry for the test (a game added by the test leaves with it)."""
    added = info.name not in {p.name for p in GAMES}
    if added:
        register(info)
    try:
        yield info
    finally:
        if added:
            unregister(info.name)
