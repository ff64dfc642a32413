from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_prints_a_json_array_of_distinct_moves(capsys):
    code, out, err = run(capsys, "moves", "clovece", "r:5,15,h,h g:8,h,h,h turn:r", "--roll", "3")
    assert code == 0 and err == ""
    assert json.loads(out) == [
        {"from": "5", "to": "8", "capture": "g"},
        {"from": "15", "to": "18", "capture": None},
    ]


def test_moves_lists_the_house_once(capsys):
    code, out, _ = run(capsys, "moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r", "--roll", "6")
    assert json.loads(out) == [{"from": "h", "to": "0", "capture": None}]


def test_moves_with_no_legal_move_is_an_empty_array(capsys):
    code, out, _ = run(capsys, "moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r", "--roll", "4")
    assert code == 0 and json.loads(out) == []


def test_apply_plays_the_only_legal_move_without_move(capsys):
    code, out, _ = run(capsys, "apply", "clovece", "r:5,h,h,h g:8,h,h,h turn:r", "--roll", "3")
    assert code == 0 and out == "r:8,h,h,h g:h,h,h,h turn:g\n"


def test_apply_with_move_and_a_six_rolls_again(capsys):
    code, out, _ = run(capsys, "apply", "clovece", "r:5,15,f1,f2 g:30,h,h,h turn:r",
                       "--roll", "6", "--move", "15")
    assert out == "r:5,21,f1,f2 g:30,h,h,h turn:r\n"


def test_apply_without_legal_move_counts_a_try(capsys):
    code, out, _ = run(capsys, "apply", "clovece", "r:h,h,h,h g:8,h,h,h turn:r", "--roll", "2")
    assert out == "r:h,h,h,h g:8,h,h,h turn:r tries:1\n"


def test_apply_without_legal_move_forfeits_when_in_play(capsys):
    code, out, _ = run(capsys, "apply", "clovece", "r:38,f2,f3,f4 g:8,h,h,h turn:r", "--roll", "6")
    assert out == "r:38,f2,f3,f4 g:8,h,h,h turn:g\n"


def test_apply_refuses_an_illegal_move_with_exit_1_and_the_reason(capsys):
    code, out, err = run(capsys, "apply", "clovece", "r:38,f1,f2,f3 g:8,h,h,h turn:r",
                         "--roll", "6", "--move", "38")
    assert code == 1 and out == ""
    assert err == ("companion: The move from 38 is refused by the rules: „Šestka by figurku "
                   "poslala za poslední pole cíle.“\n")  # the CLI's English, the table's Czech
    assert "overshoots-goal" not in err  # no internal codes


def test_apply_refuses_a_move_from_an_empty_field(capsys):
    code, _, err = run(capsys, "apply", "clovece", "r:5,15,h,h g:8,h,h,h turn:r",
                       "--roll", "3", "--move", "7")
    assert code == 1
    assert err == ("companion: The move from 7 is refused by the rules: "
                   "„Na tom místě žádná tvoje figurka nestojí.“\n")


def test_apply_asks_for_move_when_several_are_legal(capsys):
    code, _, err = run(capsys, "apply", "clovece", "r:5,15,h,h g:8,h,h,h turn:r", "--roll", "3")
    assert code == 2 and "--move" in err and "5, 15" in err


@pytest.mark.parametrize("argv,fragment", [
    (["moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r", "--roll", "7"], "1 to 6"),
    (["moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r", "--roll", "six"], "1 to 6"),
    (["moves", "clovece", "r:h,h,h g:h,h,h,h turn:r", "--roll", "6"], "exactly 4"),
    (["moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r variants:x", "--roll", "6"], "Unknown variant"),
    (["apply", "clovece", "r:h,h,h,h g:h,h,h,h turn:r", "--roll", "6", "--move", "x9"], "Bad location"),
    (["apply", "clovece", "r:f1,f2,f3,f4 g:h,h,h,h turn:r winner:r", "--roll", "6"], "over"),
    (["moves", "clovece", "r:h,h,h,h g:h,h,h,h turn:r"], "--roll"),
    (["moves", "ludo", "x", "--roll", "1"], "ludo"),
    (["selfplay", "clovece", "--games", "0"], "--games: 1 to"),
    (["selfplay", "clovece", "--variants", "nope"], "Unknown variant"),
])
def test_bad_input_is_one_sentence_and_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert fragment in err
    assert err.startswith("companion: ") and err.count("\n") == 1


def test_selfplay_prints_speed_and_wins(capsys):
    code, out, _ = run(capsys, "selfplay", "clovece", "--games", "5", "--seed", "3",
                       "--players", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("games: 5 ")
    assert "games/s:" in lines[1] and "turns/s:" in lines[1]
    r, g = (int(w.split("=")[1]) for w in lines[2].split()[1:])
    assert r + g == 5


def test_selfplay_is_reproducible(capsys):
    _, a, _ = run(capsys, "selfplay", "clovece", "--games", "4", "--seed", "9")
    _, b, _ = run(capsys, "selfplay", "clovece", "--games", "4", "--seed", "9")
    assert a.splitlines()[0].split()[:4] == b.splitlines()[0].split()[:4]
    assert a.splitlines()[2] == b.splitlines()[2]


def test_watch_draws_the_board_and_ends_with_the_winner(capsys):
    code, out, _ = run(capsys, "watch", "clovece", "--seed", "2", "--players", "2")
    assert code == 0
    assert "vyhrává po" in out
    assert out.rstrip().splitlines()[-1].split()[-1].startswith("winner:")
    winner = out.rstrip().splitlines()[-1].split()[-1][len("winner:"):]
    name = {"r": "Červený", "g": "Zelený"}[winner]
    assert f"{name} vyhrává po" in out
    # the last board shows all four of the winner's pieces in its goal (no empty ':' left there)
    board = out.split(". hod: ")[-1].splitlines()[1:12]
    assert len(board) == 11


def test_watch_says_every_throw_in_czech_words(capsys):
    _, out, _ = run(capsys, "watch", "clovece", "--seed", "7", "--players", "2")
    heads = [line for line in out.splitlines() if ". hod: " in line]
    assert heads[0] == "1. hod: Červený hodil 3, bez tahu"
    assert "4. hod: Zelený hodil 6, z domečku na start" in heads
    assert any(h.endswith("ze startu na 6. pole") for h in heads)
    assert not any("->" in h or "no move" in h for h in heads)


def test_the_installed_command_never_shows_a_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "moves", "clovece", "r:1,1,h,h g:h,h,h,h turn:r",
         "--roll", "3"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "companion: Two pieces stand on track field 1."


def test_selfplay_with_seats_plays_a_match_and_prints_every_share(capsys):
    code, out, _ = run(capsys, "selfplay", "clovece", "--seats", "silný,random", "--rotate",
                       "--games", "12", "--workers", "1", "--seed", "4")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "clovece: 12 games, 2 players (silný, random), seats rotated, seed 4"
    shares = [line.split() for line in lines[1:3]]
    assert [s[0] for s in shares] == ["silný", "random"]
    assert int(shares[0][1]) + int(shares[1][1]) == 12
    assert all("interval" in line for line in lines[1:3])


@pytest.mark.parametrize("argv, fragment", [
    (("--seats", "silný,expert"), "Unknown seat 'expert'"),
    (("--seats", "silný"), "2 to 4 seats"),
    (("--seats", "silný,random", "--players", "4"), "--players says 4"),
    (("--seats", "silný,random", "--variants", "safe-start"), "official rules"),
    (("--rotate",), "--seats"),
])
def test_a_bad_match_is_one_sentence_and_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, "selfplay", "clovece", "--games", "2", *argv)
    assert code == 2 and out == "" and fragment in err and err.count("\n") == 1
