"""A readable schematic picture (SVG) of a circuit, drawn from the same data as the board.

Each part is a box with its reference, value and role; each of its pins is a short line
ending in the name of its net (net labels, as on a KiCad sheet): pins with the same label
are connected.  Power nets are drawn red, ground blue, open pins end in a cross.
"""

from __future__ import annotations

from html import escape

from .netlist import NC, Circuit, _num, _pin_key

COL_W, ROW_H, PAD = 330, 15, 14
POWER = ("5V", "3V3", "VSYS", "VBUS", "VBAT", "BAT")


def _colour(net: str) -> str:
    if net == "GND":
        return "#1f4fbf"
    if any(net.startswith(p) for p in POWER):
        return "#c0392b"
    return "#222"


def svg(circuit: Circuit, columns: int = 4) -> str:
    boxes = []
    for inst in sorted(circuit.instances, key=lambda i: _pin_key((i.ref, "0"))):
        if not inst.part.pins:
            continue
        boxes.append(inst)
    heights = [0] * columns
    top = 60 + ROW_H * len(circuit.notes)
    body: list[str] = []
    for inst in boxes:
        col = heights.index(min(heights))
        x, y = 10 + col * COL_W, top + heights[col]
        pins = sorted(inst.part.pins, key=_num)
        h = 34 + ROW_H * len(pins)
        body.append(f'<rect x="{x}" y="{y}" width="{COL_W - 30}" height="{h}" rx="4" '
                    'fill="#fffbe6" stroke="#7a6a2a"/>')
        title = f"{inst.ref}  {inst.part.value}"
        body.append(f'<text x="{x + 6}" y="{y + 14}" font-weight="bold">{escape(title)}</text>')
        if inst.note:
            body.append(f'<text x="{x + 6}" y="{y + 27}" font-size="10" fill="#555">'
                        f'{escape(inst.note[:52])}</text>')
        for k, pin in enumerate(pins):
            name, _ = inst.part.pins[pin]
            net = inst.nets.get(pin, NC)
            py = y + 42 + k * ROW_H
            body.append(f'<text x="{x + 10}" y="{py}" font-size="11">{escape(pin)} {escape(name)}</text>')
            lx = x + 120
            if net == NC:
                body.append(f'<path d="M{lx} {py - 7} l8 8 m0 -8 l-8 8" stroke="#888"/>')
                continue
            body.append(f'<line x1="{lx}" y1="{py - 4}" x2="{lx + 30}" y2="{py - 4}" stroke="{_colour(net)}"/>')
            body.append(f'<text x="{lx + 34}" y="{py}" font-size="11" fill="{_colour(net)}">'
                        f'{escape(net)}</text>')
        heights[col] += h + PAD
    width = 20 + columns * COL_W
    height = top + max(heights) + 10
    head = [f'<text x="10" y="24" font-size="18" font-weight="bold">{escape(circuit.title)}</text>',
            '<text x="10" y="42" font-size="11" fill="#555">Pins with the same net label are '
            'connected; red: power, blue: ground, a cross: left open.</text>']
    for k, note in enumerate(circuit.notes):
        head.append(f'<text x="10" y="{58 + k * ROW_H}" font-size="11">{escape(note)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(head + body) + "\n</svg>\n")
