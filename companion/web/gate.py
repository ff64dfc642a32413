"""Who may hold a connection to the phone view: a gate in front of aiohttp's protocol.

aiohttp bounds a request's line and fields and the idle time of a kept-alive connection, but a
client that opens sockets and sends its headers one byte a minute (slowloris), or opens a few
hundred of them, would take every connection the box allows and lock the table's phones out.
The gate wraps each connection's aiohttp protocol (composition: the protocol aiohttp's
``AppRunner.server`` makes gets every call, the gate only decides who is let in and when a
connection is closed):

* at most ``per_address`` connections from one address (a phone needs its event stream and a
  few for a page load), well under the cap on all connections;
* a connection must send a whole request within ``header_timeout_s`` of opening (the web
  view's middleware says when a request starts), and its next one within ``idle_timeout_s``
  of an answer; otherwise it is closed;
* when all ``max_connections`` are taken, a new connection closes one that has not sent a
  request (or sits idle) — never an open event stream (a phone at the table that receives)
  nor a request being answered; with none such the new one is closed.  Which one: the
  oldest of those past their grace (:data:`GRACE_S`: a phone sends its request at once, so
  a connection still without one after that is slow, or idle).  A connection younger than
  its grace goes only when every waiting one is that young (a flood): then one of the
  address that holds the most connections, the oldest of it.  So hundreds of slow or idle sockets from many addresses cannot close a
  phone that has just connected: when a burst of them is accepted at once, behind the phone,
  they close each other and the old ones, not it; and a connection whose request has
  arrived whole (a phone sends it at once, before aiohttp has read it) goes last of all.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

NEW, BUSY, IDLE, STREAM = "new", "busy", "idle", "stream"
WARN_EVERY_S = 60.0
GRACE_S = 1.0
"""A new connection this young is closed to make room only when every waiting one is."""


@dataclass(eq=False)
class Conn:
    """One connection as the gate sees it."""

    transport: asyncio.BaseTransport
    peer: str
    state: str = NEW
    since: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    asked: bool = False
    """A whole request's head has arrived (before aiohttp has even read it): a phone."""


def _abort(transport: asyncio.BaseTransport) -> None:
    """Close at once, without waiting to send anything (a TCP transport can abort)."""
    abort = getattr(transport, "abort", None)
    if abort is not None:
        abort()
    else:
        transport.close()


class Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the gate."""

    def __init__(self, inner: Any, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate
        self.admitted = False
        self.transport: asyncio.BaseTransport | None = None
        self._tail = b""  # the last bytes received (a request's end split between reads)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.admitted = self.gate.admit(transport)
        if not self.admitted:
            _abort(transport)
            return
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            if b"\r\n\r\n" in self._tail + data[:4096] or b"\r\n\r\n" in data:
                self.gate.asked(self.transport)
            self._tail = data[-3:]
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None  # type: ignore[no-any-return]

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted:
            self.gate.release(self.transport)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()


class Gate:
    """The connections of one web view (see the module); all calls on the server's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, max_connections: int,
                 per_address: int, header_timeout_s: float, idle_timeout_s: float,
                 grace_s: float = GRACE_S) -> None:
        self.loop = loop
        self.grace_s = grace_s
        self.max_connections = max_connections
        self.per_address = per_address
        self.header_timeout_s = header_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.conns: dict[asyncio.BaseTransport, Conn] = {}
        self.by_peer: dict[str, int] = {}
        self.refused = 0
        """Connections closed at once (an address over its cap, every connection busy)."""
        self.evicted = 0
        """Connections closed to make room, or for sending no request in time."""
        self._warned = -1e9

    def factory(self, make: Callable[[], Any]) -> Callable[[], Guarded]:
        """A protocol factory for ``loop.create_server``: aiohttp's protocol behind the gate."""
        return lambda: Guarded(make(), self)

    # --- admitting ----------------------------------------------------------------------------

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) and peername else "?"
        if self.by_peer.get(peer, 0) >= self.per_address:
            return self._refuse(f"more than {self.per_address} connections from one address")
        if len(self.conns) >= self.max_connections and not self._make_room():
            return self._refuse("every connection is in use")
        conn = Conn(transport, peer)
        self.conns[transport] = conn
        self.by_peer[peer] = self.by_peer.get(peer, 0) + 1
        self._arm(conn, self.header_timeout_s)
        return True

    def _refuse(self, why: str) -> bool:
        self.refused += 1
        now = time.monotonic()
        if now - self._warned > WARN_EVERY_S:  # once a minute at most: a flood floods no log
            log.warning("web view: a connection refused (%s)", why)
            self._warned = now
        return False

    def _make_room(self) -> bool:
        young = time.monotonic() - self.grace_s
        for c in self.conns.values():  # in the order admitted: the oldest first, mostly found
            if c.state in (NEW, IDLE) and not c.asked and c.since <= young:  # at once
                self._close(c)
                return True
        waiting = [c for c in self.conns.values() if c.state in (NEW, IDLE)]
        if not waiting:
            return False

        def rank(c: Conn) -> tuple[bool, int, float]:  # a flood: every waiting one is young
            return (c.asked, -self.by_peer.get(c.peer, 0), c.since)

        self._close(min(waiting, key=rank))
        return True

    def _close(self, conn: Conn) -> None:
        self.evicted += 1
        self._forget(conn)
        _abort(conn.transport)

    def _forget(self, conn: Conn) -> None:
        if self.conns.pop(conn.transport, None) is None:
            return
        if conn.timer is not None:
            conn.timer.cancel()
        left = self.by_peer.get(conn.peer, 1) - 1
        if left:
            self.by_peer[conn.peer] = left
        else:
            self.by_peer.pop(conn.peer, None)

    def _arm(self, conn: Conn, seconds: float) -> None:
        if conn.timer is not None:
            conn.timer.cancel()
        conn.timer = self.loop.call_later(seconds, self._expire, conn)

    def _expire(self, conn: Conn) -> None:
        if conn.state in (NEW, IDLE) and conn.transport in self.conns:
            self._close(conn)

    # --- what the web view says ---------------------------------------------------------------

    def _set(self, transport: asyncio.BaseTransport, state: str) -> Conn | None:
        conn = self.conns.get(transport)
        if conn is not None:
            conn.state, conn.since = state, time.monotonic()
            if conn.timer is not None:
                conn.timer.cancel()
                conn.timer = None
        return conn

    def asked(self, transport: asyncio.BaseTransport | None) -> None:
        """A whole request's head arrived on ``transport``: closed to make room only last."""
        conn = self.conns.get(transport) if transport is not None else None
        if conn is not None:
            conn.asked = True

    def busy(self, transport: asyncio.BaseTransport) -> None:
        """A request arrived on ``transport`` (its headers are in)."""
        self._set(transport, BUSY)

    def stream(self, transport: asyncio.BaseTransport) -> None:
        """The request is an event stream that has started: a phone at the table."""
        self._set(transport, STREAM)

    def idle(self, transport: asyncio.BaseTransport) -> None:
        """The answer is done: the next request must come within ``idle_timeout_s``."""
        conn = self._set(transport, IDLE)
        if conn is not None:
            conn.asked = False
            self._arm(conn, self.idle_timeout_s)

    def release(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection closed (by either side)."""
        conn = self.conns.get(transport) if transport is not None else None
        if conn is not None:
            self._forget(conn)

    def close_all(self) -> None:
        for conn in list(self.conns.values()):
            self._forget(conn)
            conn.transport.close()

    @property
    def streams(self) -> int:
        return sum(1 for c in self.conns.values() if c.state == STREAM)
