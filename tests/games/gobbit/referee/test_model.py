"""Referee mode with real cards: the log, the dispute and its questions, races, the editor."""

from __future__ import annotations

import copy

import pytest

from companion.games.gobbit.engine.cards import Card, Condition, parse_card
from companion.games.gobbit.engine.judge import judge, parse_situation
from companion.games.gobbit.referee import words as W
from companion.games.gobbit.referee.model import (
    Mode,
    RefereeModel,
    contested_pile,
    delta_text,
    first_line,
    moments,
)
from companion.inputs.pads import Pad, PadReleased, PadStuck, PadTouch
from companion.ui.referee import BODY_LINES, WIDTH

ALL = ("gobbit", "ghost", "gorilla")


def touch(seat, target, ms):
    return PadTouch(seat, target, 0.0, float(ms))


def seed_model(**kwargs) -> RefereeModel:
    model = RefereeModel(3, **kwargs)
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    return model


def all_pages(model: RefereeModel):
    seen = []
    for _ in range(30):
        s = model.screen()
        if s in seen:
            break
        seen.append(s)
        model.on_button("right")
    return seen


def assert_fits(screens):
    for s in screens:
        assert len(s.title) <= WIDTH, s.title
        assert len(s.lines) <= BODY_LINES
        for line in s.lines:
            assert len(line) <= WIDTH, line


def text_of(screens) -> str:
    return " | ".join(" ".join(s.lines) for s in screens)


def press(model: RefereeModel, *buttons: str) -> None:
    for b in buttons:
        model.on_button(b)


# --- the log -------------------------------------------------------------------------------


def test_the_log_orders_touches_by_edge_time_not_arrival_and_names_its_buttons():
    model = RefereeModel(2, rules=("gobbit",))
    for ev in (touch(2, 2, 101), touch(1, 2, 100), touch(1, "g", 250)):
        model.on_pad_event(ev)
    assert [(t.seat, t.target) for t in model.log] == [(1, 2), (2, 2), (1, "g")]
    lines = model.screen().lines
    assert lines[0].startswith("H1→H2") and lines[1].startswith("H2→H2")
    assert lines[1].endswith("+1,0 ms") and lines[2].endswith("+149 ms")
    assert lines[-1] == "●spor ▶závod"
    assert RefereeModel(2).screen().lines[-1] == "●spor"  # no Gobbit rule, no race


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


# --- the dispute: questions only for what the ruling needs --------------------------------


def test_a_dispute_asks_the_two_cards_as_one_pair_then_their_colour():
    model = RefereeModel(4, rules=ALL, uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 5000))
    model.on_pad_event(touch(3, 3, 5040))
    model.on_button("select")
    assert model.mode is Mode.ASK
    assert model.screen().title == "H2 → H3: co leží?"
    assert model.screen().lines == (W.PAIR_LEAD, "◀ had → chameleon", "● chameleon → komár",
                                    "▶ jiné karty")
    model.on_button("left")
    assert model.screen().lines == ("had → chameleon", "◀ modrá", "● červená", "▶ žlutá")
    model.on_button("right")  # yellow
    assert model.mode is Mode.DISPUTE
    assert model.cards.tops == {2: Card("S", "y"), 3: Card("C", "y")}
    first = model.screen()
    assert first.title.startswith("Spor o kupičku H3")
    assert first.lines[0] == "H2 první o 40 ms"
    assert "Hráč 2 bere kupičku" in " ".join(first.lines)
    assert first.lines[-1] == W.VERDICT_KEYS
    expected = judge(parse_situation("1:- 2:Sy 3:Cy 4:- rules:gobbit,ghost,gorilla "
                                     "uncertainty:30 t2>3@5000 t3>3@5040"))
    assert model.ruling().to_json() == expected.to_json() == {
        "fouls": [], "piles": {"3": 2}, "gobbit": None}


def test_the_ruling_puts_the_disputed_pile_first_and_pages_the_rest():
    model = seed_model()
    for ev in (touch(3, 3, 5007), touch(2, 3, 5000), touch(2, 1, 5003)):  # arrival order mixed
        model.on_pad_event(ev)
    model.on_button("select")
    assert model.mode is Mode.DISPUTE  # the cards were entered: nothing to ask
    first = model.screen()
    assert first.title.startswith("Spor o kupičku H3")
    assert first.lines[:3] == ("H2 první o 7,0 ms", "Hráč 2 bere kupičku", "hráče 3.")
    pages = all_pages(model)
    assert_fits(pages)
    assert all(p.lines[-1] == W.VERDICT_KEYS for p in pages)
    text = text_of(pages)
    assert "1. H2 útok 0 ms" in " ".join(text.split())
    assert "Modrý had nesmí sežrat červeného chameleona." in " ".join(text.split())
    titles = [p.title for p in pages]
    assert any(t.startswith("Proč") for t in titles)
    assert any(t.startswith("Karty na stole") for t in titles)
    expected = judge(parse_situation("1:Cr 2:Sb 3:Cb t2>3@5000 t2>1@5003 t3>3@5007"))
    assert model.ruling().to_json() == expected.to_json()


def test_select_confirms_the_ruling_and_returns_to_the_log():
    model = seed_model()
    model.on_pad_event(touch(2, 3, 0))
    press(model, "select", "select")
    assert model.mode is Mode.LOG
    assert model.confirmed == ["Hráč 2 bere kupičku hráče 3."]


def test_other_cards_are_asked_one_by_one_by_animal_and_colour():
    model = RefereeModel(3, rules=ALL)
    for ev in (touch(2, 3, 0), touch(2, 1, 3), touch(3, 3, 5)):
        model.on_pad_event(ev)
    press(model, "select", "right")  # jiné karty
    assert model.screen().title == "Vrchní karta H3"  # the disputed pile's card first
    assert model.screen().lines == ("◀ had", "● chameleon", "▶ další…")
    press(model, "right")
    assert model.screen().lines == ("◀ komár", "● gorila", "▶ další…")
    press(model, "right")
    assert model.screen().lines == ("◀ bez karty", "● duch", "▶ od začátku")
    press(model, "right", "select")  # back to the first page: chameleon
    assert model.screen().lines == ("chameleon", "◀ modrý", "● červený", "▶ žlutý")
    press(model, "select")  # red
    assert model.screen().title == "Vrchní karta H2"
    press(model, "right", "select")  # gorilla: no colour
    assert model.cards.gorilla == 2  # a gorilla on top: its attack is live
    assert model.screen().title == "Vrchní karta H1"
    press(model, "right", "right", "left")  # no card
    assert model.mode is Mode.DISPUTE
    assert model.cards.tops == {3: Card("C", "r"), 2: Card("G", None), 1: None}
    expected = judge(parse_situation("1:- 2:G 3:Cr rules:gobbit,ghost,gorilla gorilla:2 "
                                     "t2>3@0 t2>1@3 t3>3@5"))
    assert model.ruling().to_json() == expected.to_json()


def test_a_pile_without_an_attacker_asks_every_seat():
    model = RefereeModel(3)
    model.on_pad_event(touch(3, 3, 0))
    press(model, "select")
    asked = []
    while model.mode is Mode.ASK:
        asked.append(model.screen().title)
        press(model, "select", "select")  # chameleon, red
    assert asked == ["Vrchní karta H3", "Vrchní karta H1", "Vrchní karta H2"]


def test_a_new_moment_asks_again_and_the_same_moment_does_not():
    model = RefereeModel(3)
    model.on_pad_event(touch(2, 3, 0))
    press(model, "select", "left", "left")
    assert model.mode is Mode.DISPUTE
    press(model, "select")  # confirmed
    press(model, "select")  # the same moment again: its cards are still known
    assert model.mode is Mode.DISPUTE
    press(model, "select")
    model.cards.graveyard = True
    model.on_pad_event(touch(1, 2, 9000))
    press(model, "select")
    assert model.mode is Mode.ASK and model.screen().title == "H1 → H2: co leží?"
    assert model.cards.tops == {} and model.cards.graveyard  # the graveyard stays


def test_the_card_editor_is_left_with_one_named_press():
    model = seed_model()
    model.on_pad_event(touch(2, 3, 0))
    press(model, "select", "left")
    assert model.mode is Mode.CARDS
    screen = model.screen()
    assert screen.lines[-1] == W.EDITOR_KEYS == "◀hotovo ●změnit ▶dál"
    assert screen.selected == 0 and screen.lines[0] == "1: červený chameleon"
    press(model, "right", "select")  # H2: change
    assert model.mode is Mode.ASK and model.screen().title == "Vrchní karta H2"
    press(model, "left", "select")  # a red snake
    assert model.mode is Mode.CARDS and model.cards.tops[2] == Card("S", "r")
    press(model, "left")  # hotovo
    assert model.mode is Mode.DISPUTE
    assert model.ruling().to_json()["fouls"] == [2]  # a red snake cannot eat a blue chameleon


def test_the_editor_offers_expert_and_gorilla_only_when_played():
    plain = RefereeModel(2)
    assert plain.fields() == ["seat1", "seat2", "graveyard"]
    full = RefereeModel(2, rules=("ghost", "gorilla"), expert=True)
    assert full.fields() == ["seat1", "seat2", "graveyard", "expert", "gorilla"]


def test_the_expert_condition_is_asked_once_and_kept():
    model = RefereeModel(2, expert=True)
    model.on_pad_event(touch(1, 2, 0))
    press(model, "select")
    assert model.screen().title == W.CONDITION_TITLE
    press(model, "right", "left")  # page 2: "Barva neplatí" on ◀
    assert model.cards.condition is Condition.ANY_COLOUR and model.cards.graveyard
    assert model.screen().title == "H1 → H2: co leží?"
    press(model, "left", "left")
    press(model, "select")
    model.on_pad_event(touch(2, 1, 9000))
    press(model, "select")
    assert model.screen().title == "H2 → H1: co leží?"  # not the condition again


def test_a_gorilla_attack_needs_a_gorilla_on_that_pile():
    model = RefereeModel(2, rules=("gorilla",))
    model.cards.tops.update({1: Card("S", "b"), 2: Card("C", "r")})
    model.cards.gorilla = 1
    assert model.situation().gorilla is None
    model.cards.tops[1] = Card("G", None)
    assert model.situation().gorilla == 1


# --- races ------------------------------------------------------------------------------------


def test_a_race_asks_whether_gobbit_held_and_names_the_winner():
    model = RefereeModel(3, rules=("gobbit",), uncertainty_ms=1.0)
    for ev in (touch(3, "g", 12), touch(1, "g", 3), touch(2, 1, 0)):
        model.on_pad_event(ev)
    press(model, "right")
    assert model.screen().title == W.RACE_QUESTION_TITLE
    assert model.screen().lines[-2:] == ("◀ ne", "● ano")
    press(model, "select")
    assert model.mode is Mode.RACE
    first = model.screen()
    assert first.title.startswith("Závod o hřbitov")
    assert first.lines[0] == "H1 první o 9,0 ms"
    assert model.ruling().gobbit == 1
    pages = all_pages(model)
    assert_fits(pages)
    assert "1. H1 první 0 ms" in " ".join(text_of(pages).split())
    assert "Gobbit! Na hřbitov sáhl" in text_of(pages)


def test_a_race_that_was_no_gobbit_is_a_foul_and_asks_the_touchers_cards():
    model = RefereeModel(2, rules=("gobbit",))
    model.on_pad_event(touch(1, "g", 0))
    press(model, "select")  # only the graveyard was touched: ● opens its race
    assert model.screen().title == W.RACE_QUESTION_TITLE
    press(model, "left")  # ne
    assert model.screen().title == "Vrchní karta H1"
    press(model, "select", "select")
    assert model.ruling().to_json()["fouls"] == [1]
    assert "Hráč 1 fauloval" in model.screen().lines[1]


def test_without_the_gobbit_rule_a_graveyard_touch_is_disputed_as_a_foul():
    model = RefereeModel(2)
    model.on_pad_event(touch(2, "g", 0))
    press(model, "right")
    assert model.mode is Mode.LOG  # no race without the rule
    press(model, "select", "right", "select")  # H2 has no card
    assert model.ruling().to_json()["fouls"] == [2]
    assert model.screen().title.startswith(W.GRAVEYARD_TITLE)


def test_d28_a_race_within_the_uncertainty_goes_to_the_lower_seat_and_says_why():
    model = RefereeModel(3, rules=("gobbit",), uncertainty_ms=1.0)
    model.cards.tops.update({1: parse_card("Mb"), 2: parse_card("Mr"), 3: parse_card("My")})
    model.cards.graveyard = True
    model.on_pad_event(touch(3, "g", 100.0))
    model.on_pad_event(touch(1, "g", 100.6))
    model.open_race()
    press(model, "select")  # ano
    assert model.ruling().gobbit == 1
    assert model.screen().lines[0] == "H3 a H1 současně"
    text = text_of(all_pages(model))
    assert "0,6 ms – pod přesností čidel (±1 ms): současně." in text
    assert "nižším číslem" in text


# --- every screen says what its buttons do -------------------------------------------------


def _state(model: RefereeModel):
    q = model.question
    return (model.mode, model.page, model.cursor, model.screen(),
            None if q is None else (q.title, q.page), repr(sorted(model.cards.tops.items())),
            repr(model.cards))


def _named(screen) -> set[str]:
    """The buttons the screen names: in its legend (last line) or as answers."""
    names = set()
    glyph = {"◀": "left", "●": "select", "▶": "right"}
    for g, b in glyph.items():
        if g in screen.lines[-1] or any(line.startswith(g + " ") for line in screen.lines):
            names.add(b)
    return names


@pytest.mark.parametrize("rules,expert", [(ALL, False), ((), True)])
def test_every_reachable_screen_names_exactly_the_buttons_that_do_something(rules, expert):
    model = RefereeModel(3, rules=rules, expert=expert, uncertainty_ms=20.0)
    for ev in (touch(2, 3, 0), touch(3, 3, 7), touch(2, 1, 9), touch(1, "g", 30)):
        model.on_pad_event(ev)
    frontier, seen, screens = [model], {_state(model)}, 0
    while frontier and screens < 400:
        current = frontier.pop()
        screen = current.screen()
        screens += 1
        assert_fits([screen])
        named = _named(screen)
        for button in ("left", "select", "right"):
            after = copy.deepcopy(current)
            after.on_button(button)
            changed = _state(after) != _state(current)
            assert changed == (button in named), (screen, button)
            if _state(after) not in seen:
                seen.add(_state(after))
                frontier.append(after)
    assert screens > 50


# --- other screens -------------------------------------------------------------------------


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


def test_empty_views_say_so_in_czech_and_go_back():
    model = RefereeModel(2, rules=("gobbit",))
    assert "nikdo nedotkl" in " ".join(model.screen().lines)
    model.open_dispute()
    assert "není o čem" in " ".join(model.screen().lines)
    assert model.screen().lines[-1] == W.EMPTY_KEYS
    press(model, "select")
    assert model.mode is Mode.LOG
    model.on_pad_event(touch(1, 2, 0))
    model.open_race()
    assert "nikdo nesáhl" in " ".join(model.screen().lines)


@pytest.mark.parametrize("ms,text", [(0.4, "+0,4 ms"), (7, "+7,0 ms"), (12, "+12 ms"),
                                     (2345, "+2,3 s")])
def test_time_differences_in_czech(ms, text):
    assert delta_text(ms) == text


def test_who_was_first_is_honest_about_the_pads():
    t = [touch(2, 3, 0), touch(3, 3, 40), touch(2, 3, 50)]
    from companion.games.gobbit.referee.model import touch_of

    touches = [touch_of(x) for x in t]
    assert first_line(touches, 30.0) == "H2 první o 40 ms"
    assert first_line(touches, 60.0) == "H2 a H3 současně"
    assert first_line(touches[:1], 60.0) == "Sáhl jen H2"


def test_a_table_needs_two_to_eight_seats():
    with pytest.raises(ValueError):
        RefereeModel(1)


def test_ready_is_false_until_the_table_answered():
    model = RefereeModel(2)
    model.on_pad_event(touch(1, 2, 0))
    moment = model.latest_moment()
    assert not model.ready(moment)
    press(model, "select", "left")
    assert not model.ready(moment)
    press(model, "left")
    assert model.ready(moment)
    model.on_pad_event(touch(2, 1, 9000))
    assert not model.ready(model.latest_moment())


# --- D28: the dispute is honest about the pads' precision -----------------------------------


def test_d28_a_gap_inside_the_uncertainty_is_shown_as_simultaneous():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 5000))
    model.on_pad_event(touch(3, 3, 5007))
    model.open_dispute()
    first = model.screen()
    assert first.lines[:3] == ("H2 a H3 současně", "Hráč 3 se ubránil a",
                               "bere si svou kupičku.")
    pages = all_pages(model)
    assert_fits(pages)
    close = next(p for p in pages if p.title.startswith("Kdo byl první"))
    assert " ".join(close.lines[:-1]).startswith("7 ms – pod přesností čidel (±30 ms): současně.")
    text = text_of(pages)
    assert "přednost majitel kupičky" in " ".join(text.split())
    assert "1. H2 současně 0 ms" in " ".join(text.split())
    assert "stejně" not in text
    assert model.ruling().to_json()["piles"] == {"3": 3}


def test_d28_a_clear_gap_is_shown_with_its_margin():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 5000))
    model.on_pad_event(touch(3, 3, 5047))
    model.open_dispute()
    assert model.screen().lines[:3] == ("H2 první o 47 ms", "Hráč 2 bere kupičku",
                                        "hráče 3.")
    text = " ".join(text_of(all_pages(model)).split())
    assert "47 ms – nad přesností čidel (±30 ms) o 17 ms: první byl hráč 2." in text


def test_d28_the_boundary_follows_the_uncertainty_the_host_sets():
    model = seed_model(uncertainty_ms=30.0)
    model.on_pad_event(touch(2, 3, 0))
    model.on_pad_event(touch(3, 3, 30))
    assert model.ruling().to_json()["piles"] == {"3": 2}  # exactly U apart: a clear call
    model.uncertainty_ms = 30.5  # e.g. after a calibration
    assert model.ruling().to_json()["piles"] == {"3": 3}  # now inside: simultaneous
