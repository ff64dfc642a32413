"""CLI for Gobbit: ``companion judge gobbit SITUATION`` (docs/dev/gobbit-judge.md)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.engines.errors import RulesError
from companion.errors import UsageError
from companion.games.gobbit.engine.describe import (
    call_sentences,
    kind_word,
    ruling_sentences,
    why_sentence,
)
from companion.games.gobbit.engine.judge import judge, parse_situation


def cmd_judge(args: argparse.Namespace) -> int:
    try:
        sit = parse_situation(args.situation)
        ruling = judge(sit)
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    print(ruling.dumps())
    if args.explain:
        tops = dict(sit.tops)
        for v in ruling.verdicts:
            print(f"{v.touch}: {kind_word(v)} - {why_sentence(v, tops)}")
        for call in ruling.calls:
            for sentence in call_sentences(ruling, call.target):
                print(sentence)
        for sentence in ruling_sentences(ruling):
            print(sentence)
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = games["judge"].add_parser(
        "gobbit", help="Gobbit: who fouled, which piles move, who won a Gobbit! race",
        description="Print the JSON ruling {fouls, piles, gobbit} for one moment of play.")
    p.add_argument("situation", nargs="+", metavar="SITUATION",
                   help="tokens as in docs/dev/gobbit-judge.md, e.g. '1:Sb 2:Cb t1>2@0 t2>2@7'")
    p.add_argument("--explain", action="store_true",
                   help="after the JSON, say in Czech what every touch was and why")
    p.set_defaults(func=cmd_judge)
