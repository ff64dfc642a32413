"""Phone view push: publish() -> the snapshot seen by a browser, with 1 and 30 browsers.

A WebView serves on loopback; the browsers are event-stream clients (aiohttp) in a
separate process, all in one event loop (pessimistic: real phones are separate
devices).  Each published snapshot carries its ``time.monotonic()`` at publish;
a client notes the time a snapshot's line arrives, and ``CLOCK_MONOTONIC`` is
the same clock in both processes.  Snapshots are the napij se sample's (the
biggest board: a 3 kB top layer, the static layer goes once by its hash).

Measured side by side in one run:

* action -> change seen by a client: p50, p95, max over every delivery, with 1 and
  with 30 connected clients (target p95 <= 200 ms);
* the caller's side: the cost of ``publish()`` itself (it only hands the snapshot over;
  the server's loop looks for it every 20 ms while browsers are connected), and an OLED frame drawn
  back to back on the caller's thread (the Člověče mini-map and the turn screen on a
  128x64 canvas, a stand-in for the service loop) while a snapshot is published
  every ``--interval`` ms, with 0 vs 30 clients (the ratio is the slowdown the
  server thread and the pushes cost the loop; the issue's target through the real
  service, part 2, is <= 10 %).

    .venv/bin/python benchmarks/web_push.py [--actions 150] [--interval 40] [--clients 30]
                                            [--rounds 4]

Both servers, the new one (aiohttp.web.Application behind its gate) and the task-per-stream server
(``benchmarks/peers/web_server_task_per_stream.py``, kept only for this comparison), alternate over
``--rounds`` and are printed side by side with their ratios.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402
from peers.web_server_task_per_stream import WebView as OldWebView  # noqa: E402

from companion.games import samples  # noqa: E402
from companion.games.clovece.engine.notation import parse_position  # noqa: E402
from companion.games.clovece.minimap import draw_board  # noqa: E402
from companion.web.server import WebView, wait_until  # noqa: E402

SERVERS = {"new": WebView, "old": OldWebView}
"""The web view on aiohttp.web.Application behind its gate, and the task-per-stream server
(a RequestHandler subclass with hand-made routing), measured in the same run."""

CLIENTS = r"""
import asyncio, json, sys, time
import aiohttp

async def one(session, url, out):
    timeout = aiohttp.ClientTimeout(total=None, sock_read=60)
    async with session.get(url, timeout=timeout) as resp:
        async for line in resp.content:
            now = time.monotonic()
            if not line.startswith(b"data: {"):
                continue
            extra = json.loads(line[6:]).get("extra", {})
            if "sent" in extra:
                out.append((now - extra["sent"]) * 1000.0)
            if extra.get("last"):
                return

def source(k):  # each phone its own loopback address, as each phone has its own
    return ("127.0.%d.%d" % (k // 250, 2 + k % 250), 0)

async def main(url, n):
    out = []
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0,
                                                                     local_addr=source(k)))
                for k in range(n)]
    try:
        await asyncio.gather(*(one(s, url, out) for s in sessions))
    finally:
        for s in sessions:
            await s.close()
    print(json.dumps(out))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def start_clients(view: WebView, n: int) -> subprocess.Popen[str] | None:
    if n == 0:
        return None
    seq = view.seq  # a neutral latest snapshot, so that no client starts with a "last" one
    view.publish(dataclasses.replace(samples.napij()[0], extra={}))
    wait_until(lambda: view.seq > seq)
    before = view.clients
    proc = subprocess.Popen([sys.executable, "-c", CLIENTS, view.url + "events", str(n)],
                            stdout=subprocess.PIPE, text=True)
    if not wait_until(lambda: view.clients >= before + n, 20):
        proc.kill()
        raise SystemExit(f"web_push: {n} clients did not connect")
    return proc


def stop_clients(view: WebView, proc: subprocess.Popen[str] | None) -> list[float]:
    view.publish(dataclasses.replace(samples.napij()[0], extra={"last": True}))
    if proc is None:
        return []
    out, _ = proc.communicate(timeout=60)
    wait_until(lambda: view.clients == 0, 10)
    return [float(v) for v in json.loads(out)]


def latencies(view: WebView, n: int, actions: int, interval_s: float) -> list[float]:
    frames = samples.napij()
    proc = start_clients(view, n)
    for i in range(actions):
        snap = frames[i % len(frames)]
        view.publish(dataclasses.replace(snap, extra={"sent": time.monotonic(), "i": i}))
        time.sleep(interval_s)
    return stop_clients(view, proc)


def oled_frames(view: WebView, n: int, seconds: float, interval_s: float
                ) -> tuple[list[float], list[float]]:
    """Frame times (ms) drawn back to back and publish() costs (µs) while publishing."""
    frames = samples.napij()
    pos = parse_position("r:5,15,h,f1 b:12,h,h,h g:8,30,h,h y:32,h,h,h turn:r")
    proc = start_clients(view, n)
    frame_ms: list[float] = []
    publish_us: list[float] = []
    next_action = time.perf_counter()
    end = next_action + seconds
    i = 0
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        if now >= next_action:
            snap = dataclasses.replace(frames[i % len(frames)], extra={"i": i})
            t0 = time.perf_counter_ns()
            view.publish(snap)
            publish_us.append((time.perf_counter_ns() - t0) / 1000.0)
            next_action += interval_s
            i += 1
        t0 = time.perf_counter_ns()
        img = Image.new("1", (128, 64))
        draw = ImageDraw.Draw(img)
        draw_board(draw, pos, 0, 4, phase_on=bool(i % 2))
        draw.text((60, 4), "Na tahu: červený", fill=1)
        draw.text((60, 20), "Hod: 3", fill=1)
        img.tobytes()
        frame_ms.append((time.perf_counter_ns() - t0) / 1e6)
    stop_clients(view, proc)
    return frame_ms, publish_us


def measure(cls: type, args: argparse.Namespace) -> dict[str, object]:
    interval_s = args.interval / 1000.0
    many = args.clients
    with cls("127.0.0.1", 0, max_clients=many + 2) as view:
        runs = {n: latencies(view, n, args.actions, interval_s) for n in (1, many)}
        # the caller's side, alternating 0 and many clients twice so noise hits both
        frames: dict[int, list[float]] = {0: [], many: []}
        costs: dict[int, list[float]] = {0: [], many: []}
        for n in (0, many, 0, many):
            f, c = oled_frames(view, n, args.seconds / 2, interval_s)
            frames[n] += f
            costs[n] += c
    return {"runs": runs, "frames": frames, "costs": costs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--interval", type=float, default=40.0, help="ms between actions")
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=4.0, help="of OLED frames per run")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the two servers")
    args = parser.parse_args()
    many = args.clients
    sample = samples.napij()[-1]
    data = sample.to_json()
    data["board"]["base"] = "board/0123456789abcdef0123.svg"  # as the server sends it
    size = len(json.dumps(data, ensure_ascii=False).encode())
    print(f"web push: napij se snapshots ({len(sample.board.top) / 1000:.1f} kB top layer, "
          f"{size / 1000:.1f} kB of JSON sent each), {args.actions} actions "
          f"{args.interval:g} ms apart, clients in another process (each its own loopback "
          "address); the new server and the old one in this run")
    got: dict[str, dict[str, Any]] = {}
    names = list(SERVERS)
    for r in range(args.rounds):  # alternate the servers so the machine's noise hits both
        for name in names[r % 2:] + names[:r % 2]:
            res = measure(SERVERS[name], args)
            if name not in got:
                got[name] = res
                continue
            for key in ("runs", "frames", "costs"):
                for n, values in res[key].items():
                    got[name][key][n] += values
    for name, res in got.items():
        runs: dict[int, list[float]] = res["runs"]  # type: ignore[assignment]
        frames: dict[int, list[float]] = res["frames"]  # type: ignore[assignment]
        costs: dict[int, list[float]] = res["costs"]  # type: ignore[assignment]
        print(f" {name} server:")
        for n, ms in runs.items():
            print(f"  action -> client, {n:2} client(s): p50 {statistics.median(ms):6.2f} ms  "
                  f"p95 {percentile(ms, 0.95):6.2f} ms  max {max(ms):6.2f} ms  "
                  f"({len(ms)} deliveries of {n * args.actions * args.rounds}; a missing one was replaced "
                  f"by the next before the server looked)")
        f0, fm = statistics.median(frames[0]), statistics.median(frames[many])
        c0, cm = statistics.median(costs[0]), statistics.median(costs[many])
        print(f"  publish() to the caller: median {c0:.1f} µs with 0 clients, {cm:.1f} µs with "
              f"{many}: {cm / c0:.2f}x")
        print(f"  OLED frame on the caller's thread while pushing: median {f0:.3f} ms with 0 "
              f"clients, {fm:.3f} ms with {many} (p95 {percentile(frames[0], 0.95):.3f} / "
              f"{percentile(frames[many], 0.95):.3f} ms): {fm / f0:.2f}x")
        p95 = percentile(runs[many], 0.95)
        verdict = "met" if p95 <= 200 else "NOT met"
        print(f"  target p95 <= 200 ms with {many} clients: {verdict} ({p95:.1f} ms)")
    new, old = got["new"], got["old"]
    for n in (1, many):
        a = new["runs"][n]  # type: ignore[index]
        b = old["runs"][n]  # type: ignore[index]
        print(f" new/old, {n} client(s): p50 {statistics.median(a) / statistics.median(b):.2f}x"
              f"  p95 {percentile(a, 0.95) / percentile(b, 0.95):.2f}x")
    fa = statistics.median(new["frames"][many])  # type: ignore[index]
    fb = statistics.median(old["frames"][many])  # type: ignore[index]
    print(f" new/old, OLED frame with {many} clients: {fa / fb:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
