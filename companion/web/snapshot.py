"""Snapshots of a game for the phone view: the page's values, and the builders' shared parts.

A :class:`Snapshot` is everything the page shows at one moment: the game and its
Czech title, one Czech sentence on what happens now, whose turn it is (name,
colour and mark), the last throws, the last event lines, the board as SVG (two
layers, see :class:`~companion.web.svg.Drawing`), a drink ledger with "Účet", the
touches of the pads with the last ruling, and the rules topics.
:meth:`Snapshot.to_json` makes it a JSON-able dict.

Each game builds its own snapshots from its engine's values
(``companion/games/<game>/phone.py``, called through its facts:
:meth:`companion.service.hosts.facts.Facts.snapshot`).  States are immutable, so a
builder may run in another thread later (:meth:`companion.web.server.WebView.publish`
accepts one as a callable).  What the engines do not keep comes from the caller: the
event lines (Czech, already described), the throws of the last turn, the move to
highlight, the card drawn last, the drinks since the box was switched on, and the rules
topics.  This module names no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engines.colours import COLOURS
from companion.engines.czech import MARK_NAME, PLAYER
from companion.web.svg import Drawing

EVENT_LINES = 12
"""How many of the caller's event lines a snapshot keeps (the latest)."""
Topic = tuple[str, str]


@dataclass(frozen=True)
class Player:
    """Who is on turn: a name, and for the colour games the colour letter and its mark."""

    name: str
    colour: str | None = None
    mark: str | None = None


@dataclass(frozen=True)
class LedgerRow:
    """One colour's line of the drink ledger."""

    colour: str
    name: str
    mark: str
    owed: int
    """Drinks owed now."""
    glasses: int
    """Glasses to empty now."""
    drunk: int
    """Drinks drunk in this game."""
    tonight: int
    """Drinks drunk since the box was switched on ("Účet")."""
    why: str = ""
    """Each debt with its reason in words ("karta č. 23 a spadlá kostka")."""


@dataclass(frozen=True)
class TouchRow:
    """A touch as a line: ``n``-th, seat, what it touched, what it was, when."""

    n: int
    seat: int
    target: str
    kind: str
    """The judge's word (útok, obrana, faul, pozdě...) or ``""`` when not judged."""
    after: str
    """``0 ms``, ``+7 ms``: after the first touch of the moment (or the previous touch)."""
    tied: bool = False
    """Closer to the deciding touch than the pads can tell apart (D28): simultaneous."""


@dataclass(frozen=True)
class TouchInfo:
    """The touch log, the latest moment with the judge's words, and the ruling."""

    log: tuple[TouchRow, ...] = ()
    moment: tuple[TouchRow, ...] = ()
    ruling: tuple[str, ...] = ()
    why: tuple[str, ...] = ()
    provisional: bool = False
    """The ruling of a moment still going on (the virtual deck applies it when it settles)."""
    calls: tuple[str, ...] = ()
    """How the first touch of each contested pile (or the race) was decided, honest about
    the pads' timing uncertainty (D28): a gap inside it is "simultaneous" and the rules'
    precedence decided; a clear gap is given with its margin."""
    uncertainty_ms: float = 0.0
    """The pads' timing uncertainty the moment is judged with (0: not known / exact)."""


@dataclass(frozen=True)
class Snapshot:
    game: str
    title: str
    status: str
    """One Czech sentence: whose turn it is and what is awaited, or who won."""
    board: Drawing
    turn: Player | None = None
    throws: tuple[int, ...] = ()
    events: tuple[str, ...] = ()
    rules: tuple[Topic, ...] = ()
    ledger: tuple[LedgerRow, ...] = ()
    card: str | None = None
    touches: TouchInfo | None = None
    over: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Anything else a caller wants the page's JSON to carry (kept as given)."""

    def to_json(self) -> dict[str, Any]:
        """A dict of JSON types (lists for tuples); ``board`` holds both SVG layers.
        Written out by hand: ``dataclasses.asdict`` deep-copies and costs twice as much,
        and this runs on the server's thread for every action."""
        g = self.touches
        return {
            "game": self.game,
            "title": self.title,
            "status": self.status,
            "board": {"base": self.board.base, "top": self.board.top},
            "turn": None if self.turn is None else {
                "name": self.turn.name, "colour": self.turn.colour, "mark": self.turn.mark},
            "throws": list(self.throws),
            "events": list(self.events),
            "rules": [{"title": t, "text": x} for t, x in self.rules],
            "ledger": [{"colour": r.colour, "name": r.name, "mark": r.mark, "owed": r.owed,
                        "glasses": r.glasses, "drunk": r.drunk, "tonight": r.tonight,
                        "why": r.why}
                       for r in self.ledger],
            "card": self.card,
            "touches": None if g is None else {
                "log": [_row(r) for r in g.log], "moment": [_row(r) for r in g.moment],
                "ruling": list(g.ruling), "why": list(g.why), "provisional": g.provisional,
                "calls": list(g.calls), "uncertainty_ms": g.uncertainty_ms},
            "over": self.over,
            "extra": dict(self.extra),
        }


def _row(r: TouchRow) -> dict[str, Any]:
    return {"n": r.n, "seat": r.seat, "target": r.target, "kind": r.kind, "after": r.after,
            "tied": r.tied}


def tail(lines: Iterable[str], n: int = EVENT_LINES) -> tuple[str, ...]:
    """The latest ``n`` event lines."""
    return tuple(lines)[-n:] if n else ()


def colour_player(colour: int, names: Mapping[int, str] | None) -> Player:
    """The player of a colour: a name given for it, else the colour's."""
    name = (names or {}).get(colour) or PLAYER[colour]
    return Player(name, COLOURS[colour], MARK_NAME[colour])


def computer_names(computer: frozenset[int],
                   levels: tuple[tuple[int, str], ...] = ()) -> dict[int, str]:
    """The names of the computer's colours ("Zelený – počítač, silný"; the page adds the
    mark), ``levels``: (colour, Czech level)."""
    level = dict(levels)
    return {c: f"{PLAYER[c]} – počítač" + (f", {level[c]}" if c in level else "")
            for c in computer}


# --- no game in play -------------------------------------------------------------------------


def waiting(game: str, title: str, *, rules: Sequence[Topic] = ()) -> Snapshot:
    """The table is choosing or setting up a game (``title``): nothing to draw yet."""
    return Snapshot(game, title, f"U stolu se chystá nová hra: {title}.", Drawing("", ""),
                    rules=tuple(rules))
