"""What a host tells about its game beyond the OLED: the values a view of the whole table needs.

The phone view (:mod:`companion.web`, started by the service) shows the whole
board, the last throws, the event lines, the ledger and the Gobbit touches.  A
host hands them over as one of the frozen values below from its ``facts()``
method (:class:`~.base.Showing`); the service turns them into a page snapshot
on the web server's thread.  So everything here is immutable (engine states,
tuples, frozen dataclasses), nothing is drawn, and making one costs the loop a
few microseconds: the service asks after each step and compares with the last.

Hosts sit below the service and know nothing of the web: these are engine-level
values only.  Each kind of value names the function that builds its page snapshot
(``snapshot``, a ``"module:function"`` path the phone view imports on the web server's
thread, as the registry names a game's engine and host): a new game's facts bring their
own builder, and the phone view names no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:  # types only: the service imports a game's engine when the game is chosen
    from companion.games.clovece.engine.rules import Move, Position
    from companion.games.gobbit.engine.cards import Card
    from companion.games.gobbit.engine.judge import Ruling, Situation, Touch
    from companion.games.gobbit.engine.rules import State as GobbitState
    from companion.games.napij.engine.state import State as NapijState


class Facts(Protocol):
    """What every facts value is: immutable, compared with ``==``, naming its snapshot builder."""

    snapshot: ClassVar[str]
    """``"module:function"``: ``function(facts, rules)`` returns the page's snapshot
    (:class:`companion.web.snapshot.Snapshot`; ``rules``: the rules topics, (title, text))."""

    @property
    def events(self) -> tuple[str, ...]:
        """The event lines of the moment, newest last (shown on the phones, said by the voice)."""


@runtime_checkable
class Turning(Protocol):
    """Facts of a game played by colours in turn: which colour is on turn (the dice's verdict
    and the voice ask it; a game without colours does not speak this)."""

    def on_turn(self) -> int | None: ...


@dataclass(frozen=True)
class CloveceFacts:
    """Člověče: the position, the throw of the turn (pending or just played), the last move."""

    snapshot: ClassVar[str] = "companion.web.snapshot:clovece_facts"

    pos: Position
    throws: tuple[int, ...] = ()
    moved: Move | None = None
    computer: frozenset[int] = frozenset()
    events: tuple[str, ...] = ()
    levels: tuple[tuple[int, str], ...] = ()
    """The computer seats' levels in Czech: (colour, "silný")."""

    def on_turn(self) -> int | None:
        return self.pos.turn


@dataclass(frozen=True)
class NapijFacts:
    """Člověče, napij se!: the state (ledger included), the fields the last play left and
    reached, the card drawn last, the drinks per colour since the box was switched on
    ("Účet", from the host's tally)."""

    snapshot: ClassVar[str] = "companion.web.snapshot:napij_facts"

    state: NapijState
    throws: tuple[int, ...] = ()
    """The turn's throws so far, or the last turn's once it was played."""
    moved: tuple[str, ...] = ()
    card: int | None = None
    tonight: tuple[int, ...] = ()
    computer: frozenset[int] = frozenset()
    events: tuple[str, ...] = ()
    levels: tuple[tuple[int, str], ...] = ()
    """The computer seats' levels in Czech: (colour, "silný")."""
    said: tuple[bool, ...] = ()
    """For each event line, whether the host's own voice has said it (a throw and the play
    said before it was taken): the table's voice does not say it twice."""

    def on_turn(self) -> int | None:
        return self.state.turn


@dataclass(frozen=True)
class GobbitFacts:
    """Gobbit with the virtual deck: the game, the latest moment's touches and the judge's
    ruling on them (``provisional`` while the moment goes on; each call of the ruling keeps
    the pads' timing uncertainty it was judged with, D28)."""

    snapshot: ClassVar[str] = "companion.web.snapshot:gobbit_facts"

    state: GobbitState
    touches: tuple[Touch, ...] = ()
    ruling: Ruling | None = None
    provisional: bool = False
    uncertainty_ms: float = 0.0
    events: tuple[str, ...] = ()
    judged_tops: tuple[tuple[int, Card | None], ...] = ()
    """Each seat's top card when the ruling was judged (the foul's reason names them, as the
    panel's verdict does); empty: the state's own."""


@dataclass(frozen=True)
class RefereeFacts:
    """Gobbit referee mode (real cards): the touch log, the latest moment and the situation
    the judge would rule it in (the cards the players entered, the pads' uncertainty).  The
    ruling itself is left to whoever shows it (the judge is pure)."""

    snapshot: ClassVar[str] = "companion.web.snapshot:referee_facts"

    seats: int
    log: tuple[Touch, ...]
    moment: tuple[Touch, ...]
    situation: Situation
    graveyard: bool = False
    events: tuple[str, ...] = ()
    """The rulings the table confirmed, latest last."""
    ruling: tuple[str, ...] = ()
    """The ruling the verdict screen shows now, in sentences (how the first touch was
    decided, what happens), or ``()`` off the verdict screens: the voice says it."""
    ruling_of: tuple[float, int, str] | None = None
    """The moment that ruling is about (its first touch: ms, seat, target)."""
    summary: str = ""
    """The whole situation in sentences (a held ◀ in the voice mode)."""

