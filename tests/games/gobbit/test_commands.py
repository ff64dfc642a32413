"""``companion judge gobbit``: the JSON contract and the one-sentence errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["judge", "gobbit", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("situation,ruling", [
    ("1:Cr 2:Sb 3:Cb t2>3@0 t3>3@7", {"fouls": [], "piles": {"3": 2}, "gobbit": None}),
    ("1:Cr 2:Sb 3:Cb t2>1@0", {"fouls": [2], "piles": {"2": "graveyard"}, "gobbit": None}),
    ("1:Mb 2:Mr 3:My graveyard:Sb rules:gobbit t3>g@5 t1>g@9",
     {"fouls": [], "piles": {"1": 1, "2": 2, "3": 3}, "gobbit": 3}),
])
def test_prints_exactly_the_json_ruling(capsys, situation, ruling):
    code, out, err = run(capsys, situation)
    assert code == 0 and err == ""
    assert json.loads(out) == ruling
    assert out.count("\n") == 1


def test_tokens_may_be_separate_arguments(capsys):
    code, out, _ = run(capsys, "1:Cr", "2:Sb", "3:Cb", "t2>3@0")
    assert json.loads(out)["piles"] == {"3": 2}


@pytest.mark.parametrize("situation", ["1:Xb 2:Cb", "1:Sb", "1:Sb 2:Cb t1>9@0",
                                       "1:Sb 2:Cb expert:reversed", "1:Sb 2:Cb banana"])
def test_bad_input_is_one_sentence_on_stderr_and_exit_2(capsys, situation):
    code, out, err = run(capsys, situation)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and err.count("\n") == 1 and "Traceback" not in err


def test_missing_situation_is_a_usage_error(capsys):
    code, out, err = run(capsys)
    assert code == 2 and "Traceback" not in err


def test_explain_adds_czech_lines_after_the_json(capsys):
    code, out, _ = run(capsys, "1:Cr 2:Sb 3:Cb t2>1@0", "--explain")
    first, *rest = out.splitlines()
    assert json.loads(first)["fouls"] == [2]
    assert "Modrý had nesmí sežrat červeného chameleona." in out and rest


def test_explain_says_how_a_close_call_was_decided(capsys):
    code, out, _ = run(capsys, "1:Cr 2:Sb 3:Cb uncertainty:30 t2>3@0 t3>3@7", "--explain")
    assert json.loads(out.splitlines()[0])["piles"] == {"3": 3}
    assert "7 ms – pod přesností čidel (±30 ms): současně." in out.splitlines()


def test_the_installed_command_never_shows_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "companion", "judge", "gobbit", "1:Sb 2:Q"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("companion: Bad card") and "Traceback" not in proc.stderr
