"""Draw a board file as a PNG, so a family can compare it with their print.

Every field is a circle at its ``at`` position with its name inside; the
kind shows as the fill or the ring (see the legend drawn under the board);
one-way links carry an arrowhead, two-way links (the Černá stezka, the trap
paths) do not.  Pubs are drawn as four squares in their colour.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from companion.games.napij.engine.board import COLOURS, Board
from companion.games.napij.engine.describe import KIND_NAME, TRAP_NAME

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

RGB = {
    "r": (214, 39, 40),
    "b": (31, 94, 200),
    "g": (34, 150, 60),
    "y": (225, 180, 0),
}
TINT = {
    "r": (250, 210, 210),
    "b": (205, 220, 250),
    "g": (205, 238, 212),
    "y": (252, 238, 190),
}
INK = (30, 30, 30)
LINK = (150, 150, 150)
BG = (250, 248, 242)
FILL = {
    "normal": (255, 255, 255),
    "card": (220, 200, 240),
    "junction": (170, 215, 245),
    "turnoff": (250, 170, 80),
    "trap": (90, 90, 90),
}
STEZKA = (45, 45, 45)
SHORTCUT = (255, 250, 205)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont



Point = tuple[float, float]


def arrow_head(cx: float, cy: float, r: float, toward: Point) -> list[Point]:
    """The three corners of the arrow drawn in an arrow field of radius ``r`` at (cx, cy),
    pointing at ``toward`` (the first field of its colour's lane)."""
    ang = math.atan2(toward[1] - cy, toward[0] - cx)
    s = r * 0.95
    tip = (cx + math.cos(ang) * s, cy + math.sin(ang) * s)
    back = (cx + math.cos(ang) * s * 0.45, cy + math.sin(ang) * s * 0.45)
    left = (back[0] - math.sin(ang) * s * 0.35, back[1] + math.cos(ang) * s * 0.35)
    right = (back[0] + math.sin(ang) * s * 0.35, back[1] - math.cos(ang) * s * 0.35)
    return [tip, left, right]

def _font(size: int, bold: bool = False) -> Font:
    for path in ((DEJAVU_BOLD, DEJAVU) if bold else (DEJAVU,)):
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default()


def _center_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Font,
                 fill: tuple[int, int, int]) -> None:
    d.text(xy, text, font=font, fill=fill, anchor="mm")


def _arrowhead(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
               r: float, colour: tuple[int, int, int]) -> None:
    """A small filled triangle on the segment a->b, just before the circle of b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    tip = (b[0] - ux * r * 1.05, b[1] - uy * r * 1.05)
    size = r * 0.55
    base = (tip[0] - ux * size, tip[1] - uy * size)
    left = (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6)
    right = (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6)
    d.polygon([tip, left, right], fill=colour)


def _glyph(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, scale: int, kind: str,
           col: str | None, area: str, toward: tuple[float, float] | None) -> None:
    """One field: its shape, fill and ring tell its kind."""
    cx, cy = c
    box = [cx - r, cy - r, cx + r, cy + r]
    thin = max(1, scale // 24)
    thick = max(3, scale // 9)
    if kind == "home" and col:
        d.rounded_rectangle(box, radius=r * 0.3, fill=RGB[col], outline=INK, width=thin)
    elif kind == "start" and col:
        d.ellipse(box, fill=RGB[col], outline=INK, width=thin)
    elif kind == "arrow" and col:
        d.ellipse(box, fill=(255, 255, 255), outline=RGB[col], width=thick)
        if toward is not None:
            d.polygon(arrow_head(cx, cy, r, toward), fill=RGB[col])
    elif kind == "rolling_pin" and col:
        d.ellipse(box, fill=TINT[col], outline=RGB[col], width=thick)
        y = cy + r * 0.55
        d.line([cx - r * 0.55, y, cx + r * 0.55, y], fill=RGB[col], width=max(2, scale // 12))
    elif kind == "lane" and col:
        d.ellipse(box, fill=TINT[col], outline=INK, width=thin)
    elif area == "stezka" and kind == "normal":
        d.ellipse(box, fill=STEZKA, outline=INK, width=thin)
    elif area == "shortcut" and kind == "normal":
        d.ellipse(box, fill=SHORTCUT, outline=INK, width=thin)
    else:
        d.ellipse(box, fill=FILL.get(kind, (255, 255, 255)), outline=INK, width=thin)


def render(board: Board, scale: int = 36) -> Image.Image:
    """The board as an image (``scale`` pixels per unit of ``at``)."""
    xs = [f.at[0] for f in board.fields] + [p[0] for p in board.pubs]
    ys = [f.at[1] for f in board.fields] + [p[1] for p in board.pubs]
    margin = 1.6
    title_h = 2.0
    legend_h = 3.4
    minx, maxx = min(xs) - margin, max(xs) + margin
    miny, maxy = min(ys) - margin, max(ys) + margin
    width = int((maxx - minx) * scale)
    height = int((maxy - miny + title_h + legend_h) * scale)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    r = 0.42 * scale

    def px(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - minx) * scale, (p[1] - miny + title_h) * scale)

    small = _font(max(7, int(scale * 0.27)))
    label = _font(max(9, int(scale * 0.36)))
    title = _font(max(12, int(scale * 0.6)), bold=True)
    idx = board.index
    fields = board.fields
    width_line = max(2, scale // 12)

    # links first, so that the circles cover their ends
    for f in fields:
        a = px(f.at)
        targets: list[tuple[str, tuple[int, int, int], bool]] = []
        if f.next:
            targets.append((f.next, LINK, True))
        if f.lane and f.colour is not None:
            targets.append((f.lane, RGB[COLOURS[f.colour]], True))
        if f.branch:
            targets.append((f.branch, (60, 130, 200), not fields[idx[f.branch]].two_way))
        if f.forced:
            targets.append((f.forced, FILL["turnoff"], True))
        for e in f.exits:
            targets.append((e, (60, 130, 200), True))
        for link in f.links:
            targets.append((link, STEZKA if board.area[idx[f.id]] == "stezka" else LINK, False))
        for tid, colour, head in targets:
            b = px(fields[idx[tid]].at)
            d.line([a, b], fill=colour, width=width_line)
            if head:
                _arrowhead(d, a, b, r, colour)

    # fields
    for i, f in enumerate(fields):
        cx, cy = px(f.at)
        col = COLOURS[f.colour] if f.colour is not None else None
        toward: tuple[float, float] | None = None
        if f.kind == "arrow" and f.lane:
            toward = px(fields[idx[f.lane]].at)
        _glyph(d, (cx, cy), r, scale, f.kind, col, board.area[i], toward)
        dark = f.kind in ("start", "home", "trap") or (board.area[i] == "stezka" and
                                                        f.kind == "normal")
        _center_text(d, (cx, cy), f.id, small, (255, 255, 255) if dark else INK)
        if f.kind == "trap" and f.trap:
            _center_text(d, (cx, cy - r - scale * 0.3), TRAP_NAME[f.trap], label, INK)
        if f.label and f.kind not in ("start", "arrow"):  # what the words call it (D49)
            _center_text(d, (cx, cy + r + scale * 0.25), f.label, small, INK)

    # pubs: four places in a square, in the colour
    for c, (x, y) in enumerate(board.pubs):
        col = COLOURS[c]
        for ox, oy in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)):
            qx, qy = px((x + ox, y + oy))
            q = 0.4 * scale
            d.rectangle([qx - q, qy - q, qx + q, qy + q], fill=TINT[col], outline=RGB[col],
                        width=max(2, scale // 14))
        lx, ly = px((x, y + 1.45))
        _center_text(d, (lx, ly), "hospoda", label, RGB[col])

    # title and legend
    name = board.name or "Plán"
    if board.reconstruction and "rekonstrukce" not in name:
        name += " (rekonstrukce)"
    _center_text(d, (width / 2, title_h * scale / 2), name, title, INK)
    legend = [(kind, KIND_NAME[kind]) for kind in (
        "card", "start", "arrow", "junction", "turnoff", "rolling_pin", "home", "trap")]
    legend += [("stezka", "Černá stezka"), ("shortcut", "zkratka")]
    lx0 = scale * 0.8
    ly = height - legend_h * scale + scale * 0.9
    per_row = 5
    step = (width - 2 * lx0) / per_row
    for k, (kind, text) in enumerate(legend):
        x = lx0 + (k % per_row) * step + r
        y = ly + (k // per_row) * scale * 1.2
        area = kind if kind in ("stezka", "shortcut") else "main"
        glyph_kind = "normal" if kind in ("stezka", "shortcut") else kind
        _glyph(d, (x, y), r * 0.8, scale, glyph_kind, "r", area, (x + r, y))
        d.text((x + r * 1.2, y), text, font=label, fill=INK, anchor="lm")
    return img


def draw(board: Board, out: str | Path, scale: int = 36) -> tuple[int, int]:
    """Write the board as a PNG; the image size."""
    img = render(board, scale)
    img.save(out, format="PNG")
    return img.size


def field_pixel(board: Board, fid: str, scale: int = 36) -> tuple[int, int]:
    """Where the centre of a field lands in :func:`render`'s image (for the tests)."""
    xs = [f.at[0] for f in board.fields] + [p[0] for p in board.pubs]
    ys = [f.at[1] for f in board.fields] + [p[1] for p in board.pubs]
    f = board.f(fid)
    return (int((f.at[0] - (min(xs) - 1.6)) * scale),
            int((f.at[1] - (min(ys) - 1.6) + 2.0) * scale))
