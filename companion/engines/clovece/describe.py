"""Czech sentences for what happened and why a piece cannot move (pure functions).

Every sentence is written for this product (not copied from the rules sources)
and whole, so that the Czech endings agree; see ../shared/GLOSSARY.md.
"""

from __future__ import annotations

from ..czech import COLOUR_NAME as COLOUR_NAME
from ..czech import MARK_NAME as MARK_NAME
from ..czech import PLAYER as PLAYER
from ..czech import PLAYER_ACC as PLAYER_ACC
from ..czech import PLAYER_LOWER as PLAYER_LOWER
from .notation import location_text
from .rules import (
    Captured,
    Entered,
    EnteredGoal,
    Event,
    Moved,
    PassReason,
    Reason,
    RollAgain,
    Rolled,
    TryFailed,
    TurnPassed,
    Why,
    Won,
)

ROLL_NAME = ("jednička", "dvojka", "trojka", "čtyřka", "pětka", "šestka")
"""The die value as a noun (nominative)."""
ROLL_ACC = ("jedničku", "dvojku", "trojku", "čtyřku", "pětku", "šestku")
"""The die value as the object of a sentence (hodil pětku)."""


def describe_event(event: Event) -> str:
    """One short Czech line for one event."""
    if isinstance(event, Rolled):
        if 1 <= event.value <= 6:
            return f"{PLAYER[event.colour]} hodil {ROLL_ACC[event.value - 1]}."
        return f"{PLAYER[event.colour]} hodil {event.value}."
    if isinstance(event, Entered):
        return f"{PLAYER[event.colour]} nasadil figurku."
    if isinstance(event, Moved):
        return (f"{PLAYER[event.colour]} táhl z {location_text(event.colour, event.frm)}"
                f" na {location_text(event.colour, event.to)}.")
    if isinstance(event, Captured):
        return f"{PLAYER[event.colour]} vyhodil {PLAYER_ACC[event.victim]}."
    if isinstance(event, EnteredGoal):
        return f"{PLAYER[event.colour]} má figurku v cíli."
    if isinstance(event, RollAgain):
        return f"Šestka: {PLAYER_LOWER[event.colour]} hází znovu."
    if isinstance(event, TryFailed):
        return f"Šestka nepadla, {event.tries}. pokus ze 3."
    if isinstance(event, TurnPassed):
        if event.reason is PassReason.FORFEIT:
            return "Tah propadá: žádná figurka nemůže táhnout."
        if event.reason is PassReason.TRIES:
            return f"Tři pokusy bez šestky, hraje {PLAYER_LOWER[event.next]}."
        return f"Na tahu je {PLAYER_LOWER[event.next]}."
    if isinstance(event, Won):
        return f"{PLAYER[event.colour]} vyhrává!"
    raise TypeError(f"unknown event {event!r}")


def headline(events: list[Event]) -> str:
    """The one line the turn screen shows after an action: the most telling event."""
    order = (Won, Captured, EnteredGoal, Entered, TurnPassed, TryFailed, RollAgain, Moved)
    for kind in order:
        for e in events:
            if isinstance(e, kind):
                if isinstance(e, TurnPassed) and e.reason is PassReason.DONE:
                    continue
                return describe_event(e)
    return describe_event(events[0]) if events else ""


def explain(reason: Reason) -> str:
    """Why a piece may not move with this roll, in one Czech sentence."""
    roll = ROLL_NAME[reason.roll - 1].capitalize() if 1 <= reason.roll <= 6 else "Hod"
    why = reason.why
    if why is Why.LEGAL:
        return "Tahle figurka táhnout může."
    if why is Why.NO_PIECE:
        return "Na tom místě žádná tvoje figurka nestojí."
    if why is Why.HOUSE_NEEDS_SIX:
        return "Z domečku se dostaneš jen šestkou."
    if why is Why.START_HELD_BY_OWN:
        return "Startovní pole zabírá tvoje figurka, nasazovat teď nelze."
    if why is Why.OWN_PIECE_ON_TARGET:
        return f"{roll} by figurku postavila na tvoji vlastní."
    if why is Why.OVERSHOOTS_GOAL:
        return f"{roll} by figurku poslala za poslední pole cíle."
    if why is Why.CANNOT_JUMP_IN_GOAL:
        return "V cíli se podle zvolené varianty nepřeskakuje."
    if why is Why.SAFE_ON_START:
        other = PLAYER_ACC[reason.other] if reason.other is not None else "soupeře"
        return f"Na svém startu nejde {other} podle varianty vyhodit."
    if why is Why.MUST_ENTER:
        return "Po šestce musíš nejdřív nasadit figurku z domečku."
    if why is Why.MUST_CLEAR_START:
        return "Napřed musíš uvolnit startovní pole."
    if why is Why.MUST_CAPTURE:
        return "Podle varianty musíš vyhodit soupeře jinou figurkou."
    if why is Why.GAME_OVER:
        return "Hra už skončila."
    raise ValueError(f"unknown reason {why!r}")
