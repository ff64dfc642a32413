"""Small pieces of SVG shared by the board renderers: escaped elements, colours, marks, pieces.

Everything is built as text with every attribute and text node escaped, so a
name or a card text can never break out of the markup; no renderer emits a
script, an event attribute, a ``style`` attribute or an external reference (the
page's Content-Security-Policy forbids inline styles, so the drawing uses
presentation attributes and CSS classes only).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from companion.engines.colours import COLOURS
from companion.engines.czech import COLOUR_NAME, MARK_NAME

RGB = {"r": "#d62728", "b": "#1f5ec8", "g": "#22963c", "y": "#e1b400"}
"""The colours of the table (as in ``companion board draw``)."""
TINT = {"r": "#fad2d2", "b": "#cddcfa", "g": "#cdeed4", "y": "#fceebe"}
"""Light versions for fields that belong to a colour."""
MARK_INK = {"r": "#ffffff", "b": "#ffffff", "g": "#ffffff", "y": "#3a2f00"}
"""The ink of a mark on a piece of that colour (dark on yellow, white elsewhere)."""
INK = "#1e1e1e"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#faf8f2"

MARK_KEYS = ("dot", "diamond", "stripe", "triangle")
"""Machine names of the marks by colour number: red dot, blue diamond, green stripe,
yellow triangle (``companion/ui/marks.py``)."""


def num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attrs(values: Mapping[str, object]) -> str:
    """Attributes as text: ``class_`` becomes ``class``, ``_`` in other names ``-``
    (``stroke_width``, ``data_colour``); ``None`` values are left out."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        text = num(value) if isinstance(value, float) else str(value)
        out.append(f" {name}={quoteattr(text)}")
    return "".join(out)


def el(tag: str, body: str | None = None, /, **values: object) -> str:
    """One element; ``body`` is markup already built (use :func:`text` for plain text)."""
    if body is None:
        return f"<{tag}{attrs(values)}/>"
    return f"<{tag}{attrs(values)}>{body}</{tag}>"


def text(content: str) -> str:
    """Plain text escaped for an element body."""
    return escape(content)


def title(content: str) -> str:
    """A ``<title>`` child: the tooltip and what a screen reader says."""
    return f"<title>{escape(content)}</title>"


def document(width: float, height: float, body: str, label: str, cls: str) -> str:
    """The outer ``<svg>`` with a view box, an accessible name, a class for the CSS, and the
    text defaults (font, centred on the point) that :func:`label` relies on."""
    root = {"class_": cls, "role": "img", "aria_label": label, "font_family": FONT,
            "text_anchor": "middle", "dominant_baseline": "central"}
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}"'
            f"{attrs(root)}>"
            f"{title(label)}{body}</svg>")


@dataclass(frozen=True)
class Drawing:
    """A board in two layers of the same size: ``base`` depends only on the board (the
    same string object comes back for the same board, so the server sends it once and
    the browser caches it), ``top`` on the moment (pieces, highlights)."""

    base: str
    top: str

    def whole(self) -> str:
        """Both layers in one SVG document (nested ``<svg>`` elements share the view box)."""
        head, _, _ = self.base.partition(">")
        return f"{head}>{self.base}{self.top}</svg>"


def polygon(points: list[tuple[float, float]], **values: object) -> str:
    return el("polygon", points=" ".join(f"{num(x)},{num(y)}" for x, y in points), **values)


def mark(colour: int, cx: float, cy: float, r: float, fill: str) -> str:
    """The mark of ``colour`` centred at (cx, cy) inside a circle of radius ``r``:
    red a dot, blue a diamond, green a stripe, yellow a triangle."""
    kind = MARK_KEYS[colour]
    if kind == "dot":
        return el("circle", cx=float(cx), cy=float(cy), r=r * 0.4, fill=fill)
    if kind == "diamond":
        s = r * 0.62
        return polygon([(cx, cy - s), (cx + s * 0.75, cy), (cx, cy + s), (cx - s * 0.75, cy)],
                       fill=fill)
    if kind == "stripe":
        return el("rect", x=cx - r * 0.66, y=cy - r * 0.2, width=r * 1.32, height=r * 0.4,
                  rx=r * 0.08, fill=fill)
    s = r * 0.62
    return polygon([(cx, cy - s), (cx + s * 0.9, cy + s * 0.6), (cx - s * 0.9, cy + s * 0.6)],
                   fill=fill)


def piece(colour: int, cx: float, cy: float, r: float, label: str, *,
          where: str = "", extra: str = "", cls: str = "piece") -> str:
    """A piece: a disc in its colour with its mark, so the colour never has to be told by
    hue alone; ``data-colour``/``data-mark``/``data-where`` name it for the page's tests."""
    letter = COLOURS[colour]
    body = (title(label)
            + el("circle", cx=float(cx), cy=float(cy), r=float(r), fill=RGB[letter],
                 stroke=INK, stroke_width=r * 0.14)
            + mark(colour, cx, cy, r, MARK_INK[letter]) + extra)
    return el("g", body, class_=cls, data_colour=letter, data_mark=MARK_KEYS[colour],
              data_where=where or None)


def piece_label(colour: int, where: str) -> str:
    """``červená figurka (tečka): pole 5`` - a piece's tooltip."""
    return f"{COLOUR_NAME[colour].capitalize()} figurka ({MARK_NAME[colour]}): {where}"


def arrowhead(a: tuple[float, float], b: tuple[float, float], gap: float, size: float,
              fill: str) -> str:
    """A filled triangle on the segment a->b whose tip stops ``gap`` before b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    tip = (b[0] - ux * gap, b[1] - uy * gap)
    base = (tip[0] - ux * size, tip[1] - uy * size)
    w = size * 0.6
    return polygon([tip, (base[0] - uy * w, base[1] + ux * w), (base[0] + uy * w, base[1] - ux * w)],
                   fill=fill)


def label(x: float, y: float, content: str, size: float, *, fill: str = INK,
          anchor: str = "middle", bold: bool = False, cls: str | None = None) -> str:
    """A line of text centred on (x, y) (``anchor="start"``: starting there), with
    presentation attributes only; the font comes from :func:`document`."""
    return el("text", text(content), x=float(x), y=float(y), font_size=float(size),
              text_anchor=None if anchor == "middle" else anchor, fill=fill,
              font_weight="bold" if bold else None, class_=cls)
