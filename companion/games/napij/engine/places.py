"""Where a piece stands, in words a player can find on the printed board (pure, Czech).

The 80-field board does not fit the OLED, and the printed board has no field
numbers, so the table is told where a piece is by the landmarks printed on it,
in words that point at exactly one field (:mod:`.landmarks`): "v hospodě",
"na 2. poli za modrou šipkou", "na modrém stanovišti", "v záchytce", "na 4. poli
Černé stezky od zelené strany", "na 2. poli domku" - where it stands
(:func:`where`), where it comes from (:func:`origin`: "z modré šipky") and where it
goes (:func:`target`: "na modrou šipku", "do hospody").

:func:`play_lines` says each step of a legal play that way, with what happens
where it ends (a knock-out, the bottle, the rolling pin, a card);
:func:`step_path` lists the nodes a step passes, for the strip map;
:func:`piece_places` names a player's pieces, :func:`pieces_line` counts them, :func:`why_text`
says for each piece which thrown values it can take and why not ("Proč?"),
:func:`moved_fields` gives the board fields a play left and reached (the phone
view rings them).  Every sentence is ours, with the words of docs/dev/words.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.engines.czech import PLAYER, PLAYER_ACC, PLAYER_DAT
from companion.engines.errors import IllegalMove
from companion.games.napij.engine.actions import Choose, Decline, Offer, Play, Step
from companion.games.napij.engine.describe import EXPLAIN, HEADLINE_ORDER, describe_event, explain
from companion.games.napij.engine.events import (
    BottleMoved,
    BottlePlaced,
    BottlePushed,
    Captured,
    Entered,
    EnteredHome,
    Event,
    How,
    Moved,
    Released,
    ReturnedToPub,
)
from companion.games.napij.engine.landmarks import Case, phrase
from companion.games.napij.engine.playout import PlayOut
from companion.games.napij.engine.reasons import Reason, Why
from companion.games.napij.engine.rules import Choice, preview
from companion.games.napij.engine.state import BOTTLE, PUB, SIX, Rules, State

TRAP_OUT = {"zachytka": "ze záchytky", "bazina": "z bažiny", "les": "z lesa"}


def where(rules: Rules, colour: int | None, node: int) -> str:
    """Where a piece of ``colour`` on ``node`` stands (``PUB``: in its pub), in words that
    point at one field of the printed board (:mod:`.landmarks`): ``"na 2. poli za modrou
    šipkou"``, ``"v záchytce"``, ``"na 4. poli Černé stezky od zelené strany"``."""
    return phrase(rules, node, Case.AT, colour)


def origin(rules: Rules, colour: int | None, node: int) -> str:
    """Where a piece moves from: ``"z hospody"``, ``"z modré šipky"``."""
    return phrase(rules, node, Case.FROM, colour)


def target(rules: Rules, colour: int | None, node: int) -> str:
    """Where a piece moves to: ``"do hospody"``, ``"na modrou šipku"``."""
    return phrase(rules, node, Case.TO, colour)


def _path(rules: Rules, colour: int, loc: int, values: Sequence[int],
          exit_: int | None) -> list[int]:
    """The nodes a piece at ``loc`` passes with ``values`` (its target last); ``[]`` when the
    way cannot be followed (the play is not legal)."""
    g = rules.graph
    total = sum(values)
    thr = g.through[colour]
    out: list[int] = []
    if loc == PUB or (loc >= 0 and g.is_trap[loc]):
        first = g.start[colour] if loc == PUB else g.release[loc]
        out.append(first)
        k = total - SIX
        n = first
    else:
        exits = g.exits[colour][loc]
        if not exits:
            return []
        n = exit_ if exit_ is not None else exits[0]
        out.append(n)
        k = total - 1
    for _ in range(k):
        n = thr[n]
        if n < 0:
            return []
        out.append(n)
    return out


def step_path(state: State, step: Step) -> list[int]:
    """The nodes the step's piece passes, its target last (the bottle: along the main track);
    the piece's own node is not included."""
    g = state.rules.graph
    if step.piece == BOTTLE:
        out = []
        n = state.bottle
        for _ in range(sum(step.values)):
            n = g.main_next[n]
            out.append(n)
        return out
    own = state.pieces[state.turn]
    assert own is not None
    return _path(state.rules, state.turn, own[step.piece], step.values, step.exit)


def _split(events: Sequence[Event]) -> list[list[Event]]:
    """The events of a play, one list per step (each step begins with its move)."""
    out: list[list[Event]] = []
    for e in events:
        if isinstance(e, Entered | Released | BottleMoved) or (
                isinstance(e, Moved) and e.values):
            out.append([])
        if out:
            out[-1].append(e)
    return out


def _outcome(events: Sequence[Event], colour: int) -> str:
    """What happens where a step ends, as a short clause (``""``: nothing to say)."""
    parts: list[str] = []
    for e in events:
        if isinstance(e, Captured):
            who = "sebe" if e.colour == colour else PLAYER_ACC[e.colour]
            parts.append(f"láhev vyhodí {who}" if e.how is How.BOTTLE else f"vyhodí {who}")
        elif isinstance(e, BottlePushed):
            parts.append("odsune láhev")
        elif isinstance(e, ReturnedToPub):
            parts.append("zpět do hospody")
        elif isinstance(e, EnteredHome):
            parts.append("domů")
    return ", ".join(parts)


def play_lines(state: State, play: Play) -> tuple[str, ...]:
    """One line per step of a legal play: ``"6: z hospody → na své stanoviště"``,
    ``"3: z 1. pole za modrou šipkou → na 4. pole za modrou šipkou, bere kartu, vyhodí
    zeleného"``."""
    c = state.turn
    rules = state.rules
    g = rules.graph
    own = state.pieces[c]
    assert own is not None
    try:
        parts = _split(preview(state, play))
    except IllegalMove:  # an illegal play has no preview: say the moves without outcomes
        parts = []
    lines = []
    for i, step in enumerate(play.steps):
        values = str(sum(step.values))
        path = step_path(state, step)
        events = parts[i] if i < len(parts) else []
        frm = state.bottle if step.piece == BOTTLE else own[step.piece]
        end = target(rules, c, path[-1]) if path else "?"
        if step.piece == BOTTLE:
            text = f"{values}: láhev {origin(rules, c, frm)} → {end}"
        else:
            text = f"{values}: {origin(rules, c, frm)} → {end}"
        if path and g.is_card[path[-1]] and not any(isinstance(e, ReturnedToPub) for e in events):
            text += ", bere kartu"
        what = _outcome(events, c)
        if what:
            text += f", {what}"
        lines.append(text)
    return tuple(lines)


def choice_line(state: State, choice: Choice) -> str:
    """A card's choice in words: whose piece (and where it stands), offering, declining."""
    if isinstance(choice, Offer):
        return f"nabídnout {PLAYER_DAT[choice.colour]}"
    if isinstance(choice, Decline):
        return "odmítnout nabídku"
    assert isinstance(choice, Choose)
    theirs = state.pieces[choice.colour]
    assert theirs is not None
    return f"{PLAYER[choice.colour]}: {where(state.rules, choice.colour, theirs[choice.piece])}"




def say_event(event: Event, state: State) -> str:
    """One Czech line about an event, with places in words a player finds on the board
    (the engine's sentences name fields by their ids): ``state`` is the state after it."""
    rules = state.rules
    e = event
    if isinstance(e, Moved):
        if not e.values:
            return (f"Karta posunula figurku {PLAYER_ACC[e.colour]}: teď stojí "
                    f"{where(rules, e.colour, e.to)}.")
        return (f"{PLAYER[e.colour]} táhl {origin(rules, e.colour, e.frm)} "
                f"{target(rules, e.colour, e.to)}.")
    if isinstance(e, Entered) and e.to != rules.graph.start[e.colour]:
        return (f"{PLAYER[e.colour]} nasadil figurku a došel s ní "
                f"{target(rules, e.colour, e.to)}.")
    if isinstance(e, Released):
        trap = rules.board.fields[rules.graph.field[e.frm]].trap or "zachytka"
        return (f"{PLAYER[e.colour]} vysvobodil figurku {TRAP_OUT[trap]} "
                f"{target(rules, e.colour, e.to)}.")
    if isinstance(e, BottlePlaced):
        return f"Láhev stojí {where(rules, None, e.node)}."
    if isinstance(e, BottleMoved):
        return f"{PLAYER[e.colour]} posunul láhev; teď stojí {where(rules, None, e.to)}."
    if isinstance(e, BottlePushed):
        return f"{PLAYER[e.colour]} odsunul láhev o pole za sebe."
    return describe_event(e, rules)


def headline(events: Sequence[Event], state: State) -> str:
    """The one line a turn screen shows after an action: its most telling event, in words."""
    for kind in HEADLINE_ORDER:
        for e in events:
            if isinstance(e, kind):
                return say_event(e, state)
    return say_event(events[0], state) if events else ""


# --- a player's pieces in words, and why a throw does or does not move them ---


def moved_fields(before: State, after: State, colour: int) -> tuple[str, ...]:
    """The board fields ``colour``'s pieces left and reached between two states (a piece
    going to or from the pub has no field there)."""
    old, new = before.pieces[colour] or (), after.pieces[colour] or ()
    left, reached = Counter(old) - Counter(new), Counter(new) - Counter(old)
    graph, board = after.rules.graph, after.rules.board
    return tuple(board.fields[graph.field[n]].id for n in (*left.elements(), *reached.elements())
                 if n >= 0)


def piece_places(s: State, colour: int) -> tuple[str, ...]:
    """Where each of the colour's pieces stands (:func:`where`: "v hospodě", "na 2. poli za
    modrou šipkou"); no two pieces off the pub read the same, as every place names one
    field."""
    rules = s.rules
    return tuple(where(rules, colour, node) for node in s.pieces[colour] or ())


def move_lines(s: State, play: Play) -> tuple[str, ...]:
    """The play's steps in words (:func:`play_lines`)."""
    return play_lines(s, play)


def choice_row(s: State, choice: Choice, chooser: int) -> str:
    """A card's choice as a row of the list: an opponent's piece with its owner's name
    ("Zelený: na 2. poli za modrou šipkou"), the chooser's own piece (taking an offer) by
    its place alone."""
    if not isinstance(choice, Choose):
        return choice_line(s, choice)
    place = piece_places(s, choice.colour)[choice.piece]
    if choice.colour == chooser:
        return place[:1].upper() + place[1:]
    return f"{PLAYER[choice.colour]}: {place}"


def pieces_line(s: State, colour: int) -> str:
    """Where the colour's four pieces are, in short: ``"V hospodě 2, ve hře 1, doma 1."``."""
    g = s.rules.graph
    own = s.pieces[colour] or ()
    pub = sum(1 for n in own if n == PUB)
    home = sum(1 for n in own if n >= 0 and g.home_rank[n] >= 0)
    trap = sum(1 for n in own if n >= 0 and g.is_trap[n])
    out = len(own) - pub - home - trap
    parts = [text for n, text in ((pub, f"v hospodě {pub}"), (out, f"ve hře {out}"),
                                  (trap, f"v pasti {trap}"), (home, f"doma {home}")) if n]
    line = ", ".join(parts)
    return line[:1].upper() + line[1:] + "."


def why_text(s: State) -> str:
    """For every piece of the player on turn: which thrown values it can take, and why not."""
    c = s.turn
    own = s.pieces[c]
    assert own is not None
    rules = s.rules
    g = rules.graph
    throws = s.throws
    lines = [f"{PLAYER[c]} hodil {', '.join(str(v) for v in throws)}."]
    if s.with_bottle:
        lines.append("V tomto tahu hraje láhev: vezme součet všech hodů po hlavní cestě.")
        return "\n".join(lines)
    values: list[tuple[int, ...]] = [(v,) for v in dict.fromkeys(throws)]
    if len(throws) > 1:
        values.append(throws)
    names = piece_places(s, c)
    for p, node in enumerate(own):
        parts = []
        for vals in values:
            exits: tuple[int | None, ...] = (None,)
            if node >= 0 and len(g.exits[c][node]) > 1:
                exits = tuple(g.exits[c][node])
            problem: Why | None = Why.CANNOT_MOVE
            for ex in exits:
                problem = PlayOut(s).step(c, p, vals, ex)
                if problem is None:
                    break
            label = str(sum(vals))
            if problem is None:
                parts.append(f"{label} ano")
            else:
                parts.append(f"{label} ne: {explain(Reason(problem, c, p)).rstrip('.')}")
        lines.append(f"Figurka {names[p]}: " + "; ".join(parts) + ".")
    if len(throws) > 1:
        lines.append(EXPLAIN[Why.TOGETHER_NEEDS_ALL] + " " + EXPLAIN[Why.VALUES_UNUSED])
    return "\n".join(lines)

