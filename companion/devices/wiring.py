"""Wiring diagrams of the 40-pin header, drawn from the pin map (SVG, one per set-up).

``companion pins --svg DIR`` writes one file per set-up of
:data:`companion.devices.pinmap.LAYOUTS` (hardware/guide/wiring/); a test keeps the files
equal to what the pin map draws, as for hardware/guide/pins.md.  Each drawing shows the header
as it sits on the board (pin 1 top left, odd pins on the left), every pin coloured by what
it carries, and the part, the line and what sits in series next to it; the power and
ground pins name the parts they feed.
"""

from __future__ import annotations

import unicodedata
from typing import Any
from xml.sax.saxutils import escape

from companion.devices.header import PHYSICAL_TO_BCM, POWER_AND_GROUND, RESERVED
from companion.devices.pinmap import LAYOUTS, PinMap, part_of, parts_in, series_of

ROW = 26
TOP = 70
WIDTH = 920
PIN_X = (430, 490)  # the two columns of the header
RADIUS = 9

COLOURS = {
    "3V3": "#e8a33d", "5V": "#d9443a", "GND": "#222222", "free": "#d0d0d0",
    "reserved": "#f0f0f0", "display": "#3b6fd6", "buttons": "#2e9e50", "buzzer": "#8e44ad",
    "pads": "#1a9a9a", "dice_uart": "#e67e22", "padhub_uart": "#e67e22",
    "audio_i2s": "#8d6e63", "bonnet": "#2e9e50", "mpr121": "#1a9a9a",
}


def slug(title: str) -> str:
    """A file name from a set-up's title (``Čtyři hráči / dice on USB, ...`` -> ``ctyri-hraci-dice-on-usb-...``: accents dropped)."""
    ascii_ = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    out, dash = [], False
    for ch in ascii_:
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def _label(name: str, pin: int, series: str) -> str:
    text = f"{name} (GPIO{pin})"
    return f"{text} · {series}" if series and series != "–" else text


def svg(pm: PinMap, title: str, opts: dict[str, Any]) -> str:
    """The drawing of one set-up (``opts``: :meth:`PinMap.layout`'s arguments)."""
    used = pm.layout(**opts)
    by_pin = {pin: name for name, pin in used.items()}
    feeds: dict[int, list[str]] = {}
    for name, part in parts_in(pm, used):
        if part.vcc is not None:
            feeds.setdefault(part.vcc, []).append(name)
        feeds.setdefault(part.gnd, []).append(name)
    height = TOP + 20 * ROW + 90
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{WIDTH // 2}" y="26" text-anchor="middle" font-size="16" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{WIDTH // 2}" y="46" text-anchor="middle" fill="#555">Raspberry Pi 40-pin '
        'header seen from above, pin 1 (3V3) at the top left, the SD card end</text>',
        f'<rect x="{PIN_X[0] - 20}" y="{TOP - 16}" width="{PIN_X[1] - PIN_X[0] + 40}" '
        f'height="{20 * ROW + 6}" rx="6" fill="#1f1f1f"/>',
    ]
    for physical in range(1, 41):
        row, col = (physical - 1) // 2, (physical - 1) % 2
        x, y = PIN_X[col], TOP + row * ROW
        if physical in POWER_AND_GROUND:
            kind = POWER_AND_GROUND[physical]
            colour = COLOURS[kind]
            parts = feeds.get(physical, [])
            label = f"{kind} → {', '.join(parts)}" if parts else kind
        else:
            bcm = PHYSICAL_TO_BCM[physical]
            line = by_pin.get(bcm)
            if line is not None:
                colour = COLOURS.get(part_of(line), "#555")
                label = _label(line, bcm, series_of(pm, line))
            elif bcm in RESERVED:
                colour, label = COLOURS["reserved"], f"GPIO{bcm}: {RESERVED[bcm]} (leave free)"
            else:
                colour, label = COLOURS["free"], f"GPIO{bcm} (free)"
        stroke = "#888" if colour in (COLOURS["free"], COLOURS["reserved"]) else "white"
        out.append(f'<circle cx="{x}" cy="{y}" r="{RADIUS}" fill="{colour}" stroke="{stroke}"/>')
        number_fill = "white" if colour not in (COLOURS["free"], COLOURS["reserved"]) else "#333"
        out.append(f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="9" '
                   f'fill="{number_fill}">{physical}</text>')
        if col == 0:
            out.append(f'<text x="{x - 32}" y="{y + 4}" text-anchor="end">{escape(label)}</text>')
        else:
            out.append(f'<text x="{x + 32}" y="{y + 4}">{escape(label)}</text>')
    legend_y = TOP + 20 * ROW + 30
    keys = [("3V3", "3.3 V"), ("5V", "5 V"), ("GND", "ground")] + [
        (name, name) for name, _ in parts_in(pm, used)] + [("free", "free")]
    x = 40
    for key, text in keys:
        out.append(f'<circle cx="{x}" cy="{legend_y}" r="7" fill="{COLOURS.get(key, "#555")}" '
                   'stroke="#888"/>')
        out.append(f'<text x="{x + 12}" y="{legend_y + 4}">{escape(text)}</text>')
        x += 24 + 7 * len(text)
    out.append(f'<text x="40" y="{legend_y + 30}" fill="#555">Generated from '
               'companion/devices/pinmap.toml by companion pins --svg; hardware/guide/build.md '
               'has the parts and the wiring tables.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def drawings(pm: PinMap) -> dict[str, str]:
    """File name -> drawing, for every set-up of :data:`LAYOUTS`, and the no-solder box's
    parts plugged together (:func:`companion.devices.nosolder.plugged_svg`)."""
    from companion.devices.nosolder import plugged_svg

    out = {f"{slug(title)}.svg": svg(pm, title, opts) for title, opts in LAYOUTS}
    out["no-solder-box.svg"] = plugged_svg(pm)
    return out

