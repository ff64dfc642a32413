"""The phone view's web server: aiohttp in its own thread and event loop, read-only.

The service loop hands a snapshot to :meth:`WebView.publish` after each confirmed
action; ``publish`` only stores it (it never waits for the network nor wakes the server, and
costs the same with 0 or 30 browsers).  The server's loop looks for it, builds the snapshot
if it was handed a callable, serialises it once (the same event for every browser) and
writes it with ``StreamResponse.write`` to every stream that has taken all it was sent, in
one pass, with no task woken; a stream that has not (a slow phone) is woken and sends the
latest one when it can (it skips the ones it missed instead of queueing them), and is
closed when it cannot take one within :data:`WRITE_TIMEOUT_S`.  The pass hands the
interpreter to the table's thread after every :data:`BATCH` writes (a short sleep of the
server's loop) and waits while the table's loop is busy (``hold``), so the table's frames
do not wait for a crowd of phones.

Everything lives under ``/<token>/``, routed by an :class:`aiohttp.web.Application`: the
page (``""``), its assets (``static/...``, aiohttp's ``add_static`` with its ETags), the
server-sent events stream (``events``), the latest snapshot as JSON (``snapshot.json``) and
the boards' static SVG layers (``board/<hash>.svg``).  Any other path is 404 with an empty
body, so without the token nobody learns anything; only GET and HEAD are answered (405
otherwise) and a request with a body is refused (413).  Every answer carries a strict
Content-Security-Policy and ``no-referrer`` (a response signal); a failing handler is logged
and the client gets a bare 500 (never a traceback); the token never reaches a log (no
access log).  aiohttp's own settings bound the request line and the header fields, close a
kept-alive connection that sends no next request within :data:`IDLE_TIMEOUT_S`, and cancel
the handler of a client gone (a gone phone's event stream frees its place at once).

**A hostile client cannot lock the table's phones out** (:mod:`.gate`): the server accepts
the connections itself, hands them to aiohttp's protocol factory and aborts at once those
over the limits: at most :data:`PER_ADDRESS` connections from one address, a connection
must send a whole request within :data:`HEADER_TIMEOUT_S`, and when the connections reach
their cap a new one closes one that has not sent a request (or sits idle), never an open
event stream: the phones at the table stay ahead of half-open sockets.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from companion.errors import UsageError
from companion.web.gate import Gate
from companion.web.snapshot import Snapshot

log = logging.getLogger(__name__)
PROTOCOL_LOG = logging.getLogger("companion.web.protocol")
"""aiohttp's protocol errors (a malformed request, a client gone): they quote the request
line, which holds the token, so they are kept out of the log; a handler's failure is logged
by the web view itself."""
PROTOCOL_LOG.setLevel(logging.CRITICAL + 1)
PROTOCOL_LOG.propagate = False

TOKEN_BYTES = 8
"""Random bytes in a token: 11 URL-safe characters, 64 bits."""
MAX_CLIENTS = 32
"""Default cap on open event streams (browsers)."""
KEEPALIVE_S = 15.0
"""A ping on every stream this often, so a browser notices a dead Wi-Fi and reconnects."""
WRITE_TIMEOUT_S = 10.0
"""A stream whose browser takes longer than this to take a message is closed."""
MAX_LINE = 1024
MAX_FIELD = 4096
MAX_HEADERS = 40
SPARE_CONNECTIONS = 224
"""Connections allowed beyond ``max_clients`` (page and asset loads, snapshots; and room for a
crowd of slow or idle sockets: more than a burst the server accepts at once, its listen
backlog of 100, so that a phone accepted in one burst has its request read before the burst's
others could close it; an idle connection costs a few kilobytes)."""
POLL_S = 0.02
"""How often the server's loop looks for a published snapshot while browsers are
connected (the latency it adds: half of this on average)."""
IDLE_POLL_S = 0.2
CROWD = 48
"""Above this many open streams the server looks for a snapshot only every :data:`CROWD_POLL_S`:
each snapshot costs a write to every stream, on the interpreter the table's loop shares, so a
crowd gets the latest one a little later instead of every one (the table's throws are seconds
apart; only a burst is coalesced)."""
CROWD_POLL_S = 0.1
HOLD_S = 0.002
"""While the table's loop is busy (``hold``), the server looks again this often before it
builds or writes a snapshot."""
BATCH = 16
"""The server's pass over the streams pauses after this many writes: its loop sleeps for
:data:`BATCH_PAUSE_S` (the interpreter's lock free for the table's thread, which would
otherwise wait up to the interpreter's switch interval, 5 ms, at each step of a frame) and
then asks ``hold`` again."""
BATCH_PAUSE_S = 0.0005
BACKLOG = 128
"""The listening socket's queue of connections not yet accepted."""
KEPT_BASES = 8
"""Boards' static layers kept for ``board/<hash>.svg``."""
PER_ADDRESS = 8
"""Connections from one address (a phone opens its stream and up to 6 for a page load)."""
HEADER_TIMEOUT_S = 3.0
"""A new connection must send a whole request within this time (slowly sent headers)."""
IDLE_TIMEOUT_S = 10.0
"""A kept-alive connection must send its next request within this time after an answer."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
SAFE_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    "Server": "companion",
}
ASSETS: Mapping[str, str] = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
"""The page's assets (package data in ``static/``) and their content types."""

Publishable = Snapshot | Callable[[], Snapshot]


class _Stream:
    """One open event stream: its wake-up, its response, the last snapshot it was sent."""

    __slots__ = ("busy", "resp", "sent", "transport", "wake")

    def __init__(self, resp: web.StreamResponse, sent: str) -> None:
        self.wake = asyncio.Event()
        self.resp = resp
        self.sent = sent
        self.transport: asyncio.Transport | None = None
        """Set once the stream's headers are out: the server's pass may write a snapshot
        to it while its connection has sent all it was given."""
        self.busy = False
        """A write to it is under way (a frame or a ping): a snapshot goes through its task."""

    def takes_more(self) -> bool:
        """Whether a write now goes out at once (nothing of the last ones still waiting)."""
        t = self.transport
        return not self.busy and t is not None and not t.is_closing() \
            and not t.get_write_buffer_size()


class WebError(UsageError):
    """The web view cannot start as configured (one sentence for people); ``errno`` the
    system's error number when a port could not be opened (``errno.EADDRINUSE``...)."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


def new_token() -> str:
    """A random, URL-safe token (11 characters: short enough for a version-3 QR code)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_token(token: str) -> str:
    """``token`` if it is usable in a URL path and hard to guess; :class:`WebError` otherwise."""
    ok = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    if not 8 <= len(token) <= 64 or not set(token) <= ok:
        raise WebError("The web token must be 8 to 64 letters, digits, '-' or '_'.")
    return token


def lan_address() -> str:
    """The box's address on its network as seen by others (not loopback), best effort.

    Reads the interfaces' IPv4 addresses with one ``SIOCGIFCONF`` ioctl on an ``AF_INET``
    socket: no packet is sent and no netlink socket is needed (the service's unit may allow
    only ``AF_UNIX``/``AF_INET``/``AF_INET6``: glibc's ``if_nameindex`` asks netlink, and
    without it the QR code carried 127.0.0.1).  Falls back to what the host name resolves to,
    then to 127.0.0.1.
    """
    try:
        found = [(name, addr) for name, addr in _interfaces()
                 if not ipaddress.ip_address(addr).is_loopback]
        if found:
            found.sort(key=lambda na: (not na[0].startswith(("wlan", "eth", "en", "wl")), na[0]))
            return found[0][1]
    except (ImportError, OSError):
        pass
    try:
        addr = socket.gethostbyname(socket.gethostname())
        if not ipaddress.ip_address(addr).is_loopback:
            return addr
    except (OSError, ValueError):
        pass
    return "127.0.0.1"


def _interfaces() -> list[tuple[str, str]]:
    """Every interface with an IPv4 address: (name, address), by ``SIOCGIFCONF``."""
    import array
    import fcntl
    import struct

    size = 40 if struct.calcsize("P") == 8 else 32  # struct ifreq
    buf = array.array("B", bytes(size * 64))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        addr, _ = buf.buffer_info()
        got = struct.unpack("iP", fcntl.ioctl(s.fileno(), 0x8912,  # SIOCGIFCONF
                                              struct.pack("iP", len(buf), addr)))[0]
    raw = buf.tobytes()[:got]
    return [(raw[i:i + 16].split(b"\0", 1)[0].decode(errors="replace"),
             socket.inet_ntoa(raw[i + 20:i + 24])) for i in range(0, got, size)]


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` ("" : every interface, IPv6 too where it can)."""
    if not host:
        dual = socket.has_dualstack_ipv6()
        return socket.create_server(("", port), family=socket.AF_INET6 if dual else
                                    socket.AF_INET, backlog=BACKLOG, dualstack_ipv6=dual)
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    return socket.create_server((host, port), family=family, backlog=BACKLOG)


def _read_static(name: str) -> bytes:
    return resources.files("companion.web").joinpath("static", name).read_bytes()


def _bare(status: int, **headers: str) -> web.Response:
    """An answer with no body (the safe headers are added to every answer on its way out)."""
    return web.Response(status=status, headers={"Cache-Control": "no-store", **headers})


async def _safe_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer (pages, assets, errors) carries the safe headers."""
    for key, value in SAFE_HEADERS.items():
        response.headers.setdefault(key, value)
    response.headers["Server"] = SAFE_HEADERS["Server"]


class WebView:
    """The phone view's server, in its own thread.

    ``host``/``port``: where to listen (port 0: any free port); ``token``: the secret
    first path segment (default: a new random one); ``url_host``: the host name or
    address to put in :attr:`url` (default: ``host``, or the box's LAN address when
    listening on every interface).  Use :meth:`start`, :meth:`publish`, :meth:`close`
    (or ``with WebView(...) as view:``).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None, *,
                 max_clients: int = MAX_CLIENTS, keepalive_s: float = KEEPALIVE_S,
                 write_timeout_s: float = WRITE_TIMEOUT_S, url_host: str | None = None,
                 poll_s: float = POLL_S, idle_poll_s: float = IDLE_POLL_S,
                 per_address: int = PER_ADDRESS, header_timeout_s: float = HEADER_TIMEOUT_S,
                 idle_timeout_s: float = IDLE_TIMEOUT_S,
                 hold: Callable[[], bool] | None = None) -> None:
        if not 0 <= port <= 65535:
            raise WebError(f"The web port must be 0 to 65535, not {port}.")
        if max_clients < 1:
            raise WebError("The web view must allow at least one client.")
        if per_address < 2 or header_timeout_s <= 0 or idle_timeout_s <= 0:
            raise WebError("The web view needs at least two connections per address and "
                           "positive time limits.")
        self.per_address = per_address
        self.hold = hold
        """Whether the table's loop is busy now (an input being handled, a frame being drawn):
        the table first, the server waits before it builds or writes a snapshot.  Read on
        the server's thread (a request for the JSON or a new stream does not wait)."""
        self.header_timeout_s = header_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.host = host
        self.token = check_token(token) if token is not None else new_token()
        self.max_clients = max_clients
        self.keepalive_s = keepalive_s
        self.write_timeout_s = write_timeout_s
        self.poll_s = poll_s
        self.idle_poll_s = max(poll_s, idle_poll_s)
        self._port = port
        self._url_host = url_host
        self._token_b = self.token.encode()
        self._page_html = _read_static("index.html")
        self._epoch = secrets.token_hex(4)
        # handed over by publish() (any thread), under the lock
        self._lock = threading.Lock()
        self._pending: Publishable | None = None
        # the server loop's own state
        self._seq = 0
        self._ident = ""
        self._frame = b""
        self._rest: list[_Stream] = []  # the streams the latest frame still has to reach
        self.direct_writes = 0
        """Snapshots written to a stream by the server's pass (the others went through the
        stream's own task)."""
        self._json = b'{"seq":0}'
        self._bases: dict[str, bytes] = {}
        self._base_keys: dict[str, str] = {}
        self._streams: set[_Stream] = set()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self.gate: Gate | None = None
        """The connections' gate (per address, time limits, who goes first), while serving."""
        self._stopped = threading.Event()

    # --- the caller's side (any thread) ---------------------------------------------------

    def __enter__(self) -> WebView:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> WebView:
        """Listen and serve in a new thread; returns once the port is open.  A port
        that cannot be opened raises :class:`WebError` with one sentence."""
        if self._thread is not None:
            return self
        ready = threading.Event()
        failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(ready, failure),
                                        name="companion-web", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            exc = failure[0]
            where = f"{self.host}:{self._port}"
            if isinstance(exc, OSError):
                # asyncio's own words repeat the address: the system's words for the number
                reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
                raise WebError(f"The web view cannot listen on {where}: {reason.lower()}.",
                               exc.errno) from None
            raise WebError(f"The web view cannot start on {where}.") from None
        return self

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when 0 was asked for)."""
        return self._port

    @property
    def url(self) -> str:
        """The page's address with the token, e.g. ``http://192.168.1.20:8080/AbC.../``."""
        host = self._url_host
        if host is None:
            host = lan_address() if self.host in ("", "0.0.0.0", "::") else self.host
        try:
            if ipaddress.ip_address(host).version == 6:
                host = f"[{host}]"
        except ValueError:
            pass
        return f"http://{host}:{self._port}/{self.token}/"

    @property
    def seq(self) -> int:
        """How many snapshots the server has taken so far (the page shows it as ``data-seq``)."""
        return self._seq

    @property
    def clients(self) -> int:
        """Open event streams (browsers showing the page)."""
        return len(self._streams)

    def publish(self, snapshot: Publishable) -> None:
        """Hand over the latest snapshot (or a callable that builds one, run on the
        server's thread; it must only read immutable values) and return at once.

        Nothing else happens on the caller's thread: the server's loop looks for it
        every :data:`POLL_S` while browsers are connected.  Waking that thread here
        instead would make the caller wait for the interpreter lock while the server
        works (measured: about 0.1 ms a call).  When several come before the server
        looks, only the last is sent."""
        with self._lock:
            self._pending = snapshot

    def close(self) -> None:
        """Stop serving: the streams end, the port closes, the thread finishes."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._begin_close)
        except RuntimeError:
            pass
        thread.join(timeout=10)
        self._thread = None

    # --- the server's thread -----------------------------------------------------------------

    def _run(self, ready: threading.Event, failure: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except Exception as exc:  # the port is taken, the address does not exist, ...
            failure.append(exc)
            loop.run_until_complete(self._cleanup())
            loop.close()
            ready.set()
            return
        with self._lock:
            self._loop = loop
        self._take()
        poller = loop.create_task(self._poll())
        ready.set()
        try:
            loop.run_forever()
        finally:
            poller.cancel()
            loop.run_until_complete(self._cleanup())
            with self._lock:
                self._loop = None
            loop.close()
            self._stopped.set()

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=1024,
                              handler_args={"max_line_size": MAX_LINE,
                                            "max_field_size": MAX_FIELD,
                                            "max_headers": MAX_HEADERS,
                                            "keepalive_timeout": self.idle_timeout_s,
                                            "lingering_time": 1.0,
                                            "logger": PROTOCOL_LOG})
        app.on_response_prepare.append(_safe_headers)
        base = f"/{self.token}"
        r = app.router
        r.add_get(base, self._late("_redirect"))
        r.add_get(base + "/", self._late("_page"))
        r.add_get(base + "/events", self._late("_events"))
        r.add_get(base + "/snapshot.json", self._late("_snapshot"))
        r.add_get(base + "/board/{key:[0-9a-f]{20}}.svg", self._late("_board"))
        static = resources.files("companion.web").joinpath("static")
        r.add_static(base + "/static/", Path(str(static)), append_version=False)
        return app

    def _late(self, name: str) -> Callable[[web.Request], Any]:
        """A route's handler, looked up when called (a test may replace it)."""
        async def handle(request: web.Request) -> web.StreamResponse:
            answer: web.StreamResponse = await getattr(self, name)(request)
            return answer
        return handle

    async def _open(self) -> None:
        self._runner = web.AppRunner(self._app(), handle_signals=False, access_log=None,
                                     shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self.gate = Gate(loop, max_connections=self.max_clients + SPARE_CONNECTIONS,
                         per_address=self.per_address, header_timeout_s=self.header_timeout_s)
        self._listener = _listen(self.host, self._port)
        self._port = int(self._listener.getsockname()[1])
        self._accepting = loop.create_task(self.gate.serve(self._listener, server))

    async def _cleanup(self) -> None:
        if self._accepting is not None:
            self._accepting.cancel()  # no new connections; the streams end by themselves
            self._accepting = None
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()  # aiohttp's graceful shutdown of the rest
            self._runner = None
        if self.gate is not None:
            self.gate.close_all()

    def _begin_close(self) -> None:
        self._closing = True
        for stream in self._streams:
            stream.wake.set()
        loop = self._loop
        assert loop is not None
        loop.create_task(self._stop())

    async def _stop(self) -> None:
        await asyncio.sleep(0)  # let the streams see _closing
        await self._cleanup()
        asyncio.get_running_loop().stop()

    async def _poll(self) -> None:
        while not self._closing:
            n = len(self._streams)
            if self._pending is not None and self._held():
                await asyncio.sleep(HOLD_S)  # the table's loop is busy
            elif not n:
                await asyncio.sleep(self.idle_poll_s)
            else:  # a crowd: at most one snapshot per CROWD_POLL_S, the latest (coalesced)
                await asyncio.sleep(self.poll_s if n <= CROWD else max(self.poll_s, CROWD_POLL_S))
            if self._held():
                continue
            self._take()
            if self._rest:
                await self._fan_out()

    def _held(self) -> bool:
        return self.hold is not None and self.hold()

    def _take(self) -> None:
        """On the server's loop: serialise the latest snapshot for every stream (the server's
        pass, :meth:`_fan_out`, sends it)."""
        if self._pending is None:  # the common case, without the lock
            return
        with self._lock:
            item, self._pending = self._pending, None
        if item is None:
            return
        try:
            snap = item() if callable(item) else item
            data = snap.to_json()
            board = data.get("board") or {}
            base = board.get("base")
            if isinstance(base, str):
                board["base"] = f"board/{self._base_key(base)}.svg" if base else ""
            self._seq += 1
            data["seq"] = self._seq
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        except Exception:
            log.exception("web view: a snapshot could not be built")
            return
        ident = self._ident = f"{self._epoch}-{self._seq}"
        self._json = body
        self._frame = b"event: snapshot\nid: " + ident.encode() + b"\ndata: " + body + b"\n\n"
        self._rest = list(self._streams)

    async def _fan_out(self) -> None:
        """Write the latest frame to the streams it has still to reach (the same bytes, no
        task woken: a write to a connection that has sent all it was given does not wait).
        After every :data:`BATCH` writes the server's loop sleeps a little and waits while
        the table's loop is busy (a newer snapshot waits for the next pass: a crowd gets
        the latest one a little later instead of every one)."""
        written = 0
        while self._rest and not self._closing:
            if written == BATCH:
                written = 0
                await asyncio.sleep(BATCH_PAUSE_S)  # the interpreter to the table's thread
                while self._held() and not self._closing:
                    await asyncio.sleep(HOLD_S)
                continue
            stream = self._rest.pop()
            ident = self._ident
            if stream.sent == ident:
                continue
            if not stream.takes_more():
                stream.wake.set()  # its task sends the latest when it can
                continue
            stream.busy = True
            try:
                await stream.resp.write(self._frame)
            except ConnectionError:
                stream.wake.set()  # its task sees the connection gone
                continue
            finally:
                stream.busy = False
            stream.sent = ident
            written += 1
            self.direct_writes += 1

    def _base_key(self, base: str) -> str:
        key = self._base_keys.get(base)
        if key is None:
            key = hashlib.sha256(base.encode()).hexdigest()[:20]
            if len(self._bases) >= KEPT_BASES:
                oldest = next(iter(self._bases))
                del self._bases[oldest]
                self._base_keys = {t: k for t, k in self._base_keys.items() if k != oldest}
            self._base_keys[base] = key
            self._bases[key] = base.encode()
        return key

    # --- requests ----------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Bare errors, no bodies, and the gate told when a request starts and ends."""
        gate, transport = self.gate, request.transport
        if gate is not None and transport is not None:
            gate.busy(transport)
        try:
            unmatched = request.match_info.http_exception
            if unmatched is not None:  # no such path, or not GET/HEAD: nothing more is said
                raise unmatched
            if request.body_exists:
                resp = _bare(413)
                resp.force_close()
                return resp
            answer: web.StreamResponse = await handler(request)
            return answer
        except web.HTTPException as exc:
            keep = {k: v for k, v in exc.headers.items() if k in ("Allow", "Location")}
            return _bare(exc.status, **keep)
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception:
            log.exception("web view: a request failed")
            return _bare(500)
        finally:
            if gate is not None and transport is not None:
                gate.idle(transport)

    async def _redirect(self, request: web.Request) -> web.StreamResponse:
        return _bare(308, Location=f"/{self.token}/")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return self._file(self._page_html, "text/html; charset=utf-8", "no-store")

    async def _snapshot(self, request: web.Request) -> web.StreamResponse:
        self._take()
        return self._file(self._json, "application/json", "no-store")

    async def _board(self, request: web.Request) -> web.StreamResponse:
        base = self._bases.get(request.match_info["key"])
        if base is None:
            return _bare(404)
        return self._file(base, "image/svg+xml", "private, max-age=86400, immutable")

    @staticmethod
    def _file(body: bytes, kind: str, cache: str, **headers: str) -> web.Response:
        return web.Response(body=body, headers={"Content-Type": kind, "Cache-Control": cache,
                                                **headers})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if len(self._streams) >= self.max_clients:
            return _bare(503, **{"Retry-After": "5"})
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                           "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
        if request.method == "HEAD":
            return resp
        stream = _Stream(resp, request.headers.get("Last-Event-ID", ""))
        self._streams.add(stream)
        try:
            await resp.prepare(request)
            if self.gate is not None and request.transport is not None:
                self.gate.stream(request.transport)  # a phone at the table: kept ahead
            self._take()
            hello = json.dumps({"keepalive": self.keepalive_s})
            await self._send(resp, stream,
                             f"retry: 2000\nevent: hello\ndata: {hello}\n\n".encode())
            stream.transport = request.transport
            wake = stream.wake
            while not self._closing:
                if self._ident and self._ident != stream.sent:
                    ident, frame = self._ident, self._frame
                    await self._send(resp, stream, frame)
                    stream.sent = ident
                    continue
                wake.clear()
                try:
                    async with asyncio.timeout(self.keepalive_s):  # no task per wait
                        await wake.wait()
                except TimeoutError:
                    await self._send(resp, stream, b"event: ping\ndata: \n\n")
        except (ConnectionError, TimeoutError):
            pass  # the browser went away or stopped reading
        finally:
            stream.transport = None
            self._streams.discard(stream)
        return resp

    async def _send(self, resp: web.StreamResponse, stream: _Stream, data: bytes) -> None:
        stream.busy = True
        try:
            async with asyncio.timeout(self.write_timeout_s):  # cheaper than wait_for's task
                await resp.write(data)
        finally:
            stream.busy = False


def wait_until(check: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    """Poll ``check`` until it holds (for tests, scripts and benchmarks); ``False`` on time-out."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True
