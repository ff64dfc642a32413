"""Virtual-deck mode: the companion deals, shows the top cards and rules as touches come."""

from __future__ import annotations

import random

import pytest

from companion.games.gobbit.engine.cards import parse_card, standard_deck
from companion.games.gobbit.engine.judge import Touch, judge
from companion.games.gobbit.engine.rules import Touches, apply, new_game, replay, situation
from companion.games.gobbit.referee.virtual import VirtualDeckModel, shuffle_order
from companion.inputs.pads import PadReleased, PadStuck, PadTouch
from companion.ui.referee import WIDTH


def touch(seat, target, ms):
    return PadTouch(seat, target, 0.0, float(ms))


def cards(text):
    return [parse_card(c) for c in text.split(",")]


def assert_fits(screen):
    assert len(screen.title) <= WIDTH and len(screen.lines) <= 4
    assert all(len(line) <= WIDTH for line in screen.lines), screen.lines


def test_the_deal_is_the_engines_deal_of_the_given_shuffle():
    order = shuffle_order(48, random.Random(5))
    model = VirtualDeckModel(4, order, rules=("gorilla",))
    deck = standard_deck({"gorilla"})
    assert model.state == new_game(4, [deck[i] for i in order], 1, {"gorilla"})
    assert shuffle_order(48, random.Random(5)) == order  # the same seed, the same game


def test_a_shuffle_must_be_a_permutation_of_the_deck():
    with pytest.raises(ValueError, match="45 cards"):
        VirtualDeckModel(2, list(range(44)))
    with pytest.raises(ValueError):
        VirtualDeckModel(2, [0] * 45)


def small(**kwargs) -> VirtualDeckModel:
    # deal order (clockwise from seat 1): seat 1 gets Sb, Mr; seat 2 gets Cb, My
    deck = cards("Mr,My,Sb,Cb")
    return VirtualDeckModel(2, [0, 1, 2, 3], deck=deck, **kwargs)


def test_select_flips_for_the_seat_on_turn_and_the_table_shows_the_top_cards():
    model = small()
    first = model.screen()
    assert first.title == "Na tahu: hráč 1"
    assert first.lines[0] == "▶1 bez karty" + " " * 8 + "2"
    model.on_button("select", 0.0)
    model.on_button("select", 1.0)
    screen = model.screen()
    assert screen.lines[0].startswith("▶1 modrý had") and screen.lines[0].endswith("1")
    assert screen.lines[1].startswith(" 2 modrý chameleon")
    assert screen.title == "Na tahu: hráč 1"
    assert_fits(screen)


def test_touches_get_a_provisional_ruling_then_settle_into_the_game():
    model = small(settle_s=1.0)
    model.on_button("select", 0.0)
    model.on_button("select", 0.5)  # blue snake vs blue chameleon
    model.on_pad_event(touch(2, 2, 1003), now=10.0)  # arrives first, happened later
    model.on_pad_event(touch(1, 2, 1000), now=10.01)
    screen = model.screen()
    assert screen.title == "Verdikt (běží)"
    assert " ".join(screen.lines) == "Hráč 1 bere kupičku hráče 2."
    model.poll(10.5)
    assert model.moment  # not yet quiet for a second
    before = model.state
    model.poll(11.02)
    assert not model.moment
    expected, _ = apply(before, Touches(tuple(model.actions[-1].touches)))
    assert model.state == expected and model.state.deck(1)[-1] == parse_card("Cb")
    assert model.screen().title == "Verdikt"
    model.on_button("right", 12.0)
    assert model.screen().title.startswith("Na tahu")


def test_the_provisional_ruling_is_the_judges():
    model = small()
    model.on_button("select", 0.0)
    model.on_button("select", 0.0)
    model.on_pad_event(touch(2, 1, 0), now=1.0)
    assert model.provisional == judge(situation(model.state, model.moment))
    assert model.provisional.to_json()["fouls"] == [2]


def test_a_foul_says_why_on_the_verdict_with_the_keys_and_in_the_event_lines():
    model = small(settle_s=1.0)
    model.on_button("select", 0.0)
    model.on_button("select", 0.5)  # seat 1: blue snake, seat 2: blue chameleon
    model.on_pad_event(touch(2, 1, 1000), now=10.0)  # the chameleon may not eat the snake
    model.poll(11.5)
    pages = []
    while model.screen().title.startswith("Verdikt"):
        pages.append(model.screen())
        model.on_button("right", 12.0)
    text = " ".join(" ".join(p.lines[:-1]) for p in pages)
    foul = "Hráč 2 fauloval, jeho kupička jde na hřbitov."
    assert " ".join(foul.split()) in text
    why = [line for line in model.history if line not in (foul,) and "nesmí" in line]
    assert why and " ".join(why[0].split()) in text  # the reason, as the phone gives it
    assert foul in model.history and all(p.lines[-1].startswith("●otočit") for p in pages)
    assert_fits(pages[0])
    # the phone gives the same reason: the cards as they lay when the touch was judged
    from companion.games.gobbit.phone import game

    phone = game(model.state, touches=model.last_touches, ruling=model.last_ruling,
                   judged_tops=model.judged_tops)
    assert phone.touches is not None and why[0] in phone.touches.why


def test_flip_settles_a_pending_moment_first():
    model = small()
    model.on_button("select", 0.0)
    model.on_button("select", 0.0)
    model.on_pad_event(touch(1, 2, 0), now=1.0)
    events = model.flip()
    assert any(type(e).__name__ == "Judged" for e in events)
    assert model.moment == []


def test_replaying_the_recorded_actions_gives_the_same_game():
    model = VirtualDeckModel(3, shuffle_order(45, random.Random(1)), rules=("ghost",))
    rng = random.Random(2)
    now = 0.0
    for _ in range(60):
        now += 0.3
        if rng.random() < 0.5:
            model.on_button("select", now)
        else:
            model.on_pad_event(touch(rng.randint(1, 3), rng.choice([1, 2, 3, "g"]),
                                     rng.randint(0, 40)), now)
            model.poll(now + 2)
        assert_fits(model.screen())
    state, _ = replay(model.start, model.actions)
    assert state == model.state


def test_the_game_ends_when_nobody_can_flip():
    model = small()
    for i in range(4):
        model.on_button("select", float(i))
    assert not model.state.over
    model.on_button("select", 5.0)  # nobody can flip: the game ends
    assert model.state.over
    assert model.screen().title == "Verdikt"
    model.on_button("right", 6.0)
    table = model.screen()
    assert table.title == "Konec hry" and "remíza" in " ".join(table.lines)
    model.on_pad_event(touch(1, 2, 0), now=7.0)
    assert model.moment == []  # touches after the end are ignored


def test_gorilla_and_expert_titles():
    deck = cards("Mr,My,GR,Mb,Sb,CbR")
    model = VirtualDeckModel(2, list(range(6)), deck=deck, rules=("gorilla",), expert=True)
    # seat 1 holds Sb, G, Mr (top first), seat 2 CbR, Mb, My
    for _ in range(3):
        model.on_button("select", 0.0)  # Sb, Cb, then seat 1's gorilla
    assert model.screen().title == "Gorila! Útočí H1"
    model.on_pad_event(touch(1, 2, 0), now=1.0)  # the gorilla takes the blue chameleon
    model.poll(5.0)
    assert model.state.graveyard[-1] == parse_card("CbR")
    model.on_button("select", 6.0)  # seat 1 flips onto its gorilla: the attack is over
    assert model.screen().title == "Obrácený řetězec"  # the chameleon's back


def test_stuck_pads_are_noted():
    model = VirtualDeckModel(2, list(range(45)))
    model.on_pad_event(PadStuck(1, 2), now=0.0)
    assert "Zaseknutá podložka!" in model.screen().lines
    model.on_pad_event(PadReleased(1, 2), now=1.0)
    assert "Zaseknutá podložka!" not in model.screen().lines


def test_a_verdict_longer_than_a_screen_has_pages_none_cut_each_saying_what_the_keys_do():
    model = small()
    model.last_lines = ["Hráč 2 fauloval, jeho kupička jde na hřbitov.",
                        "Hráč 1 bere kupičku hráče 2.", "Hráč 2 už nemá karty a stává se duchem."]
    model.show_ruling = True
    first = model.screen()
    assert first.title.startswith("Verdikt") and first.title.endswith("1/3")
    pages = [first]
    for n in (2, 3):
        model.on_button("right", 0.0)
        pages.append(model.screen())
        assert pages[-1].title.endswith(f"{n}/3")
    assert all(p.lines[-1] == "●otočit ▶více" for p in pages)
    words = " ".join(line for p in pages for line in p.lines[:-1]).split()
    assert words == " ".join(model.last_lines).split()  # every word, none cut
    model.on_button("right", 0.0)  # past the last page: the table
    assert model.screen().title.startswith("Na tahu")
    model.on_button("left", 0.0)  # the verdict again, from its first page
    assert model.screen() == first


def test_the_table_shows_the_last_sentence_only_when_it_fits_whole():
    model = small()
    model.last_lines = ["Hráč 2 fauloval, jeho kupička jde na hřbitov a ještě mnohem víc."]
    assert model.screen().lines[-1] == "◀▶ celá zpráva"
    model.last_lines = ["Hráč 1 otočil kartu."]
    assert model.screen().lines[-1] == "Hráč 1 otočil kartu."


def test_d28_moments_are_judged_and_journaled_with_the_pads_uncertainty():
    model = small(settle_s=1.0)
    model.uncertainty_ms = 30.0
    model.on_button("select", 0.0)
    model.on_button("select", 0.5)  # seat 1: blue snake, seat 2: blue chameleon
    model.on_pad_event(touch(1, 2, 1000), now=10.0)
    model.on_pad_event(touch(2, 2, 1020), now=10.01)  # the defence 20 ms later: within 30 ms
    assert model.provisional is not None
    assert model.provisional.to_json()["piles"] == {"2": 2}  # simultaneous: the owner keeps it
    model.poll(11.1)
    assert model.actions[-1] == Touches((Touch(1, 2, 1000.0), Touch(2, 2, 1020.0)), 30.0)
    model.uncertainty_ms = 0.0  # a later recalibration does not change what was ruled
    state, _ = replay(model.start, model.actions)
    assert state == model.state



def test_a_game_resumes_from_a_saved_table_of_its_own_seats_and_rules_only():
    model = VirtualDeckModel(3, shuffle_order(45, random.Random(1)), rules=("ghost",))
    for _ in range(5):
        model.flip()
    again = VirtualDeckModel(3, None, rules=("ghost",), start=model.state)
    assert again.state == model.state and again.actions == []
    again.flip()
    assert again.state != model.state
    with pytest.raises(ValueError):
        VirtualDeckModel(2, None, rules=("ghost",), start=model.state)
    with pytest.raises(ValueError):
        VirtualDeckModel(3, None, rules=(), start=model.state)
    with pytest.raises(ValueError):
        VirtualDeckModel(3, None, rules=("ghost",))
