"""Shared by the Pixels tests: an in-process air, a virtual die on it, waiting for a condition."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from companion.dice.pixels.bumble_port import Air


def until(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """Wait until ``condition()`` is true (``False`` after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())


@pytest.fixture
def air() -> Iterator[Air]:
    a = Air()
    yield a
    a.close()
