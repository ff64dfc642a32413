"""Slap-pad throughput: touch events per second through the pad adapter and the judge.

Five paths are measured side by side in alternating rounds (so machine noise hits
all alike) and the ratios of the median rates are printed:

* ``raw``      gpiozero alone: a ``DigitalInputDevice`` per pad on mock pins with a
               no-op ``when_activated`` — edge delivery without our adapter (the peer);
* ``pins``     gpiozero's pin API alone, as the adapter sets pins up (factory pins,
               both edges, a no-op ``when_changed``) — the floor under the adapter;
* ``adapter``  the same edges through ``SlapPads`` (tick arithmetic, chatter filter,
               ``PadTouch`` events);
* ``referee``  the adapter feeding the judge as the virtual-deck referee does (not
               through its model): every touch is added to the moment and the
               moment is judged again (a provisional ruling per touch);
* ``judge``    the judge alone on the same moments (no pins).

Every touch is one press and one release on a 3-seat table (12 pads).  The mock
pins stamp edges with a synthetic clock that advances 20 ms per edge, like kernel
time stamps of real slaps, so the chatter filter sees realistic gaps.

    .venv/bin/python benchmarks/pads.py [--rounds 5] [--seconds 1] [--against OLD_CHECKOUT]

``--against`` runs another checkout's own benchmark (e.g. ``git archive main`` unpacked in a
folder) in alternate rounds, so the two trees' numbers come from the same minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero import DigitalInputDevice

from companion.devices.pads.gpio import PadEvent, PadTouch, SlapPads
from companion.devices.pads.sim import ClockedMockFactory
from companion.devices.pinmap import Pad, load_default
from companion.games.gobbit.engine.cards import parse_card
from companion.games.gobbit.engine.judge import Situation, Touch, judge
from companion.games.gobbit.referee.model import touch_of

SEATS = 3
MOMENT = 4  # touches per judged moment
TOPS = {1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")}


class SteppingFactory(ClockedMockFactory):
    """Mock pins whose edges carry the factory's synthetic clock, 20 ms on per edge."""

    def step(self) -> float:
        self.now += 0.020
        return self.now


def _drive(factory: SteppingFactory, pins: list[Any], seconds: float) -> tuple[int, float]:
    n = 0
    t0 = time.perf_counter()
    while True:
        for pin in pins:
            pin.drive(True, factory.step())
            pin.drive(False, factory.step())
        n += len(pins)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return n, elapsed


def raw(seconds: float) -> float:
    factory = SteppingFactory()
    devices = [DigitalInputDevice(pin, pin_factory=factory)
               for pin in load_default().pads[SEATS].values()]
    for d in devices:
        d.when_activated = lambda: None
    n, elapsed = _drive(factory, [d.pin for d in devices], seconds)
    for d in devices:
        d.close()
    return n / elapsed


def pins(seconds: float) -> float:
    factory = SteppingFactory()
    used = [factory.pin(n) for n in load_default().pads[SEATS].values()]

    def changed(ticks: Any, state: Any) -> None:
        return None

    for pin in used:
        pin.input_with_pull("down")
        pin.bounce = None
        pin.edges = "both"
        pin.when_changed = changed
    n, elapsed = _drive(factory, used, seconds)
    for pin in used:
        pin.close()
    return n / elapsed


def adapter(seconds: float) -> float:
    factory = SteppingFactory()
    count = [0]

    def on_event(event: PadEvent) -> None:
        count[0] += 1

    pads = SlapPads(load_default().pads[SEATS], on_event, pin_factory=factory)
    n, elapsed = _drive(factory, [pads.device(p).pin for p in pads.pads], seconds)
    pads.close()
    assert count[0] == n, (count[0], n)  # every touch came through, none merged
    return n / elapsed


def referee(seconds: float) -> float:
    factory = SteppingFactory()
    moment: list[Touch] = []
    rulings = [0]

    def on_event(event: PadEvent) -> None:
        if isinstance(event, PadTouch):
            if len(moment) == MOMENT:
                moment.clear()
            moment.append(touch_of(event))
            judge(Situation(tops=TOPS, touches=tuple(moment)))
            rulings[0] += 1

    pads = SlapPads(load_default().pads[SEATS], on_event, pin_factory=factory)
    n, elapsed = _drive(factory, [pads.device(p).pin for p in pads.pads], seconds)
    pads.close()
    assert rulings[0] == n
    return n / elapsed


def judge_alone(seconds: float) -> float:
    pads = list(load_default().pads[SEATS])
    moments: list[tuple[Touch, ...]] = []
    moment: list[Touch] = []
    for i in range(len(pads) * MOMENT):
        pad: Pad = pads[i % len(pads)]
        if len(moment) == MOMENT:
            moment = []
        moment.append(Touch(pad.seat, pad.target, 40.0 * i))
        moments.append(tuple(moment))
    n = 0
    t0 = time.perf_counter()
    while True:
        for m in moments:
            judge(Situation(tops=TOPS, touches=m))
        n += len(moments)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return n / elapsed


PATHS: dict[str, Callable[[float], float]] = {
    "raw": raw, "pins": pins, "adapter": adapter, "referee": referee, "judge": judge_alone}


def ratios(med: dict[str, float]) -> dict[str, float]:
    return {"adapter / raw gpiozero": med["adapter"] / med["raw"],
            "adapter / bare pins": med["adapter"] / med["pins"],
            "referee / raw gpiozero": med["referee"] / med["raw"],
            "referee / judge alone": med["referee"] / med["judge"]}


def other_tree(tree: Path, seconds: float) -> dict[str, float]:
    """One round of ``tree``'s own ``benchmarks/pads.py`` (its own package), its rates."""
    out = subprocess.run([sys.executable, str(tree / "benchmarks" / "pads.py"), "--rounds", "1",
                          "--seconds", str(seconds)], cwd=tree, capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(tree)}).stdout
    return {m[1]: float(m[2].replace(",", "")) for m in re.finditer(r"^  (\w+) +([\d,]+)$", out, re.M)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="per path and round")
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="also run another checkout's benchmarks/pads.py (with its own companion "
                         "package) in alternate rounds and print its numbers beside these")
    args = ap.parse_args()
    rates: dict[str, list[float]] = {name: [] for name in PATHS}
    theirs: dict[str, list[float]] = {name: [] for name in PATHS}
    for _ in range(args.rounds):
        for name, run in PATHS.items():
            rates[name].append(run(args.seconds))
        if args.against:
            for name, rate in other_tree(args.against.resolve(), args.seconds).items():
                theirs[name].append(rate)
    med = {name: statistics.median(r) for name, r in rates.items()}
    print(f"touches/s, median of {args.rounds} rounds of {args.seconds:g} s "
          f"({SEATS} seats, {len(load_default().pads[SEATS])} pads, press+release per touch):")
    for name, rate in med.items():
        print(f"  {name:8s} {rate:12,.0f}")
    for label, value in ratios(med).items():
        print(f"{label:24s} = {value:.2f}")
    print(f"adapter overhead per touch over bare pins = "
          f"{(1 / med['adapter'] - 1 / med['pins']) * 1e6:.1f} us")
    if args.against:
        old = {name: statistics.median(r) for name, r in theirs.items()}
        print(f"{args.against} in the alternate rounds (this tree / that tree):")
        for name, rate in old.items():
            print(f"  {name:8s} {rate:12,.0f}   x{med[name] / rate:.2f}")
        for (label, value), mine in zip(ratios(old).items(), ratios(med).values(), strict=True):
            print(f"{label:24s} = {value:.2f}   (here {mine:.2f})")
        print(f"adapter overhead per touch over bare pins = "
              f"{(1 / old['adapter'] - 1 / old['pins']) * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
