"""What a host tells about its game beyond the OLED: the values a view of the whole table needs.

The phone view (:mod:`companion.web`, started by the service) shows the whole
board, the last throws, the event lines, a ledger and the touches of the pads.  A
host hands them over as one frozen value from its ``facts()`` method
(:class:`~.base.Showing`); the service turns it into a page snapshot on the web
server's thread (:meth:`Facts.snapshot`).  So a facts value is immutable (engine
states, tuples, frozen dataclasses), nothing is drawn when it is made, and making
one costs the loop a few microseconds: the service asks after each step and
compares with the last.

Each game defines its facts in its own folder (``companion/games/<game>/facts.py``):
a frozen dataclass with the game's values, its snapshot builder (imported when the
phone view first builds a page) and what the table's voice asks of it; the defaults
of the voice's questions are :class:`Spoken`'s.  Nothing here names a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from companion.web.snapshot import Snapshot


class Facts(Protocol):
    """What every facts value is: immutable, compared with ``==``, able to make its page's
    snapshot and to answer the table's voice (:mod:`companion.service.narrator`)."""

    @property
    def events(self) -> tuple[str, ...]:
        """The event lines of the moment, newest last (shown on the phones, said by the voice)."""

    def snapshot(self, rules: Sequence[tuple[str, str]]) -> Snapshot:
        """The phone page's snapshot (``rules``: the rules topics, (title, text)); runs on
        the web server's thread."""

    def whole_game(self) -> str:
        """The whole game in one text (a long ◀ in the voice mode), or "" when unknown."""

    def settled_ruling(self, calls: bool) -> tuple[object, str] | None:
        """A ruling to say: (what tells it from the one said before, its words; ``calls``:
        with how each contested place was decided), or ``None``."""

    def unsaid(self, new: tuple[str, ...]) -> tuple[str, ...]:
        """Of the ``new`` event lines (the latest), those the host has not said itself."""

    def told(self, new: tuple[str, ...]) -> tuple[str, ...]:
        """Of the ``new`` event lines, those the default voice says (not the flips of a
        deck, which only the voice mode says)."""

    def after_ruling(self, new: tuple[str, ...], ruling: str | None) -> tuple[str, ...]:
        """Of the ``new`` event lines, those still to say once ``ruling`` was said (``None``:
        no ruling was said now)."""


class Spoken:
    """The default answers to the voice's questions (a game's facts class derives from this
    and overrides what its game has to say)."""

    __slots__ = ()

    def whole_game(self) -> str:
        return ""

    def settled_ruling(self, calls: bool) -> tuple[object, str] | None:
        return None

    def unsaid(self, new: tuple[str, ...]) -> tuple[str, ...]:
        return new

    def told(self, new: tuple[str, ...]) -> tuple[str, ...]:
        return new

    def after_ruling(self, new: tuple[str, ...], ruling: str | None) -> tuple[str, ...]:
        return new


@runtime_checkable
class Turning(Protocol):
    """Facts of a game played by colours in turn: which colour is on turn (the dice's verdict
    and the voice ask it; a game without colours does not speak this)."""

    def on_turn(self) -> int | None: ...
