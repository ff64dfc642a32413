"""The no-solder box: its shopping list, its pad mat and a drawing of how the parts plug
together, all from one data file (``nosolder.toml``) and the pin map.

:func:`shopping_markdown` is the shopping list of hardware/no-solder.md (a test keeps the
file in step, as for hardware/guide/pins.md); :func:`plugged_svg` is the drawing
hardware/guide/wiring/no-solder-box.svg (``companion pins --svg`` writes it with the
header drawings): the Pi, the OLED Bonnet on its header with each control's GPIO from the
pin map's ``[bonnet]``, the Qwiic SHIM, the STEMMA QT cable to an MPR121, crocodile clips
to the copper pads of a three-seat table (their electrodes from
:func:`~companion.devices.pads.mpr121.mpr121_pads`), the USB speaker and the Pixels die.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from companion.devices.pads.mpr121 import mpr121_pads
from companion.devices.pinmap import PinMap

FOR = ("all", "pads", "optional")


@dataclass(frozen=True)
class ShopPart:
    key: str
    what: str
    shop: str
    code: str
    url: str
    usd: float
    qty: int
    needed_for: str

    @property
    def cost(self) -> float:
        return self.usd * self.qty


@dataclass(frozen=True)
class Mat:
    pad_mm: tuple[int, int]
    gap_mm: int
    lead_mm: int


@functools.cache
def _data() -> dict[str, Any]:
    return tomllib.loads((Path(__file__).parent / "nosolder.toml").read_text("utf-8"))


def parts() -> list[ShopPart]:
    """The shopping list, in the file's order."""
    out = []
    for key, p in _data()["parts"].items():
        if p["for"] not in FOR:
            raise ValueError(f"parts.{key}.for must be one of {', '.join(FOR)}.")
        out.append(ShopPart(key, p["what"], p["shop"], p["code"], p["url"], float(p["usd"]),
                            int(p["qty"]), p["for"]))
    return out


def mat() -> Mat:
    m = _data()["mat"]
    return Mat((int(m["pad_mm"][0]), int(m["pad_mm"][1])), int(m["gap_mm"]), int(m["lead_mm"]))


def total(kinds: tuple[str, ...]) -> float:
    """The price of the parts needed for ``kinds`` (of :data:`FOR`)."""
    return round(sum(p.cost for p in parts() if p.needed_for in kinds), 2)


def mat_size_mm(seats: int) -> tuple[int, int]:
    """The pad mat's width and depth for ``seats`` seats: one row of pads a seat, one column
    a pile and the graveyard, a gap between and around them."""
    m = mat()
    w, d = m.pad_mm
    columns, rows = seats + 1, seats
    return (columns * w + (columns + 1) * m.gap_mm, rows * d + (rows + 1) * m.gap_mm)


def shopping_markdown() -> str:
    """The shopping list's tables and totals (hardware/no-solder.md holds them as written)."""
    lines = ["| part | shop | order code | price (USD) | qty | for |", "|---|---|---|---|---|---|"]
    for p in parts():
        code = f"[{p.code}]({p.url})" if p.url else p.code
        lines.append(f"| {p.what} | {p.shop} | {code} | {p.usd:.2f} | {p.qty} | {p.needed_for} |")
    box, pads, die = total(("all",)), total(("pads",)), total(("optional",))
    lines += [
        "",
        f"* **the dice games** (the box, rolls on the joystick): **{box:.2f} USD**;",
        f"* with a **Pixels die**: **{box + die:.2f} USD**;",
        f"* with the **slap pads** for up to three seats as well: **{box + die + pads:.2f} USD**.",
    ]
    return "\n".join(lines) + "\n"


def electrodes_markdown(seats_options: tuple[int, ...] = (2, 3)) -> str:
    """Which pad's clip goes on which electrode of which chip, per table size."""
    lines = []
    for seats in seats_options:
        w, d = mat_size_mm(seats)
        lines += [f"**{seats} seats** ({len(mpr121_pads(seats))} pads, a mat of "
                  f"{w / 10:.1f} x {d / 10:.1f} cm):", "",
                  "| chip | " + " | ".join(str(e) for e in range(12)) + " |",
                  "|---|" + "---|" * 12]
        by_chip: dict[int, dict[int, str]] = {}
        for pad, (address, electrode) in mpr121_pads(seats).items():
            by_chip.setdefault(address, {})[electrode] = pad.key
        for address, row in sorted(by_chip.items()):
            cells = " | ".join(row.get(e, "–") for e in range(12))
            lines.append(f"| 0x{address:02X} | {cells} |")
        lines.append("")
    return "\n".join(lines)


BEGIN = "<!-- generated from companion/devices/nosolder.toml: do not edit by hand -->"
END = "<!-- end of the generated part -->"


def generated_block() -> str:
    """The part of hardware/no-solder.md written from the data (a test keeps it in step)."""
    return (f"{BEGIN}\n\n### The shopping list\n\n{shopping_markdown()}\n"
            f"### Which pad on which electrode\n\n{electrodes_markdown()}{END}\n")


# --- the drawing -------------------------------------------------------------------------

WIDTH, HEIGHT = 1000, 700
PI_GREEN, BONNET_BLUE, BOARD_BLUE = "#1f7a3a", "#17365d", "#1d4e9e"
COPPER, SHIM_RED = "#c87533", "#c0392b"
QT_WIRES = (("#111111", "GND"), ("#d62d20", "3V3"), ("#1f5fd6", "SDA"), ("#f2c40f", "SCL"))


def _t(x: float, y: float, text: str, size: int = 12, anchor: str = "start",
       fill: str = "#222", weight: str = "normal") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>')


def plugged_svg(pm: PinMap) -> str:
    """How the no-solder box's parts plug together (see the module docstring)."""
    codes = {p.key: p.code for p in parts()}
    b = pm.bonnet
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, sans-serif">',
        '<defs><filter id="shadow" x="-5%" y="-5%" width="115%" height="115%">'
        '<feDropShadow dx="3" dy="4" stdDeviation="3" flood-opacity="0.35"/></filter>'
        '<linearGradient id="copper" x1="0" x2="1" y1="0" y2="1">'
        '<stop offset="0" stop-color="#e3a16b"/><stop offset="0.5" stop-color="#c87533"/>'
        '<stop offset="1" stop-color="#9c5a24"/></linearGradient></defs>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f4efe6"/>',
        _t(WIDTH / 2, 30, "The no-solder box: what plugs into what", 18, "middle",
           weight="bold"),
        _t(WIDTH / 2, 50, "every connection is a header, a STEMMA QT / Qwiic plug, USB, "
           "Bluetooth or a crocodile clip", 12, "middle", "#555"),
    ]
    # the Raspberry Pi, seen from above, its header along the top edge
    px, py = 60, 110
    out.append(f'<rect x="{px}" y="{py}" width="340" height="230" rx="14" fill="{PI_GREEN}" '
               'filter="url(#shadow)"/>')
    for i in range(20):  # the header: two rows of gold pins
        for row in range(2):
            out.append(f'<rect x="{px + 40 + i * 13}" y="{py + 8 + row * 12}" width="8" '
                       'height="8" fill="#d4af37"/>')
    for k, y in enumerate((py + 60, py + 120, py + 175)):  # USB and Ethernet at the far end
        out.append(f'<rect x="{px + 300}" y="{y}" width="55" height="{45 if k < 2 else 40}" '
                   'rx="3" fill="#b8b8b8" stroke="#777"/>')
    out.append(_t(px + 20, py + 215, f"Raspberry Pi 4 ({codes['pi']})", 12, fill="white"))
    out.append(_t(px + 170, py + 215, f"power: USB-C supply ({codes['power']})", 10,
                  fill="#d8f0d8"))
    # the Qwiic SHIM on header pins 1-6 (the SD-card end), under the bonnet
    out.append(f'<rect x="{px + 30}" y="{py - 14}" width="48" height="20" rx="3" '
               f'fill="{SHIM_RED}" filter="url(#shadow)"/>')
    out.append(_t(px + 54, py - 20, f"Qwiic SHIM ({codes['shim']}) on pins 1-6", 11, "middle"))
    # the bonnet, lifted and shifted a little so the Pi shows below it
    bx, by = px + 20, py + 30
    out.append(f'<rect x="{bx}" y="{by}" width="300" height="150" rx="10" fill="{BONNET_BLUE}" '
               'opacity="0.97" filter="url(#shadow)"/>')
    out.append(f'<rect x="{bx + 85}" y="{by + 25}" width="130" height="70" fill="#050505" '
               'stroke="#333"/>')
    out.append(_t(bx + 150, by + 55, "Hra", 14, "middle", "#e8f4ff"))
    out.append(_t(bx + 150, by + 75, "SSD1306 at 0x3C", 10, "middle", "#9fc6ff"))
    jx, jy = bx + 45, by + 60  # the joystick
    out.append(f'<circle cx="{jx}" cy="{jy}" r="22" fill="#2b2b2b" stroke="#888"/>')
    out.append(f'<circle cx="{jx}" cy="{jy}" r="10" fill="#555"/>')
    for name, (dx, dy, anchor) in {"left": (-30, 4, "end"), "right": (30, 4, "start"),
                                   "select": (0, 40, "middle")}.items():
        sign = {"left": "◀", "right": "▶", "select": "●"}[name]
        out.append(_t(jx + dx, jy + dy, f"{sign} GPIO{b[name]}", 10, anchor, "white"))
    out.append(_t(jx, jy - 28, f"joystick (up {b['up']}, down {b['down']})", 9, "middle",
                  "#9fc6ff"))
    for k, name in enumerate(("menu", "help")):
        cx, cy = bx + 255, by + 40 + k * 45
        out.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="#2b2b2b" stroke="#888"/>')
        label = ("A: menu" if name == "menu" else "B: rules") + f" GPIO{b[name]}"
        out.append(_t(cx, cy + 25, label, 9, "middle", "white"))
    out.append(_t(bx + 150, by + 140, f"Adafruit 128x64 OLED Bonnet ({codes['bonnet']}), "
                  "pressed onto the header", 10, "middle", "#cfe3ff"))
    # the STEMMA QT cable from the SHIM to the first MPR121
    mx, my = 560, 120
    for k, (colour, _name) in enumerate(QT_WIRES):
        off = k * 3
        out.append(f'<path d="M {px + 70 + off} {py - 10} C {px + 150 + off} {py - 80}, '
                   f'{mx - 120 + off} {my - 40}, {mx + off} {my + 30}" stroke="{colour}" '
                   'stroke-width="2.5" fill="none"/>')
    out.append(_t(mx - 90, my - 25, f"STEMMA QT cable ({codes['cable']}):", 11, "middle"))
    out.append(_t(mx - 90, my - 11, "3V3, GND, SDA, SCL", 11, "middle"))
    # the MPR121 with its twelve electrodes along its edge
    out.append(f'<rect x="{mx - 10}" y="{my}" width="260" height="95" rx="8" '
               f'fill="{BOARD_BLUE}" filter="url(#shadow)"/>')
    out.append(_t(mx + 120, my + 40, f"MPR121 ({codes['mpr121']}) at 0x5A", 12, "middle",
                  "white", "bold"))
    out.append(_t(mx + 120, my + 58, "12 electrodes, polled every 2 ms", 10, "middle",
                  "#cfe3ff"))
    seats = 3
    pads = {where[1]: pad for pad, where in mpr121_pads(seats).items() if where[0] == 0x5A}
    mat_x, mat_y = 520, 380
    m = mat()
    scale = 0.9  # px per mm
    pw, pd = m.pad_mm[0] * scale, m.pad_mm[1] * scale * 0.55
    gap = m.gap_mm * scale
    w_mm, d_mm = mat_size_mm(seats)
    out.append(f'<rect x="{mat_x}" y="{mat_y}" width="{w_mm * scale:.0f}" '
               f'height="{d_mm * scale * 0.55 + 20:.0f}" rx="6" fill="#3e5a3a" '
               'filter="url(#shadow)"/>')
    out.append(_t(mat_x + w_mm * scale / 2, mat_y + d_mm * scale * 0.55 + 40,
                  f"the pad mat for {seats} seats: {w_mm / 10:.0f} x {d_mm / 10:.0f} cm "
                  f"(copper tape {codes['tape']}, pads {m.pad_mm[0]} x {m.pad_mm[1]} mm, "
                  f"{m.gap_mm} mm apart)", 11, "middle"))
    for e in range(12):  # electrode terminals and their clips to the pads
        tx, ty = mx + 8 + e * 20, my + 95
        out.append(f'<circle cx="{tx}" cy="{ty - 8}" r="6" fill="#d4af37" stroke="#8a6d1a"/>')
        out.append(_t(tx, ty - 18, str(e), 8, "middle", "white"))
        pad = pads.get(e)
        if pad is None:
            continue
        seat, target = pad.seat, pad.target
        column = seats if target == "g" else int(target) - 1
        ex = mat_x + gap + column * (pw + gap) + pw / 2
        top = mat_y + 10 + gap * 0.55 + (seat - 1) * (pd + gap * 0.55)  # the clip bites here
        colour = ("#d62d20", "#2e9e50", "#1f5fd6")[seat - 1]
        out.append(f'<path d="M {tx} {ty - 2} C {tx} {ty + 60}, {ex:.1f} {top - 60:.1f}, '
                   f'{ex:.1f} {top:.1f}" stroke="{colour}" stroke-width="2" fill="none"/>')
        out.append(f'<rect x="{tx - 3}" y="{ty - 4}" width="6" height="10" fill="#9a9a9a"/>')
    for seat in range(1, seats + 1):
        for column in range(seats + 1):
            pad_x = mat_x + gap + column * (pw + gap)
            pad_y = mat_y + 10 + gap * 0.55 + (seat - 1) * (pd + gap * 0.55)
            pile = "g" if column == seats else str(column + 1)
            out.append(f'<rect x="{pad_x:.0f}" y="{pad_y:.0f}" width="{pw:.0f}" height="{pd:.0f}" '
                       'rx="2" fill="url(#copper)" stroke="#7a4a1c"/>')
            out.append(_t(pad_x + pw / 2, pad_y + pd / 2 + 4, f"{seat}>{pile}", 10, "middle",
                          "#2a1a08", "bold"))
    out.append(_t(mat_x - 10, mat_y + 30, "seat 1", 10, "end"))
    out.append(_t(mat_x - 10, mat_y + 30 + (pd + gap * 0.55) * 2, f"seat {seats}", 10, "end"))
    out.append(_t(mx + 120, my + 150, f"crocodile clips ({codes['clips']}), one a pad", 11,
                  "middle"))
    # the USB speaker and the die
    sx, sy = 80, 420
    out.append(f'<rect x="{sx}" y="{sy}" width="150" height="80" rx="12" fill="#3a3a3a" '
               'filter="url(#shadow)"/>')
    for k in range(2):
        out.append(f'<circle cx="{sx + 40 + k * 70}" cy="{sy + 40}" r="25" fill="#222" '
                   'stroke="#666"/>')
    out.append(f'<path d="M {sx + 150} {sy + 40} C {sx + 300} {sy + 40}, {px + 420} {py + 250},'
               f' {px + 355} {py + 82}" stroke="#555" stroke-width="3" fill="none"/>')
    out.append(_t(sx + 75, sy + 105, f"USB speaker ({codes['speaker']}) in a USB port", 11,
                  "middle"))
    out.append(_t(sx + 75, sy + 120, "the voice and the beeps (no buzzer)", 10, "middle",
                  "#555"))
    dx, dy = 330, 560
    out.append(f'<rect x="{dx}" y="{dy}" width="60" height="60" rx="12" fill="#f8f8f8" '
               'stroke="#999" filter="url(#shadow)"/>')
    for ox, oy in ((15, 15), (45, 15), (30, 30), (15, 45), (45, 45)):
        out.append(f'<circle cx="{dx + ox}" cy="{dy + oy}" r="5" fill="#d62d20"/>')
    out.append(_t(dx + 30, dy + 80, "Pixels die: Bluetooth", 11, "middle"))
    out.append(_t(dx + 30, dy + 95, "(or rolls on the joystick)", 10, "middle", "#555"))
    out.append(_t(40, HEIGHT - 15, "Generated from companion/devices/nosolder.toml and "
                  "pinmap.toml by companion pins --svg; hardware/no-solder.md has the steps.",
                  10, fill="#555"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
