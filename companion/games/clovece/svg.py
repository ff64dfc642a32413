"""The Člověče cross as SVG, from the engine's own geometry (``engines/clovece/board.py``).

The 11 x 11 grid of the board module becomes cells of :data:`CELL` units: the
40 track fields along a grey line in the order of play, each colour's start
field ringed in its colour with its mark, the four goal fields and the house in
a light tint of the colour, and every piece a disc in its colour *with its
mark* (red dot, blue diamond, green stripe, yellow triangle), so colour-blind
players read the board as well as anyone.  The last move's fields are ringed.
"""

from __future__ import annotations

import functools

from companion.engines.czech import COLOUR_NAME
from companion.games.clovece.engine.board import GOALS, GRID, HOUSES, TRACK, cell_of, piece_cells
from companion.games.clovece.engine.notation import location_text
from companion.games.clovece.engine.rules import COLOURS, HOUSE, START, Move, Position
from companion.web.svg import (
    INK,
    PAPER,
    RGB,
    TINT,
    Drawing,
    document,
    el,
    mark,
    piece,
    piece_label,
    title,
)

CELL = 40.0
SIZE = GRID * CELL
FIELD_R = 15.0
PIECE_R = 13.0
HIGHLIGHT = "#ff8c00"


def centre(cell: tuple[int, int]) -> tuple[float, float]:
    """The centre of a grid cell in SVG units."""
    return (cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL


def where_text(colour: int, progress: int) -> str:
    """A piece's place in Czech words for its tooltip."""
    if progress == HOUSE:
        return "v domečku"
    loc = location_text(colour, progress)
    if loc.startswith("f"):
        return f"cílové pole {loc[1:]}"
    return f"pole {loc}"


def _houses(colours: tuple[int, ...]) -> str:
    out = []
    for c in colours:
        xs = [x for x, _ in HOUSES[c]]
        ys = [y for _, y in HOUSES[c]]
        letter = COLOURS[c]
        out.append(el("rect", x=min(xs) * CELL + 3.0, y=min(ys) * CELL + 3.0,
                      width=(max(xs) - min(xs) + 1) * CELL - 6.0,
                      height=(max(ys) - min(ys) + 1) * CELL - 6.0, rx=10.0,
                      fill=TINT[letter], stroke=RGB[letter], stroke_width=2.0,
                      class_="house"))
        for cell in HOUSES[c]:
            x, y = centre(cell)
            out.append(el("circle", cx=x, cy=y, r=FIELD_R - 2, fill="#ffffff",
                          stroke=RGB[letter], stroke_width=1.5, stroke_dasharray="3 2"))
    return "".join(out)


def _track(colours: tuple[int, ...]) -> str:
    points = " ".join(f"{centre(c)[0]:g},{centre(c)[1]:g}" for c in (*TRACK, TRACK[0]))
    out = [el("polyline", points=points, fill="none", stroke="#b9b2a3", stroke_width=4.0,
              stroke_linejoin="round")]
    starts = {START[c]: c for c in colours}
    for n, cell in enumerate(TRACK):
        x, y = centre(cell)
        c = starts.get(n)
        if c is None:
            out.append(el("circle", title(f"pole {n}"), cx=x, cy=y, r=FIELD_R, fill="#ffffff",
                          stroke=INK, stroke_width=1.5, class_="field", data_field=str(n)))
            continue
        letter = COLOURS[c]
        out.append(el("g", title(f"pole {n}: start, {COLOUR_NAME[c]}")
                      + el("circle", cx=x, cy=y, r=FIELD_R, fill=TINT[letter], stroke=RGB[letter],
                           stroke_width=4.0)
                      + el("g", mark(c, x, y, FIELD_R, RGB[letter]), opacity="0.45"),
                      class_="field start", data_field=str(n)))
    for c in colours:
        letter = COLOURS[c]
        for k, cell in enumerate(GOALS[c], 1):
            x, y = centre(cell)
            out.append(el("circle", title(f"cíl {k}, {COLOUR_NAME[c]}"), cx=x, cy=y,
                          r=FIELD_R - 1, fill=TINT[letter], stroke=RGB[letter], stroke_width=2.5,
                          class_="field goal", data_field=f"{letter}f{k}"))
    return "".join(out)


def _highlight(moved: Move) -> str:
    """Rings on the field a piece left (dashed) and the field it reached (solid)."""
    out = []
    if moved.frm != HOUSE:
        x, y = centre(cell_of(moved.colour, moved.frm))
        out.append(el("circle", cx=x, cy=y, r=FIELD_R + 3.5, fill="none", stroke=HIGHLIGHT,
                      stroke_width=3.0, stroke_dasharray="4 3", class_="moved-from"))
    x, y = centre(cell_of(moved.colour, moved.to))
    out.append(el("circle", cx=x, cy=y, r=FIELD_R + 3.5, fill="none", stroke=HIGHLIGHT,
                  stroke_width=3.5, class_="moved-to"))
    return "".join(out)


def _pieces(pos: Position) -> str:
    out = []
    for c, p, cell in piece_cells(pos):
        x, y = centre(cell)
        out.append(piece(c, x, y, PIECE_R, piece_label(c, where_text(c, p)),
                         where=location_text(c, p)))
    return "".join(out)


@functools.lru_cache(maxsize=16)
def base(colours: tuple[int, ...]) -> str:
    """The board without pieces for the colours that play (drawn once per set of colours)."""
    body = (el("rect", x=1.0, y=1.0, width=SIZE - 2, height=SIZE - 2, rx=18.0, fill=PAPER,
               stroke="#d8cfbd", stroke_width=2.0)
            + _houses(colours) + _track(colours))
    return document(SIZE, SIZE, body, "Plán hry Člověče, nezlob se", "board-base")


def render(pos: Position, moved: Move | None = None) -> Drawing:
    """The board of ``pos``; ``moved`` rings the fields of the last move."""
    top = (_highlight(moved) if moved is not None else "") + _pieces(pos)
    return Drawing(base(pos.colours), document(SIZE, SIZE, top, "Figurky", "board-top"))
