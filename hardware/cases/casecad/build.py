"""Builds every printable part: STL files (each lying on the print bed as it should be
printed) into out/, a manifest of their sizes and of the die's balance, and PNG pictures of
each part and of the assembly steps into renders/.

    python hardware/cases/build.py [--out DIR] [--renders DIR] [--board FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from manifold3d import Manifold

from .box import BoxParts, build_box
from .die import DieParts, build_die, centre_of_mass, face_probabilities, mass_items
from .hat_layout import HatLayout, LayoutError, layout_from_board
from .kicad_board import read_board
from .pads import SEATS, PadParts, build_pads
from .shapes import box as block
from .shapes import to_trimesh

CASES = Path(__file__).resolve().parents[1]
REPO = CASES.parents[1]
BOARD = REPO / "hardware" / "hat" / "hat.kicad_pcb"

# how each printed part lies on the bed: rotation (degrees about x, y, z)
PRINT_POSE = {
    "box_base": (0, 0, 0), "box_lid": (180, 0, 0), "box_button": (180, 0, 0),
    "die_box": (0, 0, 0), "die_lid": (180, 0, 0), "pad_cover": (0, 0, 0),
    **{f"pad_tray_{n}": (0, 0, 0) for n in SEATS},
}
COPIES = {"box_button": 3, "pad_cover": 7, **{f"pad_tray_{n}": 7 for n in SEATS}}


@dataclass(frozen=True)
class Model:
    layout: HatLayout
    hat_source: str
    box: BoxParts
    die: DieParts
    pads: PadParts


def load_layout(board: Path | None = None) -> tuple[HatLayout, str]:
    """The HAT's layout from its board file (``board``, or the project's)."""
    path = board or BOARD
    if not path.exists():
        raise OSError(f"there is no board file {_shown(path)} (`make hardware` makes the HAT's)")
    return layout_from_board(read_board(path)), _shown(path)


def _shown(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def build_model(board: Path | None = None) -> Model:
    layout, source = load_layout(board)
    return Model(layout, source, build_box(layout), build_die(), build_pads())


def printed_parts(model: Model) -> dict[str, Manifold]:
    """The files a builder prints, one per distinct part (the three caps are one file)."""
    parts = dict(model.box.printed)
    cap = parts.pop("box_button_1")
    for n in (2, 3):
        parts.pop(f"box_button_{n}")
    x, y = model.layout.buttons[0]
    parts["box_button"] = cap.translate((-x, -y, 0))
    parts.update(model.die.printed)
    parts.update(model.pads.printed)
    return parts


def print_pose(name: str, solid: Manifold) -> Manifold:
    posed = solid.rotate(PRINT_POSE[name])
    x0, y0, z0, x1, y1, _ = posed.bounding_box()
    return posed.translate((-(x0 + x1) / 2, -(y0 + y1) / 2, -z0))


def mesh_summary(mesh) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"volume_mm3": round(float(mesh.volume), 1), "area_mm2": round(float(mesh.area), 1),
            "extents_mm": [round(float(v), 2) for v in mesh.extents],
            "watertight": bool(mesh.is_watertight)}


def die_balance(die: DieParts) -> dict[str, object]:
    items = mass_items(die)
    com = centre_of_mass(items)
    names = [*die.printed, *die.bought, *(["screw"] * 4)]
    bare = [(m, c) for (m, c), name in zip(items, names, strict=True)
            if not name.startswith("counterweight")]
    com_bare = centre_of_mass(bare)
    chances = face_probabilities(com)
    return {
        "mass_g": round(sum(m for m, _ in items), 1),
        "masses_g": {k: round(v, 2) for k, v in die.masses.items()},
        "centre_of_mass_mm": [round(float(v), 3) for v in com],
        "offset_mm": round(float(np.linalg.norm(com)), 3),
        "offset_without_counterweight_mm": round(float(np.linalg.norm(com_bare)), 3),
        "balls": die.balls,
        "face_chances": {str(k): round(v, 5) for k, v in sorted(chances.items())},
        "largest_bias_percent": round(max(abs(v * 6 - 1) for v in chances.values()) * 100, 3),
    }


def write_outputs(model: Model, out: Path) -> dict[str, object]:
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, object] = {"hat_source": model.hat_source, "parts": {}}
    parts: dict[str, object] = {}
    for name, solid in sorted(printed_parts(model).items()):
        mesh = to_trimesh(print_pose(name, solid))
        mesh.export(out / f"{name}.stl")
        parts[name] = {**mesh_summary(mesh), "copies": COPIES.get(name, 1)}
    manifest["parts"] = parts
    manifest["die"] = die_balance(model.die)
    manifest["oled_window_mm"] = [round(v, 2) for v in model.box.window]
    manifest["buttons_mm"] = [[round(v, 2) for v in b] for b in model.layout.buttons]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False)
                                       + "\n", encoding="utf-8")
    return manifest


COLOURS = {
    "box_base": "#4a7fb5", "box_lid": "#d0d0d0", "box_button": "#e07b39",
    "raspberry_pi": "#2e8b57", "hat": "#1f6b3a", "hat_switches": "#333333",
    "oled_plug": "#f0f0f0", "oled_module": "#1a1a1a", "standoffs": "#c8a050",
    "speaker": "#8b6b3a", "hat_tall_parts": "#555555",
    "die_box": "#c8553d", "die_lid": "#e8a87c", "cell": "#b8b8c8", "foam": "#f2e05a",
    "pico_w": "#1f7a3a", "imu": "#6a3d9a", "charger": "#1f4e79", "switch": "#111111",
    "counterweight_box": "#6f6f6f", "counterweight_lid": "#6f6f6f", "pad_tray": "#5b8c5a", "pad_cover": "#e8e8e8",
    "foil": "#c87533",
}


def _colour(name: str) -> str:
    return COLOURS.get(name, COLOURS.get(name.rsplit("_", 1)[0], "#999999"))


RENDERS = (
    "part_box_base", "part_box_button", "part_box_lid", "part_die_box", "part_die_lid",
    "part_pad_cover", "part_pad_tray_2", "part_pad_tray_3", "part_pad_tray_4",
    "part_pad_tray_5", "part_pad_tray_6",
    "box_step1_pi_on_base", "box_step2_hat", "box_step3_lid_underside", "box_exploded",
    "box_closed", "box_closed_front",
    "die_step1_boards", "die_step2_cell", "die_step3_lid", "die_exploded",
    "die_closed", "pads_step1_foil", "pads_exploded",
)


def write_renders(model: Model, renders: Path) -> list[Path]:
    from .render import render

    written: list[Path] = []

    def draw(name: str, parts: dict[str, Manifold], title: str, **view: float) -> None:
        path = renders / f"{name}.png"
        render([(to_trimesh(s), _colour(n)) for n, s in parts.items() if not s.is_empty()],
               path, title, **view)
        written.append(path)

    for name, solid in sorted(printed_parts(model).items()):
        draw(f"part_{name}", {name: print_pose(name, solid)}, f"{name} (as printed)",
             elev=40)
    bx, bb = model.box.printed, model.box.bought
    caps = {k: v for k, v in bx.items() if k.startswith("box_button")}
    step1 = {"box_base": bx["box_base"], "raspberry_pi": bb["raspberry_pi"]}
    draw("box_step1_pi_on_base", step1, "Box 1: the Pi on the base's posts (4 × M2.5 from below)")
    lower = {k: v for k, v in bb.items() if k in ("hat", "hat_switches", "oled_plug",
                                                  "standoffs", "hat_tall_parts")}
    draw("box_step2_hat", {**step1, **lower}, "Box 2: standoffs, the HAT, the cables plugged in")
    lid_parts = {"box_lid": bx["box_lid"], "oled_module": bb["oled_module"],
                 "speaker": bb["speaker"], **caps}
    draw("box_step3_lid_underside", lid_parts,
         "Box 3: OLED, speaker and caps in the lid (underside)", elev=-50, azim=-60)
    lifted = {k: v.translate((0, 0, 30)) for k, v in lid_parts.items()}
    draw("box_exploded", {**step1, **lower, **lifted}, "Box: exploded")
    draw("box_closed", {**step1, **lower, **lid_parts}, "Box: closed")
    draw("box_closed_front", {**step1, **lower, **lid_parts},
         "Box: the USB-C and SD openings", elev=15, azim=-120)
    dp, db = model.die.printed, model.die.bought
    cut = block(0, -40, -40, 40, 40, 40)           # the half nearer the viewer taken away

    def halved(parts: dict[str, Manifold]) -> dict[str, Manifold]:
        return {k: v - cut for k, v in parts.items()}

    boards = {k: db[k] for k in ("pico_w", "imu", "charger")}
    draw("die_step1_boards", halved({"die_box": dp["die_box"], **boards}),
         "Die 1: charger, Pico W, accelerometer (box cut open)", elev=30, azim=-30)
    padded = {"foam": db["foam"], "cell": db["cell"]}
    low = {k: v for k, v in db.items() if k == "counterweight_box"}
    draw("die_step2_cell", halved({"die_box": dp["die_box"], **boards, **padded, **low}),
         "Die 2: the cell wrapped in foam, in its pocket"
         + (" ; balls in the floor's tubes" if low else ""), elev=30, azim=-30)
    high = {k: v for k, v in db.items() if k == "counterweight_lid"}
    draw("die_step3_lid", {"die_lid": dp["die_lid"], "switch": db["switch"], **high},
         "Die 3: the switch" + (" and the steel balls" if high else "") + " in the lid",
         elev=-50, azim=-60)
    lid = {"die_lid": dp["die_lid"], "switch": db["switch"],
           **{k: v for k, v in db.items() if k == "counterweight_lid"}}
    draw("die_exploded", {"die_box": dp["die_box"], **boards, **padded, **low,
                          **{k: v.translate((0, 0, 45)) for k, v in lid.items()}},
         "Die: exploded (lid: the five)", elev=35)
    draw("die_closed", {"die_box": dp["die_box"], "die_lid": dp["die_lid"]},
         "Die: closed (five on the lid; the four with the USB socket; the one)",
         elev=25, azim=-145)
    tray, cover = model.pads.printed["pad_tray_4"], model.pads.printed["pad_cover"]
    from .pads import FLOOR, FOIL_RECESS
    foil = {f"foil_{n}": sector.extrude(0.1).translate((0, 0, FLOOR - FOIL_RECESS))
            for n, sector in enumerate(model.pads.sectors[4].values())}
    draw("pads_step1_foil", {"pad_tray": tray, **foil},
         "Pad island (four seats) 1: copper foil in the sectors, wires in the channels",
         elev=60)
    draw("pads_exploded", {"pad_tray": tray, **foil, "pad_cover": cover.translate((0, 0, 40))},
         "Pad island 2: the cover on top", elev=35)
    assert tuple(p.stem for p in written) == RENDERS, "RENDERS lists every picture drawn"
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CASES / "out")
    parser.add_argument("--renders", type=Path, default=CASES / "renders")
    parser.add_argument("--board", type=Path, default=None)
    parser.add_argument("--no-renders", action="store_true")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        model = build_model(args.board)
    except (LayoutError, OSError, ValueError) as exc:
        print(f"cases: {exc}", file=sys.stderr)
        return 2
    manifest = write_outputs(model, args.out)
    modelled = time.monotonic()
    count = 0 if args.no_renders else len(write_renders(model, args.renders))
    die = manifest["die"]
    assert isinstance(die, dict)
    print(f"cases: {len(manifest['parts'])} STL files, {count} pictures, HAT from "  # type: ignore[arg-type]
          f"{model.hat_source}; die's centre of mass {die['offset_mm']} mm from the middle; "
          f"models and STL {modelled - started:.1f} s, pictures "
          f"{time.monotonic() - modelled:.1f} s")
    return 0
