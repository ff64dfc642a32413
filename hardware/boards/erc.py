"""Electrical rules check over a :class:`~boards.netlist.Circuit`.

The rules (each breach is one line of the report):

* every pin is on a net, unless its kind is ``N`` or the board leaves it open on purpose
  (net ``NC``);
* no net has a single pin (a wire to nowhere);
* an input (``I``) needs something that drives it on its net (an output, a bidirectional or
  passive pin, or a power pin);
* two outputs on one net, an output on a power net, or two different parts' power sources
  on one net, are errors;
* a power input (``W``) needs a power source (``S``) on its net, or a power flag that says
  where the net's power comes from (through a diode or fuse, or by a cable).
"""

from __future__ import annotations

from .netlist import NC, Circuit


def check(circuit: Circuit) -> list[str]:
    errors: list[str] = []
    kinds: dict[tuple[str, str], str] = {}
    for inst in circuit.instances:
        for pin, (name, kind) in inst.part.pins.items():
            kinds[(inst.ref, pin)] = kind
            net = inst.nets.get(pin)
            if net is None and kind != "N":
                errors.append(f"{inst.ref} pin {pin} ({name}): not connected")
            if net not in (None, NC) and kind == "N" and name == "NC":
                errors.append(f"{inst.ref} pin {pin}: a no-connect pin is on net {net}")
    nets = circuit.nets()
    for net in circuit.power_flags:
        if net not in nets:
            errors.append(f"power flag on {net}, which no pin uses")
    for net, pins in nets.items():
        ks = [kinds[p] for p in pins]
        if len(pins) < 2:
            ref, pin = pins[0]
            errors.append(f"net {net}: only {ref} pin {pin} is on it")
        outputs = [p for p, k in zip(pins, ks, strict=True) if k == "O"]
        sources = sorted({p[0] for p, k in zip(pins, ks, strict=True) if k == "S"})
        if len(outputs) > 1:
            errors.append(f"net {net}: two outputs ({', '.join(f'{r}.{n}' for r, n in outputs)})")
        if outputs and sources:
            errors.append(f"net {net}: an output ({outputs[0][0]}) on a power source's net")
        if len(sources) > 1:
            errors.append(f"net {net}: power sources of {', '.join(sources)} meet")
        if "I" in ks and not any(k in "OBPSW" for k in ks):
            errors.append(f"net {net}: inputs with nothing driving them")
        if "W" in ks and not sources and net not in circuit.power_flags:
            errors.append(f"net {net}: power input without a source or power flag")
    return errors
