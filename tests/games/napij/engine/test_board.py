"""The board format and its validator: the default board, and broken files with the field,
the line and what is wrong."""

from __future__ import annotations

import tomllib

import pytest

from companion.games.napij.engine.board import (
    COLOURS,
    LANE,
    MAIN,
    SHORTCUT,
    STEZKA,
    TRAP_AREA,
    BoardError,
    DataFileError,
    default_board,
    default_board_text,
    load_board,
    parse_board,
    read_text,
    summary,
)

TEXT = default_board_text()


def line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def problems_of(text: str) -> list[str]:
    with pytest.raises(BoardError) as exc:
        parse_board(text, "b.toml")
    return exc.value.lines()


def edit(old: str, new: str, text: str = TEXT) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_the_default_board_is_valid_and_says_it_is_a_reconstruction():
    b = default_board()
    assert b.reconstruction and "rekonstrukce" in b.name
    assert "RECONSTRUCTION" in TEXT
    assert len(b.main) == 80 and len(b.shortcuts) == 4 and len(b.stezka) == 19
    assert [b.id_of(i) for i in b.stezka_ends] == ["m10", "m50"]
    assert {b.id_of(i) for i in b.traps.values()} == {"zach", "baz", "les"}
    assert "157 fields" in summary(b)


def test_each_colour_has_pub_start_arrow_lane_rolling_pin_and_an_l_shaped_home_of_four():
    b = default_board()
    for c, name in enumerate(COLOURS):
        start, arrow = b.fields[b.start[c]], b.fields[b.arrow[c]]
        assert start.kind == "start" and start.colour == c
        assert arrow.kind == "arrow" and arrow.next == start.id
        assert [b.id_of(i) for i in b.home[c]] == [f"{name}h{k}" for k in range(1, 5)]
        assert b.fields[b.rolling_pin[c]].kind == "rolling_pin"
        xs = {b.fields[i].at[0] for i in b.home[c]}
        ys = {b.fields[i].at[1] for i in b.home[c]}
        assert len(xs) > 1 and len(ys) > 1  # an L, not a straight line
    assert len(b.pubs) == 4


def test_areas_are_derived_from_the_links():
    b = default_board()
    area = {f.id: b.area[i] for i, f in enumerate(b.fields)}
    assert area["m0"] == MAIN and area["sr3"] == SHORTCUT and area["c6"] == STEZKA
    assert area["zp2"] == TRAP_AREA and area["zach"] == TRAP_AREA and area["tj"] == TRAP_AREA
    assert area["rh1"] == LANE and area["rv"] == LANE and area["rl1"] == LANE


def test_a_link_to_a_missing_field_names_the_field_and_its_line():
    text = edit('m5 = { kind = "normal", at = [0, 15], next = "m6" }',
                'm5 = { kind = "normal", at = [0, 15], next = "m99" }')
    lines = problems_of(text)
    assert lines == [f"b.toml:{line_of(text, 'm5 = {')}: field m5: next points to 'm99', "
                     "which is not a field of this board."]


def test_the_main_track_must_be_a_cycle():
    text = edit('m79 = { kind = "normal", at = [1, 20], next = "m0" }',
                'm79 = { kind = "normal", at = [1, 20], next = "m6" }')
    lines = problems_of(text)
    assert any("field m79: The main track is not a cycle" in x and
               f":{line_of(text, 'm79 = {')}:" in x for x in lines)


def test_the_main_track_must_not_run_into_two_way_fields():
    text = edit('m20 = { kind = "normal", at = [0, 0], next = "m21" }',
                'm20 = { kind = "normal", at = [0, 0], next = "c3" }')
    assert any("field m20" in x and "runs into c3" in x for x in problems_of(text))


def test_a_junction_has_exactly_two_different_exits():
    text = edit('branch = "sb1"', 'branch = "m14"')
    assert any("field m13" in x and "exactly two different exits" in x
               for x in problems_of(text))
    text = edit('exits = ["bp1", "lp1"]', 'exits = ["bp1", "lp1", "tp1"]')
    assert any("field tj" in x and "exactly two different exits" in x for x in problems_of(text))


def test_traps_are_reached_only_through_turn_offs():
    text = edit('c6 = { kind = "turnoff", at = [6, 10], links = ["c5", "c7"], forced = "zp1" }',
                'c6 = { kind = "normal", at = [6, 10], links = ["c5", "c7"] }')
    lines = problems_of(text)
    assert any("field zach" in x and "only through a turn-off" in x for x in lines)
    assert any("field zp1" in x for x in lines)


def test_a_turn_off_must_lie_on_the_black_path():
    text = TEXT + '\nextra = { kind = "turnoff", at = [30, 30], links = ["m1", "m2"], ' \
                  'forced = "zp1" }\n'
    assert any("field extra: A turn-off must lie on the Černá stezka" in x
               for x in problems_of(text))


def test_each_colour_needs_its_home_of_four_after_the_rolling_pin():
    text = edit('yh4 = { kind = "home", colour = "y", at = [19, 16] }\n', "")
    text = edit('yh3 = { kind = "home", colour = "y", at = [19, 17], next = "yh4" }',
                'yh3 = { kind = "home", colour = "y", at = [19, 17] }', text)
    assert any("field yh3" in x and "exactly four home fields of y; found 3" in x
               for x in problems_of(text))


def test_the_arrow_must_stand_just_before_the_start():
    text = edit('m43 = { kind = "arrow", colour = "g", at = [20, 3], next = "m44", lane = "gl1" }',
                'm43 = { kind = "normal", at = [20, 3], next = "m44" }')
    text = edit('m42 = { kind = "normal", at = [20, 2], next = "m43" }',
                'm42 = { kind = "arrow", colour = "g", at = [20, 2], next = "m43", lane = "gl1" }',
                text)
    assert any("field m42" in x and "just before its start field m44" in x
               for x in problems_of(text))


def test_the_black_path_links_run_in_one_direction():
    text = edit('c3 = { kind = "normal", at = [3, 10], links = ["c2", "c4"] }',
                'c3 = { kind = "normal", at = [3, 10], links = ["c4", "c2"] }')
    assert any("field c3" in x and "link back to c2 first" in x for x in problems_of(text))


def test_kinds_keys_and_positions_are_checked_per_field():
    text = edit('m0 = { kind = "normal", at = [0, 20], next = "m1" }',
                'm0 = { kind = "pub", at = [0, 20], next = "m1" }')
    assert any("field m0: kind must be one of" in x for x in problems_of(text))
    text = edit('m0 = { kind = "normal", at = [0, 20], next = "m1" }',
                'm0 = { kind = "normal", at = [0, 20], next = "m1", colour = "r" }')
    assert any("field m0: Unknown key 'colour'" in x for x in problems_of(text))
    text = edit('m0 = { kind = "normal", at = [0, 20], next = "m1" }',
                'm0 = { kind = "normal", at = "here", next = "m1" }')
    assert any("field m0: at must be [x, y]" in x for x in problems_of(text))
    text = edit('m0 = { kind = "normal", at = [0, 20], next = "m1" }',
                'm0 = { kind = "normal", at = [0, 19], next = "m1" }')
    assert any("field m1: It is drawn at the same place as m0" in x for x in problems_of(text))
    text = edit('m0 = { kind = "normal", at = [0, 20], next = "m1" }',
                'p = { kind = "normal", at = [0, 20], next = "m1" }')
    assert any("field p: The name 'p' is not allowed" in x for x in problems_of(text))


def test_a_missing_trap_or_colour_is_reported():
    text = edit('les = { kind = "trap", trap = "les", at = [16, 14], links = ["lp1"] }',
                'les = { kind = "trap", trap = "bazina", at = [16, 14], links = ["lp1"] }')
    lines = problems_of(text)
    assert any("no les trap" in x for x in lines)
    assert any("field les: The board has a second bazina" in x for x in lines)


def test_toml_syntax_errors_give_the_line():
    text = edit('m7 = { kind = "normal", at = [0, 13], next = "m8" }',
                'm7 = { kind = "normal", at = [0, 13], next = "m8" ')
    lines = problems_of(text)
    assert len(lines) == 1
    assert lines[0].startswith(f"b.toml:{line_of(text, 'm7 = {')}: This is not valid TOML")


def to_table_form(text: str) -> str:
    """The same board written with one [field.ID] table per field (the other TOML layout)."""
    data = tomllib.loads(text)

    def val(v: object) -> str:
        if isinstance(v, str):
            return f'"{v}"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v).lower() if isinstance(v, bool) else str(v)

    out = ["[board]"] + [f"{k} = {val(v)}" for k, v in data["board"].items()]
    out += ["", "[pub]"] + [f"{c} = {{ at = {val(p['at'])} }}" for c, p in data["pub"].items()]
    for fid, f in data["field"].items():
        out += ["", f"[field.{fid}]"] + [f"{k} = {val(v)}" for k, v in f.items()]
    return "\n".join(out) + "\n"


def test_the_table_layout_works_too_and_lines_point_at_the_key():
    text = to_table_form(TEXT)
    assert len(parse_board(text).fields) == len(default_board().fields)
    bad = text.replace('[field.m5]\nkind = "normal"\nat = [0, 15]\nnext = "m6"',
                       '[field.m5]\nkind = "normal"\nat = [0, 15]\nnext = "m777"')
    lines = problems_of(bad)
    assert len(lines) == 1
    header = line_of(bad, "[field.m5]")
    assert lines[0].startswith(f"b.toml:{header + 3}: field m5: next points to 'm777'")


def test_every_problem_is_reported_not_only_the_first():
    text = edit('m5 = { kind = "normal", at = [0, 15], next = "m6" }',
                'm5 = { kind = "normal", at = [0, 15], next = "x1" }')
    text = edit('m9 = { kind = "normal", at = [0, 11], next = "m10" }',
                'm9 = { kind = "normal", at = [0, 11], next = "x2" }', text)
    lines = problems_of(text)
    assert len(lines) == 2 and "field m5" in lines[0] and "field m9" in lines[1]


def test_unreadable_files_are_one_clear_sentence(tmp_path):
    with pytest.raises(DataFileError) as exc:
        load_board(tmp_path / "nope.toml")
    assert str(exc.value).endswith("There is no board file here.")
    with pytest.raises(DataFileError):
        read_text(tmp_path, "board")
    bad = tmp_path / "latin.toml"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(DataFileError) as exc:
        load_board(bad)
    assert "not UTF-8" in str(exc.value)
    good = tmp_path / "board.toml"
    good.write_text(TEXT, "utf-8")
    assert len(load_board(good).main) == 80
