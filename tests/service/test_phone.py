"""The phone view in the service (``companion/service/phone.py``): what the loop publishes and
when, the snapshot of each kind of facts, the "Telefon" screen (a QR code read back module by
module, or why there is none), ``HOST:PORT``, and a view that cannot start."""

from __future__ import annotations

import json
import random
import socket
import urllib.request

import pytest
from PIL import Image

from companion.errors import UsageError
from companion.games import playable
from companion.games.clovece.engine.notation import parse_position as clovece_position
from companion.games.clovece.engine.rules import HOUSE, RED, Move
from companion.games.clovece.facts import CloveceFacts
from companion.games.clovece.rules_text import TOPICS as CLOVECE_TOPICS
from companion.games.gobbit.engine import rules as gb
from companion.games.gobbit.engine.cards import parse_card, standard_deck
from companion.games.gobbit.engine.judge import Touch, eats, judge
from companion.games.gobbit.facts import GobbitFacts, RefereeFacts
from companion.games.gobbit.referee.model import RefereeModel
from companion.games.napij.engine.notation import parse_position as napij_position
from companion.games.napij.engine.state import default_rules
from companion.games.napij.facts import NapijFacts
from companion.inputs.events import ButtonPress, Rolled
from companion.inputs.pads import PadTouch
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.phone import (
    CAPTION,
    FAILED,
    KEPT_NAME,
    Phone,
    parse_address,
    problem_of,
    qr_screen,
    snapshot_of,
)
from companion.service.shell import Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.picture import Picture
from companion.ui.views import MessageView
from companion.web.server import wait_until
from tests.web.test_qr import decode

S, L = ButtonPress("select"), ButtonPress("left")


class FakeView:
    """Takes what :meth:`Phone.update` publishes (no server, no thread)."""

    url = "http://127.0.0.1:8080/AbCdEfGhIjK/"

    def __init__(self) -> None:
        self.published: list[object] = []

    def publish(self, item: object) -> None:
        self.published.append(item)

    def close(self) -> None:
        pass


def shell(tmp_path) -> Shell:
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(auto_delay=1.0),
                      rng=random.Random(1), dice=DiceStatus(configured=True),
                      defaults={"players": 2})
    s = Shell(ctx, start_with="clovece", games=playable())
    s.begin(0.0)
    return s


def phone_on(fake: FakeView) -> Phone:
    phone = Phone()
    phone.view = fake  # type: ignore[assignment]
    return phone


# --- what the loop publishes, and when ------------------------------------------------------------


def test_update_publishes_once_per_change_and_never_when_nothing_changed(tmp_path):
    table, fake = shell(tmp_path), FakeView()
    phone = phone_on(fake)
    phone.update(table)  # the first look: the set-up's "a game is being prepared"
    assert len(fake.published) == phone.published == 1
    for _ in range(5):  # no frame since: nothing looked at, nothing sent
        phone.update(table)
    assert len(fake.published) == 1
    for _ in range(5):  # frames (a blinking cursor) without any change of the game
        phone.changed()
        phone.update(table)
    assert len(fake.published) == 1
    table.handle(L, 0.0)
    table.handle(S, 0.0)  # the game starts
    phone.changed()
    phone.update(table)
    assert len(fake.published) == 2
    table.handle(Rolled(3), 0.1)
    phone.changed()
    phone.update(table)
    phone.changed()
    phone.update(table)
    assert len(fake.published) == 3 == phone.published
    snap = fake.published[-1]()  # a callable: the snapshot is built on the server's thread
    assert snap.game == "clovece" and snap.throws == (3,)
    assert snap.events[-1] == table.view().event
    assert snap.rules == tuple(CLOVECE_TOPICS)


def test_a_change_of_game_in_the_set_up_is_published_though_there_are_no_facts(tmp_path):
    table, fake = shell(tmp_path), FakeView()
    phone = phone_on(fake)
    phone.update(table)
    table.handle(S, 0.0)  # the first line of the set-up: to napij se
    phone.changed()
    phone.update(table)
    assert len(fake.published) == 2
    snap = fake.published[-1]()
    assert snap.game == "napij" and "napij" in snap.status and snap.board.base == ""


def test_nothing_is_published_while_the_view_does_not_serve(tmp_path):
    table = shell(tmp_path)
    phone = Phone()
    phone.changed()
    phone.update(table)  # not started: nothing to publish to, and no error
    assert phone.published == 0
    fake = FakeView()
    phone.view = fake  # type: ignore[assignment]
    phone.update(table)  # once it serves, the table as it is now goes out
    assert len(fake.published) == 1


def test_a_started_phone_serves_what_the_table_publishes(tmp_path):
    table = shell(tmp_path)
    table.handle(L, 0.0)
    table.handle(S, 0.0)
    table.handle(Rolled(5), 0.1)
    with_view = Phone(keepalive_s=1.0).start()
    try:
        assert with_view.start() is with_view  # starting twice is starting once
        with_view.update(table)
        view = with_view.view
        assert view is not None and wait_until(lambda: view.seq == 1)
        with urllib.request.urlopen(with_view.url + "snapshot.json", timeout=5) as answer:
            data = json.loads(answer.read())
        assert data["game"] == "clovece" and data["throws"] == [5]
        assert data["events"][-1] == table.view().event
    finally:
        with_view.close()
    assert with_view.url is None and with_view.view is None
    with_view.close()  # closing twice is harmless


def test_the_token_reaches_no_log(caplog):
    caplog.set_level("DEBUG")
    phone = Phone().start()
    try:
        assert phone.view is not None and phone.url is not None
        token = phone.view.token
        assert phone.url.endswith(f"/{token}/") and phone.shown_url is not None
        assert token not in phone.shown_url and phone.shown_url.endswith("/<token>/")
        assert "phone view at http://127.0.0.1:" in caplog.text
    finally:
        phone.close()
    assert token not in caplog.text and phone.shown_url is None


def test_the_address_stays_the_same_across_restarts_until_a_new_one_is_asked_for(tmp_path):
    keep = tmp_path / KEPT_NAME
    first = Phone(keep=keep).start()  # any free port: the one chosen is kept too
    url = first.url
    first.close()
    again = Phone(keep=keep).start()  # the next start: the same code still works
    try:
        assert url is not None and again.url == url
        assert again.renew()  # "Nový odkaz": a new token on the same port
        assert again.url is not None and again.url != url
        assert again.url.rsplit(":", 1)[1].split("/")[0] == url.rsplit(":", 1)[1].split("/")[0]
        renewed = again.url
    finally:
        again.close()
    third = Phone(keep=keep).start()
    try:
        assert third.url == renewed
    finally:
        third.close()


def test_a_kept_port_taken_by_another_program_gives_way_to_a_free_one(tmp_path, busy_port):
    keep = tmp_path / KEPT_NAME
    keep.write_text(json.dumps({"token": "ABCDEFGHIJKLM", "port": busy_port}), "utf-8")
    phone = Phone(keep=keep).start()
    try:
        assert phone.url is not None and phone.url.endswith("/ABCDEFGHIJKLM/")
        assert f":{busy_port}/" not in phone.url
        assert json.loads(keep.read_text("utf-8"))["port"] == phone.view.port
    finally:
        phone.close()


@pytest.mark.parametrize("kept", ["", "{", "[]", '{"token": "x", "port": "80"}'])
def test_an_unreadable_kept_address_is_replaced_by_a_new_one(tmp_path, kept):
    keep = tmp_path / KEPT_NAME
    keep.write_text(kept, "utf-8")
    phone = Phone(keep=keep).start()
    try:
        assert phone.url is not None and phone.view is not None
        assert json.loads(keep.read_text("utf-8"))["token"] == phone.view.token
    finally:
        phone.close()


def test_a_configured_token_is_used_as_it_is_and_never_renewed(tmp_path):
    keep = tmp_path / KEPT_NAME
    phone = Phone(token="family-secret-1", keep=keep).start()
    try:
        assert phone.url is not None and phone.url.endswith("/family-secret-1/")
        assert not phone.renew() and not keep.exists()
    finally:
        phone.close()


def test_novy_odkaz_in_the_menu_asks_first_then_shows_the_new_code(tmp_path):
    table = shell(tmp_path)
    assert "Nový odkaz" not in table.menu_labels()  # no renewable address: no line
    renewed: list[bool] = []
    table.phone_renew = lambda: renewed.append(True) or True
    table.handle(ButtonPress("left"), 0.0)
    table.handle(ButtonPress("select"), 0.0)  # the game starts
    table.handle(ButtonPress("select", long=True), 0.1)
    labels = list(table.menu_labels())
    assert labels[labels.index("Telefon") + 1] == "Nový odkaz"
    table.menu_index = labels.index("Nový odkaz")
    table.handle(ButtonPress("select"), 0.2)
    assert table.view().title == "Nový odkaz?" and not renewed
    table.handle(ButtonPress("left"), 0.3)  # no: back to the menu
    assert table.mode == "menu" and not renewed
    table.handle(ButtonPress("select"), 0.4)
    table.handle(ButtonPress("select"), 0.5)  # yes
    assert renewed == [True] and table.mode == "phone"


# --- facts -> snapshot, for every kind of facts ----------------------------------------------------


def test_the_snapshot_of_clovece_facts():
    pos = clovece_position("r:0,h,h,h g:5,h,h,h turn:g")
    facts = CloveceFacts(pos, (6,), Move(RED, HOUSE, 0, None), frozenset({2}),
                         ("Červený nasadil figurku.",))
    snap = snapshot_of("clovece", "Člověče", facts, CLOVECE_TOPICS[:2])
    assert snap.game == "clovece" and snap.throws == (6,)
    assert snap.events == ("Červený nasadil figurku.",) and snap.rules == tuple(CLOVECE_TOPICS[:2])
    assert snap.turn is not None and snap.turn.name == "Zelený – počítač"
    assert 'data-where="0"' in snap.board.top and "moved-to" in snap.board.top


def test_the_snapshot_of_napij_facts_has_the_ledger_with_ucet_and_the_card():
    rules = default_rules()
    state = napij_position("r:m17,p,p,p g:m30,p,p,p bottle:m60 turn:g owe:g2 drunk:r1,g3",
                           rules)
    facts = NapijFacts(state, (5,), ("m12", "m17"), 2, (4, 0, 7, 0), frozenset(),
                       ("Červený táhl z m12 na m17.",))
    snap = snapshot_of("napij", "Člověče, napij se!", facts)
    assert snap.game == "napij" and snap.throws == (5,) and snap.card is not None
    assert snap.card.startswith("Karta 2: ")
    rows = {r.name: r for r in snap.ledger}
    assert rows["Zelený"].owed == 2 and rows["Zelený"].drunk == 3 and rows["Zelený"].tonight == 7
    assert rows["Červený"].drunk == 1 and rows["Červený"].tonight == 4
    assert 'data-where="m17"' in snap.board.top
    # no tally yet: "Účet" falls back to this game's drinks
    plain = snapshot_of("napij", "x", NapijFacts(state))
    assert {r.name: r.tonight for r in plain.ledger}["Zelený"] == 3


def gobbit_attack_state() -> tuple[gb.State, Touch]:
    cards = list(standard_deck())
    random.Random(4).shuffle(cards)
    state = gb.new_game(4, cards)
    for _ in range(40):
        state, _ = gb.apply(state, gb.Flip(gb.on_turn(state) or 0))
        for a in state.seats:
            for v in state.seats:
                ta, tv = state.top(a), state.top(v)
                if a != v and ta is not None and tv is not None and eats(ta, tv):
                    return state, Touch(a, v, 1000.0)
    raise AssertionError("no attack")


@pytest.mark.parametrize(("gap", "uncertainty", "simultaneous"), [
    (7.4, 60.0, True), (7.4, 0.0, False), (90.0, 60.0, False)])
def test_the_snapshot_of_gobbit_facts_says_how_each_call_was_made(gap, uncertainty,
                                                                   simultaneous):
    state, attack = gobbit_attack_state()
    touches = (attack, Touch(int(attack.target), attack.target, attack.ms + gap))
    ruling = judge(gb.situation(state, touches, uncertainty))
    facts = GobbitFacts(state, touches, ruling, False, uncertainty, ("Hráč 1 otočil kartu.",))
    snap = snapshot_of("gobbit", "Gobbit (balíček)", facts)
    g = snap.touches
    assert g is not None and g.uncertainty_ms == uncertainty and len(g.moment) == 2
    assert g.log == ()  # the moment's touches are listed once, not again as a log
    assert g.ruling and g.calls[0].startswith(f"Kupička hráče {attack.target}: ")
    if simultaneous:
        assert "pod přesností čidel (±60 ms): současně." in g.calls[0]
        assert all(r.tied for r in g.moment)
    elif uncertainty:
        assert "nad přesností čidel (±60 ms) o 30 ms" in g.calls[0]
    else:
        assert g.calls[0].endswith(f"byl první o {str(gap).replace('.', ',')} ms.")
    assert snap.events == ("Hráč 1 otočil kartu.",)


def test_the_snapshot_of_a_running_gobbit_moment_is_provisional():
    state, attack = gobbit_attack_state()
    ruling = judge(gb.situation(state, (attack,)))
    snap = snapshot_of("gobbit", "x", GobbitFacts(state, (attack,), ruling, True))
    assert snap.touches is not None and snap.touches.provisional


def test_the_snapshot_of_referee_facts_rules_on_the_moment():
    model = RefereeModel(3)
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    for seat, target, ms in ((2, 3, 5000.0), (3, 3, 5006.8)):
        model.on_pad_event(PadTouch(seat, target, ms, ms))
    moment = tuple(model.latest_moment())
    facts = RefereeFacts(3, tuple(model.log), moment, model.situation(moment), False)
    snap = snapshot_of("gobbit", "Gobbit (rozhodčí)", facts)
    assert snap.title == "Gobbit (rozhodčí)" and snap.touches is not None
    assert [r.seat for r in snap.touches.log] == [2, 3] and snap.touches.ruling


def test_no_facts_is_a_table_getting_ready():
    snap = snapshot_of("napij", "Člověče, napij se!", None, CLOVECE_TOPICS[:1])
    assert snap.game == "napij" and "Člověče, napij se!" in snap.status
    assert snap.board.base == snap.board.top == "" and snap.rules == tuple(CLOVECE_TOPICS[:1])


# --- the "Telefon" screen ---------------------------------------------------------------------------


def qr_of(pic: Picture) -> tuple[str, int]:
    """Read the code on the left 64x64 of the frame back, module by module (2 px a module)."""
    img = pic.image()
    square = img.crop((0, 0, 64, 64))
    box = Image.eval(square.convert("L"), lambda v: 255 - v).getbbox()  # the dark modules
    assert box is not None
    n = (box[2] - box[0]) // 2
    return decode([[not square.getpixel((box[0] + 2 * x, box[1] + 2 * y)) for x in range(n)]
                   for y in range(n)]), n


def test_the_telefon_screen_is_a_version_2_code_of_the_url_with_words_beside_it():
    from companion.web import qr

    phone = Phone().start()
    try:
        pic = phone.screen()
        assert isinstance(pic, Picture) and pic.title == "Telefon"
        img = pic.image()
        assert img.size == (128, 64) and img.mode == "1"
        text, modules = qr_of(pic)
        assert phone.url is not None and phone.url.startswith("http://127.0.0.1:")
        assert text == qr.qr_text(phone.url)[0] == phone.url.upper()  # the box's own token
        assert modules == 25  # version 2: 17 + 4 * 2 modules a side, two pixels each
        assert img.crop((67, 0, 128, 64)).getbbox() is not None  # the words on the right
        assert phone.screen() is pic  # drawn once per address
    finally:
        phone.close()


def test_the_words_beside_the_code_fit_the_panel():
    from companion.ui.fonts import body_font

    right = 65 + 2  # the code's lit rectangle, then a gap (companion.web.qr.oled_frame)
    for line in CAPTION:
        assert right + body_font().getlength(line) <= 128, line
    img = qr_screen("http://192.168.100.200:65535/K7Q2M4XW3ZB6P/").image()
    assert not any(img.getpixel((127, y)) for y in range(64))  # nothing runs off the edge


def test_every_telefon_message_fits_the_panel(busy_port):
    from companion.service.shell import phone_off
    from companion.ui.screens import layout, problems

    failed = Phone("127.0.0.1", busy_port)
    failed.try_start()
    too_long = Phone(url_host="a-very-long-host-name.example.org").start()
    try:
        views = [phone_off(), Phone().screen(), failed.screen(), too_long.screen()]
    finally:
        too_long.close()
    for v in views:
        assert isinstance(v, MessageView)
        _, inks = layout(v, 0.0)
        assert problems(inks) == [], v


def test_the_longest_lan_address_fits_the_screen_and_reads_back():
    url = "http://192.168.100.200:65535/K7Q2M4XW3ZB6P/"  # a token the box makes itself
    pic = qr_screen(url)
    assert qr_of(pic) == (url.upper(), 25)


def test_before_the_view_starts_the_screen_says_so():
    v = Phone().screen()
    assert isinstance(v, MessageView) and v.title == "Telefon"
    assert " ".join(v.lines) == "Stav hry pro telefony se spouští."
    assert v.footer == "● zpět do hry"


def test_an_address_too_long_for_the_code_is_shown_in_words():
    phone = Phone(url_host="a-very-long-host-name.example.org").start()
    try:
        v = phone.screen()
        assert isinstance(v, MessageView) and v.title == "Telefon"
        assert v.lines[:2] == ("Adresa je na kód", "moc dlouhá:")
        assert "".join(v.lines[2:]) == phone.url
        assert all(len(line) <= 21 for line in v.lines[2:])
    finally:
        phone.close()


@pytest.fixture
def busy_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    yield s.getsockname()[1]
    s.close()


def test_a_port_in_use_is_said_on_the_screen_in_one_sentence(busy_port):
    phone = Phone("127.0.0.1", busy_port)
    assert phone.try_start() is False
    assert phone.url is None and phone.view is None
    assert str(busy_port) in phone.error and phone.error.count(".") >= 1
    assert "\n" not in phone.error
    assert phone.error.endswith("address already in use.")
    assert phone.error.count(str(busy_port)) == 1  # the system's words, not asyncio's again
    v = phone.screen()
    assert isinstance(v, MessageView)
    text = " ".join(v.lines)
    assert text == f"{FAILED} port {busy_port} už používá jiný program."
    with pytest.raises(UsageError):
        phone.start()


@pytest.mark.parametrize(("code", "words"), [
    (98, "port 8080 už používá jiný program."),
    (99, "adresa 10.1.2.3 nepatří tomuto zařízení."),
    (13, "port 8080 smí otevřít jen správce."),
    (None, "podrobnosti jsou v protokolu."),
])
def test_why_the_view_did_not_start_in_czech_words(code, words):
    import errno

    from companion.web.server import WebError

    assert (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES) == (98, 99, 13)
    assert problem_of(WebError("x", code), "10.1.2.3", 8080) == words


def test_an_address_this_box_does_not_have_is_said_plainly():
    phone = Phone("192.0.2.1", 0)  # TEST-NET-1: never an address of this machine
    assert phone.try_start() is False
    assert " ".join(phone.screen().lines) == (
        f"{FAILED} adresa 192.0.2.1 nepatří tomuto zařízení.")


def test_an_unexpected_failure_to_start_is_logged_and_said_plainly(monkeypatch):
    import companion.web.server as server

    def broken(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(server.WebView, "start", broken)
    phone = Phone()
    assert phone.try_start() is False
    assert phone.error == "Chyba programu, podrobnosti jsou v protokolu."
    assert "boom" not in " ".join(phone.screen().lines)


def test_the_table_plays_on_when_the_port_is_in_use(tmp_path, busy_port):
    from companion.games.clovece.screens import CloveceTurnView
    from companion.ui.views import ListView
    from tests.service.rig import Rig

    rig = Rig(tmp_path, web=True, web_port=busy_port)
    try:
        phone = rig.app.phone
        assert phone is not None
        rig.wait(lambda v: isinstance(v, ListView))
        assert wait_until(lambda: phone.error != "")
        rig.press("left")
        rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
        rig.press("select")
        rig.wait(lambda v: isinstance(v, CloveceTurnView))
        rig.press("select", long=True)
        rig.wait(lambda v: isinstance(v, ListView) and v.title == "Nabídka")
        while rig.view.items[rig.view.selected] != "Telefon":
            selected = rig.view.selected
            rig.press("right")
            rig.wait(lambda v, s=selected: v.selected != s)
        rig.press("select")
        v = rig.wait(lambda v: isinstance(v, MessageView) and v.title == "Telefon")
        assert " ".join(v.lines).startswith(FAILED)
        rig.press("select")
        rig.wait(lambda v: isinstance(v, CloveceTurnView))
        assert rig.app.service.faults == 0
    finally:
        rig.stop()


# --- HOST:PORT -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("127.0.0.1:8080", ("127.0.0.1", 8080)),
    ("0.0.0.0:0", ("0.0.0.0", 0)),
    ("192.168.1.20:65535", ("192.168.1.20", 65535)),
    ("localhost:9000", ("127.0.0.1", 9000)),
    ("[::1]:8080", ("::1", 8080)),
    ("[::]:1", ("::", 1)),
])
def test_good_addresses(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", [
    "", ":", "8080", "127.0.0.1", "127.0.0.1:", ":8080", "127.0.0.1:65536", "127.0.0.1:-1",
    "127.0.0.1:80a", "127.0.0.1: 80", "127.0.0.1:٨٠", "box:8080", "999.1.1.1:80",
    "::1:8080", "[::1]", "127.0.0.1:0000001", "127.0.0.1:1e3", "\x00:80", "ěšč:80",
])
def test_bad_addresses_are_one_sentence(text):
    with pytest.raises(UsageError) as err:
        parse_address(text)
    message = str(err.value)
    assert message.startswith("--web must be HOST:PORT") and "\n" not in message
    assert message.endswith(".") and message.replace("e.g.", "eg").count(". ") == 0
    with pytest.raises(UsageError, match=r"^\[web\] x must"):
        parse_address(text, "[web] x")


def test_a_new_kind_of_facts_brings_its_own_snapshot_and_the_phone_names_no_game():
    from pathlib import Path

    import companion.service.phone as phone
    from tests.tinygame.engine import State
    from tests.tinygame.phone import RaceFacts

    snap = snapshot_of("race", "Závod", RaceFacts(State(12, (3, 5), 1), ("Hráč 2 hodil 2.",)))
    assert snap.game == "race" and snap.status == "Na tahu je Hráč 2, pole 3 a 5 z 12."
    assert snap.events == ("Hráč 2 hodil 2.",)
    source = Path(phone.__file__).read_text(encoding="utf-8").lower()
    for word in ("clovece", "napij", "gobbit", "referee"):
        assert word not in source, word


def test_while_it_serves_the_table_holds_it_and_the_interpreter_is_left_as_it_was():
    import sys

    before = sys.getswitchinterval()
    busy = [False]
    phone = Phone()
    phone.hold = lambda: busy[0]
    phone.start()
    try:
        assert sys.getswitchinterval() == before  # no process-wide setting changed
        assert phone.view is not None and phone.view.hold is not None
        busy[0] = True
        assert phone.view.hold()
    finally:
        phone.close()
    assert sys.getswitchinterval() == before
