"""A board's circuit as data: parts with their pins tied to named nets.

Every board module (:mod:`boards.hat`, :mod:`boards.padhub`, :mod:`boards.island`,
:mod:`boards.dice`) builds one :class:`Circuit`; the rules check, the schematic
picture, the bill of materials and the printed circuit board are all made from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .parts import PARTS, Part

NC = "NC"  # a pin left open on purpose


@dataclass
class Instance:
    ref: str
    part: Part
    nets: dict[str, str]  # pin number -> net
    note: str = ""


@dataclass
class Circuit:
    name: str
    title: str
    instances: list[Instance] = field(default_factory=list)
    # nets whose power comes from off the board or through a passive part (KiCad's PWR_FLAG),
    # each with the sentence that says where from
    power_flags: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, ref: str, key: str, pins: dict[str | int, str] | None = None,
            note: str = "", **named: str) -> Instance:
        """Place part ``key`` as ``ref``; pins by number (``pins``) or by unique name (``named``)."""
        part = PARTS[key]
        nets: dict[str, str] = {str(k): v for k, v in (pins or {}).items()}
        for name, net in named.items():
            numbers = [n for n, (pname, _) in part.pins.items() if pname == name]
            if not numbers:
                raise KeyError(f"{ref}: {part.key} has no pin named {name}")
            for n in numbers:  # a name on several pins (GND, pass-through pins) ties them all
                nets[n] = net
        for n in nets:
            if n not in part.pins:
                raise KeyError(f"{ref}: {part.key} has no pin {n}")
        if any(i.ref == ref for i in self.instances):
            raise ValueError(f"{ref} placed twice")
        inst = Instance(ref, part, nets, note)
        self.instances.append(inst)
        return inst

    def nets(self) -> dict[str, list[tuple[str, str]]]:
        """Net name -> its (ref, pin number) pairs, sorted."""
        out: dict[str, list[tuple[str, str]]] = {}
        for inst in self.instances:
            for pin, net in inst.nets.items():
                if net == NC:
                    continue
                out.setdefault(net, []).append((inst.ref, pin))
        return {k: sorted(v, key=_pin_key) for k, v in sorted(out.items())}

    def ref(self, ref: str) -> Instance:
        return next(i for i in self.instances if i.ref == ref)

    def to_json(self) -> str:
        data = {
            "name": self.name,
            "title": self.title,
            "parts": [{
                "ref": i.ref, "value": i.part.value, "footprint": i.part.footprint,
                "mpn": i.part.mpn, "smd": i.part.smd, "note": i.note,
                "pins": {n: {"name": i.part.pins[n][0], "kind": i.part.pins[n][1],
                             "net": "" if i.nets.get(n, NC) == NC else i.nets[n]} for n in sorted(i.part.pins, key=_num)},
            } for i in self.instances],
            "nets": self.nets(),
            "power_flags": self.power_flags,
            "notes": self.notes,
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _num(n: str) -> tuple[int, str]:
    return (int(n), "") if n.isdigit() else (10**6, n)


def _pin_key(rp: tuple[str, str]) -> tuple[str, int, tuple[int, str]]:
    ref, pin = rp
    head = ref.rstrip("0123456789")
    tail = ref[len(head):]
    return (head, int(tail) if tail else 0, _num(pin))
