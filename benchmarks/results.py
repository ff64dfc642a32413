"""Writes benchmarks/RESULTS.md: one line per measured figure, each with its command, the result,
the peer measured in the same run, the machine and the date.  ``make bench`` runs it.

    .venv/bin/python benchmarks/results.py [--all | --only NAME ...] [--out FILE] [--list]

Every figure is a benchmark of this folder run as a command; its result and its peer are read
from the lines the command prints (nothing is typed by hand).  By default the figures that take
a few minutes at most are run (``quick``); ``--all`` runs the long ones too (matches of
thousands of games, the soak, the hostile clients: hours in all), ``--only NAME`` the named
ones.  A figure not run this time keeps the line an earlier run of this script wrote in the
file, or is marked "not run in this table" — never a number from elsewhere.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "RESULTS.md"
PY = ".venv/bin/python"
NOT_RUN = "not run in this table"


@dataclass(frozen=True)
class Figure:
    name: str
    what: str
    command: str  # run from the checkout's root, with PY for the checkout's interpreter
    result: str  # a regex: every matching output line is part of the result
    peer: str  # likewise for the peer measured in the same run ("" = none)
    quick: bool = True


FIGURES: tuple[Figure, ...] = (
    Figure("dice", "dice frame → reader event, 1,000 rolls on a pty (median, p99, max)",
           f"{PY} benchmarks/dice_latency.py",
           r"pty -> DiceReader|ratio of medians", r"peer: raw pty"),
    Figure("service", "dice frame → display frame; start → first frame; peak memory",
           f"{PY} benchmarks/service_latency.py",
           r"^dice frame|^start ->|^peak RSS", r"peer,"),
    Figure("napij-turn", "napij se turn: dice frame → display frame",
           f"{PY} benchmarks/napij_latency.py",
           r"^dice frame", r"peer,"),
    Figure("pixels", "Pixels die: landing → display frame (median, p99, max), and every roll exactly once",
           f"{PY} benchmarks/pixels_latency.py",
           r"Pixels \(virtual|ratio of medians|delivered", r"serial"),
    Figure("pads", "slap pads: touches per second through the adapter",
           f"{PY} benchmarks/pads.py",
           r"^  adapter|^adapter overhead", r"^  (pins|gpiozero|raw)|= "),
    Figure("voice", "say → first audio sample (espeak-ng)",
           f"{PY} benchmarks/voice_latency.py",
           r"announcer|shell:|host:", r"bare espeak-ng"),
    Figure("napij-bot", "napij se computer seat's decision",
           f"{PY} benchmarks/napij_bot.py",
           r"^a computer seat|choosing a play", r"peer,"),
    Figure("strong-clovece", "Člověče silný's decision time (CPU), 200 seeded games",
           f"{PY} benchmarks/strong_decision.py",
           r"^silný's decision", r"peer,"),
    Figure("engine", "Člověče random self-play, rolls per second",
           f"{PY} benchmarks/engine_vs_ludopy.py --rounds 5 --seconds 3",
           r"median companion|^ratio", r"median ludopy"),
    Figure("napij-selfplay", "napij se random self-play through the generic driver",
           f"{PY} benchmarks/napij_selfplay.py",
           r"median napij|^ratio", r"median clovece"),
    Figure("web-push", "phone view: publish → seen by 30 browsers",
           f"{PY} benchmarks/web_push.py",
           r"action -> client|target p95", r"new/old", quick=False),
    Figure("web-service", "phone view through the service: frames and actions with 30 browsers",
           f"{PY} benchmarks/web_service.py",
           r"median|p95", r"view off|bare", quick=False),
    Figure("strong-napij", "napij se silný's decision time (CPU)",
           f"{PY} benchmarks/strong_decision.py --game napij",
           r"^silný's decision", r"peer,", quick=False),
    Figure("levels-clovece", "Člověče computer levels, 4,000 seeded games a match",
           f"{PY} benchmarks/levels.py --game clovece --games 4000",
           r"%", r"", quick=False),
    Figure("levels-napij", "napij se computer levels, 4,000 seeded games a match",
           f"{PY} benchmarks/levels.py --game napij --games 4000",
           r"%", r"", quick=False),
    Figure("journal-faults", "the journal beside SQLite under power cuts and damage",
           f"{PY} benchmarks/journal_faults.py",
           r"^  journal|durable append", r"^  sqlite|SQLite", quick=False),
    Figure("napij-night", "a night of napij se through the service (8 games)",
           f"{PY} benchmarks/napij_night.py",
           r".", r"", quick=False),
    Figure("soak", "the service over 2 hours (4 computer seats, 10 phones)",
           f"{PY} benchmarks/soak.py --minutes 120 --settle 10",
           r".", r"", quick=False),
)

HEADER = """# Measured figures

Written by `make bench` (`benchmarks/results.py`); do not edit by hand. One line per figure:
what is measured, the command that measures it, the result, the peer measured in the same run,
the machine and the date. The machine is shared, so a figure's ratio to its peer says more
than its absolute value. A line marked "not run in this table" has no figure yet: run its
command (or `benchmarks/results.py --only NAME`) to fill it in.

| figure | what | command | result | peer (same run) | machine, date |
|---|---|---|---|---|---|
"""


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load {load:.1f}")


def cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())


def pick(pattern: str, lines: list[str]) -> str:
    if not pattern:
        return "—"
    found = [line.strip() for line in lines if re.search(pattern, line)]
    return "; ".join(found) if found else "—"


def run(fig: Figure) -> str:
    """The figure's table line, from the output of one run of its command."""
    started = time.monotonic()
    proc = subprocess.run(fig.command, shell=True, cwd=ROOT, capture_output=True, text=True)
    took = time.monotonic() - started
    lines = proc.stdout.splitlines()
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if proc.returncode not in (0, 1) or not lines:  # 1: a benchmark says a target was missed
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        result = f"failed (exit {proc.returncode}): {last}"
        peer = "—"
    else:
        result, peer = pick(fig.result, lines), pick(fig.peer, lines)
    return (f"| {fig.name} | {cell(fig.what)} | `{fig.command}` | {cell(result)} | {cell(peer)} "
            f"| {machine()}; {took:.0f} s; {stamp} |")


def earlier(path: Path) -> dict[str, str]:
    """The lines an earlier run wrote, by figure name."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text("utf-8").splitlines():
        m = re.match(r"^\| ([\w-]+) \|", line)
        if m and m.group(1) != "figure":
            out[m.group(1)] = line
    return out


def not_run(fig: Figure) -> str:
    return f"| {fig.name} | {cell(fig.what)} | `{fig.command}` | {NOT_RUN} | — | — |"


def table(lines: dict[str, str]) -> str:
    return HEADER + "".join(lines[fig.name] + "\n" for fig in FIGURES)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="run the long figures too (hours)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="run only this figure (repeatable)")
    ap.add_argument("--out", type=Path, default=OUT, help="the file to write")
    ap.add_argument("--list", action="store_true", help="list the figures and exit")
    args = ap.parse_args(argv)
    names = {fig.name for fig in FIGURES}
    unknown = [n for n in args.only if n not in names]
    if unknown:
        ap.error(f"unknown figure {unknown[0]!r}; --list names them")
    if args.list:
        for fig in FIGURES:
            print(f"{fig.name:16s} {'quick' if fig.quick else 'long '}  {fig.what}")
        return 0
    chosen = [f for f in FIGURES
              if (f.name in args.only if args.only else (args.all or f.quick))]
    kept = earlier(args.out)
    lines = {fig.name: kept.get(fig.name, not_run(fig)) for fig in FIGURES}
    for fig in chosen:
        print(f"{fig.name}: {fig.command}", flush=True)
        lines[fig.name] = run(fig)
        args.out.write_text(table(lines), "utf-8")  # after every figure: a long run keeps its part
    args.out.write_text(table(lines), "utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
