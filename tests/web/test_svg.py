"""The SVG building blocks: escaping, marks, pieces, the two-layer drawing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.web import svg

NS = "{http://www.w3.org/2000/svg}"


def test_numbers_are_short():
    assert svg.num(3.0) == "3" and svg.num(2.5) == "2.5" and svg.num(1 / 3) == "0.33"
    assert svg.num(-0.001) == "0" and svg.num(-2.25) == "-2.25"


def test_attribute_names_and_none():
    text = svg.attrs({"class_": "a", "stroke_width": 2.0, "data_colour": "r", "skip": None})
    assert text == ' class="a" stroke-width="2" data-colour="r"'


def test_text_and_attributes_are_escaped():
    hostile = '"><script>alert(1)</script><x a="'
    out = svg.el("g", svg.text(hostile), data_name=hostile)
    root = ET.fromstring(out)
    assert root.text == hostile and root.get("data-name") == hostile
    assert "<script>" not in out
    assert ET.fromstring(svg.title(hostile)).text == hostile
    assert ET.fromstring(svg.label(0, 0, hostile, 10)).text == hostile


def test_a_document_is_well_formed_and_named():
    doc = svg.document(100, 50, svg.el("rect", x=1.0), "Plán & figurky", "board-base")
    root = ET.fromstring(doc)
    assert root.tag == NS + "svg" and root.get("viewBox") == "0 0 100 50"
    assert root.get("aria-label") == "Plán & figurky" and root.get("role") == "img"
    assert root.find(NS + "title").text == "Plán & figurky"


@pytest.mark.parametrize("colour,tag", [(0, "circle"), (1, "polygon"), (2, "rect"), (3, "polygon")])
def test_every_colour_has_its_own_mark(colour, tag):
    root = ET.fromstring(svg.mark(colour, 10, 10, 10, "#fff"))
    assert root.tag == tag


def test_diamond_and_triangle_differ():
    diamond = ET.fromstring(svg.mark(1, 10, 10, 10, "#fff")).get("points").split()
    triangle = ET.fromstring(svg.mark(3, 10, 10, 10, "#fff")).get("points").split()
    assert len(diamond) == 4 and len(triangle) == 3


def test_a_piece_has_colour_mark_place_and_a_czech_tooltip():
    root = ET.fromstring(svg.piece(2, 5, 5, 10, svg.piece_label(2, "pole 7"), where="7"))
    assert root.get("class") == "piece"
    assert (root.get("data-colour"), root.get("data-mark"), root.get("data-where")) == (
        "g", "stripe", "7")
    assert root.find("title").text == "Zelená figurka (pruh): pole 7"
    disc = root.find("circle")
    assert disc.get("fill") == svg.RGB["g"]


def test_the_mark_ink_is_dark_on_yellow_only():
    assert svg.MARK_INK["y"] != "#ffffff"
    assert {svg.MARK_INK[c] for c in "rbg"} == {"#ffffff"}


def test_arrowhead_tip_stops_before_the_target():
    root = ET.fromstring(svg.arrowhead((0, 0), (100, 0), 10, 5, "#000"))
    xs = [float(p.split(",")[0]) for p in root.get("points").split()]
    assert max(xs) == 90 and min(xs) == 85


def test_the_whole_drawing_nests_both_layers():
    base = svg.document(10, 10, svg.el("rect", class_="b"), "Plán", "board-base")
    top = svg.document(10, 10, svg.el("circle", class_="t"), "Figurky", "board-top")
    root = ET.fromstring(svg.Drawing(base, top).whole())
    inner = root.findall(NS + "svg")
    assert [i.get("class") for i in inner] == ["board-base", "board-top"]
    assert root.get("viewBox") == "0 0 10 10"


def test_no_style_attributes_or_scripts_are_ever_made():
    out = svg.piece(0, 1, 1, 5, "x") + svg.label(1, 1, "x", 3) + svg.mark(3, 1, 1, 1, "#000")
    assert "style" not in out and "script" not in out and "on" + "load" not in out
