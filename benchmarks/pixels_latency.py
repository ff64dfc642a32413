"""A Pixels die at the table: its landing -> the OLED frame, and every roll exactly once.

1. latency: the virtual Pixels die (a bumble peripheral on an in-process link) notifies
   "rolled" -> the frame that shows the roll handed to the display, through the real
   adapter (bumble central, GATT notification, roll tracker), loop, controller, journal
   (fsync), renderer and luma's dummy device; median and p99 over --rolls rolls.  Peer,
   in the same run and the same rig: our serial dice (the simulated dice's frame written on
   its pty -> the frame handed to the display).  Both dice share this process (and its GIL)
   with the table; a real die has its own CPU and radio, so the Pi's radio and BlueZ add
   their own time, which no number here contains.
2. exactly once: --throws throws of the virtual die straight into the adapter, with the link
   dropped in the middle of every --drop-every'th throw (after the die was heard moving: at
   its first rolling state, its second, its landing, or just after the landing) and every
   notification of every --dup-every'th throw sent twice.  The rolls delivered must be the
   throws made: the same faces, in order, none twice, none missing.
   Then the case the tracker cannot cover, measured and reported, not hidden: the link
   dropped before the die's first state of a throw went out (--blind throws).

    .venv/bin/python benchmarks/pixels_latency.py [--rolls 1000] [--throws 10000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games import playable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the dice benchmark)


def table_latency(kind: str, rolls: int) -> list[float]:
    """Landing (pixels) / frame write (serial) -> frame handed to the display, in ms."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.display import create_device
    from companion.dice.sim import SimulatedDice
    from companion.games.clovece.screens import CloveceTurnView
    from companion.inputs.events import ButtonPress
    from companion.service.app import build_app
    from companion.service.config import Config
    from companion.sim.pixels import SimPixels

    out: list[float] = []
    pixels = SimPixels(seed=1)
    with tempfile.TemporaryDirectory() as data, SimulatedDice(seed=1) as serial:
        base = Config()
        cfg = replace(base, display=replace(base.display, driver="dummy"),
                      service=replace(base.service, data_dir=data, pin_factory="mock",
                                      shutdown_command=""),
                      dice=replace(base.dice, kind=kind))
        app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                        dice_port=serial.path, pixels_port=pixels.port)
        shown = threading.Event()
        stamp: list[int] = []
        app.screen.listeners.append(
            lambda im, t: (stamp.append(time.perf_counter_ns()), shown.set()))
        th = threading.Thread(target=app.run, daemon=True)
        th.start()
        app.service.post(ButtonPress("left"))
        app.service.post(ButtonPress("select"))
        deadline = time.monotonic() + 20
        while not (isinstance(app.service.last_view, CloveceTurnView)
                   and app.service.last_view.dice == "ok"):
            if time.monotonic() > deadline:
                raise SystemExit(f"pixels_latency: the {kind} dice never came up")
            time.sleep(0.01)
        time.sleep(0.3)
        die: Any = pixels.die
        for i in range(rolls):
            shown.clear()
            stamp.clear()
            face = 1 + i % 5  # never a six: three tries, then the next player, for ever
            if kind == "pixels":
                die.roll(face)
                t0 = die.landed_ns
            else:
                serial.roll(face)
                t0 = serial.last_roll_write_ns
            if not shown.wait(2):
                raise SystemExit(f"pixels_latency: no frame after {kind} roll {i + 1}")
            out.append((stamp[0] - t0) / 1e6)
            time.sleep(0.005)
        app.service.stop()
        th.join(5)
        app.close()
    pixels.close()
    return out


def exactly_once(throws: int, drop_every: int, dup_every: int, drop_points: tuple[int, ...],
                 step_s: float, seed: int, wait_s: float = 3.0) -> dict[str, int]:
    """Throw ``throws`` times with faults; count what the adapter delivered."""
    from companion.dice.pixels.adapter import PixelsDice
    from companion.dice.pixels.bumble_port import Air
    from companion.dice.pixels.virtual import VirtualPixel
    from companion.dice.reader import DiceRoll

    rng = random.Random(seed)
    air = Air()
    die = VirtualPixel(air, "Kostka", seed=seed, step_s=step_s, advertising_ms=2.0)
    got: list[int] = []
    arrived = threading.Condition()

    def on_event(event: object) -> None:
        if isinstance(event, DiceRoll):
            with arrived:
                got.append(event.value)
                arrived.notify_all()

    dice = PixelsDice(air.central(), on_event, name="Kostka", backoff=0.01, backoff_max=0.2,
                      scan_window=0.2)
    dice.start()
    waited_out = 0
    try:
        deadline = time.monotonic() + 10
        while not dice.connected:
            if time.monotonic() > deadline:
                raise SystemExit("pixels_latency: the adapter never connected")
            time.sleep(0.005)
        for n in range(1, throws + 1):
            die.duplicate = n % dup_every == 0
            if n % drop_every == 0:
                die.drop_link_at(rng.choice(drop_points))
            before = len(got)
            die.roll()
            end = time.monotonic() + wait_s
            with arrived:  # a family throws again once the table showed the roll
                while len(got) == before and time.monotonic() < end:
                    arrived.wait(0.05)
            while not dice.connected and time.monotonic() < end + 3:
                time.sleep(0.002)  # ... and once the die is back ("Kostka spí / mimo dosah")
            if len(got) == before:
                waited_out += 1
        time.sleep(0.2)
    finally:
        dice.stop()
        die.close()
        air.close()
    thrown = die.rolls
    missing = 0
    i = 0
    for face in got:  # got must be thrown, in order; count what is not there
        while i < len(thrown) and thrown[i] != face:
            i += 1
            missing += 1
        i += 1
    missing += max(0, len(thrown) - i)
    return {"thrown": len(thrown), "delivered": len(got), "same": int(got == thrown),
            "missing": missing, "extra": max(0, len(got) - (len(thrown) - missing)),
            "duplicates_seen": dice.stats.duplicates, "links_lost": dice.stats.lost,
            "reconnections": dice.stats.connections - 1, "waited_out": waited_out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--throws", type=int, default=10_000)
    parser.add_argument("--drop-every", type=int, default=10)
    parser.add_argument("--dup-every", type=int, default=3)
    parser.add_argument("--blind", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"Pixels die at the table (python {sys.version.split()[0]})")
    serial = table_latency("serial", args.rolls)
    pixels = table_latency("pixels", args.rolls)
    print(f"1. landing -> frame handed to the display, {args.rolls} rolls each, same run")
    print(f"  {'':40} {'median':>9} {'p99':>9} {'max':>9}")
    for name, values in (("Pixels (virtual die, bumble link)", pixels),
                         ("peer: our serial dice (pty)", serial)):
        print(f"  {name:40} {statistics.median(values):7.3f}ms "
              f"{percentile(values, 0.99):7.3f}ms {max(values):7.3f}ms")
    print(f"  ratio of medians (Pixels / serial): "
          f"{statistics.median(pixels) / statistics.median(serial):.2f}x")
    ok = statistics.median(pixels) <= 20.0
    print(f"  target median <= 20 ms (the dice -> display target): "
          f"{'met' if ok else 'MISSED'}")
    t = time.perf_counter()
    once = exactly_once(args.throws, args.drop_every, args.dup_every, (1, 2, 3, 4), 0.0, 11)
    print(f"2. exactly once: {once['thrown']} throws, link dropped mid-throw every "
          f"{args.drop_every}th, notifications doubled every {args.dup_every}th "
          f"({time.perf_counter() - t:.0f} s)")
    print(f"  delivered {once['delivered']}, the same faces in order: "
          f"{'yes' if once['same'] else 'NO'}; missing {once['missing']}, extra "
          f"{once['extra']}; links lost {once['links_lost']}, reconnections "
          f"{once['reconnections']}, duplicate landings ignored {once['duplicates_seen']}")
    ok = ok and bool(once["same"])
    if args.blind:
        blind = exactly_once(args.blind, 1, 10**9, (0,), 0.0, 12, wait_s=0.3)
        print(f"  not covered: the link dropped before a throw's first state went out, "
              f"{blind['thrown']} throws: delivered {blind['delivered']}, missing "
              f"{blind['missing']}, extra {blind['extra']} (never a roll twice)")
        ok = ok and blind["extra"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
