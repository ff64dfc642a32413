"""The Člověče cross as SVG: every piece where the engine's geometry puts it, with its mark."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.games.clovece import svg as clovece_svg
from companion.games.clovece.engine.board import GOALS, HOUSES, TRACK
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import HOUSE, START, Move, apply, legal_moves, new_game
from companion.web.svg import MARK_KEYS, RGB

NS = "{http://www.w3.org/2000/svg}"


def pieces(drawing):
    root = ET.fromstring(drawing.top)
    return [g for g in root.iter(NS + "g") if g.get("class") == "piece"]


def centre_of(g):
    disc = g.find(NS + "circle")
    return float(disc.get("cx")), float(disc.get("cy"))


def test_both_layers_are_well_formed_svg():
    d = clovece_svg.render(new_game(4))
    for layer in (d.base, d.top):
        assert ET.fromstring(layer).tag == NS + "svg"
    ET.fromstring(d.whole())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_pieces_of_each_playing_colour_in_its_colour_and_mark(players):
    pos = new_game(players)
    found = pieces(clovece_svg.render(pos))
    assert len(found) == 4 * players
    for c in pos.colours:
        own = [g for g in found if g.get("data-colour") == "rbgy"[c]]
        assert len(own) == 4
        assert {g.get("data-mark") for g in own} == {MARK_KEYS[c]}
        assert {g.find(NS + "circle").get("fill") for g in own} == {RGB["rbgy"[c]]}


def test_pieces_stand_on_the_engines_cells():
    pos = parse_position("r:h,h,0,f1 g:25,h,h,h b:39,f4,h,h turn:g")
    found = {(g.get("data-colour"), g.get("data-where"), centre_of(g))
             for g in pieces(clovece_svg.render(pos))}
    expect = {
        ("r", "0", clovece_svg.centre(TRACK[0])),
        ("r", "f1", clovece_svg.centre(GOALS[0][0])),
        ("r", "h", clovece_svg.centre(HOUSES[0][0])),
        ("r", "h", clovece_svg.centre(HOUSES[0][1])),
        ("g", "25", clovece_svg.centre(TRACK[25])),
        ("b", "39", clovece_svg.centre(TRACK[39])),
        ("b", "f4", clovece_svg.centre(GOALS[1][3])),
    }
    assert expect <= found


def test_a_move_changes_the_pieces_and_rings_its_fields():
    pos = parse_position("r:5,15,h,h g:8,h,h,h turn:r")
    move = next(m for m in legal_moves(pos, 3) if m.capture is not None)
    after, _ = apply(pos, 3, move)
    d = clovece_svg.render(after, move)
    wheres = sorted(g.get("data-where") for g in pieces(d) if g.get("data-colour") == "r")
    assert wheres == ["15", "8", "h", "h"]
    greens = [g.get("data-where") for g in pieces(d) if g.get("data-colour") == "g"]
    assert greens == ["h"] * 4  # the captured piece went home
    root = ET.fromstring(d.top)
    rings = {c.get("class"): (float(c.get("cx")), float(c.get("cy")))
             for c in root.iter(NS + "circle") if c.get("class") in ("moved-from", "moved-to")}
    assert rings == {"moved-from": clovece_svg.centre(TRACK[5]),
                     "moved-to": clovece_svg.centre(TRACK[8])}


def test_entering_rings_only_the_start_field():
    d = clovece_svg.render(new_game(2), Move(0, HOUSE, 0, None))
    classes = [c.get("class") for c in ET.fromstring(d.top).iter(NS + "circle")]
    assert "moved-to" in classes and "moved-from" not in classes


def test_start_fields_carry_the_colour_and_mark_of_the_players_only():
    base = ET.fromstring(clovece_svg.base((0, 2)))
    starts = [g for g in base.iter(NS + "g") if g.get("class") == "field start"]
    assert sorted(g.get("data-field") for g in starts) == [str(START[0]), str(START[2])]
    red = next(g for g in starts if g.get("data-field") == "0")
    assert any(e.get("fill") == RGB["r"] for e in red.iter())


def test_the_board_has_forty_track_fields_and_goals():
    base = ET.fromstring(clovece_svg.base((0, 1, 2, 3)))
    fields = [e for e in base.iter() if (e.get("class") or "").startswith("field")]
    assert len([f for f in fields if "goal" in f.get("class")]) == 16
    assert len([f for f in fields if f.get("data-field", "").isdigit()]) == 40


def test_the_base_is_drawn_once_per_set_of_colours():
    a = clovece_svg.render(new_game(4))
    b = clovece_svg.render(parse_position("r:5,h,h,h b:h,h,h,h g:h,h,h,h y:h,h,h,h turn:b"))
    assert a.base is b.base
    assert clovece_svg.render(new_game(2)).base != a.base


def test_piece_tooltips_are_czech():
    titles = {g.find(NS + "title").text for g in pieces(clovece_svg.render(
        parse_position("r:h,h,0,f1 g:25,h,h,h turn:g")))}
    assert "Červená figurka (tečka): v domečku" in titles
    assert "Červená figurka (tečka): cílové pole 1" in titles
    assert "Zelená figurka (pruh): pole 25" in titles
