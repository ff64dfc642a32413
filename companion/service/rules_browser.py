"""The rules browser: the game's topics, each as pages of wrapped text, and "Proč?".

"Proč?" (why) comes first when the game has something to explain about the
current moment, e.g. why each piece may or may not move with the roll.
◀ ▶ pick a topic (or turn pages), ● opens it (or goes back to the list).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.inputs.events import Button
from companion.rules_text import Topic
from companion.ui.controls import cycle
from companion.ui.fonts import body_font, heading_font
from companion.ui.screens import HEIGHT, WIDTH, line_height, wrap
from companion.ui.views import ListView, MessageView, View

WHY = "Proč?"


def page_size() -> int:
    """Body lines that fit under the title and above the footer of a message screen."""
    body = line_height(body_font())
    return max(1, (HEIGHT - (line_height(heading_font()) + 2) - body) // body)


def paginate(text: str) -> list[tuple[str, ...]]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += wrap(body_font(), paragraph, WIDTH) or [""]
    size = page_size()
    return [tuple(lines[i:i + size]) for i in range(0, len(lines), size)] or [()]


class RulesBrowser:
    def __init__(self, game: str, topics: Sequence[Topic], why: str | None = None) -> None:
        self.game = game
        self.topics: list[Topic] = ([(WHY, why)] if why else []) + list(topics)
        self.index = 0
        self.page = 0
        self.reading = False

    def button(self, name: Button) -> None:
        if not self.reading:
            if name in (Button.LEFT, Button.RIGHT):
                self.index = cycle(self.index, len(self.topics), name)
            elif name == Button.SELECT:
                self.reading, self.page = True, 0
            return
        pages = paginate(self.topics[self.index][1])
        if name == Button.RIGHT:
            if self.page + 1 < len(pages):
                self.page += 1
            else:  # past the last page: the next topic
                self.index = cycle(self.index, len(self.topics), Button.RIGHT)
                self.page = 0
        elif name == Button.LEFT:
            if self.page > 0:
                self.page -= 1
            else:
                self.reading = False
        elif name == Button.SELECT:
            self.reading = False

    def view(self) -> View:
        if not self.reading:
            return ListView(f"Pravidla: {self.game}", tuple(t for t, _ in self.topics),
                            self.index, "dlouze ● = zpět do hry")
        title, text = self.topics[self.index]
        pages = paginate(text)
        counter = f" {self.page + 1}/{len(pages)}" if len(pages) > 1 else ""
        return MessageView(title + counter, pages[self.page], "◀ ▶ listovat, ● seznam")
