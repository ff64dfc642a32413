"""What a host's step gives back to the shell, as values: the shell acts on them.

A host does not reach into the shell (no replaced callbacks, nothing listened for on the
side): :meth:`~companion.service.hosts.base.GameHost.handle` returns an :class:`Outcome`
saying whether the input counted, whether the input's dice mark went into the journal with
the action it caused, the beep to sound and what the host asks of the shell next.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engines.game import Record
from companion.inputs.events import Dropped, Input, Rolled
from companion.service.hosts.base import Request


class Beep(StrEnum):
    """The short sounds of the table (the buzzer's or the speaker's)."""

    TURN = "turn"  # a computer's throw, a turn handed over
    SIX = "six"  # a six: throw again
    WIN = "win"  # the game is won
    DEBT = "debt"  # a drink is owed
    ILLEGAL = "illegal"  # refused: not now, not legal, not saved
    VOID_THROW = "void-throw"  # a throw made while owing a drink: void


NOT_COUNTING = frozenset({Beep.ILLEGAL, Beep.VOID_THROW})
"""Beeps that go with an input the table did not take."""

@dataclass(frozen=True)
class Outcome:
    """What one input (or tick) did at the table."""

    counted: bool = True
    """The input was taken as play: a roll counted for the seat on turn, a press did what it
    says.  ``False``: refused (not this seat's throw, a throw while owing, nothing to do)."""
    journaled: bool = False
    """The input's dice mark was written into the journal with the action it caused (so it
    is acknowledged and never taken again); ``False``: the shell notes the mark by itself."""
    beep: Beep | None = None
    """The sound to make, if any (the shell knows whether sound is on)."""
    request: Request | None = None
    """What the host asks of the shell next (the set-up for a new game...)."""


NOTHING = Outcome()
"""An input that was taken and asks for nothing more."""
REFUSED = Outcome(counted=False, beep=Beep.ILLEGAL)
"""An input the table does not take now."""


def asking(request: Request | None) -> Outcome:
    """An input that was taken and asks ``request`` of the shell (``None``: nothing)."""
    return NOTHING if request is None else Outcome(request=request)


def input_mark(event: Input) -> Record | None:
    """The journal's mark of a dice event that waits for its acknowledgement (the dice's boot
    and the event's number), or ``None``: a host passes it to the journal write the event
    causes (:meth:`~companion.service.hosts.base.JournaledGame.commit`), so the mark and the
    action are on disk together."""
    match event:
        case Rolled(receipt=receipt, boot=boot, seq=seq) | Dropped(
                receipt=receipt, boot=boot, seq=seq) if receipt is not None and boot:
            return {"src": "dice", "boot": boot, "seq": seq}
    return None
