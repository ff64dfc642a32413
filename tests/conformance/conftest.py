from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.games import GamePlugin
from tests.conformance.games import entries, ids, registered


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test taking ``entry`` runs once per game of :func:`.games.entries`."""
    if "entry" in metafunc.fixturenames:
        metafunc.parametrize("entry", entries(), ids=ids, indirect=True)


@pytest.fixture
def entry(request: pytest.FixtureRequest) -> Iterator[GamePlugin]:
    with registered(request.param) as info:
        yield info
