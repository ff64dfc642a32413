"""The board compiled for movement: nodes with headings, passing and starting exits."""

from __future__ import annotations

from companion.games.napij.engine.graph import IN, OUT, distance_home
from tests.games.napij.engine.helpers import G

R, B = 0, 1


def n(text: str) -> int:
    return G.by_text[text]


def test_one_way_fields_have_one_node_two_way_fields_carry_their_heading():
    assert G.node_of("m5") == n("m5")
    assert {t for t in G.by_text if t.startswith("c5")} == {"c5+", "c5-"}
    assert {t for t in G.by_text if t.startswith("zp2")} == {"zp2+i", "zp2-i", "zp2+o", "zp2-o"}
    assert {t for t in G.by_text if t.startswith("zach")} == {"zach+", "zach-"}
    assert G.direction[n("zp2+o")] == OUT and G.direction[n("zp2+i")] == IN
    assert G.heading[n("c5-")] == -1


def test_only_its_own_colour_turns_in_at_an_arrow():
    assert G.through[R][n("m3")] == n("rl1")
    assert G.through[B][n("m3")] == n("m4")


def test_junction_exits_and_passing():
    assert G.exits[R][n("m13")] == (n("m14"), n("sb1"))
    assert G.through[R][n("m13")] == n("m14")
    assert G.exits[R][n("m10")] == (n("m11"), n("c1+"))
    assert G.exits[R][n("m50")] == (n("m51"), n("c19-"))
    assert G.exits[R][n("tj+o")] == (n("bp1+i"), n("lp1+i"))
    assert G.through[R][n("tj+i")] == n("bp1+i")  # passing in: the first exit
    assert G.through[R][n("tj+o")] == n("tp1+o")  # passing out: back to the stezka


def test_turn_off_forces_the_trap_path_but_is_passed_along_the_stezka():
    assert G.exits[R][n("c6-")] == (n("zp1-i"),)
    assert G.through[R][n("c6-")] == n("c5-")
    assert G.through[R][n("zp1+o")] == n("c6+")
    assert G.release[n("zach-")] == n("zp3-o")
    assert G.through[R][n("zach+")] == -1 and G.exits[R][n("zach+")] == ()


def test_stezka_ends_lead_back_onto_the_main_track():
    assert G.through[R][n("c1-")] == n("m10")
    assert G.through[R][n("c19+")] == n("m50")


def test_the_bottle_way_is_the_main_cycle():
    m = n("m79")
    assert G.main_next[m] == n("m0") and G.main_prev[n("m0")] == m
    assert G.main_next[n("m13")] == n("m14")
    assert G.behind_start == tuple(n(f"m{20 * c + 3}") for c in range(4))


def test_distance_home_is_zero_at_the_deepest_home_field_and_uses_shortcuts():
    d = distance_home(G, R)
    assert d[n("rh4")] == 0 and d[n("rh1")] == 3 and d[n("m3")] == 6
    assert d[n("m73")] == 10 + 6  # the shortcut would skip the arrow: round the corner
    assert d[n("m10")] < d[n("m11")]  # the stezka is shorter
