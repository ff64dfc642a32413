"""The games the conformance suite checks: every entry of :data:`companion.registry.GAMES`
(read when the tests are collected) and the tiny game of ``tests/tinygame``, added to the
registry for its tests as a contributor adds a game.  No test names a game."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from companion.registry import GAMES, GameInfo, register, unregister
from tests.tinygame import INFO as TINY


def entries() -> list[GameInfo]:
    """Every game to check, by name (the registry's own, then the tiny one if not there)."""
    found = dict(GAMES)
    found.setdefault(TINY.name, TINY)
    return [found[name] for name in sorted(found)]


def ids(info: GameInfo) -> str:
    return info.name


@contextmanager
def registered(info: GameInfo) -> Iterator[GameInfo]:
    """``info`` in the registry for the test (a game added by the test leaves with it)."""
    added = info.name not in GAMES
    if added:
        register(info)
    try:
        yield info
    finally:
        if added:
            unregister(info.name)
