"""The OLED drawn with block characters in a terminal (the simulated twin for laptops).

Plain ANSI text (cursor home, no colours, no curses), so it works over SSH and
under tmux.  The resolution follows the terminal: half blocks (1 x 2 pixels
per character, 128 x 32 characters) when it is wide enough, quadrant blocks
(2 x 2, 64 x 32) or Braille dots (2 x 4, 64 x 16) in smaller terminals; each
with a one-character border and the footer lines under it (:func:`needed`),
wrapped at spaces to the terminal's width (:func:`footer_rows`: a line too long
for a narrow terminal goes on in the next one, it is never cut).  A terminal too
small even for the Braille picture gets one Czech sentence saying what size it
needs instead of a broken picture (the sizes with this footer, wrapped to each
drawing's width), and a resized terminal (SIGWINCH) is drawn again at once.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import textwrap
import threading
from typing import Any, TextIO

from luma.core.device import device
from luma.core.interface.serial import noop
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


MODES = ("half", "quad", "braille")
_CELLS = {"half": (1, 2), "quad": (2, 2), "braille": (2, 4)}  # pixels per character


def needed(mode: str, footer_lines: int = 0) -> tuple[int, int]:
    """The columns and lines a ``mode`` takes: the picture, its border and the footer."""
    cx, cy = _CELLS[mode]
    return WIDTH // cx + 2, HEIGHT // cy + 2 + footer_lines


def footer_rows(text: str, columns: int) -> list[str]:
    """The footer's lines wrapped at spaces to ``columns - 1`` characters (the last column
    stays free, so the bottom line never makes the terminal scroll); a word longer than a
    line is cut into pieces."""
    width = max(10, columns - 1)
    return [row for line in text.splitlines()
            for row in textwrap.wrap(line, width, break_on_hyphens=False) or [""]]


def needed_for(mode: str, footer: str) -> tuple[int, int]:
    """The columns and lines ``mode`` takes with ``footer`` wrapped to that many columns."""
    columns, _ = needed(mode)
    return needed(mode, len(footer_rows(footer, columns)) if footer else 0)


def choose_mode(columns: int, lines: int, spare_lines: int = 3) -> str | None:
    """The finest drawing that fits the terminal with ``spare_lines`` under it; ``None``:
    not even the Braille picture fits."""
    for mode in MODES:
        want_cols, want_lines = needed(mode, spare_lines)
        if columns >= want_cols and lines >= want_lines:
            return mode
    return None


def too_small(columns: int, lines: int, footer: str) -> list[str]:
    """What a terminal too small for any picture shows instead, wrapped to its width: the
    sizes the Braille and the half-block pictures need with ``footer`` under them."""
    want_cols, want_lines = needed_for("braille", footer)
    sharp_cols, sharp_lines = needed_for("half", footer)
    text = (f"Terminál {columns}×{lines} je na obrázek displeje malý: potřebuji aspoň "
            f"{want_cols}×{want_lines} znaků (ostrý obrázek od {sharp_cols}×{sharp_lines}). "
            "Zvětši okno, hra zatím běží dál.")
    out: list[str] = []
    line = ""
    width = max(10, columns - 1)
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    out.append(line)
    return out[:max(1, lines - 1)]


class TerminalDisplay(device):  # type: ignore[misc]
    """A luma device that draws the panel in a terminal.

    It is a :class:`luma.core.device.device` like the ``ssd1306`` it stands in
    for: ``capabilities`` sets ``width``, ``height``, ``size``, ``mode`` and
    ``rotate``; :meth:`display` takes an image of :attr:`size` and draws what
    ``preprocess`` makes of it (the panel's own orientation, so ``rotate=2``
    shows the frame upside down, as on a panel mounted that way); ``clear``,
    ``hide``, ``show`` and ``contrast`` work as on a panel (the terminal cannot
    dim, so contrast only checks and keeps the level).  Commands go to luma's
    ``noop`` serial interface.  Like luma.emulator's devices, :meth:`cleanup`
    leaves the last picture in the terminal.

    ``text_mode`` forces ``half``, ``quad`` or ``braille`` (else
    ``$COMPANION_TERMINAL_MODE``, else chosen from the terminal's size);
    :meth:`set_footer` prints lines under the panel.
    """

    def __init__(self, stream: TextIO | None = None, text_mode: str | None = None, *,
                 width: int = WIDTH, height: int = HEIGHT, rotate: int = 0, mode: str = "1",
                 **kwargs: Any) -> None:
        super().__init__(serial_interface=noop())
        self.capabilities(width, height, rotate, mode)
        self.stream: TextIO = stream or sys.stdout
        self.forced_mode = text_mode or os.environ.get("COMPANION_TERMINAL_MODE") or None
        self.footer = ""
        self.level = 0xFF
        self.lock = threading.Lock()
        self._last: Image.Image | None = None
        self._on = True
        self._cleared = False
        self._closed = False
        self._watch_resizes()

    def _watch_resizes(self) -> None:
        """Draw again at once when the terminal is resized (only for a real terminal, and
        only from the main thread, where Python lets a signal handler be set)."""
        isatty = getattr(self.stream, "isatty", lambda: False)
        if not isatty() or threading.current_thread() is not threading.main_thread() \
                or not hasattr(signal, "SIGWINCH"):
            return
        before = signal.getsignal(signal.SIGWINCH)

        def resized(signum: int, frame: Any) -> None:
            # the handler may interrupt a drawing that holds the lock: draw from a thread
            threading.Thread(target=self.redraw, name="terminal-resize", daemon=True).start()
            if callable(before):
                before(signum, frame)

        signal.signal(signal.SIGWINCH, resized)

    def terminal_size(self) -> tuple[int, int]:
        s = shutil.get_terminal_size((80, 24))
        return s.columns, s.lines

    def text_mode(self) -> str | None:
        """The drawing for the terminal's size now (``None``: too small for any)."""
        if self.forced_mode:
            return self.forced_mode
        columns, lines = self.terminal_size()
        footer = len(footer_rows(self.footer, columns)) if self.footer else 0
        return choose_mode(columns, lines, footer) or choose_mode(columns, lines, 0)

    def redraw(self) -> None:
        """Draw the last picture again (after a resize)."""
        if self._last is not None:
            self._draw()

    def display(self, image: Image.Image) -> None:
        """Draw ``image`` (of :attr:`size`), turned to the panel's orientation by ``preprocess``."""
        assert image.size == self.size
        self._last = self.preprocess(image).convert("1")
        self._draw()

    def set_footer(self, text: str) -> None:
        self.footer = text
        if self._last is not None:
            self._draw()

    def show(self) -> None:
        """Switch the panel on: the last picture comes back."""
        super().show()
        self._on = True
        if self._last is not None:
            self._draw()

    def hide(self) -> None:
        """Switch the panel off (dark), keeping the picture for :meth:`show`."""
        super().hide()
        self._on = False
        if self._last is not None:
            self._draw()

    def contrast(self, level: int) -> None:
        super().contrast(level)  # luma's range check; the command goes to the noop interface
        self.level = level

    def _draw(self) -> None:
        assert self._last is not None
        picture = self._last if self._on else Image.new("1", self._last.size)
        mode = self.text_mode()
        if mode is None:
            columns, lines = self.terminal_size()
            out = too_small(columns, lines, self.footer)
        else:
            rows = to_text(picture, mode)
            border = "+" + "-" * len(rows[0]) + "+"
            out = [border] + ["|" + r + "|" for r in rows] + [border]
            if not self.forced_mode:
                columns, lines = self.terminal_size()
                footer = footer_rows(self.footer, columns) if self.footer else []
                out += footer[:max(0, lines - len(out))]
            else:
                out += self.footer.splitlines()
        with self.lock:
            if not self._cleared:
                self.stream.write("\x1b[2J")
                self._cleared = True
            self.stream.write("\x1b[H" + "\x1b[K\n".join(out) + "\x1b[K\x1b[J")
            self.stream.flush()

    def cleanup(self) -> None:
        """Leave the picture and put the cursor under it (once; luma also calls it at exit)."""
        with self.lock:
            if self._closed:
                return
            self._closed = True
            if self._cleared:
                self.stream.write("\n")
                self.stream.flush()
