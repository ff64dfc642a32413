"""A hint for a person who asks: the move *silný* would make, with one reason in Czech.

Pure, like the players: :func:`hint` answers a position and a roll with the move
of :func:`companion.games.clovece.strong.choose` and the first reason in this
order that is true of it:

1. it is the only legal move ("jiný tah není");
2. it captures ("vyhodí modrého");
3. it brings a piece into the goal ("jde do cíle");
4. the piece stood within reach of an opponent and the move takes it out of that
   opponent's reach ("uteče žlutému");
5. it enters a piece ("nová figurka půjde do hry") or clears the own start ("uvolní start");
6. its target is out of every opponent's reach while every other move leaves the
   moved piece within reach ("tam ho nikdo nedostihne");
7. a move inside the goal while every other move is within reach ("v cíli nic neriskuje");
8. its target has an opponent within reach ahead ("dostane na dosah zeleného");
9. otherwise: the evaluation likes it best ("tak máš k výhře nejblíž").

The reason's words follow the move's own words (the host names the move as the
turn screen does: "Prostřední figurka z 12. na 17. pole."), so the table reads
"… Vyhodí modrého."
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engines.czech import PLAYER_ACC, PLAYER_DAT
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    HOUSE,
    SIX,
    START,
    TRACK_LEN,
    Move,
    Position,
    legal_moves,
)
from companion.games.clovece.strong import attackers, choose


class Why(StrEnum):
    ONLY = "only"
    CAPTURE = "capture"
    GOAL = "goal"
    ESCAPE = "escape"
    ENTER = "enter"
    CLEAR_START = "clear-start"
    SAFE = "safe"
    WAIT_IN_GOAL = "wait-in-goal"
    THREATEN = "threaten"
    BEST = "best"


@dataclass(frozen=True)
class Hint:
    """The move *silný* would make and why (``colour``: whom the reason names)."""

    move: Move
    why: Why
    colour: int | None = None

    @property
    def reason(self) -> str:
        """The reason in Czech, as the end of a sentence ("vyhodí modrého")."""
        return reason_words(self.why, self.colour)


def reason_words(why: Why, colour: int | None = None) -> str:
    """One reason in Czech, lower case, without a full stop."""
    if why is Why.CAPTURE and colour is not None:
        return f"vyhodí {PLAYER_ACC[colour]}"
    if why is Why.ESCAPE and colour is not None:
        return f"uteče {PLAYER_DAT[colour]}"
    if why is Why.THREATEN and colour is not None:
        return f"dostane na dosah {PLAYER_ACC[colour]}"
    return _WORDS[why]


_WORDS = {
    Why.ONLY: "jiný tah není",
    Why.CAPTURE: "vyhodí soupeře",
    Why.GOAL: "jde do cíle",
    Why.ESCAPE: "uteče soupeři",
    Why.ENTER: "nová figurka půjde do hry",
    Why.CLEAR_START: "uvolní start",
    Why.SAFE: "tam ji nikdo nedostihne",
    Why.WAIT_IN_GOAL: "v cíli nic neriskuje",
    Why.THREATEN: "dostane soupeře na dosah",
    Why.BEST: "tak máš k výhře nejblíž",
}


def _reached(pos: Position, move: Move) -> list[int]:
    """Who could hit the moved piece where it lands (after the move, the capture done)."""
    if move.to >= GOAL_FIRST:
        return []
    pieces = list(pos.pieces)
    own = list(pieces[move.colour] or ())
    own[own.index(move.frm)] = move.to
    pieces[move.colour] = tuple(own)
    if move.capture is not None:
        victim = list(pieces[move.capture] or ())
        field = (START[move.colour] + move.to) % TRACK_LEN
        victim[victim.index((field - START[move.capture]) % TRACK_LEN)] = HOUSE
        pieces[move.capture] = tuple(victim)
    after = Position(tuple(pieces), pos.turn, 0, pos.variants)
    return attackers(after, move.colour, move.to)


def _prey(pos: Position, move: Move) -> int | None:
    """An opponent 1 to 6 fields ahead of the moved piece where it lands, nearest first."""
    if move.to >= GOAL_FIRST:
        return None
    field = (START[move.colour] + move.to) % TRACK_LEN
    best: tuple[int, int] | None = None
    for o, own in enumerate(pos.pieces):
        if own is None or o == move.colour:
            continue
        for p in own:
            if 0 <= p < GOAL_FIRST:
                d = ((START[o] + p) - field) % TRACK_LEN
                if 1 <= d <= SIX and move.to + d < GOAL_FIRST and (best is None or d < best[0]):
                    best = (d, o)
    return None if best is None else best[1]


def explain(pos: Position, roll: int, move: Move) -> Hint:
    """Why ``move`` is worth playing (the first true reason of the module docstring)."""
    moves = legal_moves(pos, roll)
    me = move.colour
    if len(moves) <= 1:
        return Hint(move, Why.ONLY)
    if move.capture is not None:
        return Hint(move, Why.CAPTURE, move.capture)
    if move.frm < GOAL_FIRST <= move.to:
        return Hint(move, Why.GOAL)
    if 0 <= move.frm < GOAL_FIRST:
        threat = attackers(pos, me, move.frm)
        if threat:
            landing = _reached(pos, move)
            fled = [o for o in threat if o not in landing]
            if fled:
                return Hint(move, Why.ESCAPE, fled[0])
    if move.frm == HOUSE:
        return Hint(move, Why.ENTER)
    own = pos.pieces[me] or ()
    if move.frm == 0 and HOUSE in own:
        return Hint(move, Why.CLEAR_START)
    others = [m for m in moves if m != move]
    others_reached = all(_reached(pos, m) for m in others)
    if move.to < GOAL_FIRST and not _reached(pos, move) and others_reached:
        return Hint(move, Why.SAFE)
    if move.frm >= GOAL_FIRST and others_reached:
        return Hint(move, Why.WAIT_IN_GOAL)
    prey = _prey(pos, move)
    if prey is not None:
        return Hint(move, Why.THREATEN, prey)
    return Hint(move, Why.BEST)


def hint(pos: Position, roll: int) -> Hint | None:
    """The move *silný* would make for ``roll`` and why; ``None`` when no move is legal."""
    move = choose(pos, roll)
    return None if move is None else explain(pos, roll, move)
