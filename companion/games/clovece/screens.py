"""The Člověče screens: the turn (the board's mini-map, whose turn, the roll, the moves to
choose from) and the winner, as plain values that register their own drawing with
:func:`companion.ui.screens.renderer` (importing this module is what makes them drawable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.clovece.minimap import SIZE as MAP_SIZE
from companion.games.clovece.minimap import draw_board
from companion.ui.fonts import body_font, heading_font
from companion.ui.screens import (
    DICE_LOST,
    DICE_MISSING,
    HEIGHT,
    WIDTH,
    Painter,
    blink_on,
    fit,
    inverse,
    line_height,
    renderer,
    scrolled,
    text_width,
)
from companion.ui.views import Choice, View

if TYPE_CHECKING:
    from companion.games.clovece.engine.rules import Position
    from companion.ui.reading import Reading


@dataclass(frozen=True)
class CloveceTurnView(View):
    """The turn screen of Člověče."""

    position: Position
    colour: int
    player: str  # "Modrý"
    computer: bool
    roll: int | None  # the roll being played, if any
    prompt: str  # what the table should do now
    choices: tuple[Choice, ...] = ()
    selected: int = 0
    tries: int = 0  # failed tries of the current three-tries sequence
    tries_shown: bool = False  # the colour has no piece in play: show "pokus n ze 3"
    manual_roll: int | None = None  # roll being entered with ◀ ▶ (dice missing)
    dice: str = "ok"  # "ok", "missing" (none configured), "lost" (disconnected)
    event: str = ""  # one line: what just happened
    blink: tuple[tuple[int, int], tuple[int, int]] | None = None  # (piece cell, target cell)
    roll_virtual: bool = False  # the roll was thrown by the companion for a computer seat
    words: str = ""  # the selected move in words; shown instead of the event while choosing

    def reading(self) -> Reading:
        from companion.games.clovece.reading import read_turn

        return read_turn(self)

    def whose(self) -> int | None:
        return self.colour


@dataclass(frozen=True)
class CloveceWinView(View):
    """The winner of a Člověče game, on the final board."""

    colour: int
    player: str
    position: Position
    footer: str = "● nová hra"

    def reading(self) -> Reading:
        from companion.games.clovece.reading import read_win

        return read_win(self)


@renderer(CloveceTurnView)
def _turn(p: Painter, v: CloveceTurnView, t: float) -> None:
    font = body_font()
    lh = line_height(font)
    draw_board(p.draw, v.position, 0, 0, v.blink, blink_on(t))
    p.area("board", (0, 0, MAP_SIZE, MAP_SIZE))
    x = MAP_SIZE + 3
    w = WIDTH - x
    y = 0
    # who: name and mark (and the computer sign)
    p.text((x, y), v.player, font)
    mx = x + text_width(font, v.player) + 2
    p.mark(v.colour, mx, y + 1, 5)
    if v.computer:
        p.text((mx + 8, y), "PC", font)
    y += lh
    # the roll, or how to get one
    if v.roll is not None:
        p.text((x, y), f"Hod PC: {v.roll}" if v.roll_virtual else f"Hod: {v.roll}", font)
    elif v.manual_roll is not None:
        label = "Hod: ◀ "
        p.text((x, y), label, font)
        vx = x + text_width(font, label)
        value = str(v.manual_roll)
        if blink_on(t):
            inverse(p, vx, y, text_width(font, value) + 2, lh, value, font)
        else:
            p.text((vx + 1, y), value, font)
        p.text((vx + text_width(font, value) + 3, y), " ▶", font)
    y += lh
    if v.tries_shown:
        p.text((x, y), f"Pokus {v.tries + 1} ze 3", font)
        y += lh
    # numbered choices (the selected one kept in view)
    rows = max(1, (HEIGHT - lh - y) // lh - 1)
    first = min(max(0, v.selected - rows + 1), max(0, len(v.choices) - rows))
    for i in range(first, min(len(v.choices), first + rows)):
        c = v.choices[i]
        text = f"{i + 1} {c.label}" + (" ×" if c.capture else "")
        if i == v.selected and len(v.choices) > 1:
            inverse(p, x, y, w, lh, fit(font, text, w - 2), font, whole=text)
        else:
            p.text((x + 1, y), fit(font, text, w - 2), font, whole=text)
        y += lh
    for i in (*range(first), *range(first + rows, len(v.choices))):
        p.lost(v.choices[i].label)
    # the prompt, or a warning about the dice
    status = v.prompt
    if v.dice == "lost":
        status = DICE_LOST
    elif v.dice == "missing" and v.manual_roll is not None:
        status = DICE_MISSING
    p.text((x, HEIGHT - 2 * lh), fit(font, status, w), font, whole=status)
    # the selected move in words, or what just happened, across the whole width
    line = v.words or v.event
    p.text((0, HEIGHT - lh), scrolled(font, line, WIDTH - 1, t), font, whole=line, scrolls=True)



@renderer(CloveceWinView)
def _win(p: Painter, v: CloveceWinView, t: float) -> None:
    head, font = heading_font(bold=True), body_font()
    lh = line_height(font)
    draw_board(p.draw, v.position, 0, 0)
    p.area("board", (0, 0, MAP_SIZE, MAP_SIZE))
    x = MAP_SIZE + 4
    p.text((x, 2), "Vyhrává", head)
    p.text((x, 18), v.player, head)
    if blink_on(t):
        p.mark(v.colour, x + text_width(head, v.player) + 3, 20, 7)
    p.text((x, HEIGHT - lh), fit(font, v.footer, WIDTH - x), font, whole=v.footer)
