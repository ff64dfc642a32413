"""What a referee screen shows: a title and up to four lines of at most 21 characters."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

WIDTH = 21
"""Characters per line with Terminus 6x12 on 128 pixels."""
BODY_LINES = 4
"""Lines under the title bar (5 lines of 12 pixels on 64)."""


@dataclass(frozen=True)
class Screen:
    """One frame: ``title`` in an inverted bar, ``lines`` below, ``selected`` drawn inverted."""

    title: str
    lines: tuple[str, ...] = ()
    selected: int | None = None


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """Split a sentence into display lines (words are never cut unless longer than a line)."""
    return textwrap.wrap(text, width=width, break_long_words=True, break_on_hyphens=False) or [""]


def title_with(left: str, right: str, width: int = WIDTH) -> str:
    """A title with ``right`` flush to the right edge (``left`` shortened if needed)."""
    room = width - len(right) - 1
    if len(left) > room:
        left = left[:max(room - 1, 0)] + "…"
    return left + " " * (width - len(left) - len(right)) + right


def row(left: str, right: str, width: int = WIDTH) -> str:
    """A line with ``left`` and ``right`` flush to both edges."""
    return title_with(left, right, width)


def paginate(sections: list[tuple[str, list[list[str]]]], lines: int = BODY_LINES
             ) -> list[Screen]:
    """Lay out sections of blocks on pages of ``lines`` lines (a page that keeps its last
    line for the buttons' legend asks for one less than :data:`BODY_LINES`).

    Each section (a title and its blocks: a sentence's wrapped lines, or one row)
    starts on a new page; a block is never split across pages unless it is longer
    than a page.  With more than one page the titles get a counter ``n/m``.
    """
    pages: list[tuple[str, tuple[str, ...]]] = []
    for title, blocks in sections:
        page: list[str] = []
        for block in blocks:
            if page and len(page) + len(block) > lines:
                pages.append((title, tuple(page)))
                page = []
            for line in block:
                if len(page) == lines:
                    pages.append((title, tuple(page)))
                    page = []
                page.append(line)
        pages.append((title, tuple(page)))
    total = len(pages)
    if total == 1:
        return [Screen(pages[0][0], pages[0][1])]
    return [Screen(title_with(t, f"{i}/{total}"), lines) for i, (t, lines) in enumerate(pages, 1)]
