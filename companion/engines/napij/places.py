"""Where a piece stands, in words a player can find on the printed board (pure, Czech).

The 80-field board does not fit the OLED, and the printed board has no field
numbers, so the table is told where a piece is by the landmarks printed on it:
"v hospodě", "2 pole za rozcestím", "na modrém stanovišti", "v záchytce",
"na Černé stezce, 3 pole do konce", "v domku, 2. pole".  On the main track the
nearest landmark behind the piece counts (a start field, an arrow field, a
junction or a card field: the fields a player sees printed).

:func:`play_lines` says each step of a legal play that way, with what happens
where it ends (a knock-out, the bottle, the rolling pin, a card);
:func:`step_path` lists the nodes a step passes, for the strip map;
:func:`piece_places` names a player's pieces so that no two read the same
("na rozcestí (přední)"), :func:`pieces_line` counts them, :func:`why_text`
says for each piece which thrown values it can take and why not ("Proč?"),
:func:`moved_fields` gives the board fields a play left and reached (the phone
view rings them).  Every sentence is ours, with the glossary's words.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from ..czech import PLAYER, PLAYER_ACC, PLAYER_DAT
from ..errors import IllegalMove
from .actions import Choose, Decline, Offer, Play, Step
from .board import LANE, MAIN, SHORTCUT, STEZKA, TRAP_AREA
from .describe import EXPLAIN, HEADLINE_ORDER, describe_event, explain
from .events import (
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
from .graph import IN
from .playout import PlayOut
from .reasons import Reason, Why
from .rules import Choice, preview
from .state import BOTTLE, PUB, SIX, Rules, State

TRAP_IN = {"zachytka": "v záchytce", "bazina": "v bažině", "les": "v lese"}
TRAP_OUT = {"zachytka": "ze záchytky", "bazina": "z bažiny", "les": "z lesa"}
TRAP_GEN = {"zachytka": "záchytky", "bazina": "bažiny", "les": "lesa"}
# colour adjectives by case: locative (na modrém stanovišti), instrumental (za modrým
# stanovištěm) for the neuter start field; the same for the feminine arrow (šipka)
START_LOC = ("červeném", "modrém", "zeleném", "žlutém")
START_INS = ("červeným", "modrým", "zeleným", "žlutým")
ARROW_LOC = ("červené", "modré", "zelené", "žluté")
ARROW_INS = ("červenou", "modrou", "zelenou", "žlutou")
LANDMARKS = ("start", "arrow", "junction", "card")


def fields_word(n: int) -> str:
    """``1 pole``, ``3 pole``, ``5 polí``."""
    return f"{n} pole" if 1 <= n <= 4 else f"{n} polí"


def _landmark(rules: Rules, field: int, colour: int, instrumental: bool) -> str:
    f = rules.board.fields[field]
    if f.kind == "start":
        assert f.colour is not None
        if instrumental:
            return "za svým stanovištěm" if f.colour == colour else \
                f"za {START_INS[f.colour]} stanovištěm"
        return "na svém stanovišti" if f.colour == colour else \
            f"na {START_LOC[f.colour]} stanovišti"
    if f.kind == "arrow":
        assert f.colour is not None
        if instrumental:
            return "za svou šipkou" if f.colour == colour else f"za {ARROW_INS[f.colour]} šipkou"
        return "na své šipce" if f.colour == colour else f"na {ARROW_LOC[f.colour]} šipce"
    if f.kind == "junction":
        return "za rozcestím" if instrumental else "na rozcestí"
    return "za kartou" if instrumental else "na kartě"


@functools.lru_cache(maxsize=8)
def _behind(rules: Rules) -> dict[int, tuple[int, int]]:
    """Main-track field -> (the nearest landmark field at or behind it, fields between)."""
    board = rules.board
    main = board.main
    marks = [i for i, f in enumerate(main) if board.fields[f].kind in LANDMARKS]
    out: dict[int, tuple[int, int]] = {}
    n = len(main)
    for k, f in enumerate(main):
        if not marks:
            out[f] = (main[0], k)
            continue
        d = min((k - m) % n for m in marks)
        out[f] = (main[(k - d) % n], d)
    return out


def _trap_ahead(rules: Rules, field: int) -> str:
    """The trap (or the pair of traps) a trap-path field leads to: ``zachytka`` or
    ``bazina+les``."""
    board = rules.board
    f = board.fields[field]
    seen = 0
    while f.kind not in ("trap", "junction") and seen < len(board.fields):
        f = board.f(f.links[1])
        seen += 1
    if f.kind == "trap":
        return f.trap or "zachytka"
    return "+".join(_trap_ahead(rules, board.index[e]) for e in f.exits)


def _traps_gen(traps: str) -> str:
    """``"záchytky"``, ``"bažiny a lesa"``."""
    return " a ".join(TRAP_GEN[t] for t in traps.split("+"))


def _path_to(traps: str, inward: bool) -> str:
    gen = _traps_gen(traps)
    if inward:
        return f"na cestě do {gen}"
    return f"na cestě {'ze' if gen.startswith(('z', 's')) else 'z'} {gen}"


def where(rules: Rules, colour: int, node: int) -> str:
    """Where a piece of ``colour`` on ``node`` stands (``PUB``: in its pub), in the locative:
    ``"2 pole za rozcestím"``, ``"v záchytce"``, ``"na Černé stezce, 3 pole do konce"``."""
    if node == PUB:
        return "v hospodě"
    g = rules.graph
    board = rules.board
    field = g.field[node]
    f = board.fields[field]
    area = board.area[field]
    if f.kind == "trap":
        return TRAP_IN.get(f.trap or "", "v pasti")
    if g.home_rank[node] >= 0:
        return f"v domku, {g.home_rank[node] + 1}. pole"
    if f.kind == "rolling_pin":
        return "na válečku"
    if area == LANE:
        return "na cestě k domku"
    if area == MAIN:
        mark, d = _behind(rules)[field]
        if d == 0:
            return _landmark(rules, mark, colour, False)
        return f"{fields_word(d)} {_landmark(rules, mark, colour, True)}"
    if area == SHORTCUT:
        for sc in board.shortcuts:
            if field in sc:
                return f"na zkratce, {sc.index(field) + 1}. pole"
        return "na zkratce"
    if area == STEZKA:
        if f.kind == "turnoff":
            return "na odbočce Černé stezky"
        i = board.stezka.index(field)
        size = len(board.stezka)
        left, gone = (size - 1 - i, i + 1) if g.heading[node] > 0 else (i, size - i)
        if left == 0:
            return "na konci Černé stezky"
        if left < gone:  # count what is nearer: the fields left, or the fields walked
            return f"na Černé stezce, {fields_word(left)} do konce"
        return f"na Černé stezce, {gone}. pole"
    if area == TRAP_AREA:
        if f.kind == "junction":
            return f"na rozcestí u {_traps_gen(_trap_ahead(rules, field))}"
        return _path_to(_trap_ahead(rules, field), g.direction[node] == IN)
    return f"na poli {f.id}"  # pragma: no cover - the validator gives every field an area


def origin(rules: Rules, colour: int, node: int) -> str:
    """The piece that moves, by where it stands: ``"z hospody"`` for the pub, else
    :func:`where`."""
    return "z hospody" if node == PUB else where(rules, colour, node)


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
    """One line per step of a legal play: ``"6: z hospody → na svém stanovišti"``,
    ``"3: 2 pole za rozcestím → na kartě, vyhodí modrého"``."""
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
        if step.piece == BOTTLE:
            end = where(rules, c, path[-1]) if path else "?"
            text = f"{values}: láhev → {end}"
        else:
            end = where(rules, c, path[-1]) if path else "?"
            text = f"{values}: {origin(rules, c, own[step.piece])} → {end}"
        if path and g.is_card[path[-1]] and not any(isinstance(e, ReturnedToPub) for e in events):
            if not text.endswith("na kartě"):
                text += ", karta"
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
        to = where(rules, e.colour, e.to)
        if not e.values:
            return f"Karta posunula figurku {PLAYER_ACC[e.colour]}: teď stojí {to}."
        return f"{PLAYER[e.colour]} táhl {origin(rules, e.colour, e.frm)} → {to}."
    if isinstance(e, Entered) and e.to != rules.graph.start[e.colour]:
        return f"{PLAYER[e.colour]} nasadil figurku a došel s ní {where(rules, e.colour, e.to)}."
    if isinstance(e, Released):
        trap = rules.board.fields[rules.graph.field[e.frm]].trap or "zachytka"
        return (f"{PLAYER[e.colour]} vysvobodil figurku {TRAP_OUT[trap]} "
                f"→ {where(rules, e.colour, e.to)}.")
    if isinstance(e, BottlePlaced):
        return f"Láhev stojí {where(rules, -1, e.node)}."
    if isinstance(e, BottleMoved):
        return f"{PLAYER[e.colour]} posunul láhev; teď stojí {where(rules, -1, e.to)}."
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


RANKS = {2: ("přední", "zadní"), 3: ("přední", "prostřední", "zadní"),
         4: ("přední", "druhá", "třetí", "zadní")}
"""A piece's place in the row among pieces that stand at places of the same words."""


def piece_places(s: State, colour: int) -> tuple[str, ...]:
    """Where each of the colour's pieces stands, in the words of the printed board
    (:func:`origin`: "z hospody", "2 pole za kartou"); two pieces whose places read the same
    (two junctions, two fields after a card) are told apart by their place in the row,
    the one nearer its home first: "2 pole za kartou (přední)", "... (zadní)".  Pieces in
    the pub are alike and keep the same words."""
    rules = s.rules
    own = s.pieces[colour] or ()
    words = [origin(rules, colour, node) for node in own]
    out = list(words)
    distance = rules.distance(colour)
    for text in dict.fromkeys(words):
        same = [i for i, w in enumerate(words) if w == text]
        if len(same) < 2 or own[same[0]] == PUB:
            continue
        same.sort(key=lambda i: (distance[own[i]], i))
        for rank, i in zip(RANKS[len(same)], same, strict=True):
            out[i] = f"{text} ({rank})"
    return tuple(out)


def move_lines(s: State, play: Play) -> tuple[str, ...]:
    """The play's steps in words (:func:`play_lines`), a piece named by :func:`piece_places`
    where its place reads like another's."""
    lines = list(play_lines(s, play))
    own = s.pieces[s.turn]
    assert own is not None
    names = piece_places(s, s.turn)
    for i, step in enumerate(play.steps):
        if step.piece == BOTTLE:
            continue
        plain = f"{sum(step.values)}: {origin(s.rules, s.turn, own[step.piece])}"
        named = f"{sum(step.values)}: {names[step.piece]}"
        if named != plain and lines[i].startswith(plain):
            lines[i] = named + lines[i][len(plain):]
    return tuple(lines)


def choice_row(s: State, choice: Choice, chooser: int) -> str:
    """A card's choice as a row of the list: an opponent's piece with its owner's name
    ("Zelený: 2 pole za kartou"), the chooser's own piece (taking an offer) by its place
    alone, pieces of the same words told apart as :func:`piece_places` does."""
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

