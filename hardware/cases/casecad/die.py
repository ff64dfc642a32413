"""The die's 60 mm shell: a box and a lid (the face with five pips), with compartments for a
Pico W, an accelerometer board, a charger board, a slide switch and a protected LiPo pouch
cell in a padded pocket, and steel-ball counterweights that bring the centre of mass to the
middle.

Die coordinates: millimetres, the cube's centre at the origin, the lid's face (five) at +z.
Faces: +z five (the lid), -z two, +y six, -y one, +x three, -x four (the Pico W's micro-USB
between its four pips: the die charges through it). Opposite faces add up to seven.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from manifold3d import CrossSection, JoinType, Manifold

from .shapes import SEGMENTS, box, cylinder, union

SIZE = 60.0
HALF = SIZE / 2
EDGE_R = 5.0
WALL = 3.6
IN = HALF - WALL                     # 26.4: the inside's half width
SPLIT = HALF - EDGE_R                # 25.0: box and lid meet where the lid's rounding starts
PIP_D = 9.0
PIP_DEPTH = 1.2
PIP_OFF = 15.0
PLA_DENSITY = 1.24e-3                # g/mm³, printed solid (100 % infill)

# LiPo 503035 (5.0 × 30 × 35 mm, 500 mAh, with its protection board), standing in the
# middle; foam all round.
CELL = (35.0, 5.0, 30.0)             # x, y, z
FOAM = 1.5
POCKET_WALL = 2.0
# Raspberry Pi Pico W (51 × 21 mm, 1 mm board, parts up to 2.9 mm on top), upright at +y,
# its micro-USB socket (the die charges through it) at the four's face (-x)
PICO = (51.0, 3.9, 21.0)
PICO_Y = 6.6
PICO_X0 = -IN + 1.4                  # the board's USB end; the socket overhangs it 1.3 mm
USB_Y = PICO_Y + 1.0 + 1.3           # the socket's middle: on the board's top side
USB_OPENING = (7.5, 11.5)            # y, z: room for a micro-USB plug's moulding
# accelerometer breakout (25.4 × 19 mm class, 3 mm with parts), upright at -y
IMU = (25.4, 3.2, 19.0)
# charger board (MCP73831, 18 × 19.4 mm, fed from the Pico W's USB 5 V), flat on the floor
CHARGER = (18.0, 19.4, 4.8)
CHARGER_Z = -IN + 2.4
# SS12D00 class slide switch under the lid's middle pip, lever up through a slot
SWITCH = (8.6, 3.6, 3.6)

PILLARS = [(sx * PIP_OFF, sy * PIP_OFF) for sx in (-1, 1) for sy in (-1, 1)]
PILLAR_D = 7.0
PILOT_D = 2.5                        # M3 self-tapping into plastic
BOSS_D = 9.0
BOSS_H = 4.0
LIP_T = 2.0
LIP_H = 3.0
LIP_GAP = 0.25

BALL_D = 6.0                         # steel bearing balls
BALL_MASS = 7.85e-3 * math.pi / 6 * BALL_D ** 3      # 0.888 g (steel, 7.85 g/cm³)
TUBE_IN = 6.4
TUBE_WALL = 2.0
TUBE_AT = 21.0
BALLS_MAX = 3
TUBE_LEN = BALLS_MAX * (BALL_D + 0.1) + 0.4

# datasheet or distributor-listed masses (grams); see README.md for the sources
MASS = {
    "cell": 10.5,          # 503035 500 mAh pouch cell with protection board
    "pico_w": 3.0,         # Raspberry Pi Pico W
    "imu": 1.3,            # accelerometer breakout
    "charger": 1.5,        # USB-C MCP73831 charger board
    "switch": 0.6,         # SS12D00 slide switch
    "screws": 4 * 0.55,    # 4 × M3 × 12 countersunk, steel
}


@dataclass(frozen=True)
class DieParts:
    printed: dict[str, Manifold]        # die_box, die_lid
    bought: dict[str, Manifold]         # boards, cell, foam, switch, balls
    masses: dict[str, float]            # grams, every part above
    balls: dict[str, int]               # counterweight balls per tube


def _rounded_cube() -> Manifold:
    square = CrossSection.square((SIZE - 2 * EDGE_R, SIZE - 2 * EDGE_R), center=True)
    outline = square.offset(EDGE_R, JoinType.Round, circular_segments=SEGMENTS)
    prism = outline.extrude(SIZE).translate((0, 0, -HALF))
    return prism ^ prism.rotate((90, 0, 0)) ^ prism.rotate((0, 90, 0))


# pips per face: (face normal axis, sign, value)
FACES = {(2, 1): 5, (2, -1): 2, (1, 1): 6, (1, -1): 1, (0, 1): 3, (0, -1): 4}
_LAYOUT = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def pip_points() -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(centre on the face, outward normal) of every pip."""
    points = []
    for (axis, sign), value in FACES.items():
        a, b = [i for i in range(3) if i != axis]
        for u, v in _LAYOUT[value]:
            p = [0.0, 0.0, 0.0]
            p[axis] = sign * HALF
            p[a] = u * PIP_OFF
            p[b] = v * PIP_OFF
            n = [0.0, 0.0, 0.0]
            n[axis] = float(sign)
            points.append(((p[0], p[1], p[2]), (n[0], n[1], n[2])))
    return points


def _pip(centre: tuple[float, float, float], normal: tuple[float, float, float]) -> Manifold:
    c = Manifold.cylinder(PIP_DEPTH + 1, PIP_D / 2, circular_segments=48).translate(
        (0, 0, -PIP_DEPTH))
    axis = int(np.argmax(np.abs(normal)))
    sign = normal[axis]
    if axis == 0:
        c = c.rotate((0, 90 * sign, 0))
    elif axis == 1:
        c = c.rotate((-90 * sign, 0, 0))
    elif sign < 0:
        c = c.rotate((180, 0, 0))
    return c.translate(centre)


def _tube_sites() -> dict[str, tuple[float, float, float, float]]:
    """Counterweight tubes: name -> (x, y, z of the first ball's centre, direction of stacking).
    Four stand on the box's floor in the inside's corners; two hang from the lid, over the
    Pico W and over the accelerometer."""
    sites = {}
    for sx, sy in itertools.product((-1, 1), (-1, 1)):
        tag = f"{'+' if sx > 0 else '-'}x{'+' if sy > 0 else '-'}y"
        sites[f"low{tag}"] = (sx * TUBE_AT, sy * TUBE_AT, -IN + BALL_D / 2, 1.0)
    for sy in (-1, 1):
        sites[f"high{'+' if sy > 0 else '-'}y"] = (0.0, sy * TUBE_AT, IN - BALL_D / 2, -1.0)
    return sites


def _ball_centres(site: tuple[float, float, float, float], count: int) -> list[np.ndarray]:
    x, y, z, step = site
    return [np.array([x, y, z + step * i * (BALL_D + 0.1)]) for i in range(count)]


def box_part() -> Manifold:
    shell = (_rounded_cube() ^ box(-HALF, -HALF, -HALF, HALF, HALF, SPLIT)) - box(
        -IN, -IN, -IN, IN, IN, IN + 1)
    cx, cy, cz = CELL
    px0, py0 = cx / 2 + FOAM, cy / 2 + FOAM          # the pocket's inside half sizes
    top = cz / 2 + FOAM
    pocket = (box(-px0 - POCKET_WALL, -py0 - POCKET_WALL, -IN - 0.01,
                  px0 + POCKET_WALL, py0 + POCKET_WALL, top)
              - box(-px0, -py0, -top, px0, py0, top + 1)
              - box(-px0, -py0, -IN - 1, px0, py0, -top - POCKET_WALL))
    # the Pico W's slot: the pocket's wall on one side, a wall tied to the pillars on the other
    slot_far = PICO_Y + PICO[1] + 0.2
    pico_wall = box(-IN - 0.01, slot_far, -PICO[2] / 2, IN + 0.01, slot_far + 2.0,
                    PICO[2] / 2)
    x1 = PICO_X0 + PICO[0]
    ledges = union(box(a, PICO_Y, -IN - 0.01, b, slot_far + 2.0, -PICO[2] / 2 - 0.2)
                   for a, b in ((PICO_X0, PICO_X0 + 3.5), (x1 - 3.5, x1)))
    imu_far = -(PICO_Y + IMU[1] + 0.2)
    imu_wall = box(-IMU[0] / 2, imu_far - 2.0, -IMU[2] / 2, IMU[0] / 2, imu_far, IMU[2] / 2)
    imu_ledge = box(-IMU[0] / 2, imu_far - 2.0, -IN - 0.01, -IMU[0] / 2 + 3.0, -PICO_Y,
                    -IMU[2] / 2 - 0.2) + box(IMU[0] / 2 - 3.0, imu_far - 2.0, -IN - 0.01,
                                             IMU[0] / 2, -PICO_Y, -IMU[2] / 2 - 0.2)
    rails = union(box(sx * 7 - 1, PICO_Y + 0.5, -IN - 0.01, sx * 7 + 1, IN + 0.01, CHARGER_Z)
                  for sx in (-1, 1))
    pillars = union(cylinder(x, y, -IN - 0.01, IN - BOSS_H, PILLAR_D) for x, y in PILLARS)
    tubes = union(cylinder(x, y, -IN - 0.01, -IN + TUBE_LEN, TUBE_IN + 2 * TUBE_WALL)
                  for name, (x, y, _, _) in _tube_sites().items() if name.startswith("low"))
    solid = shell + pocket + pico_wall + ledges + imu_wall + imu_ledge + rails + pillars + tubes
    cuts = [_pip(c, n) for c, n in pip_points() if c[2] < HALF]
    cuts += [cylinder(x, y, IN - BOSS_H - 10, IN, PILOT_D, 24) for x, y in PILLARS]
    cuts += [cylinder(x, y, -IN, -IN + TUBE_LEN + 1, TUBE_IN, 32)
             for name, (x, y, _, _) in _tube_sites().items() if name.startswith("low")]
    oy, oz = USB_OPENING
    usb = CrossSection.square((oy - 3.0, oz - 3.0), center=True).offset(
        1.5, JoinType.Round, circular_segments=24)
    cuts.append(usb.extrude(WALL + 1.01).rotate((0, -90, 0)).translate((-IN + 0.01, USB_Y, 0)))
    return solid - union(cuts)


def lid_part() -> Manifold:
    plate = (_rounded_cube() ^ box(-HALF, -HALF, SPLIT, HALF, HALF, HALF)) - box(
        -IN, -IN, SPLIT - 1, IN, IN, IN)
    lip = (box(-IN + LIP_GAP, -IN + LIP_GAP, SPLIT - LIP_H, IN - LIP_GAP, IN - LIP_GAP,
               SPLIT + 0.01)
           - box(-IN + LIP_GAP + LIP_T, -IN + LIP_GAP + LIP_T, SPLIT - LIP_H - 1,
                 IN - LIP_GAP - LIP_T, IN - LIP_GAP - LIP_T, IN + 1))
    bosses = union(cylinder(x, y, IN - BOSS_H, IN + 0.01, BOSS_D) for x, y in PILLARS)
    sw_x, sw_y, sw_z = SWITCH
    holder = (box(-sw_x / 2 - 2.2, -sw_y / 2 - 2.2, IN - sw_z, sw_x / 2 + 2.2, sw_y / 2 + 2.2,
                  IN + 0.01)
              - box(-sw_x / 2 - 0.1, -sw_y / 2 - 0.1, IN - sw_z - 1, sw_x / 2 + 0.1,
                    sw_y / 2 + 0.1, IN + 0.01))
    top = CELL[2] / 2 + FOAM
    prongs = union(box(sx * 16 - 4, -3, top + 0.2, sx * 16 + 4, 3, IN + 0.01) for sx in (-1, 1))
    tubes = union(cylinder(x, y, IN - TUBE_LEN, IN + 0.01, TUBE_IN + 2 * TUBE_WALL)
                  for name, (x, y, _, _) in _tube_sites().items() if name.startswith("high"))
    solid = plate + lip + bosses + holder + prongs + tubes
    cuts = [_pip(c, n) for c, n in pip_points() if c[2] >= HALF]
    for x, y in PILLARS:                      # M3 countersunk screws in the corner pips
        cuts.append(cylinder(x, y, IN - BOSS_H - 1, HALF + 1, 3.4, 24))
        cone = Manifold.cylinder(1.75, 1.7, 3.45, circular_segments=24)
        cuts.append(cone.translate((x, y, HALF - PIP_DEPTH - 1.75 + 0.01)))
    cuts.append(box(-2.5, -1.25, IN - 1, 2.5, 1.25, HALF))           # the switch's lever
    cuts += [cylinder(x, y, IN - TUBE_LEN - 1, IN, TUBE_IN, 32)
             for name, (x, y, _, _) in _tube_sites().items() if name.startswith("high")]
    return solid - union(cuts)


def _bought() -> dict[str, Manifold]:
    cx, cy, cz = CELL
    cell = box(-cx / 2, -cy / 2, -cz / 2, cx / 2, cy / 2, cz / 2)
    px0, py0, top = cx / 2 + FOAM, cy / 2 + FOAM, cz / 2 + FOAM
    foam = box(-px0, -py0, -top, px0, py0, top) - cell
    pico = box(PICO_X0, PICO_Y, -PICO[2] / 2, PICO_X0 + PICO[0], PICO_Y + PICO[1], PICO[2] / 2)
    pico = pico + box(-IN + 0.1, PICO_Y + 1.0, -3.75, PICO_X0, PICO_Y + 3.6, 3.75)
    imu = box(-IMU[0] / 2, -PICO_Y - IMU[1], -IMU[2] / 2, IMU[0] / 2, -PICO_Y, IMU[2] / 2)
    charger = box(-CHARGER[0] / 2, IN - CHARGER[1], CHARGER_Z, CHARGER[0] / 2, IN,
                  CHARGER_Z + CHARGER[2])
    sw_x, sw_y, sw_z = SWITCH
    switch = box(-sw_x / 2, -sw_y / 2, IN - sw_z, sw_x / 2, sw_y / 2, IN) + box(
        -0.75, -0.75, IN, 0.75, 0.75, IN + 2.0)
    return {"cell": cell, "foam": foam, "pico_w": pico, "imu": imu, "charger": charger,
            "switch": switch}


def centre_of_mass(items: list[tuple[float, np.ndarray]]) -> np.ndarray:
    total = sum(m for m, _ in items)
    return np.asarray(sum(m * c for m, c in items)) / total


def _centroid(solid: Manifold) -> np.ndarray:
    from .shapes import to_trimesh
    return np.asarray(to_trimesh(solid).center_mass)


def choose_balls(items: list[tuple[float, np.ndarray]]) -> dict[str, int]:
    """The fewest balls, tube by tube, that put the centre of mass nearest the middle (within
    0.05 mm of the best any filling reaches)."""
    sites = _tube_sites()
    names = sorted(sites)
    mass0 = sum(m for m, _ in items)
    moment0 = np.asarray(sum(m * c for m, c in items))
    per_site = {n: [np.sum(_ball_centres(sites[n], k), axis=0) if k else np.zeros(3)
                    for k in range(BALLS_MAX + 1)] for n in names}
    best: list[tuple[float, int, tuple[int, ...]]] = []
    for counts in itertools.product(range(BALLS_MAX + 1), repeat=len(names)):
        moment = moment0 + BALL_MASS * sum(per_site[n][k]
                                           for n, k in zip(names, counts, strict=True))
        mass = mass0 + BALL_MASS * sum(counts)
        best.append((float(np.linalg.norm(moment / mass)), sum(counts), counts))
    floor = min(b[0] for b in best)
    _, _, counts = min((b for b in best if b[0] <= floor + 0.05), key=lambda b: (b[1], b[0]))
    return dict(zip(names, counts, strict=True))


def build_die() -> DieParts:
    printed = {"die_box": box_part(), "die_lid": lid_part()}
    bought = _bought()
    masses = {name: solid.volume() * PLA_DENSITY for name, solid in printed.items()}
    masses.update({k: v for k, v in MASS.items() if k != "screws"})
    masses["foam"] = bought["foam"].volume() * 0.03e-3     # polyurethane foam, 30 kg/m³
    items = [(masses[n], _centroid(s)) for n, s in {**printed, **bought}.items()]
    screws = [(MASS["screws"] / 4, np.array([x, y, IN])) for x, y in PILLARS]
    balls = choose_balls(items + screws)
    sites = _tube_sites()
    for where, prefix in (("box", "low"), ("lid", "high")):
        counts = {n: k for n, k in balls.items() if n.startswith(prefix) and k}
        if not counts:
            continue
        bought[f"counterweight_{where}"] = union(
            Manifold.sphere(BALL_D / 2, 32).translate(tuple(centre))
            for name, count in counts.items() for centre in _ball_centres(sites[name], count))
        masses[f"counterweight_{where}"] = BALL_MASS * sum(counts.values())
    masses["screws"] = MASS["screws"]
    return DieParts(printed, bought, masses, balls)


def mass_items(parts: DieParts) -> list[tuple[float, np.ndarray]]:
    """(mass, centre) of everything in the die: printed parts, bought parts, screws, balls."""
    solids = {**parts.printed, **parts.bought}
    items = [(parts.masses[n], _centroid(s)) for n, s in solids.items()]
    items += [(MASS["screws"] / 4, np.array([x, y, IN])) for x, y in PILLARS]
    return items


def face_probabilities(offset: np.ndarray) -> dict[int, float]:
    """Chance of each value coming up when the centre of mass sits at ``offset`` from the
    middle, by the solid-angle model: a face lands down in proportion to the solid angle it
    subtends from the centre of mass; the value shown is the opposite face's."""
    def rect(d: float, x1: float, x2: float, y1: float, y2: float) -> float:
        def f(x: float, y: float) -> float:
            return math.atan2(x * y, d * math.sqrt(x * x + y * y + d * d))
        return f(x2, y2) - f(x1, y2) - f(x2, y1) + f(x1, y1)

    result = {}
    for (axis, sign), value in FACES.items():
        a, b = [i for i in range(3) if i != axis]
        d = HALF - sign * offset[axis]
        omega = rect(d, -HALF - offset[a], HALF - offset[a], -HALF - offset[b], HALF - offset[b])
        result[7 - value] = omega / (4 * math.pi)      # this face down: its opposite shows
    return result
