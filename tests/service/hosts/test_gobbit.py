"""Gobbit at the table: set-up, pads claimed, referee models hosted, virtual deck journaled."""

from __future__ import annotations

import random

from companion.inputs.events import ButtonPress, PadEvent, Rolled
from companion.inputs.pads import PadStuck, PadTouch
from companion.service.hosts.base import HostContext
from companion.service.journal import Journal
from companion.service.prefs import Prefs
from companion.service.shell import Shell
from companion.ui.views import ListView, MessageView, RefereeView

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)


def make(tmp_path, seats=4, want_pads=None, storage=None):
    claims: list[int | None] = []
    ctx = HostContext(Journal(tmp_path / "g.journal", storage=storage), Prefs(),
                      rng=random.Random(3),
                      want_pads=want_pads or claims.append, defaults={"seats": seats})
    t = Shell(ctx, start_with="gobbit")
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
    t.handle(LONG, 0.0)
    while t.view().items[t.view().selected] != "Spor: kdo byl první":
        t.handle(R, 0.0)
    t.handle(S, 0.0)
    v = t.view()
    assert isinstance(v, RefereeView)
    assert v.screen.title.startswith("Spor o kupičku H3")
    assert v.screen.lines[0].startswith("1. H2") and v.screen.lines[1].startswith("2. H3")
    assert v.screen.lines[1].endswith("+7,0 ms")


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


def test_new_game_from_the_menu_asks_and_leaving_gobbit_releases_the_pads(tmp_path):
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
    from tests.service.journal_support import FaultyStorage

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
