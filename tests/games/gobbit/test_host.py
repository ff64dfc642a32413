"""Gobbit at the table: set-up, pads claimed, referee models hosted, virtual deck journaled."""

from __future__ import annotations

import random

import pytest

from companion.devices.pads.timing import TIMING_FILE, TimingBook
from companion.games import playable
from companion.games.gobbit.engine.cards import parse_card
from companion.games.gobbit.screens import RefereeView
from companion.inputs.events import ButtonPress, PadEvent, Rolled
from companion.inputs.pads import PadLink, PadStuck, PadTouch
from companion.service.hosts.base import HostContext
from companion.service.shell import Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.views import ListView, MessageView

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)


def make(tmp_path, seats=4, want_pads=None, storage=None, timing=None, max_seats=4):
    claims: list[int | None] = []
    ctx = HostContext(Journal(tmp_path / "g.journal", storage=storage), Prefs(),
                      rng=random.Random(3), want_pads=want_pads or claims.append,
                      defaults={"seats": seats, "max_seats": max_seats}, pad_timing=timing)
    t = Shell(ctx, start_with="gobbit", games=playable())
    t.begin(0.0)
    return t, claims


def choose(t: Shell, label_start: str) -> None:
    items = t.view().items
    target = next(i for i, x in enumerate(items) if x.startswith(label_start))
    while t.view().selected != target:
        t.handle(R, 0.0)


def test_the_set_up_lists_mode_seats_rules_and_expert(tmp_path):
    t, _ = make(tmp_path, seats=3)
    v = t.view()
    assert isinstance(v, ListView) and v.title == "Nová hra: Gobbit"
    assert v.items[:2] == ("Hra: Gobbit (rozhodčí)", "Místa: 3")
    assert "Duch: ano" in v.items and "Varianta Expert: ne" in v.items
    assert v.items[-1] == "▶ Začít hru"


def test_starting_claims_the_pads_and_hosts_the_referee(tmp_path):
    t, claims = make(tmp_path, seats=3)
    choose(t, "▶")
    t.handle(S, 0.0)
    assert claims == [3]
    v = t.view()
    assert isinstance(v, RefereeView)
    assert Journal(tmp_path / "g.journal").load()[0]["game"] == "gobbit"


def test_pad_touches_reach_the_model_and_the_dispute_rules_on_them(tmp_path):
    t, _ = make(tmp_path, seats=3)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(PadEvent(PadTouch(2, 3, 100.0, 100.0)), 0.0)
    t.handle(PadEvent(PadTouch(3, 3, 107.0, 107.0)), 0.0)
    assert [(x.seat, x.target) for x in t.host.cards.log] == [(2, 3), (3, 3)]
    t.handle(S, 0.0)  # ● on the log: the dispute, which asks the two cards it needs
    assert t.view().screen.title == "H2 → H3: co leží?"
    t.handle(L, 0.0)  # had → chameleon
    t.handle(L, 0.0)  # blue
    v = t.view()
    assert isinstance(v, RefereeView)
    assert v.screen.title.startswith("Spor o kupičku H3")
    assert v.screen.lines[:3] == ("H2 první o 7,0 ms", "Hráč 2 bere kupičku", "hráče 3.")
    t.handle(S, 0.0)  # platí
    assert t.view().screen.title.startswith("Rozhodčí")


def test_the_menu_goes_back_to_the_touch_log_from_any_referee_screen(tmp_path):
    t, _ = make(tmp_path, seats=3)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(PadEvent(PadTouch(2, 3, 100.0, 100.0)), 0.0)
    t.handle(S, 0.0)  # a question
    t.handle(LONG, 0.0)
    assert t.view().items[:2] == ("Zpět do hry", "Vrátit poslední akci")
    t.handle(S, 0.0)  # "Zpět do hry": the same question
    assert t.view().screen.title == "H2 → H3: co leží?"
    open_menu_item(t, "Záznam doteků")
    assert t.view().screen.title.startswith("Rozhodčí")


def test_a_stuck_pad_is_shown(tmp_path):
    t, _ = make(tmp_path, seats=2)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(PadEvent(PadStuck(1, "g")), 0.0)
    assert any("Zaseknutá" in line for line in t.view().screen.lines)


def test_pads_that_cannot_be_claimed_are_reported(tmp_path):
    def refuse(seats):
        raise RuntimeError("GPIO busy")

    t, _ = make(tmp_path, want_pads=refuse)
    choose(t, "▶")
    t.handle(S, 0.0)
    v = t.view()
    assert isinstance(v, MessageView) and v.lines[0] == "Podložky nejdou připojit."


def test_the_dice_is_ignored_in_gobbit(tmp_path):
    t, _ = make(tmp_path)
    before = t.view()
    t.handle(Rolled(6), 0.0)
    assert t.view() == before


def test_mode_item_cycles_to_the_virtual_deck_then_on_to_the_next_game(tmp_path):
    t, _ = make(tmp_path)
    t.handle(S, 0.0)
    assert t.view().items[0] == "Hra: Gobbit (balíček)" and t.game == "gobbit"
    t.handle(S, 0.0)
    assert t.game != "gobbit"


def start_virtual(t: Shell) -> None:
    t.handle(S, 0.0)  # mode -> virtual deck
    choose(t, "▶")
    t.handle(S, 0.0)


def test_the_virtual_deck_journals_every_action_and_resumes_exactly(tmp_path):
    t, _ = make(tmp_path, seats=3)
    start_virtual(t)
    assert t.host.virtual is not None
    for i in range(7):
        t.handle(S, float(i))  # ● flips for the seat on turn
    t.handle(PadEvent(PadTouch(1, 2, 50.0, 50.0)), 10.0)
    t.tick(12.0)  # the moment settles after its quiet time
    records = Journal(tmp_path / "g.journal").load()
    assert records[0]["mode"] == "virtual" and records[1]["t"] == "deal"
    assert len(records[1]["order"]) > 40
    assert len(records) == 2 + len(t.host.virtual.actions)
    again, claims = make(tmp_path)
    assert again.mode == "play" and claims == [3]
    assert again.host.virtual is not None
    assert again.host.virtual.state == t.host.virtual.state
    assert again.host.virtual.actions == t.host.virtual.actions
    assert isinstance(again.view(), RefereeView)


def test_new_game_from_the_menu_asks_and_starting_another_game_releases_the_pads(tmp_path):
    t, claims = make(tmp_path, seats=2)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(LONG, 0.0)
    while t.view().items[t.view().selected] != "Nová hra":
        t.handle(R, 0.0)
    t.handle(S, 0.0)
    assert t.view().title == "Nová hra?"
    t.handle(S, 0.0)
    assert claims == [2] and t.mode == "setup"
    while t.game == "gobbit":
        t.handle(S, 0.0)  # the game line: on to the next game
    assert claims == [2]  # only looking: the Gobbit game could still be taken up again
    t.setup_index = len(t.view().items) - 1
    t.handle(S, 0.0)  # ▶ Začít hru: another game starts, Gobbit's ends
    assert claims == [2, None]


def test_shut_down_from_the_referee_menu(tmp_path):
    t, _ = make(tmp_path)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(LONG, 0.0)
    t.handle(L, 0.0)  # wraps to Vypnout
    t.handle(S, 0.0)
    t.handle(S, 0.0)
    assert t.shutdown_requested


def test_the_rules_browser_from_the_help_button_and_the_menu(tmp_path):
    t, _ = make(tmp_path, seats=2)
    t.handle(ButtonPress("help"), 0.0)
    v = t.view()
    assert isinstance(v, ListView) and v.title == "Pravidla: Gobbit" and v.items[0] == "Cíl hry"
    t.handle(LONG, 0.0)
    assert t.mode == "setup"
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(LONG, 0.0)
    while t.view().items[t.view().selected] != "Pravidla a nápověda":
        t.handle(R, 0.0)
    t.handle(S, 0.0)
    t.handle(S, 0.0)
    assert isinstance(t.view(), MessageView) and t.view().title.startswith("Cíl hry")
    t.handle(LONG, 0.0)
    assert t.mode == "play"


def test_a_flip_or_a_ruling_the_disk_refuses_is_not_shown_and_tried_again(tmp_path):
    from tests.storage.journal_support import FaultyStorage

    storage = FaultyStorage()
    t, _ = make(tmp_path, seats=3, storage=storage)
    start_virtual(t)
    t.handle(S, 0.0)  # a flip that is saved
    state, shown = t.host.virtual.state, t.view()
    storage.read_only = True
    t.handle(S, 1.0)  # the next flip cannot be saved: the table stays as it was
    assert t.host.virtual.state == state and t.view() == shown
    t.handle(PadEvent(PadTouch(1, 2, 50.0, 50.0)), 2.0)
    t.tick(10.0)  # the moment cannot be saved either: it waits, and is tried again later
    assert t.host.virtual.state == state and t.host.virtual.moment
    assert t.next_deadline() >= 13.0
    storage.read_only = False
    t.tick(13.5)
    assert not t.host.virtual.moment and t.host.virtual.state != state
    records = Journal(tmp_path / "g.journal").load()
    assert len(records) == 2 + len(t.host.virtual.actions)


def test_undo_in_the_virtual_deck_says_what_it_takes_back_and_asks_first(tmp_path):
    t, _ = make(tmp_path, seats=2)
    start_virtual(t)
    t.handle(S, 1.0)  # seat 1 flips
    records = Journal(tmp_path / "g.journal").load()
    t.handle(LONG, 2.0)
    choose(t, "Vrátit")
    t.handle(S, 2.0)
    v = t.view()
    assert isinstance(v, MessageView) and v.title == "Vrátit otočení?"
    assert " ".join(v.lines).startswith("Hráč 1 otočil kartu.")
    assert Journal(tmp_path / "g.journal").load() == records  # nothing yet
    t.handle(S, 2.0)
    assert t.mode == "play" and len(Journal(tmp_path / "g.journal").load()) == len(records) - 1
    assert not t.host.virtual.actions


def test_an_undo_keeps_the_pads_as_they_are(tmp_path):
    """Taking back a flip rebuilds the game from the journal; the pads stay claimed (no
    closing and reopening of the GPIO pads or the hub's line in the middle of a game)."""
    t, claims = make(tmp_path, seats=2)
    start_virtual(t)
    t.handle(S, 1.0)  # seat 1 flips
    assert claims == [2]
    t.handle(LONG, 2.0)
    choose(t, "Vrátit")
    t.handle(S, 2.0)
    t.handle(S, 2.0)  # yes
    assert t.mode == "play" and not t.host.virtual.actions
    assert claims == [2]


def test_settings_are_in_the_gobbit_menu_too(tmp_path):
    t, _ = make(tmp_path)
    choose(t, "▶")
    t.handle(S, 0.0)
    t.handle(LONG, 0.0)
    choose(t, "Nastavení")
    t.handle(S, 0.0)
    assert t.view().title == "Nastavení"


def test_the_set_up_of_a_new_game_can_go_back_to_the_running_one(tmp_path):
    t, claims = make(tmp_path, seats=2)
    start_virtual(t)
    t.handle(S, 1.0)
    state = t.host.virtual.state
    t.handle(LONG, 2.0)
    choose(t, "Nová hra")
    t.handle(S, 2.0)
    t.handle(S, 2.0)  # yes: the set-up
    assert t.mode == "setup" and t.view().footer == "dlouze ● = zpět do hry"
    t.handle(LONG, 3.0)
    assert t.mode == "play" and t.host.virtual.state == state and claims == [2]
# --- the pads' timing (D28) and the calibration -----------------------------------------------


def open_menu_item(t: Shell, label: str) -> None:
    t.handle(LONG, 0.0)
    while t.view().items[t.view().selected] != label:
        t.handle(R, 0.0)
    t.handle(S, 0.0)


def started(tmp_path, **kwargs):
    t, claims = make(tmp_path, **kwargs)
    choose(t, "▶")
    t.handle(S, 0.0)
    return t, claims


def test_the_dispute_judges_with_the_pads_declared_uncertainty(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=3, timing=book)
    assert t.host.cards.uncertainty_ms == 60.0
    t.host.cards.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    t.handle(PadEvent(PadTouch(2, 3, 100.0, 100.0)), 0.0)
    t.handle(PadEvent(PadTouch(3, 3, 107.0, 107.0)), 0.0)
    t.handle(S, 0.0)  # the cards are known: the ruling at once
    text = []
    for _ in range(10):
        text.append(" ".join(t.view().screen.lines))
        t.handle(R, 0.0)
    assert any("pod přesností čidel (±60 ms)" in x for x in text)


def test_five_and_six_seats_are_offered_where_the_hub_serves_them(tmp_path):
    t, _ = make(tmp_path, max_seats=6)
    seats = next(o for o in t.host.options() if o.key == "seats")
    assert seats.values == (2, 3, 4, 5, 6)
    t, _ = make(tmp_path / "gpio")
    assert next(o for o in t.host.options() if o.key == "seats").values == (2, 3, 4)


def test_calibration_from_the_menu_takes_the_touches_saves_and_applies_the_spread(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=2, timing=book)
    open_menu_item(t, "Kalibrace podložek")
    v = t.view()
    assert isinstance(v, RefereeView) and v.screen.title.startswith("Kalibrace")
    delay = {(1, 1): 5.0, (2, 1): 25.0, (1, 2): 12.0, (2, 2): 3.0, (1, "g"): 30.0, (2, "g"): 8.0}
    pairs = [((1, 1), (2, 1)), ((1, 2), (2, 2)), ((1, "g"), (2, "g")), ((2, 1), (1, 2)),
             ((2, 2), (1, "g"))]
    at = 1000.0
    for r in range(12):
        for pair in pairs:
            for k, (seat, target) in enumerate(pair):
                ms = at + delay[(seat, target)] + (1.5 if (r + k) % 2 else 0.0)
                t.handle(PadEvent(PadTouch(seat, target, ms, ms)), 0.0)
            at += 1000.0
    assert t.host.cards.log == []  # the slaps did not go to the game
    assert t.view().screen.title.endswith("6/6")
    t.handle(S, 0.0)
    summary = t.view().screen
    assert summary.title.startswith("Kalibrace hotová")
    timing = book.current()
    assert timing.calibrated and timing.uncertainty_ms == pytest.approx(1.5, abs=0.01)
    assert (tmp_path / TIMING_FILE).is_file()
    assert t.host.cards.uncertainty_ms == timing.uncertainty_ms
    t.handle(S, 0.0)
    assert t.host.calibration is None
    assert t.view().screen.title.startswith("Rozhodčí")


def test_the_calibration_shows_the_pad_hubs_latest_word_on_its_channels(tmp_path):
    from companion.inputs.pads import Pad, PadChannel, PadChannels

    book = TimingBook("padhub", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=2, timing=book)
    t.handle(PadEvent(PadChannels((PadChannel(Pad(1, "g"), "open"),))), 0.0)  # during the game
    open_menu_item(t, "Kalibrace podložek")
    screen = t.view().screen
    assert screen.lines[:2] == ("Vadné kanály:", "1>g bez podložky")
    t.handle(PadEvent(PadChannels(())), 0.0)  # the next report: all fine
    assert t.view().screen.lines[0].startswith("Plácni")


def test_leaving_the_calibration_changes_nothing(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=2, timing=book)
    open_menu_item(t, "Kalibrace podložek")
    t.handle(L, 0.0)
    assert t.host.calibration is None and not book.current().calibrated
    assert not (tmp_path / TIMING_FILE).exists()


def test_another_referee_item_from_the_menu_leaves_the_calibration(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=2, timing=book)
    open_menu_item(t, "Kalibrace podložek")
    open_menu_item(t, "Záznam doteků")
    assert t.host.calibration is None and t.view().screen.title.startswith("Rozhodčí")
    assert not book.current().calibrated


def test_the_virtual_deck_offers_the_calibration_too(tmp_path):
    book = TimingBook("padhub", path=tmp_path / TIMING_FILE)
    t, _ = make(tmp_path, seats=2, timing=book)
    choose(t, "Hra:")
    t.handle(S, 0.0)  # the virtual deck
    choose(t, "▶")
    t.handle(S, 0.0)
    assert t.host.virtual is not None and t.host.virtual.uncertainty_ms == 1.0
    assert ("calibrate", "Kalibrace podložek") in t.host.menu_items()


def test_without_a_timing_book_there_is_no_calibration_item(tmp_path):
    t, _ = started(tmp_path, seats=2)
    assert all(key != "calibrate" for key, _ in t.host.menu_items())
    assert t.host.uncertainty_ms() == 0.0


def test_a_hub_that_went_away_is_shown(tmp_path):
    t, _ = started(tmp_path, seats=2)
    t.handle(PadEvent(PadLink(False, "no heartbeat")), 0.0)
    assert "Podložky odpojené!" in t.view().screen.lines
    t.handle(PadEvent(PadLink(True, "hub-1")), 0.0)
    assert "Podložky odpojené!" not in t.view().screen.lines


# --- the game as values for the phone view (facts) -----------------------------------------------


def flip_until_an_attack(t: Shell) -> tuple[int, int]:
    """Flip (●) until some seat's top card eats another's: (attacker, attacked)."""
    from companion.games.gobbit.engine.judge import eats

    v = t.host.virtual
    for i in range(60):
        s = v.state
        for a in s.seats:
            for b in s.seats:
                ta, tb = s.top(a), s.top(b)
                if a != b and ta is not None and tb is not None and eats(ta, tb):
                    return a, b
        t.handle(S, float(i))
    raise AssertionError("no attack came up")


def test_the_virtual_deck_tells_the_moment_its_ruling_and_the_pads_uncertainty(tmp_path):
    from companion.games.gobbit.facts import GobbitFacts
    from companion.service.phone import snapshot_of

    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = make(tmp_path, seats=4, timing=book)
    assert t.facts() is None
    start_virtual(t)
    f = t.host.facts()
    assert isinstance(f, GobbitFacts) and t.facts() == f
    assert f.state == t.host.virtual.state and f.touches == () and f.ruling is None
    assert f.uncertainty_ms == 60.0 and not f.provisional
    attacker, victim = flip_until_an_attack(t)
    f = t.host.facts()
    assert f.events and f.events[-1].startswith(f"Hráč {t.host.virtual.actions[-1].seat} otočil")
    # the attack, and the owner's defence 7.4 ms later: inside the pads' ±60 ms
    t.handle(PadEvent(PadTouch(attacker, victim, 5000.0, 5000.0)), 100.0)
    t.handle(PadEvent(PadTouch(victim, victim, 5007.4, 5007.4)), 100.1)
    f = t.host.facts()
    assert f.provisional and [(x.seat, x.target) for x in f.touches] == [
        (attacker, victim), (victim, victim)]
    assert f.ruling is not None and f.state == t.host.virtual.state
    t.tick(105.0)  # the moment settles
    assert not t.host.virtual.moment
    f = t.host.facts()
    assert not f.provisional and f.ruling == t.host.virtual.last_ruling
    assert [(x.seat, x.target) for x in f.touches] == [(attacker, victim), (victim, victim)]
    call = f.ruling.call(victim)
    assert call is not None and call.simultaneous and call.uncertainty_ms == 60.0
    snap = snapshot_of("gobbit", "Gobbit (balíček)", f)
    g = snap.touches
    assert g is not None and g.uncertainty_ms == 60.0 and not g.provisional
    assert g.calls[0] == (f"Kupička hráče {victim}: 7,4 ms – pod přesností čidel (±60 ms): "
                          "současně.")
    assert g.calls[1] == "Při současných dotecích má přednost majitel kupičky."
    assert [r.tied for r in g.moment] == [True, True]  # both inside the uncertainty


def test_a_resumed_virtual_deck_shows_its_last_ruling_again(tmp_path):
    t, _ = make(tmp_path, seats=3)
    start_virtual(t)
    attacker, victim = flip_until_an_attack(t)
    t.handle(PadEvent(PadTouch(attacker, victim, 5000.0, 5000.0)), 100.0)
    t.tick(105.0)
    before = t.host.facts()
    assert before.ruling is not None
    again, _ = make(tmp_path)
    f = again.host.facts()
    assert f.state == before.state and f.ruling == before.ruling
    assert f.touches == before.touches and not f.provisional


def test_referee_mode_tells_the_log_the_moment_and_the_entered_cards(tmp_path):
    from companion.games.gobbit.facts import RefereeFacts
    from companion.service.phone import snapshot_of

    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    t, _ = started(tmp_path, seats=3, timing=book)
    f = t.host.facts()
    assert isinstance(f, RefereeFacts) and t.facts() == f
    assert f.seats == 3 and f.log == () and f.moment == () and not f.graveyard
    t.host.cards.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    t.handle(PadEvent(PadTouch(2, 3, 100.0, 100.0)), 0.0)
    t.handle(PadEvent(PadTouch(3, 3, 107.0, 107.0)), 0.0)
    f = t.host.facts()
    assert f.moment == ()  # no dispute opened: the phone shows no ruling yet
    t.handle(S, 0.0)  # the dispute (the cards are known)
    t.handle(S, 0.0)  # confirmed
    f = t.host.facts()
    assert [(x.seat, x.target) for x in f.log] == [(2, 3), (3, 3)]
    assert f.moment == tuple(t.host.cards.latest_moment())
    assert f.events == ("Hráč 3 se ubránil a bere si svou kupičku.",)
    assert f.situation.tops[2] == parse_card("Sb") and f.situation.uncertainty_ms == 60.0
    t.host.cards.cards.tops[1] = parse_card("Sr")  # the model changes on; the facts do not
    assert f.situation.tops[1] == parse_card("Cr") and t.host.facts() != f
    snap = snapshot_of("gobbit", "Gobbit (rozhodčí)", f)
    assert snap.touches is not None and snap.touches.uncertainty_ms == 60.0
    assert len(snap.touches.log) == 2 and snap.touches.ruling
    assert any("pod přesností čidel (±60 ms)" in line for line in snap.touches.calls)


def _zero_record(path, n: int) -> None:
    """Zero record ``n``'s line (with its checkpoint) in both files, as a bad sector would."""
    import re

    from companion.storage.journal import mirror_of

    for p in (path, mirror_of(path)):
        data = p.read_bytes()
        m = re.search(rb"(?m)^\d+/%d\t.*\n(\d+/%d/c\t.*\n)?" % (n, n), data)
        assert m is not None
        p.write_bytes(data[:m.start()] + bytes(m.end() - m.start()) + data[m.end():])


def _flips(t: Shell, n: int) -> list:
    """``n`` flips of the virtual deck; the table after each (``[0]``: before the first)."""
    states = [t.host.virtual.state]
    for i in range(n):
        t.handle(S, float(i))
        states.append(t.host.virtual.state)
    return states


def test_the_virtual_deck_writes_a_checkpoint_every_eight_records(tmp_path):
    from companion.games.gobbit.engine.notation import parse_state

    t, _ = make(tmp_path, seats=3)
    start_virtual(t)
    states = _flips(t, 20)  # records 2..21 (0: the header, 1: the deal)
    lines = (tmp_path / "g.journal").read_bytes().splitlines()
    cps = [line for line in lines if b"/c\t" in line.split(b"\t")[0] + b"\t"]
    assert [line.split(b"\t")[0].split(b"/")[1] for line in cps] == [b"8", b"16"]
    import json

    saved = json.loads(cps[0].split(b"\t")[1])
    assert saved["mode"] == "virtual" and saved["seats"] == 3
    assert parse_state(saved["state"]) == states[7]  # the table after record 8 (flip 7)


def test_a_record_lost_in_both_files_resumes_the_virtual_deck_at_a_checkpoint(tmp_path):
    """The deal and the first flips gone in both files: the game goes on from the checkpoint
    after them, exactly as it was, and the screen says the start was damaged."""
    t, _ = make(tmp_path, seats=3)
    start_virtual(t)
    states = _flips(t, 20)
    _zero_record(tmp_path / "g.journal", 1)  # the deal
    again, claims = make(tmp_path)
    assert again.mode == "play" and claims == [3]
    assert again.host.virtual is not None and again.host.virtual.state == states[-1]
    report = again.ctx.journal.report
    assert report.from_checkpoint and report.lost == 0
    assert report.message.startswith("Deník byl poškozený") and "nic se neztratilo" in report.message
    again.handle(S, 30.0)  # and play goes on, journaled
    third, _ = make(tmp_path)
    assert third.host.virtual.state == again.host.virtual.state != states[-1]
    # an undo takes back what came after the checkpoint, never more
    taken = 0
    while third.host.undo(40.0):
        taken += 1
    assert taken == 22 - 8 and third.host.virtual.state == states[7]  # the first checkpoint


def test_a_lost_record_after_the_last_checkpoint_resumes_there_never_past_it(tmp_path):
    t, _ = make(tmp_path, seats=3)
    start_virtual(t)
    states = _flips(t, 20)  # flip k is record k + 1
    _zero_record(tmp_path / "g.journal", 19)
    again, _ = make(tmp_path)
    assert again.host.virtual.state == states[17]  # records up to 18: the certain ones
    report = again.ctx.journal.report
    assert report.lost == 3 and "zahrajte je znovu" in report.message
