"""The box: a base that holds a Raspberry Pi 4/5 with the table HAT on it, and a lid with the
OLED's window, the three buttons' caps and the speaker's grille.

Box coordinates: see hat_layout.py (the Pi's mechanical drawing, z up from the floor's
underside). Every opening that belongs to a HAT part is placed from the HatLayout, which
comes from the board file.

The stack, bottom to top (z in mm):
  0 … 2.4    floor; M2.5 × 8 screws come in from below through counterbored holes
  2.4 … 5.0  four posts under the Pi's holes
  5.0 … 6.4  the Pi (PCB 1.4 mm)
  6.4 … 17.4 M2.5 × 11 mm female-female standoffs (the 40-pin header's own stacking height)
  17.4 … 19.0 the HAT (PCB 1.6 mm)
  19.0 … 34.0 M2.5 × 15 mm male-female standoffs; room above J2 for its plug and wires
  32.8 … 35.4 the OLED module, its glass in a pocket in the lid's underside
  34.0 … 37.6 the lid
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from manifold3d import Manifold

from .hat_layout import PI_HOLES, HatLayout
from .shapes import box, cylinder, rounded_box, union

WALL = 2.4
FLOOR = 2.4
PI_Z = 5.0
PI_T = 1.4
STANDOFF_LOW = 11.0
HAT_T = 1.6
HAT_Z = PI_Z + PI_T + STANDOFF_LOW          # 17.4
HAT_TOP = HAT_Z + HAT_T                     # 19.0
LID_Z = 34.0                                # the lid's underside
LID_T = 3.6
TOP = LID_Z + LID_T                         # 37.6
CORNER = 3.0

# the inside of the base (box coordinates)
IN_X0, IN_X1 = -3.0, 85.5
IN_Y0, IN_Y1 = -3.0, 92.5                   # behind the HAT (y > 56.5): the speaker's bay
OUT = (IN_X0 - WALL, IN_Y0 - WALL, IN_X1 + WALL, IN_Y1 + WALL)

LIP_T = 2.0          # the lid's alignment lip, inside the walls
LIP_H = 3.0
LIP_GAP = 0.25

POST_D = 7.0
SCREW_D = 2.8        # M2.5 clearance
HEAD_D = 5.2         # M2.5 pan head's counterbore
HEAD_DEPTH = 1.6

# 0.96" SSD1306 module (4-pin I2C), typical drawing; local frame: u along the pin row,
# v from the pin row into the module. Measure yours: these numbers set the window.
OLED_PCB = (27.3, 27.8, 1.2)         # width, height, thickness
OLED_PCB_V0 = -1.6                   # the PCB's edge behind the pin row
OLED_GLASS = (26.7, 19.26, 1.4)
OLED_GLASS_V0 = 3.2                  # the glass's edge from the pin row
OLED_ACTIVE = (21.74, 10.86)
OLED_ACTIVE_V = 10.53                # the active area's centre from the pin row
WINDOW_MARGIN = 1.0
POCKET_GAP = 0.2

# the button caps over 6 × 6 mm tactile switches, plunger top 5.0 mm above the HAT
SWITCH_TOP = HAT_TOP + 5.0
CAP_D = 10.0
CAP_HOLE_D = 10.6
FLANGE_D = 14.0
FLANGE_T = 2.0
CAP_PROUD = 1.5

# the speaker (28 mm round, 5.5 mm deep) under the grille, held in a ring
SPEAKER_D = 28.0
SPEAKER_H = 5.5
SPEAKER_AT = (42.5, 73.3)
RING_T = 2.0
RING_H = 4.0
GRILLE_D = 24.0
GRILLE_HOLE_D = 2.0
GRILLE_PITCH = 4.2


@dataclass(frozen=True)
class BoxParts:
    printed: dict[str, Manifold]       # the parts a builder prints
    bought: dict[str, Manifold]        # the boards and modules, for fit checks and pictures
    window: tuple[float, float, float, float]    # the OLED window: x0, y0, x1, y1


def oled_frame(layout: HatLayout, u: float, v: float) -> tuple[float, float]:
    """A point of the OLED module (u along its pin row, v into it) in box coordinates: the
    module's pin row sits right above J2, its body over the board."""
    (cx, cy), (rx, ry), (nx, ny) = (layout.oled_connector, layout.oled_row,
                                    layout.towards_board)
    return cx + u * rx + v * nx, cy + u * ry + v * ny


def _oled_rect(layout: HatLayout, u0: float, v0: float, u1: float, v1: float,
               z0: float, z1: float) -> Manifold:
    a = oled_frame(layout, u0, v0)
    b = oled_frame(layout, u1, v1)
    return box(min(a[0], b[0]), min(a[1], b[1]), z0, max(a[0], b[0]), max(a[1], b[1]), z1)


def window_rect(layout: HatLayout) -> tuple[float, float, float, float]:
    w, h = OLED_ACTIVE
    a = oled_frame(layout, -w / 2 - WINDOW_MARGIN, OLED_ACTIVE_V - h / 2 - WINDOW_MARGIN)
    b = oled_frame(layout, w / 2 + WINDOW_MARGIN, OLED_ACTIVE_V + h / 2 + WINDOW_MARGIN)
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


def _holes(layout: HatLayout) -> tuple[tuple[float, float], ...]:
    return layout.holes or PI_HOLES


def base(layout: HatLayout) -> Manifold:
    shell = rounded_box(*OUT[:2], 0.0, *OUT[2:], LID_Z, CORNER)
    hollow = rounded_box(IN_X0, IN_Y0, FLOOR, IN_X1, IN_Y1, LID_Z + 1, 1.0)
    solid = shell - hollow
    solid = solid + union(cylinder(x, y, FLOOR - 0.01, PI_Z, POST_D) for x, y in PI_HOLES)
    cuts = []
    for x, y in PI_HOLES:
        cuts.append(cylinder(x, y, -1, PI_Z + 1, SCREW_D, 32))
        cuts.append(cylinder(x, y, -1, HEAD_DEPTH, HEAD_D, 32))
    usb_c_z = PI_Z + PI_T + 1.6            # the Pi 4/5 USB-C socket's centre
    cuts.append(box(11.2 - 6.25, OUT[1] - 1, usb_c_z - 3.75, 11.2 + 6.25, IN_Y0 + 1,
                    usb_c_z + 3.75))
    # the Pi's USB and Ethernet sockets (Pi 4 and Pi 5 swap them; one opening takes both)
    cuts.append(box(IN_X1 - 1, 1.5, PI_Z + PI_T - 0.5, OUT[2] + 1, 54.5, PI_Z + PI_T + 16.6))
    # the microSD card under the Pi's left end
    cuts.append(box(OUT[0] - 1, 20.5, FLOOR, IN_X0 + 1, 35.5, PI_Z + 0.6))
    # the die's and the pad hub's cables leave through a notch in the left wall, over J3/J4
    ys = [y for _, y in layout.cable_connectors] or [20.0, 37.0]
    cuts.append(box(OUT[0] - 1, min(ys) - 7, HAT_TOP + 1, IN_X0 + 1, max(ys) + 7, LID_Z + 1))
    return solid - union(cuts)


def lid(layout: HatLayout) -> Manifold:
    plate = rounded_box(*OUT[:2], LID_Z, *OUT[2:], TOP, CORNER)
    lip_out = rounded_box(IN_X0 + LIP_GAP, IN_Y0 + LIP_GAP, LID_Z - LIP_H, IN_X1 - LIP_GAP,
                          IN_Y1 - LIP_GAP, LID_Z + 0.01, 0.75)
    lip_in = rounded_box(IN_X0 + LIP_GAP + LIP_T, IN_Y0 + LIP_GAP + LIP_T, LID_Z - LIP_H - 1,
                         IN_X1 - LIP_GAP - LIP_T, IN_Y1 - LIP_GAP - LIP_T, LID_Z + 1, 0.5)
    sx, sy = SPEAKER_AT
    ring = (cylinder(sx, sy, LID_Z - RING_H, LID_Z + 0.01, SPEAKER_D + 0.6 + 2 * RING_T)
            - cylinder(sx, sy, LID_Z - RING_H - 1, LID_Z + 1, SPEAKER_D + 0.6))
    solid = plate + (lip_out - lip_in) + ring
    cuts = []
    x0, y0, x1, y1 = window_rect(layout)
    cuts.append(box(x0, y0, LID_Z - 1, x1, y1, TOP + 1))
    gw, gh, gt = OLED_GLASS
    cuts.append(_oled_rect(layout, -gw / 2 - POCKET_GAP, OLED_GLASS_V0 - POCKET_GAP,
                           gw / 2 + POCKET_GAP, OLED_GLASS_V0 + gh + POCKET_GAP,
                           LID_Z - 1, LID_Z + gt))
    for x, y in layout.buttons:
        cuts.append(cylinder(x, y, LID_Z - 1, TOP + 1, CAP_HOLE_D))
    for x, y in _holes(layout):
        cuts.append(cylinder(x, y, LID_Z - 1, TOP + 1, SCREW_D, 32))
        cuts.append(cylinder(x, y, TOP - HEAD_DEPTH, TOP + 1, HEAD_D, 32))
    r = GRILLE_D / 2
    rows = int(r // (GRILLE_PITCH * math.sqrt(3) / 2)) + 1
    for j in range(-rows, rows + 1):
        dy = j * GRILLE_PITCH * math.sqrt(3) / 2
        shift = GRILLE_PITCH / 2 if j % 2 else 0.0
        for i in range(-rows - 1, rows + 2):
            dx = i * GRILLE_PITCH + shift
            if math.hypot(dx, dy) + GRILLE_HOLE_D / 2 <= r:
                cuts.append(cylinder(sx + dx, sy + dy, LID_Z - 1, TOP + 1, GRILLE_HOLE_D, 16))
    return solid - union(cuts)


def button_cap(x: float, y: float) -> Manifold:
    """A printed cap: a nub on the switch's plunger, a stem through the lid, a flange under
    the lid that keeps it in."""
    nub = cylinder(x, y, SWITCH_TOP + 0.2, SWITCH_TOP + 1.6, 3.5, 32)
    stem = cylinder(x, y, SWITCH_TOP + 1.5, TOP + CAP_PROUD, CAP_D)
    flange = cylinder(x, y, LID_Z - 0.5 - FLANGE_T, LID_Z - 0.5, FLANGE_D)
    return nub + stem + flange


def bought_parts(layout: HatLayout) -> dict[str, Manifold]:
    """The boards and modules as simple blocks: enough to check that nothing printed runs
    into them."""
    pi = box(0, 0, PI_Z, 85, 56, PI_Z + PI_T)
    pi = pi + box(85 - 17.5, 1.5, PI_Z + PI_T, 87.1, 54.5, PI_Z + PI_T + 16.0)   # USB, Ethernet
    pi = pi + box(11.2 - 4.5, -1.2, PI_Z + PI_T, 11.2 + 4.5, 6.3, PI_Z + PI_T + 3.2)
    pi = pi + box(7.1, 50.0, PI_Z + PI_T, 57.9, 55.0, PI_Z + PI_T + 2.5)        # header base
    pi = pi + box(-2.5, 22.0, PI_Z - 1.4, 12.0, 34.0, PI_Z)                     # microSD card
    x0, y0, x1, y1 = layout.outline
    hat = box(x0, y0, HAT_Z, x1, y1, HAT_TOP)
    switches = union(box(x - 3, y - 3, HAT_TOP, x + 3, y + 3, SWITCH_TOP)
                     for x, y in layout.buttons)
    # J2 with its plug mated (9.8 mm) and the wires' bend above it
    jx, jy = layout.oled_connector
    rx, ry = layout.oled_row
    half = (12.4 / 2 * abs(rx) + 5.75 / 2 * abs(ry), 12.4 / 2 * abs(ry) + 5.75 / 2 * abs(rx))
    plug = box(jx - half[0], jy - half[1], HAT_TOP, jx + half[0], jy + half[1], HAT_TOP + 9.8)
    pw, ph, pt = OLED_PCB
    gw, gh, gt = OLED_GLASS
    oled = (_oled_rect(layout, -pw / 2, OLED_PCB_V0, pw / 2, OLED_PCB_V0 + ph,
                       LID_Z - pt, LID_Z)
            + _oled_rect(layout, -gw / 2, OLED_GLASS_V0, gw / 2, OLED_GLASS_V0 + gh,
                         LID_Z - 0.01, LID_Z + gt))
    standoffs = union(
        [cylinder(x, y, PI_Z + PI_T, HAT_Z, 5.8, 6) for x, y in _holes(layout)]
        + [cylinder(x, y, HAT_TOP, LID_Z, 5.8, 6) for x, y in _holes(layout)])
    sx, sy = SPEAKER_AT
    speaker = cylinder(sx, sy, LID_Z - SPEAKER_H, LID_Z, SPEAKER_D)
    tall = []
    for x, y in layout.cable_connectors:        # J3, J4: XH plugs mated, wires bent up
        tall.append(box(x - 2.9, y - 6.2, HAT_TOP, x + 2.9, y + 6.2, HAT_TOP + 13.8))
    if "U1" in layout.others:       # MAX98357A board (19 mm square) on an 8.5 mm 1 x 7 socket
        x0, y0, x1, y1 = layout.others["U1"]
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        tall.append(box(x0 - 1.3, y0 - 1.3, HAT_TOP, x1 + 1.3, y1 + 1.3, HAT_TOP + 8.5))
        tall.append(box(x - 9.5, y - 9.5, HAT_TOP + 8.5, x + 9.5, y + 9.5,
                        HAT_TOP + 8.5 + 1.6 + 3.0))
    if "LS1" in layout.others:      # 12 mm buzzer, 9.5 mm tall
        x0, y0, x1, y1 = layout.others["LS1"]
        tall.append(cylinder((x0 + x1) / 2, (y0 + y1) / 2, HAT_TOP, HAT_TOP + 9.5, 12.0))
    extra = {"hat_tall_parts": union(tall)} if tall else {}
    return {**extra, "raspberry_pi": pi, "hat": hat, "hat_switches": switches, "oled_plug": plug,
            "oled_module": oled, "standoffs": standoffs, "speaker": speaker}


def build_box(layout: HatLayout) -> BoxParts:
    printed = {"box_base": base(layout), "box_lid": lid(layout)}
    for n, (x, y) in enumerate(layout.buttons, start=1):
        printed[f"box_button_{n}"] = button_cap(x, y)
    return BoxParts(printed, bought_parts(layout), window_rect(layout))
