"""Dice latency: roll frame written on the pty -> DiceRoll delivered to the consumer.

The simulated dice (the firmware's own link code on a pty) writes a roll
frame; the companion's DiceReader reads it through pyserial, checks it,
acknowledges it and calls ``on_event``.  We time from just before the frame's
``os.write`` to the first line of ``on_event``, one roll at a time.

The simulated dice runs in this process, so between rolls we let it handle
the acknowledgement (a real dice has its own CPU and does not compete for our
GIL).

The peer, measured in the same run: the same frame bytes written on a bare
pty and read by a thread blocked in ``select`` + ``os.read`` (no pyserial, no
parsing): the floor that the pty and a thread wake-up cost on this machine.
Target: median <= 2 ms on a PC.

    .venv/bin/python benchmarks/dice_latency.py [--rolls 1000]
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import threading
import time
import tty

from companion.dice.protocol import Roll, encode
from companion.dice.reader import DiceEvent, DiceReader, DiceRoll
from companion.dice.sim import SimulatedDice


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def reader_latencies(rolls: int, warmup: int) -> list[float]:
    arrived = threading.Event()
    stamp = [0]

    def on_event(event: DiceEvent) -> None:
        if isinstance(event, DiceRoll):
            stamp[0] = time.perf_counter_ns()
            arrived.set()

    out: list[float] = []
    with SimulatedDice(seed=1) as dice:
        reader = DiceReader(dice.path, on_event, reconnect_interval=0.05)
        reader.start()
        try:
            deadline = time.monotonic() + 5
            while not reader.connected:
                if time.monotonic() > deadline:
                    raise SystemExit("dice_latency: the reader did not connect")
                time.sleep(0.01)
            for index in range(warmup + rolls):
                arrived.clear()
                dice.roll()
                if not arrived.wait(2.0):
                    raise SystemExit(f"dice_latency: roll {index + 1} never arrived")
                if index >= warmup:
                    out.append((stamp[0] - dice.last_roll_write_ns) / 1e6)
                # The simulated dice shares this process (and its GIL); let it take the
                # acknowledgement before the next roll, as a real dice would on its own CPU.
                while dice.unacked:
                    time.sleep(0.0002)
                time.sleep(0.001)
            stats = reader.stats
        finally:
            reader.stop()
    if stats.rolls != warmup + rolls or stats.replayed or stats.garbage_lines:
        raise SystemExit(f"dice_latency: unexpected reader counters {stats}")
    return out


def raw_pty_latencies(rolls: int, warmup: int) -> list[float]:
    frame = encode(Roll("3F2A9C01", 1, 5))
    master, slave = os.openpty()
    tty.setraw(slave)
    arrived = threading.Event()
    stamp = [0]
    stop = threading.Event()

    def read_loop() -> None:
        got = b""
        while not stop.is_set():
            if select.select([slave], [], [], 0.1)[0]:
                got += os.read(slave, 4096)
                if got.endswith(b"\n"):
                    stamp[0] = time.perf_counter_ns()
                    got = b""
                    arrived.set()

    thread = threading.Thread(target=read_loop, daemon=True)
    thread.start()
    out: list[float] = []
    try:
        for index in range(warmup + rolls):
            arrived.clear()
            start = time.perf_counter_ns()
            os.write(master, frame)
            if not arrived.wait(2.0):
                raise SystemExit("dice_latency: the raw pty lost a frame")
            if index >= warmup:
                out.append((stamp[0] - start) / 1e6)
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args(argv)
    if args.rolls < 1:
        parser.error("--rolls must be at least 1")
    raw = raw_pty_latencies(args.rolls, args.warmup)
    ours = reader_latencies(args.rolls, args.warmup)
    ours_median, raw_median = statistics.median(ours), statistics.median(raw)
    print(f"dice latency over {args.rolls} rolls (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    print(f"  {'':34} {'median':>9} {'p99':>9} {'max':>9}")
    for name, values in (("pty -> DiceReader -> on_event", ours), ("peer: raw pty write -> read", raw)):
        print(f"  {name:34} {statistics.median(values):7.3f}ms {percentile(values, 0.99):7.3f}ms "
              f"{max(values):7.3f}ms")
    print(f"  ratio of medians (reader / raw pty): {ours_median / raw_median:.1f}x")
    verdict = "met" if ours_median <= 2.0 else "MISSED"
    print(f"  target median <= 2 ms: {verdict} ({ours_median:.3f} ms)")
    return 0 if ours_median <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
