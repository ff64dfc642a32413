"""An older form of the phone view's server, one task per event stream and no connection gate (a
copy for the side-by-side benchmarks only; not part of the package).

The phone view's web server: aiohttp in its own thread and event loop, read-only.

The service loop hands a snapshot to :meth:`WebView.publish` after each confirmed
action; ``publish`` only stores it and wakes the server's loop (it never waits
for the network, and costs the same with 0 or 30 browsers).  The server's loop
builds the snapshot if it was handed a callable, serialises it once, and every
connected browser's stream sends the latest one (a slow phone skips the ones it
missed instead of queueing them).

Everything lives under ``/<token>/``: the page (``""``), its assets
(``static/...``), the server-sent events stream (``events``), the latest snapshot
as JSON (``snapshot.json``) and the boards' static SVG layers
(``board/<hash>.svg``).  Any other path is 404 with an empty body, so without the
token nobody learns anything; only GET and HEAD are answered (405 otherwise) and
a request with a body is refused (413).  There are caps on streams, connections,
request line and header sizes; every answer carries a strict
Content-Security-Policy and ``no-referrer``; a failing handler is logged and the
client gets a bare 500 (never a traceback); the token never reaches a log (no
access log).
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
from typing import Any

from aiohttp import web

from companion.errors import UsageError
from companion.web.snapshot import Snapshot

log = logging.getLogger(__name__)

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
SPARE_CONNECTIONS = 16
"""Connections allowed beyond ``max_clients`` (page and asset loads, snapshots)."""
POLL_S = 0.02
"""How often the server's loop looks for a published snapshot while browsers are
connected (the latency it adds: half of this on average)."""
IDLE_POLL_S = 0.2
"""How often it looks when no browser is connected (a JSON request takes the latest at once)."""
KEPT_BASES = 8
"""Boards' static layers kept for ``board/<hash>.svg``."""

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

    Reads the interfaces' IPv4 addresses (Linux ``SIOCGIFADDR``); no packet is sent.
    Falls back to what the host name resolves to, then to 127.0.0.1.
    """
    try:
        import fcntl
        import struct

        found: list[tuple[str, str]] = []
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                         struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue
                addr = socket.inet_ntoa(packed[20:24])
                if not ipaddress.ip_address(addr).is_loopback:
                    found.append((name, addr))
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


def _read_static(name: str) -> bytes:
    return resources.files("companion.web").joinpath("static", name).read_bytes()


def _bare(status: int, **headers: str) -> web.Response:
    """An answer with no body and the safe headers."""
    resp = web.Response(status=status, headers={**SAFE_HEADERS, "Cache-Control": "no-store",
                                                **headers})
    return resp


class _Protocol(web.RequestHandler):
    """aiohttp's connection handler with bare error answers and a cap on connections."""

    def __init__(self, manager: _Server, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self._cap_manager = manager

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        manager = self._cap_manager
        if len(manager.connections) > manager.max_connections:
            now = time.monotonic()
            if now - manager.warned_at > 60:  # once a minute at most, a flood floods no log
                log.warning("web view: too many connections, refusing the extra ones")
                manager.warned_at = now
            transport.close()

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status >= 500:
            log.error("web view: a request failed", exc_info=exc)
        else:
            log.debug("web view: a bad request (%s)", status)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had already started")
        resp = _bare(status)
        resp.force_close()
        return resp


class _Server(web.Server):
    def __init__(self, handler: Callable[[web.BaseRequest], Any], *, max_connections: int,
                 protocol: dict[str, Any]) -> None:
        super().__init__(handler, handler_cancellation=True)
        self.max_connections = max_connections
        self.warned_at = -1e9
        self._protocol_args = protocol
        self._protocol_loop = asyncio.get_running_loop()

    def __call__(self) -> web.RequestHandler:
        return _Protocol(self, loop=self._protocol_loop, **self._protocol_args)


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
                 poll_s: float = POLL_S, idle_poll_s: float = IDLE_POLL_S) -> None:
        if not 0 <= port <= 65535:
            raise WebError(f"The web port must be 0 to 65535, not {port}.")
        if max_clients < 1:
            raise WebError("The web view must allow at least one client.")
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
        self._page = _read_static("index.html")
        self._assets = {name: (_read_static(name), kind) for name, kind in ASSETS.items()}
        self._etags = {name: '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                       for name, (body, _) in self._assets.items()}
        self._epoch = secrets.token_hex(4)
        # handed over by publish() (any thread), under the lock
        self._lock = threading.Lock()
        self._pending: Publishable | None = None
        # the server loop's own state
        self._seq = 0
        self._ident = ""
        self._frame = b""
        self._json = b'{"seq":0}'
        self._bases: dict[str, bytes] = {}
        self._base_keys: dict[str, str] = {}
        self._streams: set[asyncio.Event] = set()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.ServerRunner | None = None
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

    async def _open(self) -> None:
        server = _Server(self._handle, max_connections=self.max_clients + SPARE_CONNECTIONS,
                         protocol={"keepalive_timeout": 20.0, "access_log": None,
                                   "max_line_size": MAX_LINE, "max_field_size": MAX_FIELD,
                                   "max_headers": MAX_HEADERS, "lingering_time": 1.0})
        self._runner = web.ServerRunner(server, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host or None, self._port, backlog=64)
        await site.start()
        for address in self._runner.addresses:
            self._port = int(address[1])
            break

    async def _cleanup(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _begin_close(self) -> None:
        self._closing = True
        for wake in self._streams:
            wake.set()
        loop = self._loop
        assert loop is not None
        loop.create_task(self._stop())

    async def _stop(self) -> None:
        await asyncio.sleep(0)  # let the streams see _closing
        await self._cleanup()
        asyncio.get_running_loop().stop()

    async def _poll(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.poll_s if self._streams else self.idle_poll_s)
            self._take()

    def _take(self) -> None:
        """On the server's loop: serialise the latest snapshot and wake every stream."""
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
        self._ident = f"{self._epoch}-{self._seq}"
        self._json = body
        self._frame = b"event: snapshot\nid: " + self._ident.encode() + b"\ndata: " + body + b"\n\n"
        for wake in self._streams:
            wake.set()

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

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        try:
            return await self._dispatch(request)
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception:
            log.exception("web view: a request failed")
            return _bare(500)

    async def _dispatch(self, request: web.BaseRequest) -> web.StreamResponse:
        parts = request.path.split("/", 2)
        if len(parts) < 2 or not secrets.compare_digest(parts[1].encode(), self._token_b):
            return _bare(404)
        if request.method not in ("GET", "HEAD"):
            return _bare(405, Allow="GET, HEAD")
        if request.body_exists:
            resp = _bare(413)
            resp.force_close()
            return resp
        if len(parts) == 2:
            return _bare(308, Location=f"/{self.token}/")
        rest = parts[2]
        if rest == "":
            return self._file(self._page, "text/html; charset=utf-8", "no-store")
        if rest == "events":
            return await self._events(request)
        if rest == "snapshot.json":
            self._take()
            return self._file(self._json, "application/json", "no-store")
        if rest.startswith("static/"):
            name = rest[len("static/"):]
            if name in self._assets:
                if request.headers.get("If-None-Match") == self._etags[name]:
                    return _bare(304, ETag=self._etags[name], **{"Cache-Control": "no-cache"})
                body, kind = self._assets[name]
                return self._file(body, kind, "no-cache", ETag=self._etags[name])
            return _bare(404)
        if rest.startswith("board/") and rest.endswith(".svg"):
            base = self._bases.get(rest[len("board/"):-len(".svg")])
            if base is not None:
                return self._file(base, "image/svg+xml", "private, max-age=86400, immutable")
        return _bare(404)

    @staticmethod
    def _file(body: bytes, kind: str, cache: str, **headers: str) -> web.Response:
        return web.Response(body=body, headers={**SAFE_HEADERS, "Content-Type": kind,
                                                "Cache-Control": cache, **headers})

    async def _events(self, request: web.BaseRequest) -> web.StreamResponse:
        if len(self._streams) >= self.max_clients:
            return _bare(503, **{"Retry-After": "5"})
        resp = web.StreamResponse(headers={**SAFE_HEADERS,
                                           "Content-Type": "text/event-stream; charset=utf-8",
                                           "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
        if request.method == "HEAD":
            return resp
        wake = asyncio.Event()
        self._streams.add(wake)
        try:
            await resp.prepare(request)
            self._take()
            hello = json.dumps({"keepalive": self.keepalive_s})
            await self._send(resp, f"retry: 2000\nevent: hello\ndata: {hello}\n\n".encode())
            sent = request.headers.get("Last-Event-ID", "")
            while not self._closing:
                if self._ident and self._ident != sent:
                    ident, frame = self._ident, self._frame
                    await self._send(resp, frame)
                    sent = ident
                    continue
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), self.keepalive_s)
                except TimeoutError:
                    await self._send(resp, b"event: ping\ndata: \n\n")
        except (ConnectionError, TimeoutError):
            pass  # the browser went away or stopped reading
        finally:
            self._streams.discard(wake)
        return resp

    async def _send(self, resp: web.StreamResponse, data: bytes) -> None:
        await asyncio.wait_for(resp.write(data), self.write_timeout_s)


def wait_until(check: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    """Poll ``check`` until it holds (for tests, scripts and benchmarks); ``False`` on time-out."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True
