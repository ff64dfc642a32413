"""The napij se board as SVG, from its board file: fields, pubs, pieces, bottle, immunity."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

from companion.games.napij import svg as napij_svg
from companion.games.napij.engine.board import default_board
from companion.games.napij.engine.notation import parse_position
from companion.games.napij.engine.rules import Rules, default_rules, new_game
from companion.web.svg import MARK_KEYS

NS = "{http://www.w3.org/2000/svg}"
POSITION = "r:m12*3,m30,rh4,p g:m50,c5+,p,p bottle:m60 turn:r owe:g1"


def groups(svg_text, cls):
    return [g for g in ET.fromstring(svg_text).iter(NS + "g") if g.get("class") == cls]


def centre(g):
    disc = g.find(NS + "circle")
    return float(disc.get("cx")), float(disc.get("cy"))


def at(fr, field_at):
    """Where the frame puts a board position, rounded as the SVG writes it."""
    x, y = fr.px(field_at)
    return round(x, 2), round(y, 2)


def test_the_base_draws_every_field_of_the_board_file_once():
    board = default_board()
    fr, base = napij_svg.base(board)
    fields = groups(base, "field")
    assert sorted(g.get("data-field") for g in fields) == sorted(f.id for f in board.fields)
    m12 = next(g for g in fields if g.get("data-field") == "m12")
    circle = m12.find(NS + "circle")
    assert (float(circle.get("cx")), float(circle.get("cy"))) == at(fr, board.f("m12").at)
    assert m12.find(NS + "title").text == "m12: pole"


def test_the_base_shows_field_kinds_pubs_traps_and_a_legend():
    board = default_board()
    base = napij_svg.base(board)[1]
    root = ET.fromstring(base)
    texts = [t.text for t in root.iter(NS + "text")]
    assert texts.count("hospoda") == 4
    for word in ("záchytka", "bažina", "les", "Černá stezka", "zkratka", "váleček", "domek"):
        assert word in texts
    assert "Výchozí plán (rekonstrukce)" in texts
    pubs = [r for r in root.iter(NS + "rect") if r.get("class") == "pub"]
    assert len(pubs) == 16
    card = next(g for g in groups(base, "field") if g.get("data-field") == "m1")
    assert card.find(NS + "circle").get("fill") == napij_svg.FILL["card"]


def test_pieces_stand_on_their_fields_and_in_their_pubs():
    state = parse_position(POSITION)
    d = napij_svg.render(state)
    fr = napij_svg.base(state.rules.board)[0]
    found = groups(d.top, "piece")
    assert len(found) == 8
    red = {g.get("data-where"): centre(g) for g in found if g.get("data-colour") == "r"}
    board = state.rules.board
    assert red["m12"] == at(fr, board.f("m12").at)
    assert red["rh4"] == at(fr, board.f("rh4").at)
    green = [g for g in found if g.get("data-colour") == "g"]
    assert {g.get("data-mark") for g in green} == {MARK_KEYS[2]}
    assert sorted(g.get("data-where") for g in green) == ["c5+", "m50", "p", "p"]
    in_pub = [centre(g) for g in green if g.get("data-where") == "p"]
    assert len(set(in_pub)) == 2  # two different pub places
    px, py = board.pubs[2]
    places = {at(fr, (px + dx, py + dy)) for dx in (-0.5, 0.5) for dy in (-0.5, 0.5)}
    assert set(in_pub) <= places


def test_an_immune_piece_has_a_ring_and_says_so():
    d = napij_svg.render(parse_position(POSITION))
    immune = [g for g in groups(d.top, "piece") if g.find(NS + "circle[@class='immune']")
              is not None]
    assert [g.get("data-where") for g in immune] == ["m12"]
    assert "imunita ještě 3 kol" in immune[0].find(NS + "title").text


def test_the_bottle_stands_on_its_field():
    state = parse_position(POSITION)
    d = napij_svg.render(state)
    bottles = groups(d.top, "bottle")
    assert len(bottles) == 1 and bottles[0].find(NS + "title").text == "láhev"
    fr = napij_svg.base(state.rules.board)[0]
    x, y = fr.px(state.rules.board.f("m60").at)
    body = bottles[0].find(NS + "rect")
    assert abs(float(body.get("x")) + float(body.get("width")) / 2 - x) < 0.01
    # before the first piece enters there is no bottle
    assert groups(napij_svg.render(new_game()).top, "bottle") == []


def test_moved_fields_are_ringed_and_unknown_names_ignored():
    d = napij_svg.render(parse_position(POSITION), moved=("m7", "m12", "nowhere"))
    rings = [c for c in ET.fromstring(d.top).iter(NS + "circle") if c.get("class") == "moved"]
    assert len(rings) == 2


def test_at_the_start_every_piece_is_in_its_pub():
    d = napij_svg.render(new_game())
    found = groups(d.top, "piece")
    assert len(found) == 16 and {g.get("data-where") for g in found} == {"p"}


def test_the_base_is_drawn_once_per_board():
    state = parse_position(POSITION)
    a = napij_svg.render(state)
    b = napij_svg.render(new_game())
    assert a.base is b.base
    other = dataclasses.replace(default_board(), name="Naše deska")
    rules = Rules(other, default_rules().deck)
    c = napij_svg.render(new_game(rules))
    assert c.base is not a.base and "Naše deska" in c.base


def test_everything_is_well_formed():
    d = napij_svg.render(parse_position(POSITION), moved=("m12",))
    ET.fromstring(d.base)
    ET.fromstring(d.top)
    ET.fromstring(d.whole())
