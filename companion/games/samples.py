"""Scripted moments of each game as snapshots: for the browser tests, the README's
screenshots and the benchmark, and to try the page without a table.

Each script is a short list of snapshots in play order: a moment of a game, then
a roll (or a flip, or touches), then the move it led to.  Člověče and Gobbit are
played by their engines; the napij se moments are written in the engine's
notation (its events are being reworked, and a snapshot reads only ``State``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.engines.czech import PLAYER
from companion.games.clovece import phone as clovece_phone
from companion.games.clovece.engine import rules as cl
from companion.games.clovece.engine.describe import ROLL_ACC, describe_event
from companion.games.clovece.engine.notation import parse_position as clovece_position
from companion.games.clovece.rules_text import TOPICS as CLOVECE_TOPICS
from companion.games.gobbit import phone as gobbit_phone
from companion.games.gobbit.engine import rules as gb
from companion.games.gobbit.engine.cards import parse_card, standard_deck
from companion.games.gobbit.engine.describe import describe_event as gobbit_event
from companion.games.gobbit.engine.judge import Touch, eats, judge
from companion.games.gobbit.engine.rules import Event as GobbitEvent
from companion.games.gobbit.referee.model import RefereeModel
from companion.games.gobbit.rules_text import TOPICS as GOBBIT_TOPICS
from companion.games.napij import phone as napij_phone
from companion.games.napij.engine.notation import parse_position as napij_position
from companion.games.napij.rules_text import TOPICS as NAPIJ_TOPICS
from companion.inputs.pads import PadTouch
from companion.web.snapshot import Snapshot


def clovece() -> list[Snapshot]:
    """A four-player game: the position, red rolls a three, red captures green with it."""
    pos = clovece_position("r:5,15,h,f1 b:12,h,h,h g:8,30,h,h y:32,h,h,h turn:r")
    lines = ["Modrý táhl z 6 na 12.", "Zelený nasadil figurku.", "Žlutý táhl z 30 na 32."]
    out = [clovece_phone.position(pos, events=lines, throws=(4,), rules=CLOVECE_TOPICS)]
    roll = 3
    lines.append(f"{PLAYER[cl.RED]} hodil {ROLL_ACC[roll - 1]}.")
    out.append(clovece_phone.position(pos, events=lines, throws=(roll,), rules=CLOVECE_TOPICS))
    move = next(m for m in cl.legal_moves(pos, roll) if m.capture is not None)
    pos, events = cl.apply(pos, roll, move)
    lines += [describe_event(e) for e in events]
    out.append(clovece_phone.position(pos, events=lines, throws=(roll,), moved=move,
                                rules=CLOVECE_TOPICS))
    return out


def napij() -> list[Snapshot]:
    """Four players: the position, red throws a five, red plays it (m12 to m17)."""
    tail = "bottle:m60 owe:g1@knocked-out.b drunk:r3,b1,g2,y2"
    before = "r:m12,m30,rh4,p b:m25*2,p,p,p g:m50,c5+,p,p y:sy3,p,p,p"
    after = "r:m17,m30,rh4,p b:m25*2,p,p,p g:m50,c5+,p,p y:sy3,p,p,p"
    tonight = (7, 4, 5, 2)
    lines = ["Zelený vstoupil na Černou stezku.", "Zelený se napije: vyhodili mu figurku.",
             "Žlutý táhl po zkratce."]
    s0 = napij_position(f"{before} turn:r {tail}")
    out = [napij_phone.state_page(s0, events=lines, throws=(), card=2, tonight=tonight,
                          rules=NAPIJ_TOPICS)]
    s1 = napij_position(f"{before} turn:r throws:5 {tail}")
    lines.append("Červený hodil pětku.")
    out.append(napij_phone.state_page(s1, events=lines, card=2, tonight=tonight, rules=NAPIJ_TOPICS))
    s2 = napij_position(f"{after} turn:b {tail}")
    lines.append("Červený táhl z m12 na m17.")
    out.append(napij_phone.state_page(s2, events=lines, throws=(5,), moved=("m12", "m17"), card=2,
                              tonight=tonight, rules=NAPIJ_TOPICS))
    return out


def gobbit(seed: int = 4) -> list[Snapshot]:
    """A four-seat virtual deck: flips until an attack is possible, then the attack and
    a late defence, ruled by the judge."""
    cards = list(standard_deck())
    random.Random(seed).shuffle(cards)
    state = gb.new_game(4, cards)
    lines: list[str] = []
    out: list[Snapshot] = []
    attack: Touch | None = None
    for _ in range(40):
        seat = gb.on_turn(state)
        if seat is None:
            break
        state, events = gb.apply(state, gb.Flip(seat))
        lines += _lines(events)
        attack = _attack(state)
        if attack is not None:
            break
    assert attack is not None, "no attack came up: pick another seed"
    out.append(gobbit_phone.game(state, events=lines, rules=GOBBIT_TOPICS))
    touches = (attack, Touch(int(attack.target), attack.target, attack.ms + 7.4))
    ruling = judge(gb.situation(state, touches))
    out.append(gobbit_phone.game(state, events=lines, touches=touches, ruling=ruling,
                               provisional=True, log=touches, rules=GOBBIT_TOPICS))
    state, events = gb.apply(state, gb.Touches(touches))
    lines += _lines(events)
    out.append(gobbit_phone.game(state, events=lines, touches=touches, ruling=ruling,
                               log=touches, rules=GOBBIT_TOPICS))
    return out


def _lines(events: list[GobbitEvent]) -> list[str]:
    """Event lines; the ruling is shown apart, so its sentences are left out here."""
    return [gobbit_event(e) for e in events if not isinstance(e, gb.Judged)]


def _attack(state: gb.State) -> Touch | None:
    for a in state.seats:
        for v in state.seats:
            ta, tv = state.top(a), state.top(v)
            if a != v and ta is not None and tv is not None and eats(ta, tv):
                return Touch(a, v, 1000.0)
    return None


def referee() -> list[Snapshot]:
    """Referee mode with real cards: three seats, a dispute over seat 3's pile."""
    model = RefereeModel(3)
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    out = [gobbit_phone.referee(model, rules=GOBBIT_TOPICS)]
    for seat, target, ms in ((2, 3, 5000.0), (3, 3, 5006.8), (1, 3, 5019.0)):
        model.on_pad_event(PadTouch(seat, target, ms, ms))
        out.append(gobbit_phone.referee(model, rules=GOBBIT_TOPICS))
    return out


SCRIPTS: dict[str, Callable[[], list[Snapshot]]] = {
    "clovece": clovece, "napij": napij, "gobbit": gobbit, "referee": referee}
"""Every script by name (the screenshots are named after these)."""
SHOWCASE = {"clovece": -1, "napij": -1, "gobbit": 1, "referee": -1}
"""The snapshot of each script that the README's screenshot shows (Gobbit: the touches
while the cards are still on the table)."""
