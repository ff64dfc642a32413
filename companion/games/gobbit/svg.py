"""The Gobbit table as SVG: every seat's top card, the pile sizes, the graveyard, the touches.

Gobbit has no board, so the drawing is the table seen from above: the seats
clockwise round an oval (seat 1 at the bottom), each with the top card of its
face-up pile (the animal drawn in the card's colour and named in Czech), how
many cards lie in its pile and its deck when the companion knows (it does not
with real cards), ghosts and players who left; the graveyard in the middle with
the expert condition in force; and the touches of the latest moment as
numbered arrows from the seat to what it touched, coloured by what the judge
made of them (attack green, defence blue, foul red, late grey).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.gobbit.engine.cards import CHAMELEON, MOSQUITO, SNAKE, Card, Condition
from companion.games.gobbit.engine.describe import ANIMAL, CONDITION_LABEL, card_name
from companion.games.gobbit.engine.judge import GRAVEYARD, Kind, Touch, Verdict
from companion.web.svg import Drawing, arrowhead, document, el, label, title

WIDTH, HEIGHT = 400.0, 440.0
CX, CY = 200.0, 205.0
RX, RY = 138.0, 136.0
CARD_W, CARD_H = 60.0, 84.0
FELT = "#2f6f4f"
CARD_RGB = {"b": "#1f5ec8", "r": "#d62728", "y": "#e1b400", None: "#5b4636"}
CARD_INK = {"b": "#ffffff", "r": "#ffffff", "y": "#3a2f00", None: "#ffffff"}
KIND_RGB = {Kind.ATTACK: "#1fae4b", Kind.DEFENCE: "#3c8cf0", Kind.FOUL: "#e8342a",
            Kind.MISTAKE: "#e8342a", Kind.RACE: "#f0b400", Kind.IGNORED: "#9a9a9a"}
LATE = "#b4b4b4"
TURN = "#ffb000"


@dataclass(frozen=True)
class Seat:
    """One seat as the page shows it; ``pile``/``deck`` are ``None`` when not known."""

    seat: int
    top: Card | None = None
    pile: int | None = None
    deck: int | None = None
    ghost: bool = False
    out: bool = False


@dataclass(frozen=True)
class Table:
    """What the drawing needs: the seats, the graveyard and the latest moment's touches."""

    seats: tuple[Seat, ...]
    turn: int | None = None
    graveyard: bool = False
    graveyard_size: int | None = None
    condition: Condition | None = None
    gorilla: int | None = None
    touches: tuple[Touch, ...] = ()
    verdicts: Mapping[Touch, Verdict] = field(default_factory=dict)


def seat_centre(index: int, count: int) -> tuple[float, float]:
    """The centre of the ``index``-th seat's card (0: seat 1 at the bottom, then clockwise)."""
    ang = math.pi / 2 + index * 2 * math.pi / count
    return CX + RX * math.cos(ang), CY + RY * math.sin(ang)


def _animal(species: str, x: float, y: float, ink: str, bg: str) -> str:
    """A small picture of the animal centred at (x, y), about 30 units wide."""
    if species == SNAKE:
        return el("path", d=f"M{x - 15:g},{y + 6:g} q7.5,-16 15,0 t15,0", fill="none",
                  stroke=ink, stroke_width=4.0, stroke_linecap="round") + \
            el("circle", cx=x + 15, cy=y + 6, r=3.5, fill=ink)
    if species == CHAMELEON:
        return (el("ellipse", cx=x - 3, cy=y - 2, rx=11.0, ry=7.0, fill=ink)
                + el("path", d=f"M{x + 7:g},{y:g} q9,2 7,10 q-2,5 -7,1 q-2,-4 3,-4",
                     fill="none", stroke=ink, stroke_width=2.5, stroke_linecap="round")
                + el("circle", cx=x - 10, cy=y - 4, r=1.8, fill=bg))
    if species == MOSQUITO:
        return (el("ellipse", cx=x - 6, cy=y - 6, rx=7.0, ry=4.0, fill="none", stroke=ink,
                   stroke_width=1.8)
                + el("ellipse", cx=x + 6, cy=y - 6, rx=7.0, ry=4.0, fill="none", stroke=ink,
                     stroke_width=1.8)
                + el("line", x1=x, y1=y - 8, x2=x, y2=y + 10, stroke=ink, stroke_width=3.0,
                     stroke_linecap="round")
                + el("line", x1=x, y1=y - 8, x2=x - 6, y2=y - 14, stroke=ink, stroke_width=1.5))
    return (el("circle", cx=float(x), cy=float(y), r=11.0, fill=ink)
            + el("circle", cx=x - 4, cy=y - 2, r=2.0, fill=bg)
            + el("circle", cx=x + 4, cy=y - 2, r=2.0, fill=bg)
            + el("rect", x=x - 5, y=y + 4, width=10.0, height=3.0, rx=1.5, fill=bg))


def card(top: Card, x: float, y: float) -> str:
    """A face-up card centred at (x, y): its colour, the animal and its Czech name."""
    body = (title(card_name(top))
            + el("rect", x=x - CARD_W / 2, y=y - CARD_H / 2, width=CARD_W, height=CARD_H, rx=6.0,
                 fill=CARD_RGB[top.colour], stroke="#ffffff", stroke_width=2.5)
            + _animal(top.species, x, y - 8, CARD_INK[top.colour], CARD_RGB[top.colour])
            + label(x, y + 27, ANIMAL[top.species], 9.5 if len(ANIMAL[top.species]) < 8 else 8.5,
                    fill=CARD_INK[top.colour], bold=True))
    return el("g", body, class_="card", data_card=top.species + (top.colour or ""))


def _empty(x: float, y: float, word: str) -> str:
    return (el("rect", x=x - CARD_W / 2, y=y - CARD_H / 2, width=CARD_W, height=CARD_H,
               rx=6.0, fill="none", stroke="#cfe3d8", stroke_width=1.5, stroke_dasharray="5 4")
            + label(x, y, word, 10.0, fill="#e4f1ea"))


COUNT_SIZE, COUNT_LINE = 9.5, 12.0
CHAR_W = 0.56
"""A generous average width of a character, in font sizes (DejaVu Sans and Roboto: 0.5)."""


def count_lines(items: Sequence[str], x: float) -> list[str]:
    """A seat's counts ("kupička 12", "balíček 11", "gorila útočí") in lines centred on
    ``x`` that stay inside the drawing: joined by " · " while they fit, wrapped where
    they do not (a seat at the table's side has less room than one at the top)."""
    room = 2 * min(x, WIDTH - x) - 8.0
    lines: list[str] = []
    for item in items:
        joined = f"{lines[-1]} · {item}" if lines else item
        if lines and len(joined) * CHAR_W * COUNT_SIZE <= room:
            lines[-1] = joined
        else:
            lines.append(item)
    return lines


def _seat(s: Seat, x: float, y: float, turn: bool, gorilla: bool) -> str:
    out = []
    if turn:
        out.append(el("rect", x=x - CARD_W / 2 - 5, y=y - CARD_H / 2 - 5, width=CARD_W + 10,
                      height=CARD_H + 10, rx=9.0, fill="none", stroke=TURN, stroke_width=4.0,
                      class_="turn"))
    if s.out:
        out.append(_empty(x, y, "mimo hru"))
    elif s.ghost:
        out.append(_empty(x, y, "duch"))
    elif s.top is None:
        out.append(_empty(x, y, "bez karty"))
    else:
        out.append(card(s.top, x, y))
    name = f"Hráč {s.seat}"
    out.append(label(x, y + CARD_H / 2 + 11, name, 12.0, fill="#ffffff", bold=True))
    counts = []
    if s.pile is not None:
        counts.append(f"kupička {s.pile}")
    if s.deck is not None:
        counts.append(f"balíček {s.deck}")
    if gorilla:
        counts.append("gorila útočí")
    for i, line in enumerate(count_lines(counts, x)):
        out.append(label(x, y + CARD_H / 2 + 25 + i * COUNT_LINE, line, COUNT_SIZE,
                         fill="#d8ecdf", cls="counts"))
    return el("g", "".join(out), class_="seat", data_seat=str(s.seat),
              data_top=(s.top.species + (s.top.colour or "")) if s.top else None,
              data_pile=None if s.pile is None else str(s.pile))


def _graveyard(t: Table) -> str:
    out = []
    if t.graveyard:
        out.append(el("rect", x=CX - CARD_W / 2, y=CY - CARD_H / 2, width=CARD_W,
                      height=CARD_H, rx=6.0, fill="#2a2a2a", stroke="#ffffff", stroke_width=2.0))
        out.append(el("path", d=f"M{CX - 14:g},{CY - 22:g} l28,44 M{CX + 14:g},{CY - 22:g} l-28,44",
                      stroke="#555555", stroke_width=3.0))
        if t.graveyard_size is not None:
            out.append(label(CX, CY, str(t.graveyard_size), 16.0, fill="#ffffff", bold=True))
    else:
        out.append(_empty(CX, CY, "prázdný"))
    out.append(label(CX, CY + CARD_H / 2 + 11, "hřbitov", 11.0, fill="#ffffff"))
    if t.condition is not None:
        out.append(label(CX, CY - CARD_H / 2 - 11, CONDITION_LABEL[t.condition], 10.5,
                         fill="#ffe27a", bold=True, cls="condition"))
    return el("g", "".join(out), class_="graveyard",
              data_size=None if t.graveyard_size is None else str(t.graveyard_size))

BADGE_R = 8.5
"""The radius of a touch's number."""


def _edge(ux: float, uy: float) -> float:
    """How far from a card's centre its border is in the direction (ux, uy)."""
    return min(CARD_W / 2 / abs(ux) if ux else math.inf, CARD_H / 2 / abs(uy) if uy else math.inf)


def _touches(t: Table, where: Mapping[int, tuple[float, float]]) -> str:
    out = []
    for n, touch in enumerate(t.touches, 1):
        start = where.get(touch.seat)
        end = (CX, CY) if touch.target == GRAVEYARD else where.get(int(touch.target))
        if start is None or end is None:
            continue
        v = t.verdicts.get(touch)
        colour = KIND_RGB[v.kind] if v is not None else LATE
        if v is not None and v.kind in (Kind.ATTACK, Kind.DEFENCE, Kind.RACE) and not v.decisive:
            colour = LATE
        if touch.target == touch.seat:
            # a touch on one's own pile: a ring round the card, the number at its corner
            out.append(el("rect", x=end[0] - CARD_W / 2 - 4, y=end[1] - CARD_H / 2 - 4,
                          width=CARD_W + 8, height=CARD_H + 8, rx=8.0, fill="none",
                          stroke=colour, stroke_width=3.0, stroke_dasharray="6 3"))
            bx, by = end[0] - CARD_W / 2 - 4, end[1] - CARD_H / 2 - 4
        else:
            # from the edge of the seat's own card to the edge of the touched one
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = math.hypot(dx, dy) or 1.0
            ux, uy = dx / length, dy / length
            ex, ey = end[0] - ux * _edge(ux, uy), end[1] - uy * _edge(ux, uy)
            bx, by = start[0] + ux * _edge(ux, uy), start[1] + uy * _edge(ux, uy)
            out.append(el("line", x1=bx, y1=by, x2=ex, y2=ey, stroke=colour, stroke_width=3.0))
            out.append(arrowhead((bx, by), (ex, ey), 0.0, 10.0, colour))
            # the number just outside the card, on the line: it never hides the card's name
            bx, by = bx + ux * BADGE_R, by + uy * BADGE_R
        out.append(el("g", el("circle", cx=bx, cy=by, r=BADGE_R, fill=colour, stroke="#ffffff",
                              stroke_width=1.5)
                      + label(bx, by, str(n), 10.0, fill="#ffffff", bold=True),
                      class_="touch", data_seat=str(touch.seat), data_target=str(touch.target)))
    return "".join(out)


@functools.cache
def base() -> str:
    """The empty table."""
    body = (el("rect", x=0.0, y=0.0, width=WIDTH, height=HEIGHT, rx=16.0, fill="#245a40")
            + el("ellipse", cx=CX, cy=CY, rx=RX + 52, ry=RY + 56, fill=FELT, stroke="#4f8f6d",
                 stroke_width=3.0))
    return document(WIDTH, HEIGHT, body, "Stůl hry Gobbit", "board-base")


def render(t: Table) -> Drawing:
    """The table ``t``."""
    where: dict[int, tuple[float, float]] = {}
    out = [_graveyard(t)]
    for i, s in enumerate(t.seats):
        x, y = seat_centre(i, len(t.seats))
        where[s.seat] = (x, y)
        out.append(_seat(s, x, y, s.seat == t.turn, s.seat == t.gorilla))
    out.append(_touches(t, where))
    return Drawing(base(), document(WIDTH, HEIGHT, "".join(out), "Karty na stole", "board-top"))


def seats_of(tops: Mapping[int, Card | None], count: int,
             piles: Sequence[int] | None = None, decks: Sequence[int] | None = None,
             ghosts: frozenset[int] = frozenset(), out: frozenset[int] = frozenset()
             ) -> tuple[Seat, ...]:
    """Seats 1..count from their top cards (and pile and deck sizes when known)."""
    return tuple(Seat(s, tops.get(s), piles[s - 1] if piles is not None else None,
                      decks[s - 1] if decks is not None else None, s in ghosts, s in out)
                 for s in range(1, count + 1))
