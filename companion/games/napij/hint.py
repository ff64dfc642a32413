"""A hint for a person who asks, in napij se: the play *silný* would make, with one reason.

Pure: :func:`hint` answers a state in the play phase with the play of
:func:`companion.games.napij.levels.strong_play` and the first reason in this
order that is true of it (what the play does before any card is drawn):

1. it is the only legal play ("jiný tah není");
2. it knocks an opponent out ("vyhodí modrého");
3. it brings a piece home ("jde do domku");
4. a piece stood 1 to 6 main-track fields in front of an opponent and no longer
   does ("uteče žlutému");
5. it brings a piece out of the pub ("vyjde z hospody");
6. otherwise: the evaluation likes it best ("tak máš k výhře nejblíž").

A card's choice (:func:`card_hint`) is the strong level's (the normal level's rules with
the way home expected over the throws), with the reason its rule gives ("zasáhne soupeře
nejblíž domku").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engines.czech import PLAYER_ACC, PLAYER_DAT
from companion.games.napij.engine.actions import Choose, Decline, Offer, Play
from companion.games.napij.engine.deck import OFFER_EFFECTS, Effect
from companion.games.napij.engine.events import Captured, Entered, EnteredHome
from companion.games.napij.engine.rules import Choice, legal_plays, outcome, preview
from companion.games.napij.engine.state import State
from companion.games.napij.levels import opponents_on_main, strong_play, strong_target


class Why(StrEnum):
    ONLY = "only"
    CAPTURE = "capture"
    HOME = "home"
    ESCAPE = "escape"
    ENTER = "enter"
    BEST = "best"


_WORDS = {
    Why.ONLY: "jiný tah není",
    Why.CAPTURE: "vyhodí soupeře",
    Why.HOME: "jde do domku",
    Why.ESCAPE: "uteče soupeři",
    Why.ENTER: "vyjde z hospody",
    Why.BEST: "tak máš k výhře nejblíž",
}


@dataclass(frozen=True)
class Hint:
    """The play *silný* would make and why (``colour``: whom the reason names)."""

    play: Play
    why: Why
    colour: int | None = None

    @property
    def reason(self) -> str:
        """The reason in Czech, lower case, without a full stop ("vyhodí modrého")."""
        if self.why is Why.CAPTURE and self.colour is not None:
            return f"vyhodí {PLAYER_ACC[self.colour]}"
        if self.why is Why.ESCAPE and self.colour is not None:
            return f"uteče {PLAYER_DAT[self.colour]}"
        return _WORDS[self.why]


def threats(state: State, colour: int) -> dict[int, set[int]]:
    """For each piece of ``colour`` on the main track, the opponents with a piece 1 to 6
    main-track fields behind it."""
    g = state.rules.graph
    where = opponents_on_main(state, colour)
    out: dict[int, set[int]] = {}
    for i, n in enumerate(state.pieces[colour] or ()):
        if n < 0 or not g.on_main[n]:
            continue
        back, near = n, set()
        for _ in range(6):
            back = g.main_prev[back]
            if back < 0:
                break
            if back in where:
                near.add(where[back])
        if near:
            out[i] = near
    return out


def explain(state: State, play: Play) -> Hint:
    """Why ``play`` is worth playing (the first true reason of the module docstring)."""
    me = state.turn
    if len(legal_plays(state)) <= 1:
        return Hint(play, Why.ONLY)
    events = preview(state, play)
    hit = next((e for e in events if isinstance(e, Captured) and e.colour != me), None)
    if hit is not None:
        return Hint(play, Why.CAPTURE, hit.colour)
    if any(isinstance(e, EnteredHome) and e.colour == me for e in events):
        return Hint(play, Why.HOME)
    before = threats(state, me)
    after = threats(outcome(state, play), me)
    for piece, near in before.items():
        fled = sorted(near - after.get(piece, set()))
        if fled and any(s.piece == piece for s in play.steps):
            return Hint(play, Why.ESCAPE, fled[0])
    if any(isinstance(e, Entered) and e.colour == me for e in events):
        return Hint(play, Why.ENTER)
    return Hint(play, Why.BEST)


def hint(state: State) -> Hint | None:
    """The play *silný* would make now and why; ``None`` outside the play phase."""
    play = strong_play(state)
    return None if play is None else explain(state, play)


def card_hint(state: State) -> tuple[Choice, str] | None:
    """The answer *silný* would give the card that waits, and why; ``None`` when none waits."""
    choice = strong_target(state)
    pending = state.pending
    if choice is None or pending is None:
        return None
    effect = state.rules.deck.card(pending.card).effect
    if isinstance(choice, Offer):
        return choice, "jemu nabídka pomůže nejméně"
    if isinstance(choice, Decline):
        return choice, "žádné tvé figurce nabídka nepomůže"
    assert isinstance(choice, Choose)
    if effect in OFFER_EFFECTS:
        return choice, "tahle figurka na nabídce získá nejvíc"
    if effect is Effect.SWAP:
        return choice, "výměna ti pomůže nejvíc"
    return choice, "zasáhne soupeře nejblíž domku"
