"""How the Člověče screens are read aloud (the voice mode; :mod:`companion.ui.reading` imports
this module when a Člověče view is first read: each view names its reader)."""

from __future__ import annotations

from collections.abc import Hashable

from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.ui.reading import Reading, sentence
from companion.ui.screens import DICE_LOST, DICE_MISSING


def read_turn(v: CloveceTurnView) -> Reading:
    """The turn read aloud: who, the throw, what to do; the selected move in words."""
    who = f"{v.player} (PC)" if v.computer else v.player
    status = v.prompt
    if v.dice == "lost":
        status = DICE_LOST
    elif v.dice == "missing" and v.manual_roll is not None:
        status = DICE_MISSING
    if v.roll is not None:
        throw = f"Hod PC: {v.roll}" if v.roll_virtual else f"Hod: {v.roll}"
    elif v.manual_roll is not None:
        throw = f"Hod tlačítky: {v.manual_roll}"
    else:
        throw = f"Pokus {v.tries + 1} ze 3" if v.tries_shown else ""
    heading = sentence(who, throw, status)
    row = v.words
    if len(v.choices) > 1 and v.words:
        row = f"Tah {v.selected + 1} z {len(v.choices)}: {v.words}"
    key: Hashable = ("turn", v.colour, v.roll, v.manual_roll is not None, len(v.choices),
                     v.tries if v.tries_shown else -1, v.dice)
    if v.manual_roll is not None:
        row = ""  # the number is the row: ◀ ▶ change it, the heading says it
        key = ("turn", v.colour, None, True, v.manual_roll)
    return Reading(key, heading, row, sentence(heading, row, v.event))


def read_win(view: CloveceWinView) -> Reading:
    heading = f"Vyhrává {view.player}!"
    return Reading(("win", view.colour), heading, view.footer, sentence(heading, view.footer))
