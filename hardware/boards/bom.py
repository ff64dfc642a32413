"""Bills of materials and pick-and-place files, from the circuits.

One line per part kind: its references, quantity, manufacturer and part number, the
distributor's order code, unit price and line total; the last line is the board's total.
Mounting holes and test points are features of the board, not parts, and are left out.
"""

from __future__ import annotations

import csv
import io

from .netlist import Circuit, _pin_key
from .parts import PARTS

HEAD = ["Comment", "Designator", "Footprint", "Quantity", "Manufacturer", "MPN", "Distributor",
        "Distributor code", "Unit price USD", "Line total USD", "Assembly"]


def lines(circuit: Circuit) -> list[dict[str, str]]:
    groups: dict[str, list[str]] = {}
    for inst in circuit.instances:
        if inst.part.price == 0:
            continue
        groups.setdefault(inst.part.key, []).append(inst.ref)
    out = []
    for key, refs in groups.items():
        p = PARTS[key]
        refs.sort(key=lambda r: _pin_key((r, "0")))
        out.append({"Comment": p.value, "Designator": " ".join(refs),
                    "Footprint": p.footprint.split(":")[1], "Quantity": str(len(refs)),
                    "Manufacturer": p.manufacturer, "MPN": p.mpn, "Distributor": p.distributor,
                    "Distributor code": p.code, "Unit price USD": f"{p.price:.3f}",
                    "Line total USD": f"{p.price * len(refs):.3f}",
                    "Assembly": "SMT" if p.smd else "hand (through-hole or module)"})
    return out


def total(circuit: Circuit) -> float:
    return round(sum(float(r["Line total USD"]) for r in lines(circuit)), 2)


def _write(rows: list[dict[str, str]], head: list[str], last: dict[str, str]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, head, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    w.writerow(last)
    return buf.getvalue()


def bom_csv(circuit: Circuit) -> str:
    return _write(lines(circuit), HEAD, {"Comment": "TOTAL", "Line total USD": f"{total(circuit):.2f}"})


def box_csv(circuits: dict[str, Circuit], per_box: dict[str, int]) -> str:
    """One box: each board's total times how many of it a box holds, and the sum."""
    head = ["Board", "Boards per box", "Parts per board", "Board total USD", "Box total USD"]
    rows = []
    grand = 0.0
    for name, c in circuits.items():
        t = total(c)
        grand += t * per_box[name]
        rows.append({"Board": name, "Boards per box": str(per_box[name]),
                     "Parts per board": str(sum(int(r["Quantity"]) for r in lines(c))),
                     "Board total USD": f"{t:.2f}", "Box total USD": f"{t * per_box[name]:.2f}"})
    return _write(rows, head, {"Board": "TOTAL", "Box total USD": f"{grand:.2f}"})


def pos_csv(circuit: Circuit, pos: list[dict]) -> str:
    """The assembly service's placement file (JLCPCB's columns), millimetres from the
    bottom-left corner, every part that is in the bill of materials."""
    in_bom = {i.ref for i in circuit.instances if i.part.price > 0}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Designator", "Val", "Package", "Mid X", "Mid Y", "Rotation", "Layer"])
    for p in sorted(pos, key=lambda p: _pin_key((p["ref"], "0"))):
        if p["ref"] in in_bom:
            w.writerow([p["ref"], circuit.ref(p["ref"]).part.value, p["package"],
                        f"{p['x']:.3f}", f"{p['y']:.3f}", f"{p['rot']:.1f}", p["side"]])
    return buf.getvalue()
