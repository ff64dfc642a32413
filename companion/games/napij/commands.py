"""CLI commands for Člověče, napij se!: moves, apply, selfplay; ``board check`` and ``board draw``.

See docs/dev/napij-notation.md for the position, play and action syntax and the
JSON that ``moves`` prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.commandline import (
    cmd_match,
    count_arg,
    match_options,
    output_file,
    parse_roll,
    refused,
)
from companion.engines.errors import IllegalMove, RulesError
from companion.errors import RefusedError, UsageError
from companion.games.napij.engine import describe
from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Drank,
    Duty,
    Play,
    Throw,
)
from companion.games.napij.engine.board import (
    COLOURS,
    DataFileError,
    load_board,
    parse_board,
    read_text,
    summary,
)
from companion.games.napij.engine.deck import default_deck, is_deck_text, load_deck, parse_deck
from companion.games.napij.engine.events import (
    BottleMoved,
    Captured,
    Entered,
    EnteredHome,
    Event,
    Moved,
    Released,
    ReturnedToPub,
)
from companion.games.napij.engine.notation import (
    NotationError,
    colour_index,
    format_action,
    format_choice,
    format_play,
    format_position,
    parse_action,
    parse_choice,
    parse_play,
    parse_position,
    place_text,
)
from companion.games.napij.engine.rules import (
    apply,
    can_declare_bottle,
    choices,
    chooser,
    legal_plays,
    needs_six,
    new_game,
    preview,
    start_events,
    why_not,
)
from companion.games.napij.engine.state import (
    BOTTLE,
    CALLED_DUTIES,
    Phase,
    Rules,
    State,
    default_rules,
)

DEFAULT = "default"


def _rules(args: argparse.Namespace) -> Rules:
    board_path = getattr(args, "board", None)
    deck_path = getattr(args, "deck", None)
    if not board_path and not deck_path:
        return default_rules()
    try:
        board = load_board(board_path) if board_path else default_rules().board
        deck = load_deck(deck_path) if deck_path else default_deck()
    except DataFileError as exc:
        raise UsageError(str(exc)) from None
    return Rules(board, deck)


def _position(text: str, rules: Rules) -> State:
    if text.startswith("new"):
        players = text[4:] if text.startswith("new:") else "4" if text == "new" else ""
        if players not in ("2", "3", "4"):
            raise UsageError(f"Write new, new:2, new:3 or new:4, not {text!r}.")
        return new_game(rules, int(players))
    try:
        return parse_position(text, rules)
    except NotationError as exc:
        raise UsageError(str(exc)) from None


def _colour(text: str) -> int:
    try:
        return colour_index(text)
    except NotationError as exc:
        raise UsageError(str(exc)) from None



def _refused(state: State, action: Action, what: str, exc: RulesError | None = None) -> RefusedError:
    """The rules say no: one Czech sentence, in the table's words (docs/dev/DEVELOPING.md)."""
    reason = exc.reason if exc is not None and exc.reason is not None else why_not(state, action)
    return refused(what, describe.explain(reason))


def _do(state: State, action: Action, what: str, events: list[Event]) -> State:
    try:
        after, new = apply(state, action)
    except RulesError as exc:  # IllegalMove included
        raise _refused(state, action, what, exc) from None
    events.extend(new)
    return after


def _parse(state: State, fn: Any, text: str, what: str) -> Any:
    """Run a parser of the notation; syntax errors are usage errors, rule errors refusals."""
    try:
        return fn(state, text)
    except NotationError as exc:
        raise UsageError(str(exc)) from None
    except IllegalMove as exc:
        assert exc.reason is not None
        raise refused(what, describe.explain(exc.reason)) from None


def _run_inputs(args: argparse.Namespace, state: State, events: list[Event]) -> State:
    """Apply the inputs of ``moves``/``apply`` in their documented order."""
    do = getattr(args, "do", None) or []
    simple = [getattr(args, k, None) for k in ("duty", "drank", "roll", "choose")]
    if do and (any(simple) or getattr(args, "bottle", False) or getattr(args, "move", None)):
        raise UsageError("Use either --do or the other inputs (--roll, --move, ...), not both.")
    for text in do:
        action = _parse(state, parse_action, text, f"The action {text!r}")
        state = _do(state, action, f"The action {text!r}", events)
    for text in getattr(args, "duty", None) or []:
        colour, _, reason = text.partition(":")
        names = {r.value: r for r in CALLED_DUTIES}
        if reason not in names:
            raise UsageError(f"Write --duty C:REASON with REASON one of {', '.join(names)}.")
        state = _do(state, Duty(_colour(colour), names[reason]), "The duty", events)
    for text in getattr(args, "drank", None) or []:
        state = _do(state, Drank(_colour(text)), f"Settling the debt of {text}", events)
    if getattr(args, "bottle", False):
        state = _do(state, DeclareBottle(), "Declaring the bottle", events)
    for text in getattr(args, "roll", None) or []:
        state = _do(state, Throw(parse_roll(text)), f"The throw {text}", events)
    move = getattr(args, "move", None)
    if move is not None:
        if state.phase is not Phase.PLAY:
            r = why_not(state, Play(()))
            raise refused(f"The move {move!r} now", describe.explain(r))
        play = _parse(state, parse_play, move, f"The move {move!r}")
        state = _do(state, play, f"The move {move!r}", events)
    for text in getattr(args, "choose", None) or []:
        choice = _parse(state, parse_choice, text, f"The choice {text}")
        state = _do(state, choice, f"The choice {text}", events)
    return state


def play_json(state: State, play: Play) -> dict[str, Any]:
    """What a play does before any card is drawn (cards stay face down)."""
    rules = state.rules
    own = state.pieces[state.turn] or ()
    events = preview(state, play)
    steps = []
    for s in play.steps:
        frm = "bottle" if s.piece == BOTTLE else place_text(rules, own[s.piece])
        steps.append({"from": frm, "values": list(s.values),
                      "exit": place_text(rules, s.exit) if s.exit is not None else None})
    k = 0
    for e in events:
        if isinstance(e, Entered | Released | Moved) and k < len(steps):
            steps[k]["to"] = place_text(rules, e.to)
            k += 1
    for e in events:
        if isinstance(e, BottleMoved) and steps and steps[0]["from"] == "bottle":
            steps[0]["to"] = place_text(rules, e.to)
    return {
        "move": format_play(state, play),
        "steps": steps,
        "captures": [COLOURS[e.colour] for e in events if isinstance(e, Captured)],
        "home": sum(1 for e in events if isinstance(e, EnteredHome)),
        "pub": sum(1 for e in events if isinstance(e, ReturnedToPub)),
        "cards": _card_stops(state, events),
        "text": [describe.describe_event(e, rules) for e in events],
    }


def _card_stops(state: State, events: list[Event]) -> int:
    g = state.rules.graph
    return sum(1 for e in events if isinstance(e, Entered | Released | Moved) and e.to >= 0
               and g.is_card[e.to])


def moves_json(state: State) -> dict[str, Any]:
    phase = state.phase
    out: dict[str, Any] = {
        "position": format_position(state),
        "phase": phase.value,
        "turn": COLOURS[state.turn],
        "throws": list(state.throws),
    }
    if phase is Phase.PLAY:
        out["moves"] = [play_json(state, p) for p in legal_plays(state)]
    elif phase is Phase.CHOOSE:
        assert state.pending is not None
        who = chooser(state)
        assert who is not None
        out["chooser"] = COLOURS[who]
        out["card"] = state.pending.card
        moves: list[dict[str, Any]] = []
        for c in choices(state):
            move: dict[str, Any] = {"move": format_action(state, c), "colour": COLOURS[c.colour]}
            if isinstance(c, Choose):
                move["field"] = format_choice(state, c).split()[1]
            moves.append(move)
        out["moves"] = moves
    elif phase is Phase.THROW:
        out["moves"] = []
        out["tries"] = state.tries
        out["needs_six"] = needs_six(state)
        out["may_declare_bottle"] = can_declare_bottle(state).value == "legal"
        out["owes"] = state.due(state.turn)
    elif phase is Phase.DRAW:  # a physical deck: the next input is the card drawn
        out["moves"] = []
        out["drawer"] = COLOURS[state.queue[0][0]]
    elif phase is Phase.SHUFFLE:  # the next input is the shuffle
        out["moves"] = []
    else:
        out["moves"] = []
        out["winner"] = COLOURS[state.winner] if state.winner is not None else None
    return out


def cmd_moves(args: argparse.Namespace) -> int:
    rules = _rules(args)
    state = _position(args.position, rules)
    state = _run_inputs(args, state, [])
    print(json.dumps(moves_json(state), ensure_ascii=False))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    rules = _rules(args)
    state = _position(args.position, rules)
    events: list[Event] = start_events(state) if args.position.startswith("new") else []
    after = _run_inputs(args, state, events)
    print(format_position(after))
    if args.events:
        for e in events:
            print("# " + describe.describe_event(e, rules))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    from companion.games.napij.selfplay import match_game, selfplay

    if args.games < 1:
        raise UsageError("--games must be at least 1.")
    if args.seats:
        if args.board or args.deck:
            raise UsageError("A match (--seats) plays the shipped board and deck: "
                             "leave out --board and --deck.")
        return cmd_match("napij", match_game, args)
    if args.rotate or args.workers is not None:
        raise UsageError("--rotate and --workers belong to a match: name the seats with --seats.")
    players = 4 if args.players is None else args.players
    rules = _rules(args)
    result = selfplay(args.games, args.seed, players, rules)
    players_of = new_game(rules, players).colours
    wins = " ".join(f"{COLOURS[c]}={result.wins.get(c, 0)}" for c in players_of)
    print(f"games: {result.games}  throws: {result.throws}  actions: {result.actions}  "
          f"seconds: {result.seconds:.3f}")
    print(f"games/s: {result.games_per_s:.1f}  throws/s: {result.throws_per_s:.0f}  "
          f"drinks/game: {result.drinks / result.games:.1f}")
    print(f"wins: {wins}")
    return 0


def _data_text(path: str) -> tuple[str, str]:
    if path == DEFAULT:
        from companion.games.napij.engine.board import default_board_text

        return default_board_text(), "board.toml"
    try:
        return read_text(path, "board or deck"), path
    except DataFileError as exc:
        raise UsageError(str(exc)) from None


def cmd_board_check(args: argparse.Namespace) -> int:
    text, source = _data_text(args.file)
    try:
        if is_deck_text(text):
            deck = parse_deck(text, source)
            counts: dict[str, int] = {}
            for card in deck.cards:
                counts[card.effect] = counts.get(card.effect, 0) + 1
            what = ", ".join(f"{k} {v}" for k, v in counts.items())
            print(f"{source}: deck OK: {len(deck.cards)} cards ({what})"
                  f"{' (a reconstruction)' if deck.reconstruction else ''}")
        else:
            board = parse_board(text, source)
            print(f"{source}: board OK: {summary(board)}")
    except DataFileError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        n = len(exc.problems)
        raise UsageError(f"{source} has {n} problem{'s' if n != 1 else ''}; "
                         "see the lines above.") from None
    return 0


def cmd_board_draw(args: argparse.Namespace) -> int:
    from companion.games.napij.engine.draw import draw

    text, source = _data_text(args.file)
    if is_deck_text(text):
        raise UsageError(f"{source} is a deck, not a board: there is nothing to draw.")
    try:
        board = parse_board(text, source)
    except DataFileError as exc:
        raise UsageError(f"{exc} Run 'companion board check {args.file}' for every "
                         "problem.") from None
    if not 8 <= args.scale <= 200:
        raise UsageError("--scale is 8 to 200 pixels per unit.")
    out = output_file(args.png, "--png")
    try:
        width, height = draw(board, out, args.scale)
    except OSError as exc:
        raise UsageError(f"Cannot write {out}: {exc.strerror or exc}.") from None
    print(f"{out}: {width}x{height} pixels, {len(board.fields)} fields")
    return 0


def _board_usage(args: argparse.Namespace) -> int:
    raise UsageError("Say what to do with the board: companion board check FILE, or "
                     "companion board draw FILE --png OUT.")


def register(commands: Any, games: dict[str, Any]) -> None:
    help_pos = "a position (docs/dev/napij-notation.md), or new / new:2 / new:3"

    def data_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--board", metavar="FILE",
                       help="board file (default: the shipped board, a reconstruction)")
        p.add_argument("--deck", metavar="FILE",
                       help="deck file (default: the shipped deck, a reconstruction)")

    def input_options(p: argparse.ArgumentParser, with_move: bool) -> None:
        p.add_argument("--drank", action="append", metavar="C",
                       help="colour C has drunk what it owed (repeatable)")
        p.add_argument("--bottle", action="store_true",
                       help="the player on turn plays the bottle (before the rolls)")
        p.add_argument("--roll", action="append", metavar="N",
                       help="a throw of the die, 1 to 6 (repeatable: --roll 6 --roll 3)")
        if with_move:
            p.add_argument("--duty", action="append", metavar="C:REASON",
                           help="the table calls a duty: dropped-dice, delay, cheating, upset")
            p.add_argument("--move", metavar="PLAY",
                           help="the play: m12=6 m30=3 (split), m12=6+3 (together), p=6, "
                                "m10>c1=4, bottle")
            p.add_argument("--choose", action="append", metavar="FIELD",
                           help="the target of a card, by the field it stands on")
            p.add_argument("--do", action="append", metavar="ACTION",
                           help="instead of the options above: throw N, throw owing, bottle, "
                                "play SPEC, choose FIELD, offer C, decline C, drank C [REASON], "
                                "later C REASON, duty C REASON, shuffle N,N,..., draw N "
                                "(repeatable, in order)")

    p = games["moves"].add_parser("napij", help="Člověče, napij se!")
    p.add_argument("position", help=help_pos)
    data_options(p)
    input_options(p, with_move=False)
    p.set_defaults(func=cmd_moves)

    p = games["apply"].add_parser("napij", help="Člověče, napij se!")
    p.add_argument("position", help=help_pos)
    data_options(p)
    input_options(p, with_move=True)
    p.add_argument("--events", action="store_true",
                   help="also print what happened, in Czech, one '# ' line per event")
    p.set_defaults(func=cmd_apply)

    p = games["selfplay"].add_parser("napij", help="Člověče, napij se!")
    p.add_argument("--games", type=count_arg(1, 100_000), default=20,
                   help="how many games to play (default: 20)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the throws and the shuffles (default: 1)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="players per game (default: 4, or as many as --seats names)")
    data_options(p)
    match_options(p)
    p.set_defaults(func=cmd_selfplay)

    board = commands.add_parser("board", help="check or draw a napij board or deck file",
                                description="Check or draw a board (or deck) file of "
                                            "Člověče, napij se! (docs/players/boards.md, docs/players/deck.md).")
    board.set_defaults(func=_board_usage)
    sub = board.add_subparsers(dest="board_command", metavar="COMMAND",
                               parser_class=type(board))
    p = sub.add_parser("check", help="validate a board or deck file")
    p.add_argument("file", help="the file, or 'default' for the shipped board")
    p.set_defaults(func=cmd_board_check)
    p = sub.add_parser("draw", help="draw a board file as a PNG")
    p.add_argument("file", help="the file, or 'default' for the shipped board")
    p.add_argument("--png", required=True, metavar="OUT", help="where to write the picture")
    p.add_argument("--scale", type=int, default=36, help="pixels per unit of 'at' (default 36)")
    p.set_defaults(func=cmd_board_draw)

