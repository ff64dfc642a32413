"""A question with its answers on the three buttons: ◀ the first, ● the second, ▶ the third.

The referee asks the table only what a ruling needs, and every answer is one press:
the screen lists the answers each with its button (``◀ had → chameleon``, ``● chameleon →
komár``, ``▶ jiné karty``).  More than three answers are shown on pages of two with
``▶ další…`` as the third; the last page offers ``▶ od začátku`` when it has room.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.games.gobbit.referee.words import AGAIN, MORE
from companion.ui.referee import BODY_LINES, Screen

T = TypeVar("T")

BUTTONS = ("left", "select", "right")
GLYPHS = {"left": "◀", "select": "●", "right": "▶"}


@dataclass(frozen=True)
class Answer(Generic[T]):
    label: str
    value: T


_MORE, _AGAIN = -1, -2
"""The slots of "další…" and "od začátku" (answers are indexes from 0)."""


def pages_of(count: int) -> list[list[int]]:
    """The answers' indexes laid out on pages of three buttons (with "další…" and "od začátku")."""
    if count <= 3:
        return [list(range(count))]
    pages: list[list[int]] = []
    rest = list(range(count))
    while len(rest) > 3:
        pages.append([rest[0], rest[1], _MORE])
        rest = rest[2:]
    pages.append([*rest, _AGAIN] if len(rest) < 3 else list(rest))
    return pages


class Question(Generic[T]):
    """``title``, up to ``BODY_LINES - 3`` ``lead`` lines, the ``answers`` on ◀ ● ▶.

    Plain data (it can be copied and compared): the page shown and ``topic``."""

    def __init__(self, title: str, answers: Sequence[Answer[T]], lead: Sequence[str] = (), *,
                 topic: tuple[Any, ...] = ()) -> None:
        if not answers:
            raise ValueError("a question needs an answer")
        self.topic = topic
        """What is asked, as data for whoever takes the answer."""
        self.title = title
        self.answers = tuple(answers)
        self.lead = tuple(lead)
        self.page = 0
        self._pages = pages_of(len(self.answers))

    def press(self, button: str) -> Answer[T] | None:
        """The answer on ``button`` (``None``: it turned the page, or there is nothing there)."""
        if button not in BUTTONS:
            return None
        slots = self._pages[self.page]
        i = BUTTONS.index(button)
        if i >= len(slots):
            return None
        slot = slots[i]
        if slot == _MORE:
            self.page += 1
            return None
        if slot == _AGAIN:
            self.page = 0
            return None
        return self.answers[slot]

    def screen(self) -> Screen:
        lines: list[str] = []
        for button, slot in zip(BUTTONS, self._pages[self.page], strict=False):
            label = MORE if slot == _MORE else AGAIN if slot == _AGAIN else \
                self.answers[slot].label
            lines.append(f"{GLYPHS[button]} {label}")
        lead = list(self.lead[:BODY_LINES - len(lines)])
        return Screen(self.title, (*lead, *lines))
