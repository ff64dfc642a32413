"""The board of Člověče, napij se! as SVG, from its board file (as ``companion board draw``).

The drawing follows :mod:`companion.games.napij.engine.draw`: every field a circle at
its ``at`` position with its name inside, the kind told by the fill or the ring,
one-way links with an arrowhead and two-way links (the Černá stezka, the trap
paths) without, the pubs as four squares in their colour, a legend under the
board.  On top come the state's pieces (discs in their colour with their mark;
a gold ring while a piece is immune), the bottle, and rings on the last play's
fields.  The board part depends only on the board, so it is drawn once per
board and kept.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from companion.games.napij.engine.board import COLOURS, Board
from companion.games.napij.engine.describe import KIND_NAME, TRAP_NAME
from companion.games.napij.engine.draw import arrow_head
from companion.games.napij.engine.state import PUB, State
from companion.web.svg import (
    INK,
    PAPER,
    RGB,
    TINT,
    Drawing,
    arrowhead,
    document,
    el,
    label,
    piece,
    piece_label,
    polygon,
    title,
)

S = 24.0
"""SVG units per unit of a field's ``at``."""
R = 0.42 * S
PIECE_R = 0.44 * S
MARGIN = 1.6
TITLE_H = 1.8
LEGEND_H = 3.0
LINK = "#969696"
BRANCH = "#3c82c8"
TURNOFF = "#faaa50"
STEZKA = "#2d2d2d"
SHORTCUT = "#fffacd"
FILL = {"normal": "#ffffff", "card": "#dcc8f0", "junction": "#aad7f5", "turnoff": TURNOFF,
        "trap": "#5a5a5a"}
IMMUNE = "#f0b400"
HIGHLIGHT = "#ff8c00"
BOTTLE = "#2f6b3a"

LEGEND = ("card", "start", "arrow", "junction", "turnoff", "rolling_pin", "home", "trap",
          "stezka", "shortcut")


class Frame:
    """Where the board's units land in the SVG (the same margins as ``board draw``)."""

    def __init__(self, board: Board) -> None:
        xs = [f.at[0] for f in board.fields] + [p[0] for p in board.pubs]
        ys = [f.at[1] for f in board.fields] + [p[1] for p in board.pubs]
        self.minx, self.miny = min(xs) - MARGIN, min(ys) - MARGIN
        self.width = (max(xs) + MARGIN - self.minx) * S
        self.board_h = (max(ys) + MARGIN - self.miny) * S
        self.height = self.board_h + (TITLE_H + LEGEND_H) * S

    def px(self, at: tuple[float, float]) -> tuple[float, float]:
        return (at[0] - self.minx) * S, (at[1] - self.miny + TITLE_H) * S


def _glyph(cx: float, cy: float, r: float, kind: str, col: str | None, area: str,
           toward: tuple[float, float] | None) -> str:
    """One field's shape: its fill and ring tell its kind (as in ``board draw``)."""
    thin, thick = 1.0, 3.0
    if kind == "home" and col:
        return el("rect", x=cx - r, y=cy - r, width=2 * r, height=2 * r, rx=r * 0.3,
                  fill=RGB[col], stroke=INK, stroke_width=thin)
    if kind == "start" and col:
        return el("circle", cx=cx, cy=cy, r=r, fill=RGB[col], stroke=INK, stroke_width=thin)
    if kind == "arrow" and col:
        out = el("circle", cx=cx, cy=cy, r=r, fill="#ffffff", stroke=RGB[col],
                 stroke_width=thick)
        if toward is not None:
            out += _pointer(cx, cy, r, toward, RGB[col])
        return out
    if kind == "rolling_pin" and col:
        y = cy + r * 0.55
        return (el("circle", cx=cx, cy=cy, r=r, fill=TINT[col], stroke=RGB[col],
                   stroke_width=thick)
                + el("line", x1=cx - r * 0.55, y1=y, x2=cx + r * 0.55, y2=y, stroke=RGB[col],
                     stroke_width=2.0))
    if kind == "lane" and col:
        return el("circle", cx=cx, cy=cy, r=r, fill=TINT[col], stroke=INK, stroke_width=thin)
    if area == "stezka" and kind == "normal":
        fill = STEZKA
    elif area == "shortcut" and kind == "normal":
        fill = SHORTCUT
    else:
        fill = FILL.get(kind, "#ffffff")
    return el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=INK, stroke_width=thin)


def _pointer(cx: float, cy: float, r: float, toward: tuple[float, float], colour: str) -> str:
    """The arrow field's own arrow, pointing into its colour's lane."""
    return polygon(arrow_head(cx, cy, r, toward), fill=colour)


def _links(board: Board, fr: Frame) -> str:
    out = []
    idx, fields = board.index, board.fields
    for f in fields:
        a = fr.px(f.at)
        targets: list[tuple[str, str, bool]] = []
        if f.next:
            targets.append((f.next, LINK, True))
        if f.lane and f.colour is not None:
            targets.append((f.lane, RGB[COLOURS[f.colour]], True))
        if f.branch:
            targets.append((f.branch, BRANCH, not fields[idx[f.branch]].two_way))
        if f.forced:
            targets.append((f.forced, TURNOFF, True))
        for e in f.exits:
            targets.append((e, BRANCH, True))
        for link in f.links:
            targets.append((link, STEZKA if board.area[idx[f.id]] == "stezka" else LINK, False))
        for tid, colour, head in targets:
            b = fr.px(fields[idx[tid]].at)
            out.append(el("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], stroke=colour,
                          stroke_width=2.0))
            if head:
                out.append(arrowhead(a, b, R * 1.05, R * 0.55, colour))
    return "".join(out)


def _fields(board: Board, fr: Frame) -> str:
    out = []
    idx, fields = board.index, board.fields
    for i, f in enumerate(fields):
        cx, cy = fr.px(f.at)
        col = COLOURS[f.colour] if f.colour is not None else None
        toward = fr.px(fields[idx[f.lane]].at) if f.kind == "arrow" and f.lane else None
        area = board.area[i]
        dark = f.kind in ("start", "home", "trap") or (area == "stezka" and f.kind == "normal")
        name = KIND_NAME[f.kind]
        if f.kind == "trap" and f.trap:
            name = TRAP_NAME[f.trap]
        body = (title(f"{f.id}: {name}")
                + _glyph(cx, cy, R, f.kind, col, area, toward)
                + label(cx, cy, f.id, S * 0.27, fill="#ffffff" if dark else INK,
                        cls="field-id"))
        out.append(el("g", body, class_="field", data_field=f.id))
        if f.kind == "trap" and f.trap:
            out.append(label(cx, cy - R - S * 0.35, TRAP_NAME[f.trap], S * 0.36,
                             cls="trap-name"))
    for c, at in enumerate(board.pubs):
        col = COLOURS[c]
        for qx, qy in _pub_places(fr, at):
            q = 0.4 * S
            out.append(el("rect", x=qx - q, y=qy - q, width=2 * q, height=2 * q, fill=TINT[col],
                          stroke=RGB[col], stroke_width=2.0, class_="pub"))
        lx, ly = fr.px((at[0], at[1] + 1.45))
        out.append(label(lx, ly, "hospoda", S * 0.36, fill=RGB[col], cls="pub-name"))
    return "".join(out)


def _pub_places(fr: Frame, at: tuple[float, float]) -> list[tuple[float, float]]:
    return [fr.px((at[0] + ox, at[1] + oy))
            for ox, oy in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5))]


def _legend(fr: Frame) -> str:
    out = []
    x0 = S * 0.8
    y0 = fr.board_h + TITLE_H * S + S * 0.6
    per_row = 5
    step = (fr.width - 2 * x0) / per_row
    for k, kind in enumerate(LEGEND):
        x = x0 + (k % per_row) * step + R
        y = y0 + (k // per_row) * S * 1.2
        area = kind if kind in ("stezka", "shortcut") else "main"
        glyph_kind = "normal" if kind in ("stezka", "shortcut") else kind
        name = {"stezka": "Černá stezka", "shortcut": "zkratka"}.get(kind) or KIND_NAME[kind]
        out.append(_glyph(x, y, R * 0.8, glyph_kind, "r", area, (x + R, y))
                   + label(x + R * 1.3, y, name, S * 0.36, anchor="start", cls="legend"))
    return el("g", "".join(out), class_="legend-box")


_BOARDS: dict[int, tuple[Board, Frame, str]] = {}
"""Drawn boards by ``id``, with the board kept so the id cannot be reused meanwhile."""
_LOCK = threading.Lock()


def base(board: Board) -> tuple[Frame, str]:
    """The board without pieces (links, fields, pubs, title, legend) as an SVG document,
    drawn once per board (the same string object comes back)."""
    with _LOCK:
        hit = _BOARDS.get(id(board))
        if hit is not None and hit[0] is board:
            return hit[1], hit[2]
    fr = Frame(board)
    name = board.name or "Plán"
    if board.reconstruction and "rekonstrukce" not in name:
        name += " (rekonstrukce)"
    body = (el("rect", x=0.0, y=0.0, width=fr.width, height=fr.height, fill=PAPER)
            + label(fr.width / 2, TITLE_H * S * 0.55, name, S * 0.6, bold=True,
                    cls="board-title")
            + _links(board, fr) + _fields(board, fr) + _legend(fr))
    layer = document(fr.width, fr.height, body, "Plán hry Člověče, napij se!", "board-base")
    with _LOCK:
        if len(_BOARDS) >= 8:
            _BOARDS.clear()
        _BOARDS[id(board)] = (board, fr, layer)
    return fr, layer


def _bottle(cx: float, cy: float) -> str:
    w, h = S * 0.42, S * 0.62
    body = (title("láhev")
            + el("rect", x=cx - w / 2, y=cy - h / 2 + S * 0.12, width=w, height=h, rx=S * 0.12,
                 fill=BOTTLE, stroke="#ffffff", stroke_width=1.5)
            + el("rect", x=cx - w * 0.2, y=cy - h / 2 - S * 0.18, width=w * 0.4, height=S * 0.34,
                 rx=S * 0.05, fill=BOTTLE, stroke="#ffffff", stroke_width=1.5))
    return el("g", body, class_="bottle")


def render(state: State, moved: Iterable[str] = ()) -> Drawing:
    """The board of ``state``; ``moved`` names fields to ring (the fields the last play
    left and reached)."""
    board = state.rules.board
    graph = state.rules.graph
    fr, layer = base(board)
    out: list[str] = []
    for fid in moved:
        if fid in board.index:
            cx, cy = fr.px(board.f(fid).at)
            out.append(el("circle", cx=cx, cy=cy, r=R + 4.0, fill="none", stroke=HIGHLIGHT,
                          stroke_width=3.0, class_="moved"))
    taken: dict[int, int] = {}
    bottle_field = graph.field[state.bottle] if state.bottle >= 0 else None
    for c in state.colours:
        nodes = state.pieces[c]
        assert nodes is not None
        immune = state.immune[c] or (0,) * len(nodes)
        places = _pub_places(fr, board.pubs[c])
        in_pub = 0
        for p, node in enumerate(nodes):
            if node == PUB:
                cx, cy = places[in_pub % len(places)]
                in_pub += 1
                where, label = "p", "v hospodě"
            else:
                fi = graph.field[node]
                n = taken.get(fi, 0)
                taken[fi] = n + 1
                cx, cy = fr.px(board.fields[fi].at)
                cx, cy = cx + n * S * 0.3, cy - n * S * 0.3
                where = graph.text[node]
                label = f"pole {board.fields[fi].id}"
            extra = ""
            rounds = immune[p] if p < len(immune) else 0
            if rounds:
                label += f", imunita ještě {rounds} kol"
                extra = el("circle", cx=cx, cy=cy, r=PIECE_R + 3.0, fill="none", stroke=IMMUNE,
                           stroke_width=3.0, stroke_dasharray="5 3", class_="immune")
            out.append(piece(c, cx, cy, PIECE_R, piece_label(c, label), where=where,
                             extra=extra))
    if bottle_field is not None:
        cx, cy = fr.px(board.fields[bottle_field].at)
        if taken.get(bottle_field):
            cx, cy = cx + S * 0.45, cy + S * 0.3
        out.append(_bottle(cx, cy))
    return Drawing(layer, document(fr.width, fr.height, "".join(out), "Figurky a láhev",
                                   "board-top"))
