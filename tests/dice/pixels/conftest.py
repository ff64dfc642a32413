"""The Pixels tests' in-process radio (a bumble LocalLink on its own event loop thread)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.dice.pixels.bumble_port import Air


@pytest.fixture
def air() -> Iterator[Air]:
    a = Air()
    yield a
    a.close()
