"""The web server: token, read-only, caps, safe headers, the event stream, start and close."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time

import pytest

from companion.errors import UsageError
from companion.games import samples
from companion.web import server
from companion.web.server import CSP, WebError, WebView, check_token, lan_address, new_token


def request(view: WebView, path: str, method: str = "GET", headers: dict[str, str] | None = None,
            body: bytes | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", view.port, timeout=5)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


class Stream:
    """An event-stream client reading one event at a time."""

    def __init__(self, view: WebView, token: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", view.port, timeout=5)
        self.conn.request("GET", f"/{token or view.token}/events", headers=headers or {})
        self.resp = self.conn.getresponse()

    def next(self) -> dict[str, str]:
        event: dict[str, str] = {}
        while True:
            line = self.resp.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode().rstrip("\n")
            if not text:
                if event:
                    return event
                continue
            key, _, value = text.partition(":")
            event[key] = value[1:] if value.startswith(" ") else value

    def next_of(self, kind: str) -> dict[str, str]:
        while True:
            event = self.next()
            if event.get("event") == kind:
                return event

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def view():
    with WebView("127.0.0.1", 0, keepalive_s=0.3, max_clients=4, idle_poll_s=0.02) as v:
        yield v


def published(view: WebView, snap) -> int:
    seq = view.seq
    view.publish(snap)
    assert server.wait_until(lambda: view.seq > seq)
    return view.seq


# --- the token ---------------------------------------------------------------------------------


def test_new_tokens_are_random_url_safe_and_short():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    for t in tokens:
        assert len(t) == 11 and check_token(t) == t


@pytest.mark.parametrize("bad", ["short", "with/slash", "x" * 65, "ünicode-token", "a b c d e f"])
def test_unusable_tokens_are_refused_with_one_sentence(bad):
    with pytest.raises(WebError) as err:
        check_token(bad)
    assert isinstance(err.value, UsageError) and str(err.value).endswith(".")


def test_the_url_carries_the_token_and_the_port(view):
    assert view.url == f"http://127.0.0.1:{view.port}/{view.token}/"
    assert view.port > 0


def test_the_url_host_can_be_given_and_ipv6_is_bracketed():
    v = WebView("127.0.0.1", 8080, token="abcdefgh", url_host="companion.local")
    assert v.url == "http://companion.local:8080/abcdefgh/"
    v = WebView("::1", 8080, token="abcdefgh")
    assert v.url == "http://[::1]:8080/abcdefgh/"


def test_listening_everywhere_puts_a_reachable_address_in_the_url():
    v = WebView("0.0.0.0", 8080, token="abcdefgh")
    host = v.url.split("//")[1].split(":")[0]
    assert host == lan_address()
    socket.inet_aton(host)  # an IPv4 address


# --- what a stranger gets ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/index.html", "/static/app.js", "/events", "/snapshot.json",
                                  "/wrongtoken/", "/wrongtoken/events", "/favicon.ico",
                                  "/%2e%2e/etc/passwd"])
def test_without_the_token_everything_is_404_with_an_empty_body(view, path):
    status, headers, body = request(view, path)
    assert status == 404 and body == b""
    assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get("Server", "")


def test_a_token_that_differs_in_one_letter_gets_nothing(view):
    other = view.token[:-1] + ("A" if view.token[-1] != "A" else "B")
    assert request(view, f"/{other}/")[0] == 404
    assert request(view, f"/{view.token}x/")[0] == 404
    assert request(view, f"/{view.token}/")[0] == 200


def test_a_wrong_token_with_another_method_is_still_404(view):
    status, _, body = request(view, "/nope/", "POST", body=b"x")
    assert status == 404 and body == b""


# --- read-only, sizes, headers ----------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head_are_answered(view, method):
    status, headers, body = request(view, f"/{view.token}/", method)
    assert status == 405 and body == b""
    assert {m.strip() for m in headers["Allow"].split(",")} == {"GET", "HEAD"}


def test_a_request_with_a_body_is_refused(view):
    status, _, body = request(view, f"/{view.token}/snapshot.json", "GET", body=b"x" * 100)
    assert status == 413 and body == b""


def test_an_over_long_request_line_or_header_is_refused_without_secrets(view, caplog):
    """aiohttp's own answer to a malformed request: its status and parser message (what the
    client sent, to that client), never a traceback, and the token never in the log."""
    with caplog.at_level(logging.DEBUG):
        status, _, body = request(view, f"/{view.token}/" + "a" * 2000)
    assert status in (400, 414) and b"Traceback" not in body
    assert not any(view.token in r.getMessage() or (r.exc_text or "").count(view.token)
                   for r in caplog.records)
    status, _, body = request(view, f"/{view.token}/", headers={"X-Big": "b" * 5000})
    assert status in (400, 431) and b"Traceback" not in body


def test_the_page_has_a_strict_csp_and_safe_headers(view):
    status, headers, body = request(view, f"/{view.token}/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "default-src 'none'" in CSP
    assert "script-src 'self'" in CSP
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cache-Control"] == "no-store"
    assert headers["Server"] == "companion"
    text = body.decode()
    assert "<script src=\"static/app.js\"" in text
    assert "<script>" not in text and " style=" not in text and "http" not in text.replace(
        'xmlns="http', "")  # no inline script or style, no outside address


def test_assets_are_served_with_their_types_and_revalidated(view):
    for name, kind in server.ASSETS.items():
        status, headers, body = request(view, f"/{view.token}/static/{name}")
        media = headers["Content-Type"].split(";")[0]
        same = {"text/javascript", "application/javascript"} if name.endswith(".js") else set()
        assert status == 200 and (media == kind.split(";")[0] or media in same)
        assert body
        assert headers["Content-Security-Policy"] == CSP
        etag = headers["ETag"]
        status, _, body = request(view, f"/{view.token}/static/{name}",
                                  headers={"If-None-Match": etag})
        assert status == 304 and body == b""
    assert request(view, f"/{view.token}/static/nothing.js")[0] == 404
    assert request(view, f"/{view.token}/static/../server.py")[0] == 404


def test_no_asset_loads_anything_from_outside():
    from importlib import resources

    for name in ("index.html", *server.ASSETS):
        text = resources.files("companion.web").joinpath("static", name).read_text()
        for word in ("https://", "//cdn", "@import", "eval(", "innerHTML"):
            assert word not in text, (name, word)


def test_head_answers_without_a_body(view):
    status, headers, body = request(view, f"/{view.token}/", "HEAD")
    assert status == 200 and body == b"" and headers["Content-Security-Policy"] == CSP


def test_the_token_path_without_a_slash_redirects_to_the_page(view):
    status, headers, _ = request(view, f"/{view.token}")
    assert status == 308 and headers["Location"] == f"/{view.token}/"


# --- snapshots ------------------------------------------------------------------------------------


def test_the_json_snapshot_is_the_latest_published(view):
    assert json.loads(request(view, f"/{view.token}/snapshot.json")[2]) == {"seq": 0}
    frames = samples.clovece()
    for snap in frames:
        published(view, snap)
    status, headers, body = request(view, f"/{view.token}/snapshot.json")
    data = json.loads(body)
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert data["seq"] == 3 and data["game"] == "clovece"
    assert data["status"] == frames[-1].status and data["events"] == list(frames[-1].events)
    assert data["board"]["top"] == frames[-1].board.top


def test_the_board_base_is_served_once_by_its_hash(view):
    snap = samples.napij()[0]
    published(view, snap)
    data = json.loads(request(view, f"/{view.token}/snapshot.json")[2])
    base = data["board"]["base"]
    assert base.startswith("board/") and base.endswith(".svg") and "<svg" not in base
    status, headers, body = request(view, f"/{view.token}/{base}")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml"
    assert body.decode() == snap.board.base
    assert "immutable" in headers["Cache-Control"]
    assert request(view, f"/{view.token}/board/0000.svg")[0] == 404
    assert request(view, f"/nope/{base}")[0] == 404


def test_publish_takes_a_callable_and_builds_it_on_the_server_thread(view):
    threads = []

    def build():
        threads.append(threading.current_thread().name)
        return samples.referee()[0]

    published(view, build)
    assert threads == ["companion-web"]
    assert json.loads(request(view, f"/{view.token}/snapshot.json")[2])["game"] == "gobbit"


def test_a_failing_builder_is_logged_and_the_last_snapshot_stays(view, caplog):
    published(view, samples.clovece()[0])

    def broken():
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR, logger="companion.web.server"):
        view.publish(broken)
        assert server.wait_until(lambda: any("could not be built" in r.message
                                             for r in caplog.records))
    data = json.loads(request(view, f"/{view.token}/snapshot.json")[2])
    assert data["game"] == "clovece" and data["seq"] == 1


def test_a_handler_failure_is_a_bare_500_and_a_log_line(view, caplog, monkeypatch):
    def broken(request):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(view, "_page", broken)
    with caplog.at_level(logging.ERROR, logger="companion.web.server"):
        status, headers, body = request(view, f"/{view.token}/")
    assert status == 500 and body == b""
    assert headers["Content-Security-Policy"] == CSP
    assert any("request failed" in r.message for r in caplog.records)


def test_publish_before_start_is_kept_and_after_close_is_harmless():
    v = WebView("127.0.0.1", 0)
    v.publish(samples.clovece()[0])
    with v:
        assert server.wait_until(lambda: v.seq == 1)
    v.publish(samples.clovece()[1])  # closed: nothing happens, nothing raises


def test_a_json_request_takes_the_latest_at_once_even_between_polls():
    with WebView("127.0.0.1", 0, idle_poll_s=60) as v:
        snap = samples.napij()[1]
        v.publish(snap)
        data = json.loads(request(v, f"/{v.token}/snapshot.json")[2])
        assert data["seq"] == 1 and data["status"] == snap.status


def test_publish_touches_nothing_but_the_hand_over_slot(view, monkeypatch):
    """The caller's thread never wakes the server's loop (that would cost it the GIL)."""
    loop = view._loop
    calls = []
    monkeypatch.setattr(loop, "call_soon_threadsafe", lambda *a, **k: calls.append(a))
    view.publish(samples.clovece()[0])
    assert calls == []
    assert server.wait_until(lambda: view.seq == 1)


def test_publishing_many_at_once_sends_only_the_last(view):
    frames = samples.clovece() * 20
    for snap in frames:
        view.publish(snap)
    assert server.wait_until(lambda: json.loads(
        request(view, f"/{view.token}/snapshot.json")[2]).get("status") == frames[-1].status)
    assert 1 <= view.seq <= len(frames)


# --- the event stream -------------------------------------------------------------------------------


def test_the_stream_says_hello_then_sends_the_latest_snapshot_and_every_new_one(view):
    frames = samples.clovece()
    published(view, frames[0])
    stream = Stream(view)
    try:
        assert stream.resp.status == 200
        assert stream.resp.headers["Content-Type"].startswith("text/event-stream")
        assert stream.resp.headers["Content-Security-Policy"] == CSP
        hello = stream.next()
        assert hello["event"] == "hello" and hello["retry"] == "2000"
        assert json.loads(hello["data"]) == {"keepalive": 0.3}
        first = stream.next_of("snapshot")
        assert json.loads(first["data"])["status"] == frames[0].status
        for snap in frames[1:]:
            view.publish(snap)
            event = stream.next_of("snapshot")
            data = json.loads(event["data"])
            assert data["throws"] == list(snap.throws) and data["events"] == list(snap.events)
            assert event["id"].endswith(f"-{data['seq']}")
    finally:
        stream.close()


def test_every_stream_gets_every_snapshot_written_once_for_all_in_order(view):
    """The server writes a snapshot's chunk straight to each stream that has taken all it was
    sent: each browser reads every one, whole and in order (http.client undoes the chunks)."""
    frames = samples.clovece()
    published(view, frames[0])
    streams = [Stream(view) for _ in range(3)]
    try:
        for s in streams:
            s.next_of("snapshot")
        before = view.direct_writes
        for k, snap in enumerate(frames[1:], 1):
            seq = published(view, snap)
            for s in streams:
                event = s.next_of("snapshot")
                data = json.loads(event["data"])
                assert data["seq"] == seq and data["events"] == list(snap.events)
            assert view.direct_writes - before <= 3 * k
        assert view.direct_writes - before >= len(frames) - 1  # not all through the tasks
    finally:
        for s in streams:
            s.close()


def test_while_the_table_is_busy_the_server_waits_then_sends_the_latest():
    busy = [True]
    with WebView("127.0.0.1", 0, keepalive_s=5, idle_poll_s=0.02,
                 hold=lambda: busy[0]) as v:
        stream = Stream(v)
        try:
            stream.next_of("hello")
            frames = samples.clovece()
            v.publish(frames[0])
            time.sleep(0.2)
            assert v.seq == 0  # not built, not sent while the table's loop is busy
            v.publish(frames[1])
            busy[0] = False
            data = json.loads(stream.next_of("snapshot")["data"])
            assert data["seq"] == 1 and data["events"] == list(frames[1].events)
            # a request for the JSON does not wait for the table
            busy[0] = True
            v.publish(frames[2])
            status, _, body = request(v, f"/{v.token}/snapshot.json")
            assert status == 200 and json.loads(body)["events"] == list(frames[2].events)
        finally:
            stream.close()


def test_a_pass_over_many_streams_pauses_after_a_batch_while_the_table_is_busy():
    """The server's pass writes a batch, then waits while the table's loop is busy, then
    writes to the rest (the table's loop gets the interpreter between batches)."""
    n = server.BATCH + 4
    before: list[int] = []  # the direct writes when the snapshot is published
    released = [False]

    def busy() -> bool:  # the table becomes busy once the first batch is out
        return bool(before) and v.direct_writes - before[0] >= server.BATCH and not released[0]

    with WebView("127.0.0.1", 0, keepalive_s=30, max_clients=n, per_address=n + 2,
                 idle_poll_s=0.02, hold=busy) as v:
        streams = [Stream(v) for _ in range(n)]
        try:
            for s in streams:
                s.next_of("hello")
            assert server.wait_until(lambda: v.clients == n)
            before.append(v.direct_writes)
            v.publish(samples.clovece()[0])
            assert server.wait_until(lambda: v.direct_writes - before[0] >= server.BATCH)
            time.sleep(0.2)
            assert v.direct_writes - before[0] == server.BATCH  # the rest wait for the table
            released[0] = True
            for s in streams:
                assert s.next_of("snapshot")["event"] == "snapshot"
            # the pass went on after the release (a stream whose socket still held bytes
            # under load is sent the snapshot by its own task instead)
            assert server.BATCH < v.direct_writes - before[0] <= n
        finally:
            for s in streams:
                s.close()


def test_the_stream_pings_when_nothing_happens(view):
    stream = Stream(view)
    try:
        stream.next_of("hello")
        t0 = time.monotonic()
        assert stream.next()["event"] == "ping"
        assert time.monotonic() - t0 < 3
    finally:
        stream.close()


def test_a_reconnecting_browser_that_has_the_latest_is_not_sent_it_again(view):
    published(view, samples.clovece()[0])
    stream = Stream(view)
    ident = stream.next_of("snapshot")["id"]
    stream.close()
    again = Stream(view, headers={"Last-Event-ID": ident})
    try:
        again.next_of("hello")
        assert again.next()["event"] == "ping"  # no snapshot: it has this one
        view.publish(samples.clovece()[1])
        assert again.next_of("snapshot")["id"] != ident
    finally:
        again.close()


def test_the_number_of_streams_is_capped(view):
    streams = [Stream(view) for _ in range(view.max_clients)]
    try:
        for s in streams:
            s.next_of("hello")
        assert server.wait_until(lambda: view.clients == view.max_clients)
        status, headers, body = request(view, f"/{view.token}/events")
        assert status == 503 and body == b"" and headers["Retry-After"] == "5"
        # the page itself still loads
        assert request(view, f"/{view.token}/")[0] == 200
    finally:
        for s in streams:
            s.close()
    assert server.wait_until(lambda: view.clients == 0)
    extra = Stream(view)
    try:
        assert extra.next()["event"] == "hello"
    finally:
        extra.close()


def test_a_gone_browser_frees_its_stream_at_once(view):
    stream = Stream(view)
    stream.next_of("hello")
    assert server.wait_until(lambda: view.clients == 1)
    stream.close()
    assert server.wait_until(lambda: view.clients == 0, timeout_s=2)


def test_connections_beyond_the_cap_are_closed():
    with WebView("127.0.0.1", 0, max_clients=1) as v:
        socks = [socket.create_connection(("127.0.0.1", v.port)) for _ in range(
            1 + server.SPARE_CONNECTIONS + 3)]
        try:
            last = socks[-1]
            last.settimeout(3)
            try:
                last.sendall(f"GET /{v.token}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                answer = last.recv(100)
            except ConnectionResetError:
                answer = b""
            assert answer == b""  # closed without an answer
        finally:
            for s in socks:
                s.close()

        def page_loads() -> bool:  # once the server has seen the sockets go
            try:
                return request(v, f"/{v.token}/")[0] == 200
            except OSError:
                return False

        assert server.wait_until(page_loads)


def test_close_ends_the_streams_and_frees_the_port():
    v = WebView("127.0.0.1", 0).start()
    port = v.port
    stream = Stream(v)
    stream.next_of("hello")
    v.close()
    with pytest.raises((EOFError, OSError, http.client.HTTPException)):
        for _ in range(10):
            stream.next()
    stream.close()
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))


def test_a_taken_port_is_one_sentence():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(WebError) as err:
            WebView("127.0.0.1", port).start()
    text = str(err.value)
    assert text.startswith("The web view cannot listen on 127.0.0.1:") and text.endswith(".")
    assert "\n" not in text


@pytest.mark.parametrize("kwargs", [{"port": 70000}, {"port": -1}, {"max_clients": 0}])
def test_bad_settings_are_one_sentence(kwargs):
    with pytest.raises(WebError):
        WebView("127.0.0.1", **kwargs)


def test_publish_is_cheap_and_does_not_wait_for_the_server(view):
    snap = samples.napij()[0]
    t0 = time.perf_counter()
    for _ in range(1000):
        view.publish(snap)
    per_call = (time.perf_counter() - t0) / 1000
    # not a speed target (benchmarks/web_push.py measures it): a call that waited for the
    # network or serialised the snapshot would take milliseconds, not this
    assert per_call < 0.002
