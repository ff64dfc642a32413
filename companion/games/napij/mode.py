"""Where a napij se table is in the game (:class:`Mode`) and the table duties it calls.

The turn (:mod:`.turn`) moves the mode, the inputs (:mod:`.inputs`) read the buttons by it
and the panel (:mod:`.panel`) draws the screen of it.
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.napij.engine.state import DrinkReason


class Mode(StrEnum):
    """Where the table is in the game (the buttons and the screen follow it)."""

    IDLE = "idle"  # no game yet
    ERROR = "error"  # the game could not start (a board or deck file): say why
    LOT = "lot"  # the companion throws for each seat: who starts
    PLAY = "play"
    OVER = "over"
    LEDGER = "ledger"  # the drink ledger: who owes what; ● on a player: drank
    DUTY_WHO = "duty-who"  # calling a table duty: whom
    DUTY_WHY = "duty-why"  # ... and what for
    TALLY = "tally"  # "Účet"


LISTS = (Mode.LEDGER, Mode.DUTY_WHO, Mode.DUTY_WHY, Mode.TALLY)
"""The lists the menu opens over the game (a long ● goes back from them)."""

DUTY_WORDS = ((DrinkReason.DROPPED_DICE, "shodil kostku"), (DrinkReason.DELAY, "zdržuje"),
              (DrinkReason.CHEATING, "švindluje"), (DrinkReason.UPSET, "rozčiluje se"))
"""The table duties the menu calls, with their words on the list ("Zelený zdržuje")."""
