"""The table service's numbers: dice -> display latency, start -> first frame, peak memory.

Each figure is printed next to a peer measured in the same run (this machine is
noisy; the ratio is what carries over):

1. latency: a roll frame written on the simulated dice's pty -> the frame that
   shows the roll handed to the display (median and p99 over --rolls rolls),
   through the real reader, loop, controller, journal (fsync), renderer and
   luma's dummy device.  Peer: the same pty write -> the reader's roll event
   alone (no service).  Target: median <= 20 ms on a PC.
2. start -> first frame: a fresh process running the service (``build_app(cfg, games=playable()).run()``,
   as ``companion run`` does) until its first frame reaches the display.  Peer: a
   bare ``python -c pass``, started alternately with it.  Target <= 5x the peer
   (a Pi Zero 2 W is about ten times slower than a PC; a family waits for this).
3. peak RSS (VmHWM) of a service process that has played --rolls rolls.
   Peer: a bare Python interpreter.  Target <= 80 MB.

    .venv/bin/python benchmarks/service_latency.py [--rolls 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the dice benchmark)

CHILD = r"""
import os, sys, time, threading
from pathlib import Path
t_import = time.perf_counter()
from dataclasses import replace
from companion.games import playable
from companion.service.config import Config
from companion.service.app import build_app
base = Config()
cfg = replace(base, display=replace(base.display, driver="dummy"),
              service=replace(base.service, data_dir=sys.argv[1], pin_factory="mock",
                              shutdown_command=""))
mode = sys.argv[2]
dice = None
port = ""
if mode == "rss":
    from companion.dice.sim import SimulatedDice
    dice = SimulatedDice(seed=1)
    port = dice.path
app = build_app(cfg, games=playable(), dice_port=port)
if mode == "first":
    def first(image, t):
        sys.stdout.write("FRAME\n"); sys.stdout.flush(); os._exit(0)
    app.screen.listeners.append(first)
    app.run()
else:
    th = threading.Thread(target=app.run, daemon=True); th.start()
    from companion.inputs.events import ButtonPress
    from companion.games.clovece.screens import CloveceTurnView
    app.service.post(ButtonPress("left")); app.service.post(ButtonPress("select"))
    while not isinstance(app.service.last_view, CloveceTurnView) or app.service.last_view.dice != "ok":
        time.sleep(0.01)
    n = int(sys.argv[3])
    for i in range(n):
        before = app.screen.frames
        dice.roll(1 + i % 5)
        while app.screen.frames == before:
            time.sleep(0.001)
    with open("/proc/self/status") as f:
        hwm = [l for l in f if l.startswith("VmHWM")][0].split()[1]
    print("HWM", hwm, flush=True)
    os._exit(0)
"""


def latency(rolls: int) -> tuple[list[float], list[float], list[float]]:
    from gpiozero.pins.mock import MockFactory

    from companion.devices.display import create_device
    from companion.dice.reader import DiceReader, DiceRoll
    from companion.dice.sim import SimulatedDice
    from companion.games import playable
    from companion.games.clovece.screens import CloveceTurnView
    from companion.inputs.events import ButtonPress
    from companion.service.app import build_app
    from companion.service.config import Config

    service_ms: list[float] = []
    cpu_ms: list[float] = []
    """The loop thread's CPU time from one roll's frame to the next's (the roll's work and
    the idle hooks between): less at the mercy of a busy machine than the wall clock."""
    before = 0.0
    with tempfile.TemporaryDirectory() as data, SimulatedDice(seed=1) as dice:
        base = Config()
        cfg = replace(base, display=replace(base.display, driver="dummy"),
                      service=replace(base.service, data_dir=data, pin_factory="mock",
                                      shutdown_command=""))
        app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                        dice_port=dice.path)
        shown = threading.Event()
        stamp: list[float] = []
        loop_cpu: list[float] = []  # the loop thread's CPU clock at each frame

        def on_frame(image: object, t: float) -> None:
            stamp.append(time.perf_counter())
            loop_cpu.append(time.thread_time())
            shown.set()

        app.screen.listeners.append(on_frame)
        th = threading.Thread(target=app.run, daemon=True)
        th.start()
        app.service.post(ButtonPress("left"))
        app.service.post(ButtonPress("select"))
        while not (isinstance(app.service.last_view, CloveceTurnView)
                   and app.service.last_view.dice == "ok"):
            time.sleep(0.01)
        time.sleep(0.3)
        for i in range(rolls):
            shown.clear()
            stamp.clear()
            frames = len(loop_cpu)
            t0 = time.perf_counter()
            dice.roll(1 + i % 5)  # never a six: three tries, then the next player, for ever
            if not shown.wait(2):
                raise RuntimeError("no frame after a roll")
            service_ms.append((stamp[0] - t0) * 1000)
            if i:
                cpu_ms.append((loop_cpu[frames] - before) * 1000)
            before = loop_cpu[frames]
            time.sleep(0.005)
        app.service.stop()
        th.join(5)
        app.close()
    # peer: the reader alone on the same kind of pty
    reader_ms: list[float] = []
    with SimulatedDice(seed=2) as dice:
        got = threading.Event()
        t_event: list[float] = []

        def on_event(ev: object) -> None:
            if isinstance(ev, DiceRoll):
                t_event.append(time.perf_counter())
                got.set()

        reader = DiceReader(dice.path, on_event)
        reader.start()
        deadline = time.monotonic() + 5
        while not reader.connected:
            if time.monotonic() > deadline:
                raise SystemExit("service_latency: the reader did not connect")
            time.sleep(0.01)
        for i in range(rolls):
            got.clear()
            t_event.clear()
            t0 = time.perf_counter()
            dice.roll(1 + i % 6)
            if not got.wait(2):
                raise RuntimeError("the reader missed a roll")
            reader_ms.append((t_event[0] - t0) * 1000)
            time.sleep(0.002)
        reader.stop()
    return service_ms, reader_ms, cpu_ms


def child(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE,
                            text=True, env=env)


def journal_of_a_game(path: Path, actions: int = 150) -> None:
    """A Člověče journal in the middle of a seeded game (``actions`` records after the header)."""
    import random

    from companion.games.clovece.engine.game import GAME, Setup
    from companion.storage.journal import Journal

    rng = random.Random(5)
    setup = Setup(4)
    state = GAME.new_game(setup)
    records = [GAME.setup_record(setup)]
    while len(records) <= actions and not GAME.is_over(state):
        if GAME.chance(state) is not None:
            action = GAME.chance_action(state, rng.randint(1, 6))
        else:
            action = rng.choice(GAME.legal_actions(state))
        state, _ = GAME.apply(state, action)
        records.append(GAME.encode(action))
    Journal(path).replace(records)


def first_frame(runs: int, resume: bool = False) -> tuple[list[float], list[float]]:
    # As installed on the Pi (pip byte-compiles a wheel), not as a checkout under
    # PYTHONDONTWRITEBYTECODE, which would compile every module again at each start.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "companion")],
                   check=True)
    ours, bare = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as data:
            if resume:
                journal_of_a_game(Path(data) / "game.journal")
            t0 = time.perf_counter()
            p = child([data, "first"])
            assert p.stdout is not None
            line = p.stdout.readline()
            ours.append(time.perf_counter() - t0)
            p.wait(10)
            assert line.strip() == "FRAME"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - t0)
    return ours, bare


def peak_rss(rolls: int) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as data:
        p = child([data, "rss", str(rolls)])
        out, _ = p.communicate(timeout=300)
    ours = int(out.split("HWM")[1].split()[0])
    bare = subprocess.run(
        [sys.executable, "-c",
         "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])"],
        capture_output=True, text=True, check=True)
    return ours, int(bare.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=1000)
    ap.add_argument("--starts", type=int, default=5)
    args = ap.parse_args()

    service_ms, reader_ms, cpu_ms = latency(args.rolls)
    sm, rm = statistics.median(service_ms), statistics.median(reader_ms)
    print(f"dice frame -> display frame: median {sm:.2f} ms, p99 {percentile(service_ms, 0.99):.2f} ms "
          f"over {len(service_ms)} rolls (target median <= 20 ms: {'met' if sm <= 20 else 'NOT met'})")
    print(f"  peer, dice frame -> reader event: median {rm:.2f} ms, p99 {percentile(reader_ms, 0.99):.2f} ms;"
          f" ratio service/reader {sm / rm:.1f}x")
    print(f"  the loop thread's CPU per roll: median {statistics.median(cpu_ms):.2f} ms")

    ours, bare = first_frame(args.starts)
    om, bm = statistics.median(ours), statistics.median(bare)
    print(f"start -> first frame: median {om * 1000:.0f} ms over {len(ours)} starts")
    print(f"  peer, bare `python -c pass`: median {bm * 1000:.0f} ms; ratio {om / bm:.1f}x "
          f"(target <= 5x: {'met' if om <= 5 * bm else 'NOT met'})")

    ours, bare = first_frame(args.starts, resume=True)
    om, bm = statistics.median(ours), statistics.median(bare)
    print(f"start -> first frame of a resumed game (150 journal records): median "
          f"{om * 1000:.0f} ms; bare `python -c pass` {bm * 1000:.0f} ms; ratio {om / bm:.1f}x")

    rss, bare_rss = peak_rss(min(args.rolls, 300))
    print(f"peak RSS of the service after {min(args.rolls, 300)} rolls: {rss / 1024:.1f} MB "
          f"(target <= 80 MB: {'met' if rss <= 80 * 1024 else 'NOT met'})")
    print(f"  peer, bare Python interpreter: {bare_rss / 1024:.1f} MB; ratio {rss / bare_rss:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
