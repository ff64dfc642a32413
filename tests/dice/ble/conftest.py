"""The BLE die's tests: an in-process radio (bumble's LocalLink on its own event loop)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.dice.pixels.bumble_port import Air


@pytest.fixture
def air() -> Iterator[Air]:
    a = Air()
    yield a
    a.close()
