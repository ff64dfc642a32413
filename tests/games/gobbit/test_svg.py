"""The Gobbit table as SVG: seats, top cards, pile sizes, the graveyard and the touches."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.games.gobbit import svg as gobbit_svg
from companion.games.gobbit.engine.cards import Condition, parse_card
from companion.games.gobbit.engine.judge import Kind, Situation, Touch, judge
from companion.games.gobbit.svg import KIND_RGB, LATE, Seat, Table

NS = "{http://www.w3.org/2000/svg}"
TOPS = {1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb"), 4: parse_card("G")}


def groups(svg_text, cls):
    return [g for g in ET.fromstring(svg_text).iter(NS + "g") if g.get("class") == cls]


def texts(svg_text):
    return [t.text for t in ET.fromstring(svg_text).iter(NS + "text")]


@pytest.mark.parametrize("count", [2, 3, 5, 8])
def test_every_seat_is_drawn_once_round_the_table(count):
    table = Table(tuple(Seat(s) for s in range(1, count + 1)))
    seats = groups(gobbit_svg.render(table).top, "seat")
    assert [g.get("data-seat") for g in seats] == [str(s) for s in range(1, count + 1)]
    spots = {gobbit_svg.seat_centre(i, count) for i in range(count)}
    assert len(spots) == count
    # seat 1 sits at the bottom, the next one clockwise (to the left of it on screen)
    x1, y1 = gobbit_svg.seat_centre(0, count)
    assert y1 > gobbit_svg.CY and abs(x1 - gobbit_svg.CX) < 1e-6
    x2, _ = gobbit_svg.seat_centre(1, count)
    assert x2 < gobbit_svg.CX


def test_top_cards_pile_and_deck_sizes_are_shown():
    seats = gobbit_svg.seats_of(TOPS, 4, piles=[3, 1, 2, 5], decks=[10, 9, 8, 7])
    top = gobbit_svg.render(Table(seats, turn=2)).top
    by_seat = {g.get("data-seat"): g for g in groups(top, "seat")}
    assert by_seat["1"].get("data-top") == "Cr" and by_seat["4"].get("data-top") == "G"
    assert by_seat["1"].get("data-pile") == "3"
    words = texts(top)
    assert "kupička 3 · balíček 10" in words and "kupička 5 · balíček 7" in words
    assert {"chameleon", "had", "gorila"} <= set(words)
    cards = groups(top, "card")
    assert len(cards) == 4
    assert cards[0].find(NS + "title").text == "červený chameleon"
    turn_rings = [r for r in ET.fromstring(top).iter(NS + "rect") if r.get("class") == "turn"]
    assert len(turn_rings) == 1


def test_unknown_sizes_ghosts_and_players_out():
    seats = (Seat(1, TOPS[1]), Seat(2, ghost=True), Seat(3, out=True), Seat(4))
    top = gobbit_svg.render(Table(seats)).top
    words = texts(top)
    assert "duch" in words and "mimo hru" in words and "bez karty" in words
    assert not any(w and w.startswith("kupička") for w in words)


def test_the_graveyard_shows_its_size_and_the_expert_condition():
    seats = gobbit_svg.seats_of(TOPS, 4)
    top = gobbit_svg.render(Table(seats, graveyard=True, graveyard_size=6,
                                  condition=Condition.REVERSED)).top
    grave = groups(top, "graveyard")[0]
    assert grave.get("data-size") == "6"
    assert "Obrácený řetězec" in texts(top) and "6" in texts(top)
    empty = gobbit_svg.render(Table(seats)).top
    assert "prázdný" in texts(empty)


def test_touches_are_numbered_arrows_coloured_by_the_ruling():
    touches = (Touch(2, 3, 0.0), Touch(3, 3, 7.0), Touch(1, 1, 12.0), Touch(4, "g", 20.0))
    ruling = judge(Situation(tops=TOPS, touches=touches, graveyard=parse_card("Sr")))
    verdicts = {v.touch: v for v in ruling.verdicts}
    top = gobbit_svg.render(Table(gobbit_svg.seats_of(TOPS, 4), graveyard=True,
                                  touches=touches, verdicts=verdicts)).top
    marks = groups(top, "touch")
    assert [(g.get("data-seat"), g.get("data-target")) for g in marks] == [
        ("2", "3"), ("3", "3"), ("1", "1"), ("4", "g")]
    assert [g.find(NS + "text").text for g in marks] == ["1", "2", "3", "4"]
    colours = [g.find(NS + "circle").get("fill") for g in marks]
    assert verdicts[touches[0]].kind is Kind.ATTACK and colours[0] == KIND_RGB[Kind.ATTACK]
    assert colours[1] == LATE  # a defence after the attack won
    assert verdicts[touches[2]].kind is Kind.FOUL and colours[2] == KIND_RGB[Kind.FOUL]
    assert colours[3] == KIND_RGB[verdicts[touches[3]].kind]


def test_a_touch_by_or_on_a_seat_not_at_the_table_is_left_out():
    top = gobbit_svg.render(Table(gobbit_svg.seats_of(TOPS, 2),
                                  touches=(Touch(5, 1, 0.0), Touch(1, 7, 1.0)))).top
    assert groups(top, "touch") == []


def test_layers_are_well_formed_and_the_base_is_shared():
    a = gobbit_svg.render(Table(gobbit_svg.seats_of(TOPS, 4)))
    b = gobbit_svg.render(Table(gobbit_svg.seats_of(TOPS, 3)))
    assert a.base is b.base
    ET.fromstring(a.whole())


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_a_seats_counts_wrap_to_stay_inside_the_drawing(count):
    """Seat 4's "kupička 12 · balíček 11 · gorila útočí" once ran past the right edge."""
    seats = tuple(Seat(s, TOPS[1], 12, 11) for s in range(1, count + 1))
    for gorilla in range(1, count + 1):
        top = gobbit_svg.render(Table(seats, gorilla=gorilla)).top
        lines = [t for t in ET.fromstring(top).iter(NS + "text") if t.get("class") == "counts"]
        words = " ".join(t.text for t in lines).replace(" · ", " ")
        assert words.count("kupička 12") == count and words.count("gorila útočí") == 1
        for t in lines:
            half = len(t.text) * gobbit_svg.CHAR_W * gobbit_svg.COUNT_SIZE / 2
            x = float(t.get("x"))
            assert 0 < x - half and x + half < gobbit_svg.WIDTH, (t.text, x)


def test_counts_stay_on_one_line_where_there_is_room():
    assert gobbit_svg.count_lines(["kupička 3", "balíček 10"], gobbit_svg.CX) == [
        "kupička 3 · balíček 10"]
    assert gobbit_svg.count_lines(["kupička 12", "balíček 11", "gorila útočí"], 338.0) == [
        "kupička 12", "balíček 11", "gorila útočí"]
