"""The page in a real browser THROUGH THE REAL SERVICE: the table service (App on mock pins,
the pty dice, luma's dummy display, the loop in a thread) serves its phone view on a free
loopback port (``[web] enabled``), headless Chromium opens it, and the game is played with
the buttons, the dice and the pads.

Člověče: a roll and a move appear on the page (the throw, the event line, the piece moved on
the board); a wrong token gets nothing; napij se: the ledger with "Účet"; Gobbit with the
virtual deck: the ruling, with the sentence on the pads' uncertainty when the touches are
closer than it (D28).  ``scripts/web-screenshots.py`` takes the README's pictures the same way.
"""

from __future__ import annotations

import time

import pytest

from companion.games.clovece.screens import CloveceTurnView
from companion.games.gobbit.engine.judge import eats
from companion.inputs.events import PadEvent
from companion.inputs.pads import PadTouch
from companion.service.hosts.base import Expect
from companion.ui.views import ListView
from companion.web.server import wait_until
from tests.service.rig import Rig
from tests.web.chromium import PHONE, chromium, screenshot
from tests.web.test_page import js, no_csp_or_script_errors, opened, text_of

ON_THE_PAGE_S = 5.0
"""How long a change may take to reach the page here (a generous bound for a loaded 2-core
machine: the latency itself is the benchmark's)."""


@pytest.fixture(scope="module")
def browser():
    with chromium(PHONE) as driver:
        yield driver


@pytest.fixture
def table(request, tmp_path):
    options = getattr(request, "param", {})
    rig = Rig(tmp_path, web=True, **options)
    phone = rig.app.phone
    assert phone is not None and wait_until(lambda: phone.url is not None, 10)
    yield rig
    rig.stop()


def open_page(driver, rig: Rig) -> None:
    """Open the service's page (the browser's log of earlier tests is dropped first)."""
    driver.get_log("browser")
    opened(driver, rig.app.phone)


def on_page(driver, check, timeout_s: float = ON_THE_PAGE_S) -> None:
    assert wait_until(lambda: check(driver), timeout_s), "not on the page in time"


def start(rig: Rig) -> None:
    """From the set-up screen to the first turn: ◀ to "▶ Začít hru", then ●."""
    rig.wait(lambda v: isinstance(v, ListView))
    rig.press("left")
    rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
    rig.press("select")


def piece_at(driver, colour: str, where: str) -> bool:
    return js(driver, "return !!document.querySelector("
                      f"'#board-top g.piece[data-colour={colour}][data-where=\"{where}\"]')")


# --- Člověče: a roll and a move --------------------------------------------------------------------


def test_a_roll_and_a_move_at_the_table_appear_on_the_page(browser, table, tmp_path):
    open_page(browser, table)
    on_page(browser, lambda d: js(d, "return document.body.dataset.game") == "clovece")
    start(table)
    table.wait(lambda v: isinstance(v, CloveceTurnView) and v.dice == "ok")
    on_page(browser, lambda d: text_of(d, "status") == "Na tahu je červený.")
    assert js(browser, "return document.querySelectorAll('#board-top g.piece').length") == 8
    assert piece_at(browser, "r", "h") or js(
        browser, "return document.querySelectorAll('#board-top g.piece[data-colour=r]')"
                 ".length") == 4
    table.dice.roll(6)  # a six: the only move, onto the start, plays itself
    table.wait(lambda v: isinstance(v, CloveceTurnView) and "nasadil" in v.event)
    on_page(browser, lambda d: piece_at(d, "r", "0"))
    assert js(browser, "return document.getElementById('throws').dataset.values") == "6"
    assert js(browser, "return document.querySelectorAll('#throws .die .pip').length") == 6
    assert text_of(browser, "events").splitlines()[0] == "Červený nasadil figurku."
    assert js(browser, "return document.querySelectorAll('#board-top .moved-to').length") == 1
    table.dice.roll(4)  # the six's extra throw: 0 -> 4, then green's turn
    table.wait(lambda v: isinstance(v, CloveceTurnView) and v.player == "Zelený")
    on_page(browser, lambda d: piece_at(d, "r", "4") and not piece_at(d, "r", "0"))
    assert js(browser, "return document.getElementById('throws').dataset.values") == "6,4"
    assert text_of(browser, "status") == "Na tahu je zelený."
    assert text_of(browser, "turn-name").startswith("Zelený")
    screenshot(browser, tmp_path / "service-clovece.png")
    assert (tmp_path / "service-clovece.png").stat().st_size > 10_000
    no_csp_or_script_errors(browser)


def test_a_wrong_token_gets_nothing_from_the_service(browser, table):
    start(table)
    table.wait(lambda v: isinstance(v, CloveceTurnView))
    url, token = table.app.phone.url, table.app.phone.view.token
    wrong = url.replace(token, token[::-1] + "x")
    for bad in (wrong, wrong + "snapshot.json", wrong + "events", url.rsplit("/", 2)[0] + "/",
                url.replace(token, token.upper() if token != token.upper() else token.lower())):
        browser.get(bad)
        status = js(browser, "return performance.getEntriesByType('navigation')[0]"
                             ".responseStatus")
        assert status in (403, 404)
        assert js(browser, "return document.getElementById('status')") is None
        source = browser.page_source
        assert "Na tahu" not in source and "clovece" not in source and "Červen" not in source


# --- napij se: the ledger with "Účet" -------------------------------------------------------------


def napij_until_a_throw(rig: Rig, timeout_s: float = 15.0) -> None:
    """Press ● through the lot, the announcements and the opening toast until a throw is
    wanted."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        host = rig.app.controller.host
        expects = host.expects() if rig.app.controller.mode == "play" else None
        if expects is Expect.ROLL and host.turn.shown is None:
            return
        if expects is Expect.CONFIRM or host.turn.shown is not None:
            before = rig.view
            rig.press("select")
            wait_until(lambda b=before: rig.view != b, 2)
        else:
            time.sleep(0.05)
    raise AssertionError(f"no throw wanted; the screen shows {rig.view!r}")


def ledger_rows(driver) -> list[list[str]]:
    return js(driver, "return [...document.querySelectorAll('#ledger tbody tr')]"
                      ".map(r => r.innerText.split('\\t').map(s => s.trim()))")


@pytest.mark.parametrize("table", [{"game": "napij"}], indirect=True)
def test_napij_se_shows_the_ledger_and_ucet_and_the_throws(browser, table, tmp_path):
    open_page(browser, table)
    start(table)
    napij_until_a_throw(table)
    on_page(browser, lambda d: not js(d, "return document.getElementById('ledger-box').hidden")
            and all(r[-2:] == ["1", "1"] for r in ledger_rows(d)) and len(ledger_rows(d)) == 2)
    rows = ledger_rows(browser)  # the page polls: the rows come with the poll after the toast
    assert [r[0] for r in rows] == ["Červený", "Zelený"]
    for row in rows:  # everybody drank the opening toast: one drink, in this game and tonight
        assert row[-2:] == ["1", "1"], rows
    assert "Účet" in text_of(browser, "ledger-box")
    colour = "rg"[table.app.controller.host.turn.state.turn // 2]
    table.dice.roll(6)
    on_page(browser, lambda d: js(d, "return document.getElementById('throws').dataset.values")
            == "6")
    table.dice.roll(2)  # from the pub onto the board: the single play, made and confirmed
    wait_until(lambda: table.app.controller.host.turn.plays(), 2)
    table.press("select")
    on_page(browser, lambda d: js(
        d, f"return document.querySelectorAll('#board-top g.piece[data-colour={colour}]"
           ":not([data-where^=p])').length") >= 1 and "nasadil" in text_of(d, "events"), 10)
    assert js(browser, "return document.getElementById('throws').dataset.values") == "6,2"
    assert js(browser, "return document.querySelectorAll('#board-top .moved').length") == 1
    screenshot(browser, tmp_path / "service-napij.png")
    no_csp_or_script_errors(browser)


# --- Gobbit: the ruling, honest about the pads ----------------------------------------------------


def gobbit_virtual(rig: Rig) -> None:
    """The set-up's first line to the virtual deck, then ▶ Začít hru."""
    rig.wait(lambda v: isinstance(v, ListView) and v.items[0] == "Hra: Gobbit (rozhodčí)")
    rig.press("select")
    rig.wait(lambda v: isinstance(v, ListView) and v.items[0] == "Hra: Gobbit (balíček)")
    start(rig)
    wait_until(lambda: getattr(rig.app.controller.host, "virtual", None) is not None, 5)


def flip_until_an_attack(rig: Rig) -> tuple[int, int]:
    host = rig.app.controller.host
    for _ in range(60):
        state = host.virtual.state
        for a in state.seats:
            for b in state.seats:
                ta, tb = state.top(a), state.top(b)
                if a != b and ta is not None and tb is not None and eats(ta, tb):
                    return a, b
        n = len(host.virtual.actions)
        rig.press("select")
        assert wait_until(lambda n=n: len(host.virtual.actions) > n, 3)
    raise AssertionError("no attack came up")


@pytest.mark.parametrize("table", [{"game": "gobbit", "players": 4}], indirect=True)
def test_gobbit_shows_the_ruling_and_says_when_touches_were_too_close_to_tell(browser, table,
                                                                            tmp_path):
    open_page(browser, table)
    gobbit_virtual(table)
    host = table.app.controller.host
    assert host.virtual.uncertainty_ms == 60.0  # the TTP223 modules' declared figure
    attacker, victim = flip_until_an_attack(table)
    on_page(browser, lambda d: js(d, "return document.querySelectorAll('#board-top g.seat')"
                                     ".length") == len(host.virtual.state.seats))
    ms = 50_000.0
    table.app.service.post(PadEvent(PadTouch(attacker, victim, ms, ms)))
    table.app.service.post(PadEvent(PadTouch(victim, victim, ms + 7.4, ms + 7.4)))
    on_page(browser, lambda d: js(d, "return document.querySelectorAll('#moment tbody tr')"
                                     ".length") == 2)
    # the moment settles (1.5 s without a touch): the verdict is final
    on_page(browser, lambda d: text_of(d, "ruling-title") == "Verdikt", 10)
    assert host.virtual.last_ruling is not None
    calls = text_of(browser, "calls")
    assert f"Kupička hráče {victim}: 7,4 ms – pod přesností čidel (±60 ms): současně." in calls
    assert "Při současných dotecích má přednost majitel kupičky." in calls
    assert not js(browser, "return document.getElementById('calls-title').hidden")
    assert text_of(browser, "precision") == ("Podložky rozliší doteky nejvýš na ±60 ms; bližší "
                                             "doteky jsou současné a rozhoduje pořadí podle "
                                             "pravidel.")
    rows = js(browser, "return [...document.querySelectorAll('#moment tbody tr')]"
                       ".map(r => r.innerText.split('\\t').map(s => s.trim()))")
    assert [r[1] for r in rows] == [f"H{attacker}", f"H{victim}"]
    assert all(r[3].endswith("(současně)") for r in rows) and rows[1][4] == "+7,4 ms"
    assert text_of(browser, "ruling")
    screenshot(browser, tmp_path / "service-gobbit.png")
    no_csp_or_script_errors(browser)
