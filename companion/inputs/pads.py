"""Slap pads as values: which pad (seat, target) and what it did, with its edge time.

The pad hub also says when its line comes and goes (:class:`PadLink`), and what its raw
charge counts say of each pad's channel (:class:`PadChannels`).

A pad is a (seat, target) pair: seat ``s`` touches the pile of a seat or the
graveyard ``"g"``.  The pad adapters (GPIO edges, a pad hub) make these
values; the hosts of slap-pad games consume them; neither knows the other.
"""

from __future__ import annotations

from dataclasses import dataclass


class PadNameError(ValueError):
    """A pad name that cannot be read (one sentence)."""


@dataclass(frozen=True)
class Pad:
    """One slap pad: ``seat`` touches ``target`` (a seat number, or ``"g"`` the graveyard)."""

    seat: int
    target: int | str

    @property
    def key(self) -> str:
        return f"{self.seat}>{self.target}"

    @staticmethod
    def parse(key: str) -> Pad:
        seat, sep, target = key.partition(">")
        if not sep or not seat.isdigit() or not (target == "g" or target.isdigit()):
            raise PadNameError(f"Bad pad name {key!r}: write SEAT>TARGET, e.g. 1>2 or 3>g.")
        return Pad(int(seat), "g" if target == "g" else int(target))


def table_pads(seats: int) -> list[Pad]:
    """Every pad of a ``seats``-seat table: each seat on every pile and on the graveyard."""
    return [Pad(s, t) for s in range(1, seats + 1) for t in [*range(1, seats + 1), "g"]]


@dataclass(frozen=True)
class PadTouch:
    """``seat`` touched ``target`` at edge tick ``tick`` (opaque, the factory's units);
    ``ms`` is that moment in milliseconds after the adapter's first edge, for ordering."""

    seat: int
    target: int | str
    tick: float
    ms: float

    @property
    def pad(self) -> Pad:
        return Pad(self.seat, self.target)


@dataclass(frozen=True)
class PadStuck:
    """The pad has been active too long: it is ignored until released."""

    seat: int
    target: int | str

    @property
    def pad(self) -> Pad:
        return Pad(self.seat, self.target)


@dataclass(frozen=True)
class PadReleased:
    """A stuck pad was let go and counts again."""

    seat: int
    target: int | str

    @property
    def pad(self) -> Pad:
        return Pad(self.seat, self.target)


@dataclass(frozen=True)
class PadLink:
    """The pads' link came up or went down (the pad hub's serial line; GPIO pads have none)."""

    up: bool
    detail: str = ""


CHANNEL_PROBLEMS = ("saturated", "shorted", "open", "silent")
"""What a pad's channel may be (:mod:`companion.devices.pads.raw`): its line never charged in
the window, charged at once, shows no pad, or sent no count."""


@dataclass(frozen=True)
class PadChannel:
    """A pad whose channel on the pad hub looks wrong: ``problem`` is one of
    :data:`CHANNEL_PROBLEMS`."""

    pad: Pad
    problem: str


@dataclass(frozen=True)
class PadChannels:
    """The pad hub's latest raw-count report: the pads whose channel looks wrong (empty: all
    fine)."""

    problems: tuple[PadChannel, ...] = ()


PadSignal = PadTouch | PadStuck | PadReleased | PadLink | PadChannels
