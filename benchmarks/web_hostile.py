"""The phone view under a hostile client, the new server beside the task-per-stream server.

On loopback only, every loop bounded: ``--slow`` sockets from one address (127.0.0.2) each
send half a request's headers and then nothing (slowloris); meanwhile a phone at another
address (127.0.0.3) loads the page ``--loads`` times, each with a one-second limit; and
``--streams`` phones (127.0.0.10...) hold their event streams open while the sockets
arrive and must still receive the next snapshot.  Printed for each server: page loads
answered within a second, the slowest, and whether the streams still received.  Then the
time a half-sent request is held open (the header time limit).

    .venv/bin/python benchmarks/web_hostile.py [--slow 60] [--loads 10] [--streams 4]

Then a crowd from many addresses (``--crowd`` addresses 127.0.0.20... with ``--per`` sockets
each, kept up: a socket the server closes is opened again at once, for as long as the loads
take), in two kinds: slow-header sockets, and ``--idle`` keep-alive connections that made one
request and then sit idle.  A fresh phone (127.0.0.250) loads the page ``--loads`` times,
each within two seconds, while ``--streams`` phones hold their streams; the gate's admission
of this version beside the one it replaced (the oldest waiting connection closed first,
whatever its age and address; with this version's 256 connections, and with the 48 it had),
in the same run.

    .venv/bin/python benchmarks/web_hostile.py --only crowd [--crowd 100] [--per 8] [--idle 1000]

And what the crowd costs the table: dice frame -> OLED frame through the real service (the
harness of ``web_service.py``), with the phone view off and with it on under the kept-up crowd
of slow-header sockets (its own process), alternating over ``--rounds`` in one run; the
ratio of the medians.

    .venv/bin/python benchmarks/web_hostile.py --only frames [--rolls 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import http.client
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from peers.web_server_task_per_stream import WebView as OldWebView  # noqa: E402

from companion.games import samples  # noqa: E402
from companion.web import server  # noqa: E402
from companion.web.server import WebView, wait_until  # noqa: E402
from tests.web.test_gate import slow_sockets  # noqa: E402  (the test's slowloris sockets)


def page_load(port: int, token: str, source: str, limit: float = 1.0) -> float | None:
    """Seconds to a 200 answer, or None (refused, reset, or no answer within ``limit``)."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=limit,
                                      source_address=(source, 0))
    try:
        conn.request("GET", f"/{token}/")
        ok = conn.getresponse().status == 200
    except OSError:
        ok = False
    finally:
        conn.close()
    took = time.monotonic() - t0
    return took if ok and took <= limit else None


class Stream:
    def __init__(self, port: int, token: str, source: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3,
                                               source_address=(source, 0))
        self.conn.request("GET", f"/{token}/events")
        self.resp = self.conn.getresponse()

    def saw(self, kind: str) -> bool:
        try:
            for _ in range(200):
                line = self.resp.readline()
                if not line:
                    return False
                if line.startswith(f"event: {kind}".encode()):
                    return True
        except OSError:
            return False
        return False


def attack(cls: type, args: argparse.Namespace) -> str:
    with cls("127.0.0.1", 0) as view:
        streams = [Stream(view.port, view.token, f"127.0.0.{10 + k}") for k in range(args.streams)]
        for s in streams:
            s.saw("hello")
        socks = slow_sockets(view.port, args.slow, "127.0.0.2")
        try:
            loads = [page_load(view.port, view.token, "127.0.0.3") for _ in range(args.loads)]
            seq = view.seq
            view.publish(samples.clovece()[0])
            wait_until(lambda: view.seq > seq, 3)
            received = sum(1 for s in streams if s.saw("snapshot"))
        finally:
            for s in socks:
                s.close()
            for st in streams:
                st.conn.close()
    answered = [t for t in loads if t is not None]
    slowest = f"{max(answered) * 1000:.0f} ms" if answered else "-"
    return (f"{len(answered):2d}/{args.loads} page loads answered within 1 s (slowest "
            f"{slowest}); {received}/{args.streams} open streams received the next snapshot")


def held(cls: type) -> str:
    with cls("127.0.0.1", 0) as view:
        [s] = slow_sockets(view.port, 1, "127.0.0.4")
        t0 = time.monotonic()
        s.settimeout(0.2)
        while time.monotonic() - t0 < 12:
            try:
                if s.recv(1) == b"":
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        s.close()
        took = time.monotonic() - t0
    return f"{took:.1f} s" if took < 12 else "still open after 12 s"


def _slow_one(port: int, source: str) -> socket.socket | None:
    s = socket.socket()
    s.settimeout(2)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    except OSError:
        s.close()
        return None
    return s


def _idle_one(port: int, token: str, source: str) -> socket.socket | None:
    """A keep-alive connection that made one request, read its answer and sits idle."""
    s = socket.socket()
    s.settimeout(2)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET /{token}/snapshot.json HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = s.recv(65536)
            if not chunk:
                raise OSError("closed")
            got += chunk
    except OSError:
        s.close()
        return None
    return s


class Crowd:
    """``n`` sockets over ``addresses`` loopback addresses, kept up until :meth:`stop` (a
    socket the server closes is opened again; every loop bounded by the stop)."""

    def __init__(self, opener: Callable[[str], socket.socket | None], addresses: int,
                 per: int) -> None:
        self.opener = opener
        self.slots = [f"127.0.0.{20 + a}" for a in range(addresses) for _ in range(per)]
        self.socks: list[socket.socket | None] = [None] * len(self.slots)
        self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def fill(self) -> None:
        for i, source in enumerate(self.slots):
            self.socks[i] = self.opener(source)
            self.opened += 1
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for i, s in enumerate(self.socks):
                if self._stop.is_set():
                    return
                if s is None or _closed(s):
                    if s is not None:
                        s.close()
                    self.socks[i] = self.opener(self.slots[i])
                    self.opened += 1
            self._stop.wait(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for s in self.socks:
            if s is not None:
                s.close()


def _closed(s: socket.socket) -> bool:
    try:
        s.setblocking(False)
        try:
            return s.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
        finally:
            s.setblocking(True)
    except OSError:
        return True


def oldest_first(self: Any, *_: Any) -> bool:
    """The gate's admission before this version: the oldest waiting connection goes."""
    waiting = [c for c in self.conns.values() if c.state.value in ("new", "idle")]
    if not waiting:
        return False
    self._close(min(waiting, key=lambda c: c.since))
    return True


def _crowd_process(port: int, token: str, kind: str, addresses: int, per: int, idle: int,
                   filled: Any, stop: Any, opened: Any) -> None:
    """The crowd in a process of its own (another machine on the LAN, not this one's GIL)."""
    if kind == "slow":
        many = Crowd(lambda source: _slow_one(port, source), addresses, per)
    else:
        many = Crowd(lambda source: _idle_one(port, token, source), -(-idle // 8), 8)
        many.slots, many.socks = many.slots[:idle], many.socks[:idle]
    many.fill()
    filled.set()
    stop.wait(120)
    many.stop()
    opened.value = many.opened


def crowd(kind: str, args: argparse.Namespace) -> str:
    import multiprocessing

    mp = multiprocessing.get_context("fork")
    with WebView("127.0.0.1", 0) as view:
        streams = [Stream(view.port, view.token, f"127.0.0.{10 + k}") for k in range(args.streams)]
        for st in streams:
            st.saw("hello")
        filled, stop, opened = mp.Event(), mp.Event(), mp.Value("i", 0)
        child = mp.Process(target=_crowd_process, args=(
            view.port, view.token, kind, args.crowd, args.per, args.idle, filled, stop, opened))
        child.start()
        try:
            filled.wait(120)
            loads = [page_load(view.port, view.token, "127.0.0.250", limit=2.0)
                     for _ in range(args.loads)]
            seq = view.seq
            view.publish(samples.clovece()[0])
            wait_until(lambda: view.seq > seq, 3)
            received = sum(1 for st in streams if st.saw("snapshot"))
        finally:
            stop.set()
            child.join(30)
            for st in streams:
                st.conn.close()
        gate = view.gate
        refused, evicted = (gate.refused, gate.evicted) if gate is not None else (0, 0)
    answered = [t for t in loads if t is not None]
    slowest = f"{max(answered) * 1000:.0f} ms" if answered else "-"
    return (f"{len(answered):2d}/{args.loads} page loads within 2 s (slowest {slowest}); "
            f"{received}/{args.streams} streams received the next snapshot; {opened.value} "
            f"sockets opened, {evicted} closed to make room, {refused} refused")


def frames(args: argparse.Namespace) -> None:
    import multiprocessing
    import random
    import statistics
    import tempfile

    from web_service import Table

    mp = multiprocessing.get_context("fork")
    rng = random.Random(7)
    gaps = [rng.uniform(0, 0.025) for _ in range(args.rolls)]
    got: dict[str, list[float]] = {"off": [], "crowd": []}
    for r in range(args.rounds):
        for mode in (("off", "crowd") if r % 2 == 0 else ("crowd", "off")):
            with tempfile.TemporaryDirectory() as data:
                table = Table(data, web=mode == "crowd")
                child = None
                stop = mp.Event()
                try:
                    if mode == "crowd":
                        phone = table.app.phone
                        assert phone is not None and phone.view is not None
                        filled, opened = mp.Event(), mp.Value("i", 0)
                        child = mp.Process(target=_crowd_process, args=(
                            phone.view.port, phone.view.token, "slow", args.crowd, args.per,
                            args.idle, filled, stop, opened))
                        child.start()
                        filled.wait(120)
                    for i in range(args.rolls):
                        ms, _, _ = table.roll(1 + i % 5)
                        got[mode].append(ms)
                        time.sleep(gaps[i])
                finally:
                    stop.set()
                    if child is not None:
                        child.join(30)
                    table.close()
    off, crowd_ms = statistics.median(got["off"]), statistics.median(got["crowd"])
    print(f"dice frame -> OLED frame, {args.rolls} rolls x {args.rounds} rounds per mode: "
          f"view off median {off:.2f} ms; view on under {args.crowd} x {args.per} slow-header "
          f"sockets (kept up) median {crowd_ms:.2f} ms: {crowd_ms / off:.2f}x of off")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=60)
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--streams", type=int, default=4)
    ap.add_argument("--crowd", type=int, default=100, help="addresses of slow-header sockets")
    ap.add_argument("--per", type=int, default=8, help="slow-header sockets per address")
    ap.add_argument("--idle", type=int, default=1000, help="idle keep-alive connections")
    ap.add_argument("--only", choices=["one-address", "crowd", "frames"])
    ap.add_argument("--rolls", type=int, default=40, help="rolls per mode and round (frames)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the two modes (frames)")
    args = ap.parse_args()
    if args.only == "frames":
        frames(args)
        return 0
    if args.only != "one-address":
        from companion.web import gate

        for kind, what in (("slow", f"{args.crowd} addresses x {args.per} slow-header sockets"),
                           ("idle", f"{args.idle} idle keep-alive connections")):
            print(f"{what}, kept up; a fresh phone loads the page {args.loads} times, "
                  f"{args.streams} streams open:")
            print(f"  this admission: {crowd(kind, args)}")
            current, spare = gate.Gate._make_room, server.SPARE_CONNECTIONS
            gate.Gate._make_room = oldest_first  # type: ignore[method-assign]
            try:
                print(f"  oldest first:   {crowd(kind, args)}")
                server.SPARE_CONNECTIONS = 16  # and 48 connections in all
                print(f"  before (oldest first, 48 connections): {crowd(kind, args)}")
            finally:
                gate.Gate._make_room = current  # type: ignore[method-assign]
                server.SPARE_CONNECTIONS = spare
        if args.only == "crowd":
            return 0
    print(f"{args.slow} slow-header sockets from 127.0.0.2, {args.loads} page loads from "
          f"127.0.0.3, {args.streams} phones' streams open:")
    for name, cls in (("new", WebView), ("old", OldWebView)):
        print(f"  {name} server: {attack(cls, args)}")
    for name, cls in (("new", WebView), ("old", OldWebView)):
        print(f"  {name} server: a half-sent request is held open for {held(cls)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
