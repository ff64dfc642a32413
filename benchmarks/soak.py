"""Soak: the real table service for hours, four computer seats, ten phones, the dice rolling.

The service runs as ``companion sim``/the Pi run it (an ``App`` on gpiozero's mock pins, luma's
``dummy`` display, the simulated dice on a pty, the phone view on 127.0.0.1), in a thread of
this process; the four seats of a Člověče game are all the computer's and it throws with the
real dice (``computer_dice``), so the dice here rolls every ``--roll-every`` seconds (a throw
that is not wanted is "not counted", as at a table).  A won game is closed with ● and a new one
started from the set-up.  Ten phones (event-stream clients, aiohttp, in another process on
loopback, each from its own address as real phones are) stay connected; every minute one of them reloads the page (page, assets, snapshot,
a new stream), as a phone that was locked and woken does.

Every ``--sample`` seconds this process's resident memory (``VmRSS``), open file descriptors and
threads are written to ``--out`` (CSV) and the growth after the first ``--settle`` minutes is
printed at the end: RSS at the end minus RSS at ``--settle`` minutes, the least-squares slope
over that window (MB/hour), fds and threads min/max.  Target: RSS growth < 1 MB after the first
10 minutes, fds and threads flat.

``--trace`` adds tracemalloc (its own memory counts in RSS: for finding a growth, not for the
figure) and prints the 15 biggest growths between ``--settle`` minutes and the end.

    .venv/bin/python benchmarks/soak.py --minutes 120 [--out soak.csv]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games import playable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PHONES = r"""
import asyncio, sys, time, random
import aiohttp

async def phone(session, base, k, stop_at, reload_every):
    rng = random.Random(k)
    next_reload = time.monotonic() + reload_every * (k + 1) / 10
    while time.monotonic() < stop_at:
        try:
            for path in ("", "static/app.js", "static/app.css", "snapshot.json"):
                async with session.get(base + path) as r:
                    await r.read()
            timeout = aiohttp.ClientTimeout(total=None, sock_read=60)
            async with session.get(base + "events", timeout=timeout) as resp:
                while time.monotonic() < min(next_reload, stop_at):
                    try:
                        chunk = await asyncio.wait_for(resp.content.readany(), 1.0)
                    except asyncio.TimeoutError:
                        continue
                    if not chunk:
                        break
            next_reload = time.monotonic() + reload_every
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
            await asyncio.sleep(1 + rng.random())

async def main(base, n, seconds, reload_every):
    stop_at = time.monotonic() + seconds
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        limit=0, local_addr=("127.0.0.%d" % (2 + k), 0))) for k in range(n)]  # a phone each
    try:
        await asyncio.gather(*(phone(s, base, k, stop_at, reload_every)
                               for k, s in enumerate(sessions)))
    finally:
        for s in sessions:
            await s.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])))
"""


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def threads() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


class Table:
    """The service with four computer seats throwing with the simulated dice."""

    def __init__(self, data: str, seed: int) -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.devices.display import create_device
        from companion.dice.sim import SimulatedDice
        from companion.service.app import build_app
        from companion.service.config import Config

        base = Config()
        cfg = replace(
            base,
            display=replace(base.display, driver="dummy"),
            game=replace(base.game, name="clovece", players=4,
                         computer=("r", "b", "g", "y"), computer_dice=True,
                         auto_move_delay=0.3, computer_confirm_delay=0.3),
            service=replace(base.service, data_dir=data, pin_factory="mock",
                            shutdown_command=""),
            voice=replace(base.voice, enabled=False),
            web=replace(base.web, enabled=True, address="127.0.0.1", port=0),
        )
        self.dice = SimulatedDice(seed=seed)
        self.pins = MockFactory()
        self.app = build_app(cfg, games=playable(), pin_factory=self.pins, device=create_device("dummy"),
                             dice_port=self.dice.path)
        self.thread = threading.Thread(target=self.app.run, name="soak-service", daemon=True)
        self.thread.start()
        self.games = 0

    def drive(self) -> None:
        """Start a game from the set-up; ● when the table is asked to confirm (a computer
        seat's move shown) or the game is won (called about every 0.3 s)."""
        from companion.inputs.events import ButtonPress
        from companion.service.shell import Mode

        shell = self.app.controller
        if shell.mode is Mode.SETUP:
            view = self.app.service.last_view
            items = getattr(view, "items", ())
            if items and getattr(view, "selected", -1) == len(items) - 1:
                self.app.service.post(ButtonPress("select"))  # "▶ Začít hru": the same game
                self.games += 1
            else:
                self.app.service.post(ButtonPress("left"))  # towards the last line
        elif shell.mode is Mode.PLAY:
            view = self.app.service.last_view
            prompt = str(getattr(view, "prompt", "")) + str(getattr(view, "foot", ""))
            if "●" in prompt or type(view).__name__ == "CloveceWinView":
                self.app.service.post(ButtonPress("select"))

    @property
    def url(self) -> str | None:
        phone = self.app.phone
        return phone.url if phone is not None else None

    def close(self) -> None:
        self.app.service.stop()
        self.thread.join(10)
        self.dice.close()


def slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=120.0)
    ap.add_argument("--settle", type=float, default=10.0, help="minutes before growth counts")
    ap.add_argument("--sample", type=float, default=30.0, help="seconds between samples")
    ap.add_argument("--phones", type=int, default=10)
    ap.add_argument("--roll-every", type=float, default=0.5)
    ap.add_argument("--out", default="", help="CSV of the samples (default: none)")
    ap.add_argument("--trace", action="store_true", help="tracemalloc: where memory grows")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING)
    if args.trace:
        import tracemalloc

        tracemalloc.start(12)
    seconds = args.minutes * 60.0
    rng = random.Random(args.seed)
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    if out:
        out.write("seconds,rss_kb,fds,threads,games,rolls,py_blocks,gc_objects\n")
    samples: list[tuple[float, int, int, int]] = []
    blocks: list[tuple[float, int, int]] = []  # Python's own: allocated blocks, gc objects
    settled: Any = None
    with tempfile.TemporaryDirectory() as data:
        table = Table(data, args.seed)
        deadline = time.monotonic() + 90  # a loaded machine, tracemalloc
        while table.url is None or table.app.phone is None or table.app.phone.view is None:
            if time.monotonic() > deadline:
                raise SystemExit("soak: the phone view did not start")
            time.sleep(0.05)
        phones = subprocess.Popen([sys.executable, "-c", PHONES, table.url, str(args.phones),
                                   str(seconds + 5), "60"])
        t0 = time.monotonic()
        next_sample = t0
        next_drive = t0
        rolls = 0
        try:
            next_roll = t0
            while (now := time.monotonic()) < t0 + seconds:
                if now >= next_drive:
                    table.drive()
                    next_drive = now + 0.3
                if now >= next_roll:
                    table.dice.roll(rng.randint(1, 6))
                    rolls += 1
                    next_roll = now + args.roll_every
                if len(table.dice.sent) > 1000:  # the simulated dice's own record of its
                    del table.dice.sent[:]  # rolls (a test's), not the service's memory
                    for pin in table.pins.pins.values():  # and gpiozero's mock pins' record
                        pin.clear_states()  # of every change (real pins keep none)
                if now >= next_sample:
                    s = (now - t0, rss_kb(), fds(), threads())
                    samples.append(s)
                    b = (s[0], sys.getallocatedblocks(), len(gc.get_objects()))
                    blocks.append(b)
                    if out:
                        out.write(f"{s[0]:.0f},{s[1]},{s[2]},{s[3]},{table.games},{rolls},"
                                  f"{b[1]},{b[2]}\n")
                        out.flush()
                    if settled is None and args.trace and s[0] >= args.settle * 60:
                        import tracemalloc

                        settled = tracemalloc.take_snapshot()
                    next_sample = now + args.sample
                time.sleep(0.1)
            if args.trace:
                import tracemalloc

                end = tracemalloc.take_snapshot()
                if settled is not None:
                    print("tracemalloc: the biggest growths after the settling time")
                    for stat in end.compare_to(settled, "traceback")[:15]:
                        print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
                        for frame in stat.traceback.format()[-8:]:
                            print("     " + frame)
        finally:
            phones.terminate()
            phones.wait(10)
            served = table.games
            table.close()
            from companion.storage.journal import Journal

            records = len(Journal(Path(data) / "game.journal").load())
    after = [(t, r) for t, r, _, _ in samples if t >= args.settle * 60]
    print(f"soak: {args.minutes:g} min, {served} games started, {rolls} rolls, "
          f"{records} records in the last game's journal, "
          f"{args.phones} phones, {len(samples)} samples")
    if samples:
        first = samples[0]
        print(f"  RSS: start {first[1] / 1024:.1f} MB, end {samples[-1][1] / 1024:.1f} MB, "
              f"max {max(r for _, r, _, _ in samples) / 1024:.1f} MB")
    if len(after) >= 2:
        grow = (after[-1][1] - after[0][1]) / 1024
        per_hour = slope([(t / 3600, r / 1024) for t, r in after])
        print(f"  RSS after {args.settle:g} min: {after[0][1] / 1024:.2f} MB -> "
              f"{after[-1][1] / 1024:.2f} MB = {grow:+.2f} MB; least-squares slope "
              f"{per_hour:+.3f} MB/hour; target < 1 MB: {'met' if grow < 1 else 'NOT met'}")
    after_b = [b for b in blocks if b[0] >= args.settle * 60]
    if len(after_b) >= 2:
        print(f"  Python's heap after {args.settle:g} min: allocated blocks {after_b[0][1]} -> "
              f"{after_b[-1][1]}, gc objects {after_b[0][2]} -> {after_b[-1][2]}")
    late = [s for s in samples if s[0] >= args.settle * 60] or samples
    print(f"  fds: {min(s[2] for s in late)}..{max(s[2] for s in late)}, threads: "
          f"{min(s[3] for s in late)}..{max(s[3] for s in late)} (after {args.settle:g} min)")
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
