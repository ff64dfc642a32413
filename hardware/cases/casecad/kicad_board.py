"""Footprint positions read from a KiCad board file (.kicad_pcb, KiCad 6 and later).

Only what the cases need: each footprint's reference, side, position and rotation, its
pads' board positions (so a part's centre is the centre of its pads, whatever the
footprint's origin), and the board outline's bounding box (the Edge.Cuts graphics).
Coordinates are KiCad's: millimetres, x to the right, y down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sexpdata


@dataclass(frozen=True)
class Footprint:
    reference: str
    library: str
    side: str                     # "F" or "B"
    x: float
    y: float
    rotation: float               # degrees, counter-clockwise as seen from the front
    pads: tuple[tuple[float, float], ...]   # board coordinates of each pad's centre

    def centre(self) -> tuple[float, float]:
        """The centre of the pads' bounding box (the footprint origin if it has no pads)."""
        if not self.pads:
            return self.x, self.y
        xs = [p[0] for p in self.pads]
        ys = [p[1] for p in self.pads]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


@dataclass(frozen=True)
class Board:
    footprints: dict[str, Footprint]
    outline: tuple[float, float, float, float]   # min x, min y, max x, max y of Edge.Cuts

    def footprint(self, reference: str) -> Footprint:
        try:
            return self.footprints[reference]
        except KeyError:
            raise KeyError(f"the board has no footprint {reference}") from None


def _name(item: Any) -> str | None:
    if isinstance(item, list) and item and isinstance(item[0], sexpdata.Symbol):
        return str(item[0])
    return None


def _children(node: list[Any], name: str) -> list[list[Any]]:
    return [c for c in node[1:] if _name(c) == name]


def _child(node: list[Any], name: str) -> list[Any] | None:
    found = _children(node, name)
    return found[0] if found else None


def _at(node: list[Any]) -> tuple[float, float, float]:
    at = _child(node, "at")
    if at is None:
        return 0.0, 0.0, 0.0
    values = [float(v) for v in at[1:] if isinstance(v, (int, float))]
    values += [0.0] * (3 - len(values))
    return values[0], values[1], values[2]


def _reference(node: list[Any]) -> str | None:
    for prop in _children(node, "property"):            # KiCad 8
        if len(prop) >= 3 and str(prop[1]) == "Reference":
            return str(prop[2])
    for text in _children(node, "fp_text"):              # KiCad 6, 7
        if len(text) >= 3 and str(text[1]) == "reference":
            return str(text[2])
    return None


def _rotate(x: float, y: float, degrees: float) -> tuple[float, float]:
    """A local offset turned by a footprint's rotation (counter-clockwise on screen, y down)."""
    a = math.radians(degrees)
    return x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)


def _outline(tree: list[Any]) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for item in tree[1:]:
        name = _name(item)
        if name not in ("gr_line", "gr_rect", "gr_arc", "gr_poly", "gr_circle"):
            continue
        layer = _child(item, "layer")
        if layer is None or str(layer[1]) != "Edge.Cuts":
            continue
        for key in ("start", "end", "mid", "center"):
            point = _child(item, key)
            if point is not None:
                xs.append(float(point[1]))
                ys.append(float(point[2]))
        pts = _child(item, "pts")
        if pts is not None:
            for xy in _children(pts, "xy"):
                xs.append(float(xy[1]))
                ys.append(float(xy[2]))
    if not xs:
        raise ValueError("the board file has no outline on Edge.Cuts")
    return min(xs), min(ys), max(xs), max(ys)


def parse_board(text: str) -> Board:
    """The footprints and outline of the board in ``text`` (a .kicad_pcb file's content)."""
    tree = sexpdata.loads(text)
    if _name(tree) != "kicad_pcb":
        raise ValueError("not a KiCad board file (no kicad_pcb at the top)")
    footprints: dict[str, Footprint] = {}
    for node in tree[1:]:
        if _name(node) not in ("footprint", "module"):
            continue
        reference = _reference(node)
        if reference is None:
            continue
        x, y, rotation = _at(node)
        layer = _child(node, "layer")
        side = "B" if layer is not None and str(layer[1]).startswith("B.") else "F"
        pads = []
        for pad in _children(node, "pad"):
            px, py, _ = _at(pad)
            dx, dy = _rotate(px, py, rotation)
            pads.append((x + dx, y + dy))
        footprints[reference] = Footprint(reference, str(node[1]), side, x, y, rotation,
                                          tuple(pads))
    return Board(footprints, _outline(tree))


def read_board(path: Path) -> Board:
    return parse_board(path.read_text(encoding="utf-8"))

