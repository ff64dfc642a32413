"""The phone view through the table service: what it costs the table, how fast phones see it.

Everything runs through the real service, as ``companion sim`` does: an ``App``
on gpiozero's mock pins with luma's ``dummy`` display, the simulated dice (the
firmware's link code) on a pty, a four-player Člověče game, and the phone view
started by the configuration (``[web] enabled = true`` on 127.0.0.1, any free
port), which publishes the host's facts after each frame and builds the
snapshots on the web server's thread.  The "browsers" are event-stream clients
(aiohttp, all in one event loop) in another process on loopback: pessimistic,
as real phones are other devices and their work is not this machine's.

1. dice frame -> OLED frame, with the phone view off, on with 0 browsers, and on
   with --clients browsers (their process only reads the stream); the same two "on"
   modes with the task-per-stream server (``benchmarks/peers/web_server_task_per_stream.py``,
   kept only for this comparison), all alternating in one run.  Each browser connects from
   its own loopback address (as each phone has its own).  A roll frame
   is written on the dice's pty; the time ends when the loop has handed the
   frame showing the roll to the display.  Rolls 1-5 (never a six: three tries,
   then the next colour), so every roll changes the game and a snapshot is
   published and pushed after each.  The gap after each frame is random, 0 to
   --gap ms (the same seeded gaps in every mode), so the server's work lands
   at every moment of the next roll, also on top of it (real throws are seconds
   apart: this is the worst case).  The modes alternate over --rounds.  Target:
   <= 10 % slower with 30 browsers than with the view off.
2. action -> change seen by a browser: a confirmed action (a roll on the dice, and
   the move chosen with ● when it has one) until every connected browser has
   received the snapshot that contains it (its event lines and throws, compared
   with the host's facts when its frame was shown), with 1 and --clients
   browsers (● is posted to the loop as the buttons' adapter posts it; the first
   action waits until the server looks every 20 ms, as it does once a browser is
   connected).  Peer, measured in the same run: a bare ``WebView`` (no service)
   publishing the same facts as the same snapshot callables to the same clients,
   publish() -> received.  Target: p95 <= 200 ms.

In part 1 the browsers' process runs at ``--browsers-nice`` (default 19): on a table the
phones are other devices, so here they take the CPU the service does not want; with 0 they
compete with the service for this machine's two cores as equals (earlier figures were
measured so).  In part 2 their reading is part of what is timed: they
run at the service's niceness.

The browsers' arrival times and the benchmark's start times are both
``time.monotonic()`` (``CLOCK_MONOTONIC``, the same clock in both processes).

    .venv/bin/python benchmarks/web_service.py [--rolls 50] [--rounds 8] [--actions 120]
                                               [--clients 30] [--gap 25] [--only frames|seen]
                                               [--browsers-nice 19]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games import playable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's companion, whatever the venv has installed
sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the other benchmarks)

CLIENTS = r"""
import asyncio, hashlib, json, sys, time
import aiohttp

def digest(events, throws):
    text = json.dumps([list(events)[-12:], list(throws)], ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]

async def one(session, url, k, parse):
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with session.get(url, timeout=timeout) as resp:
        if not parse:  # only take the bytes off the socket, as cheaply as a client can
            while await resp.content.readany():
                pass
            return
        async for line in resp.content:
            if not line.startswith(b"data: {"):
                continue
            now = time.monotonic()
            data = json.loads(line[6:])
            key = digest(data.get("events", ()), data.get("throws", ()))
            sys.stdout.write(f"{now:.6f} {k} {key}\n")
            sys.stdout.flush()

def source(k):  # each phone its own loopback address, as each phone has its own
    return ("127.0.%d.%d" % (k // 250, 2 + k % 250), 0)

async def main(url, n, parse):
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0,
                                                                     local_addr=source(k)))
                for k in range(n)]
    try:
        await asyncio.gather(*(one(s, url, k, parse) for k, s in enumerate(sessions)))
    finally:
        for s in sessions:
            await s.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] == "parse"))
"""

def use_server(name: str) -> None:
    """The phone view's server for the next Table or bare view: "new" (this checkout's) or
    "old" (the task-per-stream server, kept in benchmarks/peers/ for this comparison only)."""
    import companion.web.server as server

    if not hasattr(server, "NEW_WEBVIEW"):
        server.NEW_WEBVIEW = server.WebView  # type: ignore[attr-defined]
    if name == "old":
        from peers.web_server_task_per_stream import WebView as OldWebView

        class Old(OldWebView):  # type: ignore[misc, valid-type]
            """The old server knows no ``hold`` (the table first came with the new one)."""

            def __init__(self, *args: Any, hold: Any = None, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)

        server.WebView = Old  # type: ignore[misc, assignment]
    else:
        server.WebView = server.NEW_WEBVIEW  # type: ignore[attr-defined]


BROWSERS_NICE = [19]
"""The browsers' process's niceness (``--browsers-nice``)."""
BROWSER_CPU: list[tuple[float, float]] = []
"""(CPU seconds of the browsers' process, wall seconds) of each run with browsers (part 1)."""
EVENT_LINES = 12  # a snapshot keeps the latest 12 event lines, as the hosts do


def digest(events: Sequence[str], throws: Sequence[int]) -> str:
    """What a snapshot says about the latest actions (the clients compute the same)."""
    text = json.dumps([list(events)[-EVENT_LINES:], list(throws)], ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


class Browsers:
    """``n`` event-stream clients in another process; with ``parse`` each snapshot's arrival
    is reported (time, client, digest)."""

    def __init__(self, url: str, n: int, parse: bool) -> None:
        self.n = n
        self.proc = subprocess.Popen([sys.executable, "-c", CLIENTS, url + "events", str(n),
                                      "parse" if parse else "read"],
                                     stdout=subprocess.PIPE, text=True,
                                     preexec_fn=functools.partial(os.nice, 0 if parse
                                                                  else BROWSERS_NICE[0]))
        self.arrivals: dict[str, list[float]] = defaultdict(list)
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            t, _, d = line.split()
            with self.cond:
                self.arrivals[d].append(float(t))
                self.cond.notify_all()

    def seen(self, key: str, after: float, timeout: float = 3.0) -> list[float]:
        """Milliseconds from ``after`` until each client received the snapshot ``key``
        (fewer than ``n`` values: some did not within ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = [t for t in self.arrivals[key] if t >= after]
                left = deadline - time.monotonic()
                if len(got) >= self.n or left <= 0:
                    return [(t - after) * 1000.0 for t in got[:self.n]]
                self.cond.wait(left)

    def cpu_seconds(self) -> float:
        """The CPU time the browsers' process has used so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"web_service: {what}")
        time.sleep(0.005)


class Table:
    """The real service in a thread, in a four-player Člověče game, its dice on a pty."""

    def __init__(self, data: str, *, web: bool, seed: int = 1, clients: int = 0,
                 server: str = "new") -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.devices.display import create_device
        from companion.dice.sim import SimulatedDice
        from companion.games.clovece.screens import CloveceTurnView
        from companion.inputs.events import ButtonPress
        from companion.service.app import build_app
        from companion.service.config import Config

        base = Config()
        cfg = replace(
            base,
            display=replace(base.display, driver="dummy"),
            game=replace(base.game, auto_move_delay=10.0),  # the benchmark presses ● itself
            service=replace(base.service, data_dir=data, pin_factory="mock",
                            shutdown_command=""),
            voice=replace(base.voice, enabled=False),
            web=replace(base.web, enabled=web, address="127.0.0.1", port=0,
                        max_clients=max(base.web.max_clients, min(256, clients + 8))),
        )
        use_server(server)
        self.dice = SimulatedDice(seed=seed)
        self.app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                             dice_port=self.dice.path)
        self.updates: list[tuple[float, bool]] = []
        """The loop's calls of the phone view's idle hook: (µs, whether it published)."""
        if self.app.phone is not None:
            self._time_updates(self.app.phone)
        self.shown = threading.Event()
        self.stamp = 0.0
        self.facts: Any = None
        self._before: object = None
        self.app.service.on_view.append(self._on_view)
        self.thread = threading.Thread(target=self.app.run, daemon=True)
        self.thread.start()
        self.app.service.post(ButtonPress("left"))  # the set-up's last line: start the game
        self.app.service.post(ButtonPress("select"))
        wait_for(lambda: isinstance(self.app.service.last_view, CloveceTurnView)
                 and self.app.service.last_view.dice == "ok", 10, "the game did not start")
        self.host: Any = self.app.controller.host
        if web:
            phone = self.app.phone
            assert phone is not None
            wait_for(lambda: phone.url is not None and phone.view is not None
                     and phone.view.seq > 0, 10, "the phone view did not start")
        time.sleep(0.3)

    def _time_updates(self, phone: Any) -> None:
        real = phone.update  # the App's idle hook calls phone.update(shell) by name

        def timed(shell: Any) -> None:
            before = phone.published
            t0 = time.perf_counter_ns()
            real(shell)
            self.updates.append(((time.perf_counter_ns() - t0) / 1000.0,
                                 phone.published > before))

        phone.update = timed

    @property
    def url(self) -> str:
        assert self.app.phone is not None and self.app.phone.url is not None
        return self.app.phone.url

    def _on_view(self, view: object) -> None:
        """The loop's frame hook (its thread): the first frame after the game moved."""
        before = self._before
        if before is not None and self.host.play.current() is not before:
            self._before = None
            self.stamp = time.perf_counter()
            self.facts = self.host.facts()
            self.shown.set()

    def _act(self, act: Any) -> tuple[float, float, Any]:
        """(perf_counter, monotonic) just before ``act``; waits for the frame showing it."""
        self.shown.clear()
        self._before = self.host.play.current()
        t_mono, t0 = time.monotonic(), time.perf_counter()
        act()
        if not self.shown.wait(3):
            raise SystemExit("web_service: no frame after an action")
        return (self.stamp - t0) * 1000.0, t_mono, self.facts

    def roll(self, value: int) -> tuple[float, float, Any]:
        return self._act(lambda: self.dice.roll(value))

    def press(self, name: str) -> tuple[float, float, Any]:
        from companion.inputs.events import ButtonPress

        return self._act(lambda: self.app.service.post(ButtonPress(name)))

    @property
    def move_pending(self) -> bool:
        return self.host.state.roll is not None

    @property
    def over(self) -> bool:
        return self.host.state.pos.winner is not None

    def close(self) -> None:
        self.app.service.stop()
        self.thread.join(10)
        self.dice.close()


# --- 1. dice frame -> OLED frame ------------------------------------------------------------


def frames_run(web: bool, clients: int, rolls: int, gaps: list[float], server: str = "new"
               ) -> tuple[list[float], int, int, list[tuple[float, bool]]]:
    """Frame latencies (ms) of ``rolls`` rolls; the snapshots published and taken; the
    phone view's idle hook calls (µs, published)."""
    with tempfile.TemporaryDirectory() as data:
        table = Table(data, web=web, clients=clients, server=server)
        browsers = None
        try:
            if clients:
                phone = table.app.phone
                assert phone is not None and phone.view is not None
                view = phone.view
                browsers = Browsers(table.url, clients, parse=False)
                wait_for(lambda: view.clients >= clients, 20, f"{clients} clients did not connect")
            out = []
            cpu0 = browsers.cpu_seconds() if browsers is not None else 0.0
            t0 = time.perf_counter()
            for i in range(rolls):
                ms, _, _ = table.roll(1 + i % 5)
                out.append(ms)
                time.sleep(gaps[i % len(gaps)])
            if browsers is not None:
                BROWSER_CPU.append((browsers.cpu_seconds() - cpu0, time.perf_counter() - t0))
            phone = table.app.phone
            published = phone.published if phone is not None else 0
            taken = phone.view.seq if phone is not None and phone.view is not None else 0
        finally:
            if browsers is not None:
                browsers.close()
            table.close()
    return out, published, taken, table.updates


def frames(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    gaps = [rng.uniform(0, args.gap / 1000.0) for _ in range(args.rolls)]
    modes = {"off": (False, 0, "new"), "on, 0 browsers": (True, 0, "new"),
             f"on, {args.clients} browsers": (True, args.clients, "new"),
             "old server, 0 browsers": (True, 0, "old"),
             f"old server, {args.clients} browsers": (True, args.clients, "old")}
    got: dict[str, list[float]] = {m: [] for m in modes}
    counts: dict[str, tuple[int, int]] = {m: (0, 0) for m in modes}
    names = list(modes)
    updates: list[tuple[float, bool]] = []
    for r in range(args.rounds):  # alternate (and rotate) the modes so noise hits them all
        for name in names[r % len(names):] + names[:r % len(names)]:
            web, clients, server = modes[name]
            ms, published, taken, calls = frames_run(web, clients, args.rolls, gaps, server)
            got[name] += ms
            updates += calls
            p, t = counts[name]
            counts[name] = (p + published, t + taken)
    print(f"1. dice frame -> OLED frame through the service, {args.rolls} rolls x "
          f"{args.rounds} rounds per mode, 0-{args.gap:g} ms after each frame; the browsers' "
          f"process at nice {BROWSERS_NICE[0]}")
    off = got["off"]
    for name, ms in got.items():
        p, t = counts[name]
        extra = f"; {p} snapshots published, {t} taken by the server" if name != "off" else ""
        ratio = (f"  ({statistics.median(ms) / statistics.median(off):.2f}x / "
                 f"{percentile(ms, 0.95) / percentile(off, 0.95):.2f}x of off)"
                 if name != "off" else "")
        print(f"  phone view {name:18}: median {statistics.median(ms):.2f} ms  "
              f"p95 {percentile(ms, 0.95):.2f} ms  max {max(ms):.2f} ms{ratio}{extra}")
    pub = [us for us, published in updates if published]
    same = [us for us, published in updates if not published]
    print(f"  the loop's part (Phone.update in the idle hook, facts() and a comparison): "
          f"median {statistics.median(pub):.0f} µs when it published ({len(pub)} calls), "
          f"{statistics.median(same):.1f} µs when nothing changed ({len(same)} calls)")
    cpu = sum(c for c, _ in BROWSER_CPU)
    wall = sum(w for _, w in BROWSER_CPU)
    print(f"  the {args.clients} browsers' own process (phones, on a real table) used "
          f"{cpu:.1f} s of CPU in {wall:.1f} s of rolls ({cpu / wall * 100:.0f} % of one core)")
    many = got[names[2]]
    none = got[names[1]]
    ratio = statistics.median(many) / statistics.median(off)
    print(f"  {args.clients} browsers vs 0 browsers: median "
          f"{statistics.median(many) / statistics.median(none):.2f}x, p95 "
          f"{percentile(many, 0.95) / percentile(none, 0.95):.2f}x")
    old_many = got[names[4]]
    print(f"  new server vs old, {args.clients} browsers: median "
          f"{statistics.median(many) / statistics.median(old_many):.2f}x, p95 "
          f"{percentile(many, 0.95) / percentile(old_many, 0.95):.2f}x; old server with "
          f"{args.clients} browsers vs off: "
          f"{statistics.median(old_many) / statistics.median(off):.2f}x")
    print(f"  target: <= 10 % slower with {args.clients} browsers than off (medians): "
          f"{'met' if ratio <= 1.10 else 'NOT met'} ({(ratio - 1) * 100:+.1f} %)")


# --- 2. action -> seen by a browser ---------------------------------------------------------


def seen_run(clients: int, actions: int, gaps: list[float], seed: int, server: str = "new"
             ) -> tuple[dict[str, list[float]], list[Any], int, str]:
    """Through the service: ms from each action to each client's receipt of its snapshot."""
    out: dict[str, list[float]] = {"roll": [], "move": []}
    facts_seen: list[Any] = []
    missing = 0
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as data:
        table = Table(data, web=True, clients=clients, server=server)
        label = table.app.controller.table.label
        phone = table.app.phone
        assert phone is not None and phone.view is not None
        view = phone.view
        browsers = Browsers(table.url, clients, parse=True)
        try:
            wait_for(lambda: view.clients >= clients, 20, f"{clients} clients did not connect")
            time.sleep(0.3)  # the server's loop ends its idle look (200 ms) and looks every 20 ms
            done = 0
            while done < actions and not table.over:
                kind = "move" if table.move_pending else "roll"
                if kind == "move":
                    _, t0, facts = table.press("select")
                else:
                    _, t0, facts = table.roll(rng.randint(1, 6))
                ms = browsers.seen(digest(facts.events, facts.throws), t0)
                missing += clients - len(ms)
                out[kind] += ms
                facts_seen.append(facts)
                time.sleep(gaps[done % len(gaps)])
                done += 1
        finally:
            browsers.close()
            table.close()
    return out, facts_seen, missing, label


def peer_run(clients: int, facts_seq: list[Any], label: str, gaps: list[float],
             server: str = "new") -> tuple[list[float], int]:
    """A bare WebView publishing the same facts as the same snapshot callables."""
    from companion.games import find_game
    from companion.service.phone import snapshot_of

    use_server(server)
    from companion.web.server import WebView

    topics = tuple(find_game("clovece").topics())
    out: list[float] = []
    missing = 0
    with WebView("127.0.0.1", 0, max_clients=clients + 2) as view:
        view.publish(functools.partial(snapshot_of, "clovece", label, facts_seq[0], topics))
        wait_for(lambda: view.seq > 0, 10, "the bare view did not take a snapshot")
        browsers = Browsers(view.url, clients, parse=True)
        try:
            wait_for(lambda: view.clients >= clients, 20, f"{clients} clients did not connect")
            time.sleep(0.3)
            for i, facts in enumerate(facts_seq[1:]):
                t0 = time.monotonic()
                view.publish(functools.partial(snapshot_of, "clovece", label, facts, topics))
                ms = browsers.seen(digest(facts.events, facts.throws), t0)
                missing += clients - len(ms)
                out += ms
                time.sleep(gaps[i % len(gaps)])
        finally:
            browsers.close()
    return out, missing


def build_cost(facts_seq: list[Any], label: str) -> list[float]:
    """ms to build each snapshot and its JSON, as the server's thread does (after warm-up)."""
    from companion.games import find_game
    from companion.service.phone import snapshot_of

    topics = tuple(find_game("clovece").topics())
    out = []
    for facts in facts_seq:
        t0 = time.perf_counter()
        json.dumps(snapshot_of("clovece", label, facts, topics).to_json(), ensure_ascii=False,
                   separators=(",", ":")).encode()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def first_snapshot() -> float:
    """ms to build the first Člověče snapshot in this process (the runs then start warm)."""
    from companion.games import find_game
    from companion.games.clovece.engine.game import GAME, Setup
    from companion.games.clovece.facts import CloveceFacts
    from companion.service.phone import snapshot_of

    t0 = time.perf_counter()
    facts = CloveceFacts(GAME.new_game(Setup(4)).pos)
    snapshot_of("clovece", "Člověče", facts, tuple(find_game("clovece").topics())).to_json()
    return (time.perf_counter() - t0) * 1000.0


def line(ms: list[float]) -> str:
    return (f"p50 {statistics.median(ms):6.2f} ms  p95 {percentile(ms, 0.95):6.2f} ms  "
            f"max {max(ms):6.2f} ms")


def seen(args: argparse.Namespace) -> None:
    rng = random.Random(11)  # random gaps: actions never keep step with the server's 20 ms look
    gaps = [rng.uniform(0.5, 1.5) * args.seen_gap / 1000.0 for _ in range(args.actions)]
    print(f"2. action -> snapshot received by every browser, {args.actions} actions "
          f"{args.seen_gap / 2:g}-{args.seen_gap * 1.5:g} ms apart (rolls on the dice, "
          "moves with ●)")
    verdict = ""
    p95s: dict[str, float] = {}
    for n, server in [(n, s) for n in sorted({1, args.clients}) for s in ("new", "old")]:
        kinds, facts_seq, missing, label = seen_run(n, args.actions, gaps, seed=3,
                                                    server=server)
        both = kinds["roll"] + kinds["move"]
        peer, peer_missing = peer_run(n, facts_seq, label, gaps, server)
        p95s[f"{server}{n}"] = percentile(both, 0.95)
        print(f"  {n:2} browser(s), {server} server, through the service: {line(both)}  "
              f"({len(both)} receipts; {missing} missing)")
        for kind, ms in kinds.items():
            if ms:
                print(f"       {kind + 's':5} {len(ms) // n:3} x {n}: {line(ms)}")
        print(f"     peer, bare WebView publish -> received: {line(peer)}  "
              f"({len(peer)} receipts; {peer_missing} missing)")
        print(f"     ratio service/peer: p50 {statistics.median(both) / statistics.median(peer):.2f}x"
              f"  p95 {percentile(both, 0.95) / percentile(peer, 0.95):.2f}x")
        if n == args.clients:
            cost = build_cost(facts_seq, label)
            print(f"     a snapshot built on the server's thread (SVG, JSON): median "
                  f"{statistics.median(cost):.2f} ms, max {max(cost):.2f} ms")
        if server == "new":
            p95 = percentile(both, 0.95)
            verdict = f"{'met' if p95 <= 200 and not missing else 'NOT met'} ({p95:.1f} ms)"
    print(f"  target p95 <= 200 ms with {args.clients} browsers (new server): {verdict}")
    n = args.clients
    print(f"  new/old p95 with {n} browsers: {p95s[f'new{n}'] / p95s[f'old{n}']:.2f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=50, help="rolls per mode and round (part 1)")
    ap.add_argument("--rounds", type=int, default=8, help="rounds of the three modes (part 1)")
    ap.add_argument("--gap", type=float, default=25.0,
                    help="ms: the longest random wait after a frame before the next roll (1)")
    ap.add_argument("--actions", type=int, default=120, help="actions per run (part 2)")
    ap.add_argument("--seen-gap", type=float, default=50.0, help="ms between actions (part 2)")
    ap.add_argument("--clients", type=int, default=30)
    ap.add_argument("--only", choices=("frames", "seen"), default=None)
    ap.add_argument("--browsers-nice", type=int, default=19,
                    help="the browsers' process's niceness (0: as the service's)")
    args = ap.parse_args()
    BROWSERS_NICE[0] = args.browsers_nice
    # As installed on the Pi (pip byte-compiles a wheel), not as a checkout under
    # PYTHONDONTWRITEBYTECODE: the same compiled modules in every run.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "companion")],
                   check=True)
    import companion

    print(f"companion from {Path(companion.__file__).parent}")
    print(f"the first snapshot in a process (imports, the board's static layer): "
          f"{first_snapshot():.0f} ms, once, on the server's thread")
    if args.only in (None, "frames"):
        frames(args)
    if args.only in (None, "seen"):
        seen(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
