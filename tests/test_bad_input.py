"""Bad input never reaches a person as a traceback: a property test over every command-line
option and every configuration key.

For every subcommand (found by walking the real parser, so a new one is covered or this test
asks for its base arguments) and each of its options, hostile and random values are tried;
for every configuration key, values of every TOML type. Each run must end in success, or in
exactly one sentence on stderr with exit code 2 (1 only where the rules refuse a move) -
never an exception escaping ``main``, never a silent non-zero exit.  The service commands
(``run``, ``sim``, ``demo``) are stopped right after they checked their input and drew their
first frame.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.service import app as app_module

POS = "r:5,15,h,h g:8,h,h,h turn:r"
NAPIJ_POS = "r:m13,rh4,rh3,rh2 g:p,p,p,p bottle:m60 turn:r"

# the least each command needs besides the option under test ({tmp}: a fresh folder)
BASE: dict[tuple[str, ...], list[str]] = {
    ("moves", "clovece"): [POS, "--roll", "3"],
    ("apply", "clovece"): [POS, "--roll", "3", "--move", "5"],
    ("selfplay", "clovece"): ["--games", "1"],
    ("watch", "clovece"): ["--players", "2"],
    ("moves", "napij"): [NAPIJ_POS, "--roll", "2"],
    ("apply", "napij"): [NAPIJ_POS, "--roll", "2"],
    ("selfplay", "napij"): ["--games", "1"],
    ("judge", "gobbit"): ["1:Cr 2:Sb t2>1@0"],
    ("board", "check"): ["default"],
    ("board", "draw"): ["default", "--png", "{tmp}/b.png"],
    ("dice-sim",): ["--script", "roll", "--wait-ack", "0", "--interval", "0",
                    "--link", "{tmp}/dice"],
    ("dice-read",): ["loop://", "--timeout", "0.05"],
    ("pins",): [],
    ("firmware",): [],
    ("doctor",): ["--only", "pins"],
    ("pads", "calibrate"): ["--simulate", "1", "--dry-run"],
    ("pads", "show"): [],
    ("run",): [],
    ("sim",): ["--data-dir", "{tmp}/sim"],
    ("demo",): ["--gif", "{tmp}/out.gif", "--max-rolls", "3"],
}
SLOW = {("selfplay", "napij"), ("watch", "clovece")}

# Paths that no folder or file can be made at, even by root, and that stay inside the test's
# own folder: "{tmp}/a-file" is a file where a folder is asked for, "{tmp}/a-file/below" a
# path through a file ("/" or "/nonexistent/..." would be made by root, outside the test).
HOSTILE = ["", " ", "-1", "0", "1", "7", "nan", "inf", "-inf", "1e400", "9" * 5000, "x",
           "\x00", "{tmp}/a-file", "{tmp}/a-file/below", "--", "ěščř", "0x10", "3.5"]


def in_folder(value: str, folder: Path) -> str:
    """A hostile value with its paths placed in ``folder``, beside a file named ``a-file``."""
    (folder / "a-file").write_text("not a folder\n")
    return value.replace("{tmp}", str(folder))


def commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(path, parser) of every leaf command of the real parser."""
    out: list[tuple[tuple[str, ...], argparse.ArgumentParser]] = []

    def walk(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out.append((path, parser))
            return
        for name, sub in subs[0].choices.items():
            walk(path + (name,), sub)

    walk((), cli.build_parser())
    return out


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and a.dest != "help"
            and not isinstance(a, argparse._StoreTrueAction | argparse._StoreFalseAction)]


@pytest.fixture(autouse=True)
def quick_service(monkeypatch, tmp_path_factory):
    """The service commands check everything, draw one frame and stop; in a folder of their
    own, so a hostile value that is a fine relative file name ("3.5", "x") lands there and not
    in the checkout."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    def first_frame_only(self: app_module.App) -> int:
        self.service.draw(0.0)
        self.close()
        return 0

    monkeypatch.setattr(app_module.App, "run", first_frame_only)

    import companion.sim.demo as demo
    import companion.sim.terminal as terminal

    monkeypatch.setattr(terminal.Simulator, "run", lambda self: (self.app.close(), 0)[1])
    monkeypatch.setattr(demo, "run_demo", lambda cfg, **kw: {
        "winner": None, "rolls": 0, "frames": 0, "gif": str(kw["gif"]), "said": 0,
        "wav": str(kw.get("wav"))})


def check(argv: list[str], capsys: pytest.CaptureFixture[str], path: tuple[str, ...]) -> None:
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code != cli.INTERNAL_ERROR, f"{argv[:6]} hit a bug: rerun it with -v"
    if code == 0:
        return
    lines = [line for line in err.split("\n")[:-1] if not line.startswith(("INFO ", "DEBUG "))]
    assert err.endswith("\n") and all(c.isprintable() for line in lines for c in line), err
    assert code in (1, 2), (argv, code, err)
    if code == 1:
        assert path[0] in ("apply", "moves", "dice-sim", "dice-read"), (argv, err)
    assert len(lines) == 1 and lines[0].startswith("companion: "), (argv, err[-2000:])
    assert "Traceback" not in err and lines[0].rstrip().endswith((".", "?", ")", ".“")), (argv, err)


def test_every_command_has_base_arguments_here():
    missing = [p for p, _ in commands() if p not in BASE]
    assert not missing, f"add base arguments for {missing} to BASE"


CASES = [(path, opt.option_strings[-1]) for path, parser in commands() for opt in options(parser)
         if path in BASE]


DURATIONS = {(path, opt.option_strings[-1]) for path, parser in commands()
             for opt in options(parser) if getattr(opt.type, "__name__", "") == "seconds"}


def waits_long(case: tuple[tuple[str, ...], str], value: str) -> bool:
    """A valid duration of more than a moment: the command would just wait that long."""
    if case not in DURATIONS:
        return False
    try:
        seconds = float(value)
    except ValueError:
        return False
    return seconds == seconds and 0.05 < seconds < float("inf")


@pytest.mark.parametrize(("path", "option"), CASES, ids=[" ".join(p) + " " + o for p, o in CASES])
def test_hostile_option_values_are_one_sentence_or_success(path, option, capsys, tmp_path):
    values = HOSTILE[::3] if path in SLOW else HOSTILE
    values = [v for v in values if not waits_long((path, option), v)]
    for i, value in enumerate(values):
        base = [a.replace("{tmp}", str(tmp_path / str(i))) for a in BASE[path]]
        (tmp_path / str(i)).mkdir()
        check([*path, *base, option, in_folder(value, tmp_path / str(i))], capsys, path)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from([c for c in CASES if c[0] not in SLOW]), value=st.text(max_size=40))
def test_random_option_values_are_one_sentence_or_success(case, value, capsys, tmp_path):
    path, option = case
    if waits_long(case, value):
        return
    folder = tmp_path / str(abs(hash((case, value))))
    folder.mkdir(exist_ok=True)
    base = [a.replace("{tmp}", str(folder)) for a in BASE[path]]
    if value.startswith("/"):  # an absolute path: inside this test's folder, not at the root
        value = str(folder) + value
    check([*path, *base, option, value], capsys, path)


# --- every configuration key --------------------------------------------------------------------

def config_keys() -> list[tuple[str, str]]:
    from dataclasses import fields, is_dataclass

    from companion.games import GAMES
    from companion.service.config import Config

    cfg = Config()
    sections = [(section.name, f.name) for section in fields(cfg) if section.name != "pins"
                and is_dataclass(getattr(cfg, section.name))
                for f in fields(getattr(cfg, section.name))]
    return sections + [(p.name, key) for p in GAMES for key in p.config_keys or ()]


TOML_VALUES = st.one_of(
    st.booleans(), st.integers(min_value=-2**63, max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.lists(st.text(max_size=5), max_size=3), st.just({"a": 1}))


def toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                             for c in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{ a = 1 }"


def run_with(tmp: Path, key: tuple[str, str], value: object,
             capsys: pytest.CaptureFixture[str]) -> None:
    section, name = key
    if isinstance(value, str) and value.startswith("/"):  # a path: inside the test's folder
        value = str(tmp) + value
    base = {"display": {"driver": '"dummy"'},
            "service": {"pin_factory": '"mock"', "data_dir": toml(str(tmp / "data")),
                        "shutdown_command": '""'},
            "dice": {"port": '""'}}
    base.setdefault(section, {})[name] = toml(value)
    text = "".join(f"[{s}]\n" + "".join(f"{k} = {v}\n" for k, v in kv.items())
                   for s, kv in base.items())
    cfg = tmp / "companion.toml"
    cfg.write_text(text, "utf-8")
    check(["--config", str(cfg)], capsys, ("run",))


KEYS = config_keys()


@pytest.mark.parametrize("key", KEYS, ids=[".".join(k) for k in KEYS])
def test_hostile_config_values_are_one_sentence_or_success(key, capsys, tmp_path):
    for i, value in enumerate([True, 0, -1, 1, 3, 2**31, 2**63 - 1, math.nan, math.inf, -0.5,
                               1e300, "", "x", "'", "9" * 5000, ["r"], {"a": 1}]):
        folder = tmp_path / str(i)
        folder.mkdir()
        run_with(folder, key, value, capsys)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(KEYS), value=TOML_VALUES)
def test_random_config_values_are_one_sentence_or_success(key, value, capsys, tmp_path):
    folder = tmp_path / str(abs(hash((key, repr(value)))))
    folder.mkdir(exist_ok=True)
    run_with(folder, key, value, capsys)


@pytest.mark.parametrize("script, args", [
    ("napij_choices.py", ["--games", "-1"]),
    ("napij_choices.py", ["--rollouts", "0"]),
    ("napij_choices.py", ["--positions", "-3"]),
    ("strong_decision.py", ["--games", "0"]),
    ("engine_instructions.py", ["--games", "0"]),
    ("engine_instructions.py", ["--against", "/"]),
    ("clovece_chance_fit.py", ["1"]),
    ("clovece_chance_fit.py", ["--games"]),
    ("clovece_chance_fit.py", ["many"]),
    ("clovece_reference.py", ["random", "-5"]),
    ("clovece_reference.py", ["random", "10", "--plies", "7"]),
    ("clovece_solve.py", ["--free", "3"]),
    ("clovece_solve.py", ["--games", "-1"]),
    ("clovece_solve.py", ["--tol", "0"]),
    ("clovece_solve.py", ["--tol", "nan"]),
    ("clovece_solve.py", ["--weights", "[1]"]),
    ("clovece_solve.py", ["--weights", '{"no_such_weight": 1}']),
    ("clovece_solve.py", ["--compare", '{"no_such_weight": 1}']),
    ("clovece_solve.py", ["--compare", "{}", "--games", "0"]),
    ("clovece_solve.py", ["--cache", "pyproject.toml"]),
    ("clovece_solve.py", ["--cache", "/"]),
    ("clovece_regret.py", ["0"]),
    ("clovece_regret.py", ["5", "--rollouts", "3"]),
    ("clovece_regret.py", ["5", "--every", "0"]),
    ("clovece_regret.py", ["5", "--lost-every", "-1"]),
    ("clovece_regret.py", ["5", "--z", "nan"]),
    ("clovece_regret.py", ["5", "--opponent", "strong"]),
    ("clovece_regret.py", ["5", "--out", "/nonexistent-folder/x.jsonl"]),
    ("clovece_regret.py", ["5", "--report", "/nonexistent-folder/x.jsonl"]),
])
def test_the_strength_benchmarks_refuse_a_bad_count_in_one_sentence(script, args):
    """The computer players' benchmarks: a count out of range is one line on stderr and exit 2 (argparse's
    own error), never the division by zero it would meet later."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / script), *args],
                          capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].startswith(f"{script}: error: ")
