"""The page (``companion/web/static/``) in a real browser: headless Chromium through
chromium-driver loads it from a WebView while scripted games are published.

Each game: a moment, then a roll (or touches), then the move, each checked on the
page within a second of ``publish``; a wrong token shows nothing; the page
reconnects by itself when the box goes away and comes back; the CSP is never
violated; screenshots go to a temporary folder (``scripts/web-screenshots.py``
makes the README's).
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from companion.games import samples
from companion.web.server import WebView, wait_until
from tests.web.chromium import PHONE, chromium, screenshot

SHOWN_WITHIN_S = 1.0
"""How soon a published snapshot must be on the page (a bound, not a speed target: the
benchmark measures the latency)."""


@pytest.fixture(scope="module")
def browser():
    with chromium(PHONE) as driver:
        yield driver


@pytest.fixture
def view():
    with WebView("127.0.0.1", 0, keepalive_s=2.0) as v:
        yield v


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def shown(driver, view, snap, check, timeout_s=SHOWN_WITHIN_S):
    """Publish ``snap`` and wait until the page has it and ``check(driver)`` holds."""
    seq = view.seq
    t0 = time.monotonic()
    view.publish(snap)
    ok = wait_until(lambda: view.seq > seq, timeout_s) and wait_until(
        lambda: js(driver, "return document.body.dataset.seq") == str(view.seq) and check(driver),
        max(0.05, timeout_s - (time.monotonic() - t0)))
    assert ok, f"not on the page within {timeout_s} s"


def opened(driver, view):
    driver.get(view.url)
    assert wait_until(lambda: js(driver, "return document.getElementById('link').dataset.state")
                      == "live", 5)


def text_of(driver, element_id):
    return js(driver, "return document.getElementById(arguments[0]).innerText", element_id)


def no_csp_or_script_errors(driver):
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
              and "favicon" not in e["message"]]
    assert errors == [], [e["message"] for e in errors]


# --- each game: a roll (or touches) and a move appear -----------------------------------------


def test_clovece_roll_and_move(browser, view, tmp_path):
    before, rolled, moved = samples.clovece()
    opened(browser, view)
    shown(browser, view, before, lambda d: text_of(d, "status") == before.status)
    assert js(browser, "return document.querySelectorAll('#board-top g.piece').length") == 16
    shown(browser, view, rolled,
          lambda d: js(d, "return document.getElementById('throws').dataset.values") == "3")
    assert js(browser, "return document.querySelectorAll('#throws .die .pip').length") == 3
    assert text_of(browser, "events").splitlines()[0] == "Červený hodil trojku."
    shown(browser, view, moved, lambda d: js(
        d, "return !!document.querySelector('#board-top g.piece[data-colour=r][data-where=\"8\"]')"))
    assert not js(browser, "return !!document.querySelector("
                           "'#board-top g.piece[data-colour=g][data-where=\"8\"]')")
    assert js(browser, "return document.querySelectorAll('#board-top .moved-to').length") == 1
    assert text_of(browser, "status") == "Na tahu je modrý."
    assert text_of(browser, "turn-name") == "Modrý (kosočtverec)"
    assert js(browser, "return document.querySelectorAll('#turn-mark svg polygon').length") == 1
    assert "Červený vyhodil zeleného." in text_of(browser, "events")
    assert js(browser, "return document.getElementById('board-base').naturalWidth") > 0
    assert js(browser, "return document.getElementById('ledger-box').hidden") is True
    screenshot(browser, tmp_path / "web-clovece.png")
    assert (tmp_path / "web-clovece.png").stat().st_size > 10_000
    no_csp_or_script_errors(browser)


def test_napij_throw_play_ledger_and_card(browser, view, tmp_path):
    before, thrown, played = samples.napij()
    opened(browser, view)
    shown(browser, view, before, lambda d: text_of(d, "status") == before.status)
    shown(browser, view, thrown,
          lambda d: js(d, "return document.getElementById('throws').dataset.values") == "5")
    assert js(browser, "return !!document.querySelector("
                       "'#board-top g.piece[data-colour=r][data-where=m12]')")
    shown(browser, view, played, lambda d: js(
        d, "return !!document.querySelector('#board-top g.piece[data-colour=r][data-where=m17]')"))
    assert not js(browser, "return !!document.querySelector("
                           "'#board-top g.piece[data-colour=r][data-where=m12]')")
    assert text_of(browser, "events").splitlines()[0] == "Červený táhl z m12 na m17."
    ledger = js(browser, "return [...document.querySelectorAll('#ledger tbody tr')]"
                         ".map(r => r.innerText.split('\\t').map(s => s.trim()))")
    assert [row[0] for row in ledger] == ["Červený", "Modrý", "Zelený", "Žlutý"]
    assert ledger[2][1:] == ["1× (vyhození modrým)", "2", "5"]  # a debt says why
    assert text_of(browser, "card-text").startswith("Karta 2: ")
    assert js(browser, "return document.querySelectorAll('#board-top g.bottle').length") == 1
    screenshot(browser, tmp_path / "web-napij.png")
    no_csp_or_script_errors(browser)


def test_gobbit_touches_and_ruling(browser, view, tmp_path):
    flipped, touched, ruled = samples.gobbit()
    opened(browser, view)
    shown(browser, view, flipped, lambda d: text_of(d, "status") == flipped.status)
    assert js(browser, "return document.querySelectorAll('#board-top g.seat').length") == 4
    assert js(browser, "return document.getElementById('throws-box').hidden") is True
    shown(browser, view, touched,
          lambda d: js(d, "return document.querySelectorAll('#moment tbody tr').length") == 2)
    rows = js(browser, "return [...document.querySelectorAll('#moment tbody tr')]"
                       ".map(r => r.innerText.split('\\t').map(s => s.trim()))")
    assert rows[0][3:] == ["útok", "0 ms"] and rows[1][3:] == ["pozdě", "+7,4 ms"]
    assert "(chvíle ještě běží)" in text_of(browser, "ruling-title")
    assert js(browser, "return document.querySelectorAll('#board-top g.touch').length") == 2
    assert ruled.touches is not None
    shown(browser, view, ruled, lambda d: text_of(d, "ruling-title") == "Verdikt")
    assert ruled.touches.ruling[0] in text_of(browser, "ruling")
    screenshot(browser, tmp_path / "web-gobbit.png")
    no_csp_or_script_errors(browser)


def test_referee_log_grows_with_each_touch(browser, view):
    frames = samples.referee()
    opened(browser, view)
    for n, snap in enumerate(frames):
        shown(browser, view, snap,
              lambda d, n=n: js(d, "return document.querySelectorAll('#log tbody tr').length")
              == n)
    assert "faul" in text_of(browser, "moment")
    assert "nesmí sežrat" in text_of(browser, "why")
    no_csp_or_script_errors(browser)


# --- safety, connection, behaviour ---------------------------------------------------------------


def test_a_wrong_token_gets_nothing(browser, view):
    view.publish(samples.clovece()[0])
    wrong = view.url.replace(view.token, view.token[::-1] + "x")
    for url in (wrong, wrong + "static/app.js", wrong + "snapshot.json",
                view.url.rsplit("/", 2)[0] + "/"):
        browser.get(url)
        status = js(browser, "return performance.getEntriesByType('navigation')[0]"
                             ".responseStatus")
        assert status == 404  # with an empty body: what shows is the browser's own error page
        assert js(browser, "return document.getElementById('status')") is None
        assert "Na tahu" not in browser.page_source


def test_the_page_reconnects_when_the_box_comes_back(browser):
    first = WebView("127.0.0.1", 0, keepalive_s=1.0).start()
    port, token = first.port, first.token
    try:
        opened(browser, first)
        shown(browser, first, samples.clovece()[0], lambda d: True)
    finally:
        first.close()
    assert wait_until(lambda: js(browser, "return document.getElementById('link').dataset.state")
                      == "lost", 5)
    assert "znovu" in text_of(browser, "link-text")
    with WebView("127.0.0.1", port, token=token, keepalive_s=1.0) as second:
        second.publish(samples.napij()[0])
        assert wait_until(lambda: js(browser, "return document.body.dataset.game") == "napij", 15)
        assert js(browser, "return document.getElementById('link').dataset.state") == "live"


class Blackhole:
    """A loopback TCP relay in front of the server that can go silent like a dropped Wi-Fi:
    while ``dropped``, bytes are swallowed both ways and nothing is closed; connections
    made while it was dropped stay dead after it comes back, as they would."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.dropped = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.generation = 0
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream))
            self.open += [client, upstream]
            born = self.generation if not self.dropped else -1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b, born), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, born: int) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                return
            if self.dropped or born != self.generation:
                continue  # lost in the air
            try:
                dst.sendall(data)
            except OSError:
                return

    def drop(self) -> None:
        self.dropped = True
        self.generation += 1

    def restore(self) -> None:
        self.dropped = False

    def close(self) -> None:
        self.listener.close()
        for s in self.open:
            s.close()


def test_the_page_reconnects_after_the_wifi_drops(browser):
    with WebView("127.0.0.1", 0, keepalive_s=0.5) as view:
        relay = Blackhole(view.port)
        try:
            browser.get(f"http://127.0.0.1:{relay.port}/{view.token}/")
            assert wait_until(lambda: js(browser, "return document.getElementById('link')"
                                                  ".dataset.state") == "live", 5)
            shown(browser, view, samples.clovece()[0], lambda d: True)
            relay.drop()
            # no goodbye on the stream, only silence: the page's watchdog notices
            assert wait_until(lambda: js(browser, "return document.getElementById('link')"
                                                  ".dataset.state") == "lost", 10)
            view.publish(samples.clovece()[1])
            time.sleep(0.5)
            assert js(browser, "return document.getElementById('throws').dataset.values") == "4"
            relay.restore()
            assert wait_until(lambda: js(browser, "return document.getElementById('throws')"
                                                  ".dataset.values") == "3", 20)
            assert js(browser, "return document.getElementById('link').dataset.state") == "live"
        finally:
            relay.close()


def test_an_open_rules_topic_stays_open_across_updates(browser, view):
    before, rolled, _ = samples.clovece()
    opened(browser, view)
    shown(browser, view, before, lambda d: True)
    js(browser, "document.querySelector('#rules details summary').click()")
    assert js(browser, "return document.querySelector('#rules details').open") is True
    shown(browser, view, rolled,
          lambda d: js(d, "return document.getElementById('throws').dataset.values") == "3")
    assert js(browser, "return document.querySelector('#rules details').open") is True
    assert js(browser, "return document.querySelectorAll('#rules details').length") == len(
        before.rules)


def test_the_page_fits_a_phone_without_sideways_scrolling(browser, view):
    opened(browser, view)
    for snap in (samples.napij()[-1], samples.gobbit()[1], samples.clovece()[-1]):
        shown(browser, view, snap, lambda d: True)
        width = js(browser, "return document.documentElement.scrollWidth")
        assert width <= PHONE[0]


@pytest.mark.parametrize("width", [320, 412])
def test_gobbit_seat_lines_stay_on_the_page_at_a_phones_width(view, width):
    """Every seat's counts ("kupička 12 · balíček 11 · gorila útočí") inside the drawing,
    measured by the browser's own text layout, on a narrow and a usual phone."""
    from companion.games.gobbit import svg as gobbit_svg
    from companion.web.snapshot import Snapshot

    tops = {s: None for s in range(1, 5)}
    seats = gobbit_svg.seats_of(tops, 4, piles=[12, 12, 12, 12], decks=[11, 11, 11, 11])
    snap = Snapshot("gobbit", "Gobbit", "Gorila! Hráč 4 smí napadnout kteroukoli kupičku.",
                    gobbit_svg.render(gobbit_svg.Table(seats, gorilla=4)))
    with chromium((width, 800)) as driver:
        opened(driver, view)
        shown(driver, view, snap, lambda d: js(
            d, "return document.querySelectorAll('#board-top text.counts').length") > 0)
        boxes = js(driver, """
            var svg = document.querySelector('#board-top svg');
            var vb = svg.viewBox.baseVal;
            return Array.from(svg.querySelectorAll('text')).map(function (t) {
              var b = t.getBBox();
              return [t.textContent, b.x, b.x + b.width, vb.x, vb.x + vb.width];
            });""")
        assert any("gorila útočí" in text for text, *_ in boxes)
        outside = [b for b in boxes if b[1] < b[3] or b[2] > b[4]]
        assert outside == []
        assert js(driver, "return document.documentElement.scrollWidth") <= width
