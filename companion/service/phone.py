"""The phone view in the service: the web server beside the loop, what it publishes, "Telefon".

:class:`Phone` owns a :class:`companion.web.server.WebView` (aiohttp in its own
thread).  The loop never waits for it:

* after every frame the loop marks the table as changed (:meth:`Phone.changed`,
  an attribute set);
* when the loop has nothing else to do (its idle hook, after the frame is on the
  display), :meth:`Phone.update` asks the shell for the game's values
  (:meth:`Shell.facts`: immutable engine-level values a host hands over, see
  :mod:`.hosts.facts`), compares them with the last ones published and, when they
  differ, hands the server a *callable* that builds the snapshot
  (:func:`snapshot_of`).  The SVG, the JSON and the pushes all happen on the
  server's thread; the loop's cost is the host's ``facts()`` and one comparison.

The "Telefon" menu item shows :meth:`Phone.screen`: the URL's QR code drawn by
:func:`companion.web.qr.oled_frame` (version 2 at two pixels a module), or why there
is none.  The address stays the same across restarts: the box's own token (and the port
chosen when any free one was asked for) is kept in the data folder (``phone.json``), so
the code on the panel, a printed one and a bookmark keep working until the family asks
for a new address ("Nový odkaz" in the menu: :meth:`Phone.renew`).  The web modules (aiohttp, the engines the snapshots read) are imported
when the view starts, after the first frame, so the service starts as fast as before.
"""

from __future__ import annotations

import errno
import functools
import ipaddress
import json
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UsageError
from companion.files import SMALL_LIMIT, read_text_limited
from companion.plugin import GamePlugin
from companion.service.config import WebConfig
from companion.service.hosts.facts import Facts
from companion.ui.picture import AnyView, Picture
from companion.ui.views import MessageView

if TYPE_CHECKING:
    from companion.service.shell import Shell
    from companion.web.server import WebView
    from companion.web.snapshot import Snapshot

log = logging.getLogger(__name__)

CAPTION = ("Načti kód", "fotoaparátem", "v telefonu.", "", "● zpět")
"""The words beside the QR code on the OLED (our own)."""
FAILED = "Stav hry pro telefony se nespustil:"
KEPT_NAME = "phone.json"
"""The data folder's file that keeps the phone's address across restarts."""


class Phone:
    """The phone view of one service: listen on ``host:port`` (port 0: any free one) under
    ``token`` (default: a new random one), ``url_host`` in the URL (default: the box's LAN
    address when listening on every interface)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, token: str | None = None,
                 url_host: str | None = None, max_clients: int = 32, keep: Path | None = None,
                 hold: Callable[[], bool] | None = None, **server: Any) -> None:
        self.keep = keep
        """Where the box's own token and chosen port are kept (``None``: new at every start)."""
        self.host, self.port = host, port
        self.token, self.url_host = token, url_host
        self.max_clients = max_clients
        self.server_options = server
        """More keyword arguments for the WebView (poll intervals, keep-alive: tests)."""
        self.view: WebView | None = None
        self.error = ""
        """Why the view does not serve (one sentence, for the log and the command line)."""
        self.problem = ""
        """The same in a few Czech words for the "Telefon" screen."""
        self.published = 0
        """Snapshots handed to the server so far."""
        self._dirty = True
        self._last: object = None
        self._topics: dict[str, Sequence[tuple[str, str]]] = {}
        self.hold = hold
        """Whether the table's loop is busy (the service's); the server waits while it is
        (and pauses its pass over the phones often, so the loop, back from the disk or the
        dice, finds the interpreter's lock free: :data:`companion.web.server.BATCH`)."""

    @classmethod
    def from_config(cls, web: WebConfig, data: Path | None = None, **server: Any) -> Phone:
        """The configured view; with ``data`` (the data folder) its address is kept there."""
        return cls(web.address, web.port, token=web.token or None,
                   url_host=web.url_host or None, max_clients=web.max_clients,
                   keep=data / KEPT_NAME if data is not None else None, **server)

    def _kept(self) -> tuple[str | None, int]:
        """The token and port kept from the last start (``None``, 0: nothing usable)."""
        if self.keep is None:
            return None, 0
        try:
            kept = json.loads(read_text_limited(self.keep, SMALL_LIMIT))
            token, port = kept.get("token"), kept.get("port", 0)
        except (OSError, ValueError, AttributeError, UsageError):
            return None, 0
        from companion.web.server import WebError, check_token

        try:
            token = check_token(token) if isinstance(token, str) else None
        except WebError:
            token = None
        return token, port if isinstance(port, int) and 1024 <= port <= 65535 else 0

    def _remember(self, token: str, port: int) -> None:
        """Keep the address for the next start (a courtesy: a refusal is logged)."""
        if self.keep is None:
            return
        tmp = self.keep.with_name(self.keep.name + ".tmp")
        try:
            tmp.write_text(json.dumps({"token": token, "port": port}), "utf-8")
            os.replace(tmp, self.keep)
        except OSError as exc:
            log.warning("the phone's address cannot be kept for the next start: %s", exc)

    # --- starting and stopping -----------------------------------------------------------

    def start(self) -> Phone:
        """Listen (returns once the port is open); :class:`UsageError` with one sentence when
        it cannot.  Imports aiohttp and the snapshot builders (with the engines they read)."""
        if self.view is not None:
            return self
        from companion.web import snapshot  # noqa: F401  (here, not on the server's thread)
        from companion.web.qr import new_token
        from companion.web.server import WebView

        # the box's own token is upper-case letters and digits: its address fits a QR code
        # with bigger modules (companion.web.qr); a configured token is used as it is.  The
        # box's own is kept in the data folder, as is a port chosen when any was asked for.
        kept_token, kept_port = self._kept()
        token = self.token or kept_token or new_token()

        def listen(port: int) -> WebView:
            view = WebView(self.host, port, token, max_clients=self.max_clients,
                           url_host=self.url_host, hold=self.hold, **self.server_options)
            return view.start()

        try:
            view = listen(self.port or kept_port)
        except UsageError:
            if self.port or not kept_port:
                raise
            view = listen(0)  # the kept port is taken now: another one, kept from now on
        if not self.token:
            self._remember(token, view.port if not self.port else 0)
        self.view, self.error, self.problem = view, "", ""
        self._dirty = True
        log.info("phone view at %s", self.shown_url)  # never the token in a log
        return self

    def try_start(self) -> bool:
        """:meth:`start` for the table service: a view that cannot start is logged and said
        on the "Telefon" screen, and the table plays on without it."""
        try:
            self.start()
        except UsageError as exc:
            self.error, self.problem = str(exc), problem_of(exc, self.host, self.port)
            log.error("the phone view cannot start: %s", exc)
            return False
        except Exception:  # never lose the table to the phones
            self.error = self.problem = "Chyba programu, podrobnosti jsou v protokolu."
            log.exception("the phone view cannot start")
            return False
        return True

    def renew(self) -> bool:
        """"Nový odkaz": a new token for the box's own address (the old codes stop working);
        ``False`` when the view does not serve or its token is the configuration's."""
        if self.view is None or self.token:
            return False
        from companion.web.qr import new_token

        port = self.view.port
        self.close()
        self._remember(new_token(), port if not self.port else 0)
        return self.try_start()

    def close(self) -> None:
        if self.view is not None:
            self.view.close()
            self.view = None

    @property
    def shown_url(self) -> str | None:
        """The page's address for logs: the token left out (``None`` while not serving)."""
        if self.view is None:
            return None
        return self.view.url.replace(self.view.token, "<token>")

    @property
    def url(self) -> str | None:
        """The page's address with the token (``None`` while not serving)."""
        return self.view.url if self.view is not None else None

    # --- publishing (the loop's thread) ------------------------------------------------------

    def changed(self, view: object = None) -> None:
        """The table drew a frame: something may have changed (the loop's frame hook)."""
        self._dirty = True

    def update(self, shell: Shell) -> None:
        """Publish the game if it changed since the last time (the loop's idle hook)."""
        if not self._dirty or self.view is None:
            return
        self._dirty = False
        info = shell.table.info
        facts = shell.facts()
        key = (info.name, shell.table.label, facts)
        if key == self._last:
            return
        self._last = key
        topics = self._topics_of(info)
        self.view.publish(functools.partial(snapshot_of, info.name, shell.table.label, facts,
                                            topics))
        self.published += 1

    def _topics_of(self, info: GamePlugin) -> Sequence[tuple[str, str]]:
        topics = self._topics.get(info.name)
        if topics is None:
            topics = self._topics[info.name] = tuple(info.topics())
        return topics

    # --- the "Telefon" screen ----------------------------------------------------------------

    def screen(self) -> AnyView:
        """The URL's QR code with a few words, or why there is none."""
        url = self.url
        if url is None:
            text = f"{FAILED} {self.problem}" if self.problem else \
                "Stav hry pro telefony se spouští."
            return MessageView("Telefon", tuple(_wrap(text)), "● zpět do hry")
        try:
            return qr_screen(url)
        except UsageError:  # the address is too long for the display's code: say it in words
            return MessageView("Telefon", ("Adresa je na kód", "moc dlouhá:", *_wrap(url, 21)),
                               "● zpět do hry")


def problem_of(exc: BaseException, host: str, port: int) -> str:
    """Why the view could not start, in a few Czech words for the display (the whole
    sentence is in the log)."""
    code = getattr(exc, "errno", None)
    if code == errno.EADDRINUSE:
        return f"port {port} už používá jiný program."
    if code == errno.EADDRNOTAVAIL:
        return f"adresa {host} nepatří tomuto zařízení."
    if code == errno.EACCES:
        return f"port {port} smí otevřít jen správce."
    return "podrobnosti jsou v protokolu."


@functools.lru_cache(maxsize=4)
def qr_screen(url: str) -> Picture:
    """The "Telefon" frame of ``url`` (made once per address)."""
    from companion.web import qr

    return Picture.of("Telefon", qr.oled_frame(url, CAPTION))


def _wrap(text: str, width: int = 24) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, break_long_words=True) or [""]


def parse_address(text: str, what: str = "--web") -> tuple[str, int]:
    """``HOST:PORT`` (an IP address, ``[v6]:PORT`` in brackets, or ``localhost``; port 0: any
    free one)
    as (host, port); :class:`UsageError` with one sentence otherwise."""
    host, sep, port = text.rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    host = host[1:-1] if bracketed else host
    if host == "localhost":
        host = "127.0.0.1"
    version: int
    try:
        version = ipaddress.ip_address(host).version
        number = int(port, 10) if port.isascii() and port.isdigit() and len(port) <= 5 else -1
    except ValueError:
        version, number = 0, -1
    if version == 6 and not bracketed:  # "::1:8080" could be an address without a port
        number = -1
    if not sep or not 0 <= number <= 65535:
        raise UsageError(f"{what} must be HOST:PORT with an IP address, e.g. 127.0.0.1:8080, "
                         "0.0.0.0:8080 or [::1]:8080 (port 0: any free port).")
    return host, number


# --- facts -> snapshot (the server's thread) ----------------------------------------------------


def snapshot_of(game: str, title: str, facts: Facts | None,
                topics: Sequence[tuple[str, str]] = ()) -> Snapshot:
    """The page's snapshot of the game's values (runs on the web server's thread: everything
    it reads is immutable), built by the game's facts (:meth:`~.hosts.facts.Facts.snapshot`)."""
    from companion.web import snapshot

    rules = tuple(topics)
    if facts is not None:
        return facts.snapshot(rules)
    return snapshot.waiting(game, title, rules=rules)

