"""Placeholder: the commands of this package are registered here once it is built."""

from __future__ import annotations

from typing import Any


def register(commands: Any, games: dict[str, Any]) -> None:
    """Nothing yet."""
