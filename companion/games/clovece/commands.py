"""CLI commands for Člověče: moves, apply, selfplay, watch."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from companion.commandline import (
    cmd_match,
    count_arg,
    match_options,
    parse_roll,
    refused,
    seconds_arg,
)
from companion.engines.errors import AmbiguousMove, GameOver, IllegalMove, RulesError
from companion.errors import UsageError
from companion.games.clovece.engine import describe
from companion.games.clovece.engine.notation import (
    NotationError,
    format_position,
    location_text,
    parse_location,
    parse_position,
)
from companion.games.clovece.engine.rules import (
    COLOURS,
    VARIANT_ORDER,
    Move,
    Position,
    apply,
    legal_moves,
    new_game,
    why_not,
)


def _position(text: str) -> Position:
    try:
        return parse_position(text)
    except NotationError as exc:
        raise UsageError(str(exc)) from None


def _variants(text: str | None) -> frozenset[str]:
    if not text:
        return frozenset()
    names = [n for n in text.split(",") if n]
    for n in names:
        if n not in VARIANT_ORDER:
            raise UsageError(f"Unknown variant {n!r}: known are {', '.join(VARIANT_ORDER)}.")
    return frozenset(names)


def _lower(sentence: str) -> str:
    """A sentence continued after a colon: its first letter in lower case."""
    return sentence[:1].lower() + sentence[1:]


def move_json(move: Move) -> dict[str, Any]:
    return {
        "from": location_text(move.colour, move.frm),
        "to": location_text(move.colour, move.to),
        "capture": COLOURS[move.capture] if move.capture is not None else None,
    }


def cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.position)
    roll = parse_roll(args.roll)
    if pos.winner is not None:
        raise UsageError(f"The game is over: {COLOURS[pos.winner]} has won.")
    print(json.dumps([move_json(m) for m in legal_moves(pos, roll)]))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    pos = _position(args.position)
    roll = parse_roll(args.roll)
    if pos.winner is not None:
        raise UsageError(f"The game is over: {COLOURS[pos.winner]} has won.")
    move: Move | None = None
    legal = legal_moves(pos, roll)
    if args.move is not None:
        try:
            frm = parse_location(pos.turn, args.move)
        except NotationError as exc:
            raise UsageError(str(exc)) from None
        found = [m for m in legal if m.frm == frm]
        if not found:  # the rules say no: in the table's words (docs/dev/DEVELOPING.md)
            reason = why_not(pos, roll, frm)
            raise refused(f"The move from {args.move}", describe.explain(reason))
        move = found[0]
    try:
        after, _events = apply(pos, roll, move)
    except AmbiguousMove:
        choices = ", ".join(location_text(pos.turn, m.frm) for m in legal)
        raise UsageError(
            f"{len(legal)} moves are legal ({choices}): choose one with --move.") from None
    except (GameOver, IllegalMove, RulesError) as exc:
        raise UsageError(str(exc)) from None
    print(format_position(after))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    from companion.games.clovece.selfplay import match_game, selfplay

    if args.seats:
        if args.variants:
            raise UsageError("A match (--seats) plays the official rules: leave out --variants.")
        return cmd_match("clovece", match_game, args)
    if args.rotate or args.workers is not None:
        raise UsageError("--rotate and --workers belong to a match: name the seats with --seats.")
    players = 4 if args.players is None else args.players
    result = selfplay(args.games, args.seed, players, _variants(args.variants))
    wins = " ".join(f"{COLOURS[c]}={result.wins.get(c, 0)}" for c in new_game(players).colours)
    print(f"games: {result.games}  rolls: {result.rolls}  seconds: {result.seconds:.3f}")
    print(f"games/s: {result.games_per_s:.1f}  turns/s: {result.rolls_per_s:.0f}")
    print(f"wins: {wins}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from companion.games.clovece.bot import choose
    from companion.games.clovece.engine import textboard

    rng = random.Random(args.seed)
    pos = new_game(args.players, _variants(args.variants))
    out = sys.stdout
    turn = 0
    while pos.winner is None:
        roll = rng.randint(1, 6)
        move = choose(pos, roll)
        colour = pos.turn
        after, events = apply(pos, roll, move)
        turn += 1
        what = describe.path_words(move.frm, move.to) if move else "bez tahu"
        out.write(f"\n{turn}. hod: {describe.PLAYER[colour]} hodil {roll}, {what}\n")
        out.write(textboard.render(after) + "\n")
        out.write("  " + " ".join(describe.describe_event(e) for e in events) + "\n")
        out.flush()
        if args.delay:
            time.sleep(args.delay)
        pos = after
    assert pos.winner is not None
    out.write(f"\n{describe.PLAYER[pos.winner]} vyhrává po {turn} hodech.\n")
    out.write(format_position(pos) + "\n")
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = games["moves"].add_parser("clovece", help="Člověče, nezlob se")
    p.add_argument("position", help="a position in the notation of docs/dev/clovece-notation.md")
    p.add_argument("--roll", required=True, help="the roll, 1 to 6")
    p.set_defaults(func=cmd_moves)

    p = games["apply"].add_parser("clovece", help="Člověče, nezlob se")
    p.add_argument("position", help="a position in the notation of docs/dev/clovece-notation.md")
    p.add_argument("--roll", required=True, help="the roll, 1 to 6")
    p.add_argument("--move", metavar="FROM", help="where the moving piece stands (h, 0-39, f1-f4)")
    p.set_defaults(func=cmd_apply)

    p = games["selfplay"].add_parser("clovece", help="Člověče, nezlob se")
    p.add_argument("--games", type=count_arg(1, 1_000_000), default=100,
                   help="how many games to play (default: 100)")
    p.add_argument("--seed", type=count_arg(), default=1, help="seed of the rolls (default: 1)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="players per game (default: 4, or as many as --seats names)")
    p.add_argument("--variants", default="", help="comma-separated: " + ",".join(VARIANT_ORDER))
    match_options(p)
    p.set_defaults(func=cmd_selfplay)

    p = games["watch"].add_parser("clovece", help="Člověče, nezlob se")
    p.add_argument("--seed", type=count_arg(), default=1, help="seed of the rolls (default: 1)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4,
                   help="players (default: 4)")
    p.add_argument("--variants", default="", help="comma-separated: " + ",".join(VARIANT_ORDER))
    p.add_argument("--delay", type=seconds_arg(60), default=0.0,
                   help="seconds to pause between rolls")
    p.set_defaults(func=cmd_watch)
