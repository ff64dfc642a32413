"""The napij commands: moves, apply, selfplay, board check, board draw; errors for people."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from companion.cli import main
from companion.games.napij.engine.board import default_board_text
from companion.games.napij.engine.deck import default_deck_text

START = ("r:p,p,p,p b:p,p,p,p g:p,p,p,p y:p,p,p,p turn:r "
         "owe:r1@start?,b1@start?,g1@start?,y1@start?")
SPLIT = "r:m12,m30,rh4,rh3 g:p,p,p,p bottle:m60 turn:r"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_moves_lists_the_plays_after_the_rolls_as_json(capsys):
    code, out, _ = run(capsys, "moves", "napij", "new", "--drank", "r", "--roll", "6",
                       "--roll", "2")
    assert code == 0
    data = json.loads(out)
    assert data["phase"] == "play" and data["throws"] == [6, 2]
    assert [m["move"] for m in data["moves"]] == ["p=6+2"]
    assert data["moves"][0]["steps"] == [{"from": "p", "values": [6, 2], "exit": None,
                                          "to": "m6"}]
    assert data["moves"][0]["text"] == ["Láhev stojí na poli m3.",
                                        "Červený nasadil figurku a táhl s ní rovnou na pole m6."]


def test_moves_on_a_throw_phase_says_what_is_possible(capsys):
    code, out, _ = run(capsys, "moves", "napij", START)
    data = json.loads(out)
    assert code == 0 and data["phase"] == "throw" and data["moves"] == []
    assert data["needs_six"] and data["owes"] == 1 and not data["may_declare_bottle"]


def test_apply_prints_the_resulting_position(capsys):
    code, out, _ = run(capsys, "apply", "napij", "new", "--drank", "r", "--roll", "6",
                       "--roll", "2", "--move", "p=6+2")
    assert code == 0
    assert out == "r:m6,p,p,p b:p,p,p,p g:p,p,p,p y:p,p,p,p bottle:m3 turn:b " \
                  "owe:b1@start?,g1@start?,y1@start? drunk:r1\n"


def test_apply_split_and_together_from_one_position(capsys):
    code, out, _ = run(capsys, "apply", "napij", SPLIT, "--roll", "6", "--roll", "3",
                       "--move", "m12=6 m30=3", "--events")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("r:m18,m33,rh4,rh3 ")
    assert "# Červený táhl z pole m12 na pole m18." in lines
    code, out, _ = run(capsys, "apply", "napij", SPLIT, "--roll", "6", "--roll", "3",
                       "--move", "m30=9")
    assert out.startswith("r:m12,m39,rh4,rh3 ")


def test_an_illegal_play_is_refused_with_the_reason_and_exit_1(capsys):
    code, _, err = run(capsys, "apply", "napij", SPLIT, "--roll", "6", "--roll", "3",
                       "--move", "m12=5 m30=4")
    assert code == 1
    assert err == ("companion: The move 'm12=5 m30=4' is refused by the rules: „Takové číslo "
                   "v tomto tahu nepadlo, dělit se smí jen hozená čísla.“\n")  # no internal code
    code, _, err = run(capsys, "apply", "napij", SPLIT, "--roll", "6", "--move", "m12=6")
    assert code == 1 and err == ("companion: The move 'm12=6' now is refused by the rules: "
                                 "„Nejdřív se hází kostkou a po každé šestce se hází znovu.“\n")
    assert "throw-first" not in err
    code, _, err = run(capsys, "apply", "napij", SPLIT, "--roll", "3", "--move", "m40=3")
    assert code == 1 and err == ("companion: The move 'm40=3' is refused by the rules: "
                                 "„Tam žádná tvoje figurka nestojí.“\n")


@pytest.mark.parametrize("argv,words", [
    (["apply", "napij", "r:p,p,p,p turn:r"], "at least two colours"),
    (["apply", "napij", SPLIT, "--roll", "7"], "from 1 to 6"),
    (["apply", "napij", SPLIT, "--roll", "3", "--move", "m12"], "Say which values"),
    (["apply", "napij", "new:5"], "new:2"),
    (["apply", "napij", SPLIT, "--do", "throw 3", "--roll", "3"], "not both"),
    (["apply", "napij", SPLIT, "--duty", "r:angry"], "REASON"),
    (["apply", "napij", SPLIT, "--drank", "x"], "Unknown colour"),
    (["moves", "napij", SPLIT, "--board", "/nonexistent/b.toml"], "no board file"),
    (["moves", "napij"], "See 'companion moves napij --help'"),
])
def test_bad_input_is_one_sentence_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and words in err and err.count("\n") == 1


def test_do_runs_actions_in_order_including_card_choices(capsys):
    text = ("r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:10,"
            + ",".join(str(n) for n in range(1, 33) if n != 10))
    code, out, _ = run(capsys, "apply", "napij", text, "--do", "throw 3", "--do",
                       "play m25=3", "--do", "choose m50", "--events")
    assert code == 0
    assert out.splitlines()[0].startswith("r:m40,p,p,p b:m28,p,p,p g:p,p,p,p ")
    assert "# Modrý kartou vyhodil zeleného." in out
    code, out, _ = run(capsys, "moves", "napij", text, "--roll", "3")
    code, out, _ = run(capsys, "apply", "napij", text, "--roll", "3", "--move", "m25=3")
    pending = out.strip()
    code, out, _ = run(capsys, "moves", "napij", pending)
    data = json.loads(out)
    assert data["phase"] == "choose" and data["card"] == 10
    assert {m["move"] for m in data["moves"]} == {"choose m40", "choose m50"}
    code, out, _ = run(capsys, "apply", "napij", pending, "--choose", "m40")
    assert code == 0 and out.startswith("r:p,p,p,p b:m28")


def test_bottle_and_duties_from_the_command_line(capsys):
    code, out, _ = run(capsys, "apply", "napij", "r:m20,p,p,p g:m30,p,p,p bottle:m25 turn:r",
                       "--duty", "g:upset", "--bottle", "--roll", "5", "--move", "bottle")
    assert code == 0 and out.startswith("r:m20,p,p,p g:p,p,p,p bottle:m30 turn:g "
                                        "owe:g1@upset?,g1@bottle.r?")


def test_selfplay_reports_its_speed(capsys):
    code, out, _ = run(capsys, "selfplay", "napij", "--games", "1", "--players", "2")
    assert code == 0
    assert out.startswith("games: 1  throws: ") and "games/s: " in out and "wins: r=" in out
    code, _, err = run(capsys, "selfplay", "napij", "--games", "0")
    assert code == 2


def test_board_check_accepts_the_default_board_and_deck(capsys, tmp_path):
    code, out, _ = run(capsys, "board", "check", "default")
    assert code == 0 and out.startswith("board.toml: board OK: 157 fields")
    deck = tmp_path / "deck.toml"
    deck.write_text(default_deck_text(), "utf-8")
    code, out, _ = run(capsys, "board", "check", str(deck))
    assert code == 0 and "deck OK: 32 cards" in out and "reconstruction" in out


def test_board_check_lists_every_problem_with_lines_and_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(default_board_text().replace('next = "m6"', 'next = "m66x"').replace(
        'next = "m9" }', 'next = "m9x" }'), "utf-8")
    code, out, err = run(capsys, "board", "check", str(bad))
    lines = err.splitlines()
    assert code == 2 and out == ""
    assert lines[0].startswith(f"{bad}:") and "field m5: next points to 'm66x'" in lines[0]
    assert "field m8: next points to 'm9x'" in lines[1]
    assert lines[-1] == f"companion: {bad} has 2 problems; see the lines above."
    code, _, err = run(capsys, "board", "check", str(tmp_path / "none.toml"))
    assert code == 2 and "There is no board or deck file here." in err


def test_board_draw_writes_a_png(capsys, tmp_path):
    out_png = tmp_path / "b.png"
    code, out, _ = run(capsys, "board", "draw", "default", "--png", str(out_png),
                       "--scale", "20")
    assert code == 0 and out.startswith(f"{out_png}: ")
    with Image.open(out_png) as img:
        assert img.format == "PNG" and img.width > 400
    code, _, err = run(capsys, "board", "draw", "default", "--png",
                       str(tmp_path / "no" / "b.png"))
    assert code == 2 and "does not exist" in err
    deck = tmp_path / "deck.toml"
    deck.write_text(default_deck_text(), "utf-8")
    code, _, err = run(capsys, "board", "draw", str(deck), "--png", str(out_png))
    assert code == 2 and "is a deck" in err
    code, _, err = run(capsys, "board")
    assert code == 2 and "companion board check FILE" in err


def test_a_family_board_file_is_used_by_moves(capsys, tmp_path):
    path = tmp_path / "family.toml"
    path.write_text(default_board_text().replace('m12 = { kind = "normal"',
                                                 'm12 = { kind = "card"'), "utf-8")
    code, out, _ = run(capsys, "moves", "napij", "r:m10,p,p,p g:p,p,p,p bottle:m60 turn:r",
                       "--board", str(path), "--roll", "2")
    data = json.loads(out)
    assert code == 0 and [m["cards"] for m in data["moves"]] == [1, 0]


def test_a_physical_deck_takes_the_drawn_card_as_an_action(capsys):
    text = "r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:physical"
    code, out, _ = run(capsys, "apply", "napij", text, "--roll", "3", "--move", "m25=3")
    waiting = out.strip()
    assert code == 0 and "draw:b1@m28#0" in waiting.split()
    code, out, _ = run(capsys, "moves", "napij", waiting)
    data = json.loads(out)
    assert data["phase"] == "draw" and data["drawer"] == "b" and data["moves"] == []
    code, out, _ = run(capsys, "apply", "napij", waiting, "--do", "draw 23", "--events")
    assert code == 0 and out.startswith("r:m40,p,p,p b:m28,p,p,p ")
    assert "# Modrý si bere kartu číslo 23." in out.splitlines()[1]
    code, _, err = run(capsys, "apply", "napij", waiting, "--do", "draw 99")
    assert code == 1
    assert err == ("companion: The action 'draw 99' is refused by the rules: "
                   "„Karta s takovým číslem v balíčku není.“\n")


def test_an_offered_deal_is_answered_from_the_command_line(capsys):
    text = ("r:m40,p,p,p b:m25,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:27,"
            + ",".join(str(n) for n in range(1, 33) if n != 27))
    code, out, _ = run(capsys, "apply", "napij", text, "--roll", "3", "--move", "m25=3")
    waiting = out.strip()
    data = json.loads(run(capsys, "moves", "napij", waiting)[1])
    assert data["chooser"] == "b" and [m["move"] for m in data["moves"]] == ["offer r", "offer g"]
    code, out, _ = run(capsys, "apply", "napij", waiting, "--do", "offer g")
    offered = out.strip()
    data = json.loads(run(capsys, "moves", "napij", offered)[1])
    assert data["chooser"] == "g" and data["moves"] == [
        {"move": "choose m50", "colour": "g", "field": "m50"},
        {"move": "decline g", "colour": "g"}]
    code, out, _ = run(capsys, "apply", "napij", offered, "--choose", "m50", "--events")
    assert code == 0 and out.startswith("r:m40,p,p,p b:p,p,p,p g:")
    assert "# Zelený kartou vyhodil modrého." in out


def test_selfplay_has_an_upper_bound_on_games(capsys):
    code, _, err = run(capsys, "selfplay", "napij", "--games", "10000000")
    assert code == 2 and "1 to 100000" in err


def test_a_board_file_over_the_limit_is_one_sentence(capsys, tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (2 << 20) + "\n")
    code, _, err = run(capsys, "board", "check", str(big))
    assert code == 2 and "larger than the 1 MiB" in err
