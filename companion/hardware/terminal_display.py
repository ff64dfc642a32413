"""The OLED drawn with block characters in a terminal (the simulated twin for laptops).

Plain ANSI text (cursor home, no colours, no curses), so it works over SSH and
under tmux.  The resolution follows the terminal: half blocks (1 x 2 pixels
per character, 128 x 32 characters) when it is wide enough, quadrant blocks
(2 x 2, 64 x 32) or Braille dots (2 x 4, 64 x 16) in smaller terminals.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from typing import TextIO

from PIL import Image

WIDTH, HEIGHT = 128, 64

_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"  # index: 1 top-left, 2 top-right, 4 bottom-left, 8 bottom-right
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def to_text(image: Image.Image, mode: str) -> list[str]:
    """The rows of text that draw a one-bit ``image`` in ``mode``: half, quad or braille."""
    im = image.convert("1")
    w, h = im.size
    px = im.load()
    assert px is not None

    def on(x: int, y: int) -> bool:
        return x < w and y < h and bool(px[x, y])

    rows: list[str] = []
    if mode == "half":
        for y in range(0, h, 2):
            rows.append("".join(
                "█" if on(x, y) and on(x, y + 1) else "▀" if on(x, y) else "▄" if on(x, y + 1)
                else " " for x in range(w)))
    elif mode == "quad":
        for y in range(0, h, 2):
            rows.append("".join(
                _QUADRANTS[on(x, y) | on(x + 1, y) << 1 | on(x, y + 1) << 2 | on(x + 1, y + 1) << 3]
                for x in range(0, w, 2)))
    else:
        for y in range(0, h, 4):
            row = ""
            for x in range(0, w, 2):
                bits = sum(b for dx, dy, b in _BRAILLE_BITS if on(x + dx, y + dy))
                row += chr(0x2800 + bits)
            rows.append(row)
    return rows


def choose_mode(columns: int, lines: int, spare_lines: int = 3) -> str:
    if columns >= WIDTH + 2 and lines >= HEIGHT // 2 + 2 + spare_lines:
        return "half"
    if columns >= WIDTH // 2 + 2 and lines >= HEIGHT // 2 + 2 + spare_lines:
        return "quad"
    return "braille"


class TerminalDisplay:
    """A luma-like device (``display``, ``contrast``, ``cleanup``) that prints to a terminal."""

    width, height, mode = WIDTH, HEIGHT, "1"
    size = (WIDTH, HEIGHT)

    def __init__(self, stream: TextIO | None = None, mode: str | None = None) -> None:
        self.stream: TextIO = stream or sys.stdout
        self.forced_mode = mode or os.environ.get("COMPANION_TERMINAL_MODE") or None
        self.footer = ""
        self.lock = threading.Lock()
        self._last: Image.Image | None = None
        self._cleared = False

    def text_mode(self) -> str:
        if self.forced_mode:
            return self.forced_mode
        size = shutil.get_terminal_size((80, 24))
        return choose_mode(size.columns, size.lines)

    def display(self, image: Image.Image) -> None:
        self._last = image
        self._draw()

    def set_footer(self, text: str) -> None:
        self.footer = text
        if self._last is not None:
            self._draw()

    def _draw(self) -> None:
        assert self._last is not None
        rows = to_text(self._last, self.text_mode())
        border = "+" + "-" * len(rows[0]) + "+"
        out = [border] + ["|" + r + "|" for r in rows] + [border]
        out += self.footer.splitlines()
        with self.lock:
            if not self._cleared:
                self.stream.write("\x1b[2J")
                self._cleared = True
            self.stream.write("\x1b[H" + "\x1b[K\n".join(out) + "\x1b[K\x1b[J")
            self.stream.flush()

    def contrast(self, level: int) -> None:
        return None

    def cleanup(self) -> None:
        with self.lock:
            if self._cleared:
                self.stream.write("\n")
                self.stream.flush()
