"""A Pixels die's roll states turned into rolls, each delivered exactly once.

Pure: states in, rolls out; no I/O, no clock.  The die has no sequence numbers and no
acknowledgements: it notifies its roll state whenever the state or the face up changes
(``RollNotifications`` in the die firmware), and puts the same state into its
advertisement.  A throw is the die moving (``handling`` / ``rolling``) and then
landing: ``rolled`` on a face, or ``crooked`` (not flat: throw again).  So:

* motion *arms* the tracker; the next landing while armed is one roll (or one crooked
  landing) and disarms it.  A ``rolled`` while not armed is the same roll again - a
  duplicated notification, the state the die reports after a reconnection, a re-sent
  advertisement - and is only counted in :attr:`RollTracker.duplicates`.
* ``on face`` (the die was moved but not thrown: picked up and put down) disarms.
* a lost link keeps the arming: a throw whose landing notification was lost with the link
  is delivered from the state the die reports when it is back (its advertisement, or its
  answer to who-are-you).

A roll made entirely while the companion could neither hear the die nor see its
advertisements is not delivered: there is nothing to tell it from the last one (the table
plays with the buttons meanwhile).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice.pixels.messages import RollState

MOVING = (RollState.HANDLING, RollState.ROLLING)


@dataclass(frozen=True)
class Landed:
    """A throw landed on ``face_index``: one roll (``seq`` counts them from 1)."""

    face_index: int
    seq: int


@dataclass(frozen=True)
class Crooked:
    """A throw landed crooked (not flat on a face): the table should throw again."""

    face_index: int


class RollTracker:
    """See the module docstring."""

    def __init__(self) -> None:
        self.armed = False
        self.seq = 0
        self.duplicates = 0
        """Landings seen again (not delivered)."""
        self.state: RollState | None = None
        self.face: int | None = None

    def seen(self, state: RollState, face_index: int) -> Landed | Crooked | None:
        """The die reports ``state`` with ``face_index`` up (from any source)."""
        self.state, self.face = state, face_index
        if state in MOVING:
            self.armed = True
            return None
        if state is RollState.ROLLED:
            if not self.armed:
                self.duplicates += 1
                return None
            self.armed = False
            self.seq += 1
            return Landed(face_index, self.seq)
        if state is RollState.CROOKED:
            if not self.armed:
                self.duplicates += 1
                return None
            self.armed = False
            return Crooked(face_index)
        if state is RollState.ON_FACE:
            self.armed = False  # moved, not thrown
        return None
