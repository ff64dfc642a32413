"""What every list on the table shares: ◀ ▶ move a selection, ● picks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from companion.inputs.events import Button

T = TypeVar("T")


def cycle(index: int, count: int, button: Button) -> int:
    """The selection after ◀ (``left``) or ▶ (``right``), wrapping around ``count`` items."""
    if count <= 0:
        return 0
    return (index + (1 if button == Button.RIGHT else -1)) % count


def pick(index: int, items: Sequence[T], button: Button) -> tuple[int, T | None]:
    """A list screen's buttons: ◀ ▶ move the selection; ● picks the selected item.

    Returns the new selection and the picked item (``None`` unless ● was pressed).
    """
    if button in (Button.LEFT, Button.RIGHT):
        return cycle(index, len(items), button), None
    if button == Button.SELECT and items:
        return index, items[index]
    return index, None
