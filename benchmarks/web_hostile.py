"""The phone view under a hostile client, the new server beside the task-per-stream server.

On loopback only, every loop bounded: ``--slow`` sockets from one address (127.0.0.2) each
send half a request's headers and then nothing (slowloris); meanwhile a phone at another
address (127.0.0.3) loads the page ``--loads`` times, each with a one-second limit; and
``--streams`` phones (127.0.0.10...) hold their event streams open while the sockets
arrive and must still receive the next snapshot.  Printed for each server: page loads
answered within a second, the slowest, and whether the streams still received.  Then the
time a half-sent request is held open (the header time limit).

    .venv/bin/python benchmarks/web_hostile.py [--slow 60] [--loads 10] [--streams 4]
"""

from __future__ import annotations

import argparse
import http.client
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from peers.web_server_task_per_stream import WebView as OldWebView  # noqa: E402

from companion.web import samples  # noqa: E402
from companion.web.server import WebView, wait_until  # noqa: E402
from tests.web.test_gate import slow_sockets  # noqa: E402  (the test's slowloris sockets)


def page_load(port: int, token: str, source: str) -> float | None:
    """Seconds to a 200 answer, or None (refused, reset, or no answer within a second)."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0, source_address=(source, 0))
    try:
        conn.request("GET", f"/{token}/")
        ok = conn.getresponse().status == 200
    except OSError:
        ok = False
    finally:
        conn.close()
    took = time.monotonic() - t0
    return took if ok and took <= 1.0 else None


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=60)
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--streams", type=int, default=4)
    args = ap.parse_args()
    print(f"{args.slow} slow-header sockets from 127.0.0.2, {args.loads} page loads from "
          f"127.0.0.3, {args.streams} phones' streams open:")
    for name, cls in (("new", WebView), ("old", OldWebView)):
        print(f"  {name} server: {attack(cls, args)}")
    for name, cls in (("new", WebView), ("old", OldWebView)):
        print(f"  {name} server: a half-sent request is held open for {held(cls)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
