"""The phone view under a hostile client (loopback only; every loop bounded): slowly sent
headers, a flood of sockets from one address, and the table's phones kept ahead of them."""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from companion.games import samples
from companion.web import server
from companion.web.server import WebView
from tests.web.test_server import Stream


def slow_sockets(port: int, n: int, source: str) -> list[socket.socket]:
    """``n`` sockets from ``source`` that send half a request and then nothing."""
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        except OSError:
            pass
        out.append(s)
    return out


def page_load(view: WebView, source: str) -> tuple[int, float]:
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", view.port, timeout=5,
                                      source_address=(source, 0))
    try:
        conn.request("GET", f"/{view.token}/")
        status = conn.getresponse().status
    finally:
        conn.close()
    return status, time.monotonic() - t0


def closed(s: socket.socket) -> bool:
    try:
        s.settimeout(0.05)
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_sixty_slow_header_sockets_from_one_address_do_not_lock_out_another():
    with WebView("127.0.0.1", 0) as view:
        socks = slow_sockets(view.port, 60, "127.0.0.2")
        try:
            loads = [page_load(view, "127.0.0.3") for _ in range(10)]
        finally:
            for s in socks:
                s.close()
        assert [status for status, _ in loads] == [200] * 10
        assert max(seconds for _, seconds in loads) < 1.0
        gate = view.gate
        assert gate is not None and server.wait_until(
            lambda: gate.refused >= 60 - server.PER_ADDRESS, timeout_s=3)


def test_a_half_sent_request_is_closed_after_the_header_time_limit():
    with WebView("127.0.0.1", 0, header_timeout_s=0.3) as view:
        [s] = slow_sockets(view.port, 1, "127.0.0.4")
        try:
            assert not closed(s)
            deadline = time.monotonic() + 3
            while not closed(s) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert closed(s)
        finally:
            s.close()


def test_the_phones_streams_stay_when_half_open_sockets_fill_every_connection():
    """One address may hold every connection here, so its half-open sockets fill them all and
    then close each other to make room (at once, not after their header time limit)."""
    cap = 2 + server.SPARE_CONNECTIONS
    with WebView("127.0.0.1", 0, max_clients=2, per_address=cap + 10,
                 header_timeout_s=60.0) as view:
        phones = [Stream(view) for _ in range(2)]
        try:
            for p in phones:
                p.next_of("hello")
            socks = slow_sockets(view.port, cap + 5, "127.0.0.5")
            try:
                gate = view.gate
                assert gate is not None
                assert server.wait_until(lambda: gate.evicted >= 5, timeout_s=10)
                assert gate.streams == 2
                view.publish(samples.clovece()[0])
                for p in phones:  # both phones still receive
                    assert p.next_of("snapshot")["event"] == "snapshot"
                assert page_load(view, "127.0.0.6")[0] == 200
            finally:
                for s in socks:
                    s.close()
        finally:
            for p in phones:
                p.close()


class _Transport:
    """A connection as the gate sees it, without a socket."""

    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.aborted = False

    def get_extra_info(self, key: str) -> object:
        return (self.peer, 40000) if key == "peername" else None

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.aborted

    def close(self) -> None:
        self.aborted = True


def _crowd(addresses: int, per: int) -> list[_Transport]:
    return [_Transport(f"127.0.0.{20 + a}") for a in range(addresses) for _ in range(per)]


@pytest.mark.parametrize("kind", ["slow headers", "idle keep-alive"])
def test_a_phone_accepted_amid_a_crowd_of_many_addresses_is_closed_last(kind):
    """A crowd of 100 addresses x 8 sockets fills every connection; the server accepts a
    burst of them right behind a new phone, before the phone's request is read: the burst
    closes the old sockets, not the phone; once its request is in, a flood of 440 more fresh
    sockets still does not close it (the oldest waiting one went first before this)."""
    import asyncio

    from companion.web.gate import Gate

    loop = asyncio.new_event_loop()
    try:
        gate = Gate(loop, max_connections=server.MAX_CLIENTS + server.SPARE_CONNECTIONS,
                    per_address=server.PER_ADDRESS, header_timeout_s=3.0)
        crowd = _crowd(100, 8)
        cap = gate.max_connections
        for t in crowd[:cap]:
            assert gate.admit(t)  # type: ignore[arg-type]
            if kind == "idle keep-alive":
                gate.busy(t)  # type: ignore[arg-type]
                gate.idle(t)  # type: ignore[arg-type]
        for conn in gate.conns.values():
            conn.since -= 5.0  # older than a phone's grace
        phone = _Transport("127.0.0.250")
        assert gate.admit(phone)  # type: ignore[arg-type]
        for t in crowd[cap:cap + 99]:  # the rest of the accept burst (the listen backlog)
            assert gate.admit(t)  # type: ignore[arg-type]
        assert phone in gate.conns and not phone.aborted
        assert gate.evicted == sum(t.aborted for t in crowd[:cap]) == 100  # old ones only
        gate.busy(phone)  # its request is in (the web view's middleware says so)
        for t in crowd[cap + 99:]:
            gate.admit(t)  # type: ignore[arg-type]
        assert phone in gate.conns and not phone.aborted
        assert len(gate.conns) == cap
    finally:
        loop.close()


def test_eight_hundred_slow_sockets_from_a_hundred_addresses_let_a_new_phone_in():
    with WebView("127.0.0.1", 0) as view:
        socks = [s for a in range(100) for s in slow_sockets(view.port, 8, f"127.0.0.{20 + a}")]
        try:
            loads = [page_load(view, "127.0.0.250") for _ in range(10)]
        finally:
            for s in socks:
                s.close()
        assert [status for status, _ in loads] == [200] * 10
        assert max(seconds for _, seconds in loads) < 2.0
