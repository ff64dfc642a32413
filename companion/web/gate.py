"""Who may hold a connection to the phone view: the accept loop in front of aiohttp.

aiohttp's own settings bound a request's line and fields, and close a kept-alive connection
that sends no whole request within its ``keepalive_timeout`` after an answer.  What aiohttp
has no setting for is how many connections one address, or all of them together, may hold:
a client that opens a few hundred sockets and sends its headers one byte a minute
(slowloris) would take every connection the box allows and lock the table's phones out.  So
the web view accepts the connections itself (:meth:`Gate.serve`: ``loop.sock_accept``),
hands each to aiohttp's documented protocol factory (``AppRunner.server``) with
``loop.connect_accepted_socket`` and aborts at once the ones the gate does not admit; nothing
of aiohttp is wrapped.  The gate decides:

* at most ``per_address`` connections from one address (a phone needs its event stream and a
  few for a page load), well under the cap on all connections;
* a new connection must send a whole request within ``header_timeout_s`` (the web view's
  middleware says when a request starts: :meth:`Gate.busy`); otherwise it is closed;
* when all ``max_connections`` are taken, a new connection closes one that is waiting (no
  request yet, or idle after an answer) — never an open event stream (a phone at the table
  that receives) nor a request being answered; with none such the new one is closed.  Which
  one: the oldest of those past their grace (:data:`GRACE_S`: a phone sends its request at
  once, so a connection still without one after that is slow, or idle).  A connection
  younger than its grace goes only when every waiting one is that young (a flood): then one
  of the address that holds the most connections, the oldest of it.  So a burst of sockets
  accepted together with a phone closes old ones first, and then those of crowded addresses;
  once the phone's request is in (the next burst is admitted after it was read), it is out
  of reach.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

WARN_EVERY_S = 60.0
GRACE_S = 1.0
"""A new connection this young is closed to make room only when every waiting one is."""
BURST = 100
"""Connections accepted at once when that many wait (asyncio's servers take as many)."""
ACCEPT_PAUSE_S = 0.1
"""After a failed accept (no file descriptors left) the gate waits this long."""


class State(enum.Enum):
    NEW = "new"
    """Admitted, no request yet."""
    BUSY = "busy"
    """A request is being answered."""
    IDLE = "idle"
    """Kept alive after an answer (aiohttp closes it after its keep-alive time)."""
    STREAM = "stream"
    """An open event stream: a phone at the table."""


WAITING = (State.NEW, State.IDLE)


@dataclass(eq=False)
class Conn:
    """One connection as the gate sees it."""

    transport: asyncio.BaseTransport
    peer: str
    state: State = State.NEW
    since: float = field(default_factory=time.monotonic)


def _abort(transport: asyncio.BaseTransport) -> None:
    """Close at once, without waiting to send anything (a TCP transport can abort)."""
    if isinstance(transport, asyncio.WriteTransport):
        transport.abort()
    else:
        transport.close()


class Gate:
    """The connections of one web view (see the module); all calls on the server's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, max_connections: int,
                 per_address: int, header_timeout_s: float, grace_s: float = GRACE_S) -> None:
        self.loop = loop
        self.grace_s = grace_s
        self.max_connections = max_connections
        self.per_address = per_address
        self.header_timeout_s = header_timeout_s
        self.conns: dict[asyncio.BaseTransport, Conn] = {}
        """In the order admitted."""
        self.refused = 0
        """Connections closed at once (an address over its cap, every connection busy)."""
        self.evicted = 0
        """Connections closed to make room, or for sending no request in time."""
        self._warned = -1e9

    async def serve(self, listener: socket.socket,
                    factory: Callable[[], asyncio.Protocol]) -> None:
        """Accept on ``listener`` until cancelled: every connection waiting (up to
        :data:`BURST`, as asyncio's own servers accept), each handed to ``factory``'s
        protocol (aiohttp's ``web.Server``), then admitted or closed; the next ones are
        accepted meanwhile (a full listen queue would make a phone wait a second)."""
        listener.setblocking(False)
        bursts: set[asyncio.Task[None]] = set()
        try:
            while True:
                try:
                    burst = [(await self.loop.sock_accept(listener))[0]]
                except OSError as exc:  # out of file descriptors; a client gone before accept
                    self._warn(f"a connection could not be accepted: {exc}")
                    await asyncio.sleep(ACCEPT_PAUSE_S)
                    continue
                while len(burst) < BURST:
                    try:
                        burst.append(listener.accept()[0])
                    except OSError:  # none waiting any more (or as above: the next round)
                        break
                task = self.loop.create_task(self._hand_over(burst, factory))
                bursts.add(task)
                task.add_done_callback(bursts.discard)
        finally:
            for task in bursts:
                task.cancel()

    async def _hand_over(self, burst: list[socket.socket],
                         factory: Callable[[], asyncio.Protocol]) -> None:
        async def connect(sock: socket.socket) -> asyncio.Transport | None:
            sock.setblocking(False)
            try:
                transport, _ = await self.loop.connect_accepted_socket(factory, sock)
            except OSError:
                sock.close()
                return None
            return transport

        for transport in await asyncio.gather(*map(connect, burst)):
            if transport is None:
                continue
            try:
                admitted = self.admit(transport)
            except Exception:  # never lose the accept loop (and so every phone) to a bug
                log.exception("web view: a connection could not be admitted")
                admitted = False
            if not admitted:
                _abort(transport)

    # --- admitting ----------------------------------------------------------------------------

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Whether ``transport`` (a new connection) may stay; it may close another one."""
        for conn in [c for c in self.conns.values() if c.transport.is_closing()]:
            del self.conns[conn.transport]  # closed by either side since
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) and peername else "?"
        per_peer = Counter(c.peer for c in self.conns.values())
        if per_peer[peer] >= self.per_address:
            return self._refuse(f"more than {self.per_address} connections from one address")
        if len(self.conns) >= self.max_connections and not self._make_room(per_peer):
            return self._refuse("every connection is in use")
        conn = self.conns[transport] = Conn(transport, peer)
        self.loop.call_later(self.header_timeout_s, self._expire, conn)
        return True

    def _refuse(self, why: str) -> bool:
        self.refused += 1
        self._warn(f"a connection refused ({why})")
        return False

    def _warn(self, what: str) -> None:
        now = time.monotonic()
        if now - self._warned > WARN_EVERY_S:  # once a minute at most: a flood floods no log
            log.warning("web view: %s", what)
            self._warned = now

    def _make_room(self, per_peer: Counter[str]) -> bool:
        young = time.monotonic() - self.grace_s
        for c in self.conns.values():  # in the order admitted: the oldest first, mostly found
            if c.state in WAITING and c.since <= young:  # at once
                self._close(c)
                return True
        waiting = [c for c in self.conns.values() if c.state in WAITING]
        if not waiting:
            return False
        # a flood: every waiting one is young; one of the most crowded address, its oldest
        self._close(min(waiting, key=lambda c: (-per_peer[c.peer], c.since)))
        return True

    def _close(self, conn: Conn) -> None:
        self.evicted += 1
        del self.conns[conn.transport]
        _abort(conn.transport)

    def _expire(self, conn: Conn) -> None:
        """The header time limit of ``conn`` is up: closed if it has sent no request."""
        if conn.state is State.NEW and self.conns.get(conn.transport) is conn:
            self._close(conn)

    # --- what the web view says ---------------------------------------------------------------

    def _set(self, transport: asyncio.BaseTransport, state: State) -> None:
        conn = self.conns.get(transport)
        if conn is not None:
            conn.state, conn.since = state, time.monotonic()

    def busy(self, transport: asyncio.BaseTransport) -> None:
        """A request arrived on ``transport`` (its headers are in)."""
        self._set(transport, State.BUSY)

    def stream(self, transport: asyncio.BaseTransport) -> None:
        """The request is an event stream that has started: a phone at the table."""
        self._set(transport, State.STREAM)

    def idle(self, transport: asyncio.BaseTransport) -> None:
        """The answer is done: aiohttp's keep-alive time limits the wait for the next one."""
        self._set(transport, State.IDLE)

    def close_all(self) -> None:
        for conn in list(self.conns.values()):
            conn.transport.close()
        self.conns.clear()

    @property
    def streams(self) -> int:
        return sum(1 for c in self.conns.values() if c.state is State.STREAM)
