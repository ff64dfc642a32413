"""Referee mode with real cards: the log, disputes, races and the card editor."""

from __future__ import annotations

import pytest

from companion.engines.gobbit.cards import Card, Condition, parse_card
from companion.engines.gobbit.judge import judge, parse_situation
from companion.inputs.pads import Pad, PadReleased, PadStuck, PadTouch
from companion.referee.model import (
    Mode,
    RefereeModel,
    contested_pile,
    delta_text,
    moments,
)
from companion.ui.referee import WIDTH


def touch(seat, target, ms):
    return PadTouch(seat, target, 0.0, float(ms))


def seed_model(**kwargs) -> RefereeModel:
    model = RefereeModel(3, **kwargs)
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    return model


def all_pages(model: RefereeModel):
    seen = []
    for _ in range(20):
        s = model.screen()
        if s in seen:
            break
        seen.append(s)
        model.on_button("right")
    return seen


def assert_fits(screens):
    for s in screens:
        assert len(s.title) <= WIDTH, s.title
        assert len(s.lines) <= 4
        for line in s.lines:
            assert len(line) <= WIDTH, line


def test_the_log_orders_touches_by_edge_time_not_arrival():
    model = RefereeModel(2)
    for ev in (touch(2, 2, 101), touch(1, 2, 100), touch(1, "g", 250)):
        model.on_pad_event(ev)
    assert [(t.seat, t.target) for t in model.log] == [(1, 2), (2, 2), (1, "g")]
    lines = model.screen().lines
    assert lines[0].startswith("H1→H2") and lines[1].startswith("H2→H2")
    assert lines[1].endswith("+1,0 ms") and lines[2].endswith("+149 ms")
    assert lines[-1] == "◀karty ●spor ▶závod"


def test_the_log_rolls():
    model = RefereeModel(2, log_size=5)
    for i in range(12):
        model.on_pad_event(touch(1, 2, i * 10))
    assert [t.ms for t in model.log] == [70, 80, 90, 100, 110]


def test_touches_from_pads_outside_the_table_are_ignored():
    model = RefereeModel(2)
    model.on_pad_event(touch(3, 1, 0))
    model.on_pad_event(touch(1, 4, 0))
    assert model.log == []


def test_moments_split_on_quiet_gaps_and_the_contested_pile_is_found():
    model = RefereeModel(3)
    for ev in (touch(2, 1, 0), touch(1, 1, 20), touch(2, 3, 4000), touch(3, 3, 4005),
               touch(1, 3, 4030), touch(1, 2, 4040)):
        model.on_pad_event(ev)
    groups = moments(model.log)
    assert [len(g) for g in groups] == [2, 4]
    assert contested_pile(groups[-1]) == 3
    assert contested_pile([]) is None


def test_dispute_shows_order_time_differences_and_the_judges_ruling():
    model = seed_model()
    for ev in (touch(3, 3, 5007), touch(2, 3, 5000), touch(2, 1, 5003)):  # arrival order mixed
        model.on_pad_event(ev)
    model.on_button("select")
    assert model.mode is Mode.DISPUTE
    first = model.screen()
    assert first.title.startswith("Spor o kupičku H3")
    assert first.lines == ("1. H2 útok       0 ms", "2. H3 pozdě   +7,0 ms")
    text = " ".join(" ".join(s.lines) for s in all_pages(model))
    assert "Hráč 2 bere kupičku hráče 3." in text
    expected = judge(parse_situation("1:Cr 2:Sb 3:Cb t2>3@5000 t2>1@5003 t3>3@5007"))
    assert model.ruling().to_json() == expected.to_json() == {
        "fouls": [2], "piles": {"2": "graveyard", "3": 2}, "gobbit": None}


def test_dispute_pages_cycle_and_fit_the_display():
    model = seed_model()
    for ev in (touch(2, 3, 0), touch(3, 3, 7), touch(2, 1, 3), touch(1, "g", 30)):
        model.on_pad_event(ev)
    model.open_dispute()
    pages = all_pages(model)
    assert len(pages) >= 4
    assert_fits(pages)
    titles = [p.title for p in pages]
    assert any(t.startswith("Verdikt") for t in titles)
    assert any(t.startswith("Proč") for t in titles)
    assert any(t.startswith("Karty na stole") for t in titles)
    model.on_button("left")
    assert model.mode is Mode.LOG


def test_the_defence_wins_when_it_came_first():
    model = seed_model()
    model.on_pad_event(touch(3, 3, 10))
    model.on_pad_event(touch(2, 3, 11))
    assert model.ruling().to_json()["piles"] == {"3": 3}


def test_cards_entered_with_buttons_are_remembered_between_disputes():
    model = RefereeModel(2)
    model.on_button("left")  # log -> cards
    assert model.mode is Mode.CARDS
    model.on_button("right")  # seat 1: none -> Sb
    model.on_button("select")
    for _ in range(4):
        model.on_button("right")  # seat 2: none -> Sb, Sr, Sy, Cb
    assert model.cards.tops == {1: parse_card("Sb"), 2: parse_card("Cb")}
    model.on_button("select")  # graveyard field
    model.on_button("select")  # done
    model.on_button("select")  # back in the log
    assert model.mode is Mode.LOG
    model.on_pad_event(touch(1, 2, 0))
    assert model.ruling().to_json()["piles"] == {"2": 1}
    model.on_pad_event(touch(2, 2, 9000))  # a later moment, the same cards
    model.on_pad_event(touch(1, 2, 9004))
    assert model.ruling().to_json()["piles"] == {"2": 2}
    assert model.cards.tops[1] == parse_card("Sb")


def test_editor_offers_ghosts_expert_and_gorilla_only_when_played():
    plain = RefereeModel(2)
    assert plain.fields() == ["seat1", "seat2", "graveyard", "done"]
    full = RefereeModel(2, rules=("ghost", "gorilla"), expert=True)
    assert full.fields() == ["seat1", "seat2", "graveyard", "expert", "gorilla", "done"]
    full.open_cards()
    full.on_button("left")  # seat 1 backwards from none: ghost
    assert full.cards.ghosts == {1}
    for _ in range(3):
        full.on_button("select")  # to the expert field
    full.on_button("right")
    assert full.cards.condition is Condition.EXPLODE and full.cards.graveyard
    full.on_button("select")
    full.on_button("right")
    assert full.cards.gorilla == 1


def test_editor_screen_marks_the_field_and_scrolls():
    model = RefereeModel(4, rules=("gorilla",), expert=True)
    model.open_cards()
    assert model.screen().selected == 0
    for _ in range(6):
        model.on_button("select")
    screen = model.screen()
    assert screen.lines[screen.selected] == "Gorila: ne"
    assert_fits([screen])


def test_a_gorilla_attack_needs_a_gorilla_on_that_pile():
    model = RefereeModel(2, rules=("gorilla",))
    model.cards.tops.update({1: Card("S", "b"), 2: Card("C", "r")})
    model.cards.gorilla = 1
    assert model.situation().gorilla is None
    model.cards.tops[1] = Card("G", None)
    assert model.situation().gorilla == 1


def test_race_view_orders_the_graveyard_touches_and_names_the_winner():
    model = RefereeModel(3, rules=("gobbit",))
    model.cards.tops.update({1: parse_card("Mb"), 2: parse_card("Mr"), 3: parse_card("My")})
    model.cards.graveyard = True
    for ev in (touch(3, "g", 12), touch(1, "g", 3), touch(2, 1, 0)):
        model.on_pad_event(ev)
    model.on_button("right")
    assert model.mode is Mode.RACE
    first = model.screen()
    assert first.lines == ("1. H1 první      0 ms", "2. H3 závod   +9,0 ms")
    assert model.ruling().gobbit == 1
    pages = all_pages(model)
    assert_fits(pages)
    assert "Gobbit! Na hřbitov sáhl" in " ".join(" ".join(p.lines) for p in pages)


def test_race_without_mosquitoes_of_three_colours_is_a_foul():
    model = RefereeModel(2, rules=("gobbit",))
    model.cards.graveyard = True
    model.on_pad_event(touch(1, "g", 0))
    assert model.ruling().to_json()["fouls"] == [1]


def test_stuck_pads_are_shown_until_released():
    model = RefereeModel(2)
    model.on_pad_event(PadStuck(2, "g"))
    assert model.screen().lines[0] == "Zaseknutá: H2→hřbitov"
    model.on_pad_event(PadStuck(1, 1))
    assert model.screen().lines[0] == "Zaseknutá: H1→H1 +1"
    model.on_pad_event(PadReleased(1, 1))
    model.on_pad_event(PadStuck(1, "g"))
    assert model.screen().lines[0] == "Zaseknutá: H1→hřb. +1"  # "hřbitov +1" would not fit
    model.on_pad_event(PadReleased(1, "g"))
    model.on_pad_event(PadStuck(1, 1))
    model.on_pad_event(PadReleased(2, "g"))
    model.on_pad_event(PadReleased(1, 1))
    assert not model.stuck and not model.screen().lines[0].startswith("Zaseknutá")
    assert Pad(1, 1) not in model.stuck


def test_empty_views_say_so_in_czech():
    model = RefereeModel(2)
    assert "nikdo nedotkl" in " ".join(model.screen().lines)
    model.open_dispute()
    assert "není o čem" in " ".join(model.screen().lines)
    model.on_pad_event(touch(1, "g", 0))
    assert "závod" in " ".join(model.screen().lines)
    model.open_race()
    assert model.screen().title.startswith("Závod o hřbitov")
    model.log.clear()
    assert "nikdo" in " ".join(model.screen().lines)


@pytest.mark.parametrize("ms,text", [(0.4, "+0,4 ms"), (7, "+7,0 ms"), (12, "+12 ms"),
                                     (2345, "+2,3 s")])
def test_time_differences_in_czech(ms, text):
    assert delta_text(ms) == text


def test_a_table_needs_two_to_eight_seats():
    with pytest.raises(ValueError):
        RefereeModel(1)


# --- D28: the dispute is honest about the pads' precision -----------------------------------


def _text(model: RefereeModel) -> str:
    return " | ".join(" ".join(s.lines) for s in all_pages(model))


def test_d28_a_gap_inside_the_uncertainty_is_shown_as_simultaneous():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 5000))
    model.on_pad_event(touch(3, 3, 5007))
    model.open_dispute()
    first = model.screen()
    assert first.lines == ("1. H2 stejně     0 ms", "2. H3 obrana  +7,0 ms")
    pages = all_pages(model)
    assert_fits(pages)
    close = next(p for p in pages if p.title.startswith("Kdo byl první"))
    assert " ".join(close.lines) == "7 ms – pod přesností čidel (±30 ms): současně."
    text = _text(model)
    assert "přednost majitel kupičky" in text
    assert "Hráč 3 se ubránil a bere si svou kupičku." in text
    assert model.ruling().to_json()["piles"] == {"3": 3}


def test_d28_a_clear_gap_is_shown_with_its_margin():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 5000))
    model.on_pad_event(touch(3, 3, 5047))
    model.open_dispute()
    assert model.screen().lines == ("1. H2 útok       0 ms", "2. H3 pozdě    +47 ms")
    text = _text(model)
    assert "47 ms – nad přesností čidel (±30 ms) o 17 ms: první byl hráč 2." in text
    assert "Hráč 2 bere kupičku hráče 3." in text


def test_d28_the_boundary_follows_the_uncertainty_the_host_sets():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 0))
    model.on_pad_event(touch(3, 3, 30))
    assert model.ruling().to_json()["piles"] == {"3": 2}  # exactly U apart: a clear call
    model.uncertainty_ms = 30.5  # e.g. after a calibration
    assert model.ruling().to_json()["piles"] == {"3": 3}  # now inside: simultaneous


def test_d28_a_race_within_the_uncertainty_goes_to_the_lower_seat_and_says_why():
    model = RefereeModel(3, rules=("gobbit",), uncertainty_ms=1.0)
    model.cards.tops.update({1: parse_card("Mb"), 2: parse_card("Mr"), 3: parse_card("My")})
    model.cards.graveyard = True
    model.on_pad_event(touch(3, "g", 100.0))
    model.on_pad_event(touch(1, "g", 100.6))
    model.open_race()
    assert model.ruling().gobbit == 1
    text = _text(model)
    assert "0,6 ms – pod přesností čidel (±1 ms): současně." in text
    assert "nižším číslem" in text
