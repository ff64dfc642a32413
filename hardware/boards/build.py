"""``make hardware``: every board's outputs from the circuits in this package.

Per board, into hardware/<board>/: the netlist (netlist.json), the rules check's result
(erc.txt), the schematic picture (schematic.svg), the bill of materials (bom.csv); for the
boards that are made (the HAT, the pad hub, the island): the routed KiCad board
(<board>.kicad_pcb), its design rules check (drc.txt), the Gerbers and drill files
(fab/<board>-gerbers.zip), the pick-and-place file (pos.csv) and a picture of the copper
and silkscreen (<board>.png) and every part's place and size (mechanical.json, for the cases).  hardware/bom-box.csv sums the parts of one whole box.

``python -m boards.build [--out DIR] [--only NAME ...]`` (from hardware/); the KiCad steps
run under /usr/bin/python3 (boards/pcb.py), where Debian's pcbnew module lives.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import bom, dice, erc, hat, island, padhub, picture, schematic
from .netlist import Circuit

HARDWARE = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"

# a common fab's two-layer rules (JLCPCB's standard service allows 0.127 mm / 0.3 mm)
RULES = {"track": 0.15, "clearance": 0.15, "via": 0.6, "drill": 0.3, "annular": 0.13,
         "edge": 0.3, "hole_clearance": 0.25, "hole_to_hole": 0.5,
         "route_track": 0.25, "route_clearance": 0.15, "power_track": 0.5}

BOARDS = {"hat": hat, "padhub": padhub, "island": island, "dice": dice}
# how many of each board one box holds
PER_BOX = {"hat": 1, "padhub": 1, "island": 7, "dice": 1}


def freeroute() -> str:
    """The freeroute command (only for HARDWARE_ROUTER=freeroute, the comparison)."""
    exe = Path(sys.executable).with_name("freeroute")
    if exe.exists():
        return str(exe)
    found = shutil.which("freeroute")
    if not found:
        raise SystemExit("freeroute is not installed: pip install -e '.[hardware]'")
    return found


def make_board(module, circuit: Circuit, out: Path, tmp: Path) -> dict:
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run(
            [SYSTEM_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode:
        raise SystemExit("KiCad's pcbnew module is missing: run scripts/hardware-deps.sh")
    job = {
        "netlist": str(out / "netlist.json"), "out": str(out), "tmp": str(tmp),
        "rules": RULES, "size": [module.WIDTH, module.HEIGHT],
        "corner": getattr(module, "CORNER", 0.0),
        # "own": boards/route.py; "freeroute": the freeroute package through Specctra DSN/SES
        "router": os.environ.get("HARDWARE_ROUTER", "own"),
        "freeroute": freeroute() if os.environ.get("HARDWARE_ROUTER") == "freeroute" else "",
        "freeroute_args": getattr(module, "FREEROUTE_ARGS", []),
        "placement": module.placement(), "texts": module.silk_texts(),
        "power_nets": list(getattr(module, "POWER_NETS", ())),
    }
    job_path = tmp / f"{circuit.name}-job.json"
    job_path.write_text(json.dumps(job))
    subprocess.run([SYSTEM_PYTHON, str(Path(__file__).with_name("pcb.py")), str(job_path)],
                   check=True)
    report = json.loads((tmp / f"{circuit.name}-pcb.json").read_text())
    shutil.copy(tmp / f"{circuit.name}-drc.txt", out / "drc.txt")
    (out / "pos.csv").write_text(bom.pos_csv(circuit, report["pos"]))
    picture.render(report["geometry"], module.WIDTH, module.HEIGHT, out / f"{circuit.name}.png")
    return report


def build(out_root: Path, only: list[str] | None = None) -> dict:
    summary: dict = {}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for name, module in BOARDS.items():
            if only and name not in only:
                continue
            circuit = module.circuit()
            out = out_root / name
            out.mkdir(parents=True, exist_ok=True)
            errors = erc.check(circuit)
            (out / "netlist.json").write_text(circuit.to_json())
            (out / "erc.txt").write_text(
                f"ERC {name}: {len(errors)} errors\n" + "".join(e + "\n" for e in errors))
            (out / "schematic.svg").write_text(schematic.svg(circuit))
            (out / "bom.csv").write_text(bom.bom_csv(circuit))
            info: dict = {"erc_errors": len(errors), "bom_total": bom.total(circuit),
                          "parts": len(circuit.instances), "nets": len(circuit.nets())}
            if hasattr(module, "placement"):
                report = make_board(module, circuit, out, tmp)
                info.update({k: report[k] for k in
                             ("tracks", "vias", "drc_violations", "unconnected", "layers", "size")})
            summary[name] = info
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in info.items()), flush=True)
    if not only:
        (out_root / "bom-box.csv").write_text(bom.box_csv(
            {n: BOARDS[n].circuit() for n in BOARDS}, PER_BOX))
        (out_root / "boards.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HARDWARE)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    build(args.out, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
