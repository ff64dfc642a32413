"""Docs that run: every command block of README.md and docs/**/*.md is executed and its shown
output compared (the rules of a block are in docs/dev/DEVELOPING.md, "Docs that run").

* ```` ```console ```` blocks: ``$ `` lines are commands (a line ending in ``\\`` goes on),
  the lines under a command are its output, compared line by line (stdout and stderr
  together, as a terminal shows them); ``...`` stands for any text in a line, a line of
  only ``...`` for any lines; a command shown without output is run but its output is not
  compared.  A command that fails must be followed by ``$ echo $?`` showing its status.
* ```` ```python ```` blocks run as a script and must finish without an error.
* ``<!-- not run: REASON -->`` right before a block keeps it from running (a Pi, a terminal,
  the test suite itself...).
* Blocks run in an empty folder holding a link to the package's source (``companion/``) and
  an empty ``docs/img/``, with the checkout's ``.venv/bin`` first on ``PATH``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_LIMIT = 12 * 1024  # bytes: a family reads it in five minutes
DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")
FENCE = re.compile(r"^(```+)\s*([\w+-]*)")
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->$")
COMMAND_WORDS = ("$ ", "companion ", "make ", "sudo ", ".venv/")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    lines: tuple[str, ...]
    not_run: str  # the reason, or ""

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    lines = path.read_text("utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence):
            j += 1
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        skip = NOT_RUN.match(before)
        found.append(Block(path, i + 1, lang, tuple(lines[i + 1:j]),
                           skip.group(1) if skip else ""))
        i = j + 1
    return found


def commands_outside_blocks(path: Path) -> list[str]:
    """Indented lines that look like commands: commands belong in console blocks."""
    out = []
    in_fence = ""
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if m and not in_fence:
            in_fence = m.group(1)
            continue
        if in_fence:
            if line.startswith(in_fence):
                in_fence = ""
            continue
        if line.startswith("    ") and line.strip().startswith(COMMAND_WORDS):
            out.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return out


ALL = [b for path in DOCS for b in blocks(path)]
RUN = [b for b in ALL if b.lang in ("console", "python") and not b.not_run]


def test_the_docs_have_command_blocks_and_no_command_outside_them():
    assert len(RUN) >= 15
    assert [line for path in DOCS for line in commands_outside_blocks(path)] == []
    for b in ALL:
        if b.lang == "console":
            assert any(line.startswith("$ ") for line in b.lines), f"{b.name}: no command"


def test_the_readme_stays_short():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, (
        f"README.md is {size} bytes, more than {README_LIMIT}: move detail into docs/")


def test_every_relative_link_of_the_docs_leads_to_a_file():
    broken = []
    for path in DOCS:
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                if not (path.parent / target).exists():
                    broken.append(f"{path.relative_to(ROOT)}:{n}: {target}")
    assert broken == []


def test_the_docs_name_no_work_item():
    """The docs describe the product: an issue number or a work round belongs in git history."""
    word = re.compile(r"\bissues? \d+|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|"
                      r"ninth|tenth|napij|\d+(?:st|nd|rd|th)) round\b|(?<!-)\brounds? \d+", re.I)
    found = [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
             for path in DOCS for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             for m in word.finditer(line)]
    assert found == []


def split_console(block: Block) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the output shown under it."""
    out: list[tuple[str, list[str]]] = []
    lines = list(block.lines)
    while lines:
        line = lines.pop(0)
        if line.startswith("$ "):
            cmd = line[2:]
            while cmd.endswith("\\") and lines:
                cmd = cmd[:-1] + " " + lines.pop(0).strip()
            out.append((cmd, []))
        elif out:
            out[-1][1].append(line)
    for _, shown in out:
        while shown and not shown[-1].strip():
            shown.pop()
    return out


def matches(shown: list[str], actual: str) -> bool:
    pattern = ""
    for line in shown:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += re.escape(line.rstrip()).replace(re.escape("..."), ".*?") + r"\n"
    text = "".join(line.rstrip() + "\n" for line in actual.splitlines())
    return re.fullmatch(pattern, text) is not None


def workdir(tmp_path: Path) -> Path:
    (tmp_path / "companion").symlink_to(ROOT / "companion")
    (tmp_path / "docs" / "img").mkdir(parents=True)
    return tmp_path


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env["COLUMNS"] = "100"
    return env


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.name)
def test_every_command_block_runs_and_shows_its_real_output(block, tmp_path):
    cwd = workdir(tmp_path)
    if block.lang == "python":
        script = cwd / "example.py"
        script.write_text("\n".join(block.lines) + "\n", "utf-8")
        proc = subprocess.run([sys.executable, str(script)], cwd=cwd, env=environment(),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{block.name} failed:\n{proc.stderr[-3000:]}"
        return
    commands = split_console(block)
    script = "set +e\n__s=0\n"
    for i, (cmd, _) in enumerate(commands):  # $? is the last command's again before each one
        script += (f"printf '<<<CMD {i}>>>\\n'\n(exit $__s)\n{cmd}\n__s=$?\n"
                   f"printf '\\n<<<END {i} %d>>>\\n' $__s\n")
    proc = subprocess.run(["bash", "-c", script], cwd=cwd, env=environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    for i, (cmd, shown) in enumerate(commands):
        m = re.search(rf"<<<CMD {i}>>>\n(.*?)\n?<<<END {i} (\d+)>>>\n", proc.stdout, re.S)
        assert m, f"{block.name}: `{cmd}` did not finish:\n{proc.stdout[-3000:]}"
        actual, status = m.group(1), int(m.group(2))
        follows = commands[i + 1][0].strip() if i + 1 < len(commands) else ""
        assert status == 0 or follows == "echo $?", (
            f"{block.name}: `{cmd}` exited with {status}:\n{actual[-3000:]}")
        if shown:
            assert matches(shown, actual), (
                f"{block.name}: `{cmd}` shows\n" + "\n".join(shown) + f"\nbut prints\n{actual}")


def test_matching_understands_the_wildcards():
    assert matches(["games: ... seconds: ..."], "games: 5  seconds: 0.3\n")
    assert matches(["a", "...", "z"], "a\nb\nc\nz\n")
    assert not matches(["a", "z"], "a\nb\nz\n")
    assert not matches(["2"], "1\n")
