"""Shared by the Pixels tests: waiting for a condition (the ``air`` fixture is in conftest)."""

from __future__ import annotations

import time
from collections.abc import Callable


def until(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """Wait until ``condition()`` is true (``False`` after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())
