"""The pad hub's raw charge counts, read as a builder reads them: which channels are wrong.

After every ``SYNC`` (and every ten seconds) the hub sends each channel's raw counts
(``RAW boot,channel,baseline,count,limit``, docs/dev/protocol.md).  A count is the time
the channel's sense line took to charge through its resistor, in 16 ns steps
(hardware/guide/pads.md, "The pad hub's front end"), so it grows with the capacitance on
the line: the pad, its wire, the multiplexer and the line to the Pico.

* **saturated**: the count is above the limit, the line never charged in the 96 us
  window: a short to ground, a pad wire touching metal, a missing 390 kOhm resistor,
  or more capacitance than the budget (a long or unshielded wire).
* **shorted**: the count is 0: the line read high at once (a short to 3.3 V).
* **open**: the pad adds less than :data:`OPEN_PF` to what its multiplexer's
  reference slots (6 and 7: no pad, no wire) measure alone: the sector is torn off
  its wire, or the wire is not connected.  The wire alone adds :data:`WIRE_PF`, so the
  threshold sits above it, halfway to the wire with the smallest sector on it.
* **silent**: no count came for the channel.

:func:`check` makes one :class:`ChannelCheck` per pad; :func:`problems` keeps the
wrong ones for the referee (:class:`~companion.inputs.pads.PadChannels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.inputs.pads import Pad, PadChannel, PadChannels

SENSE_OHMS = 390_000
"""Each multiplexer's pull-up to 3.3 V (hardware/guide/pads.md: the resistor and why)."""
COUNT_NS = 16
"""One count of the charge timers: two cycles at 125 MHz."""
SWITCH_FACTOR = 0.69
"""t = R C ln(3.3 V / (3.3 V - V_switch)); at half the supply ln 2 = 0.69 (an assumption
between the RP2040's V_IL 0.8 V and V_IH 2.0 V bounds: 0.28 to 0.93)."""
WIRE_PF_PER_M = 75.0
"""A sector's wire: 75 pF/m (fine-pitch ribbon, 23 pF/ft: hardware/guide/pads.md, the budget)."""
WIRE_M = 0.10
"""Every sector's wire to its multiplexer is cut to 10 cm (hardware/guide/pads.md)."""
WIRE_PF = WIRE_PF_PER_M * WIRE_M
"""What the wire alone adds: 7.5 pF (a sector torn off leaves just this)."""
SECTOR_MIN_PF = 1.6
"""The least a 3 x 5 cm sector adds: 8 eps0 r for a disc of its area (r = 2.2 cm), in
free space; over a table it adds more."""
OPEN_PF = WIRE_PF + SECTOR_MIN_PF / 2
"""8.3 pF: less is the wire alone (or nothing), more a sector on its wire."""
SLOTS = 8
REFERENCE_SLOTS = (6, 7)


@dataclass(frozen=True)
class RawCount:
    """One channel's report: the untouched baseline (0 before the hub settled), the last
    scan's count, and the limit."""

    channel: int
    baseline: int
    count: int
    limit: int


@dataclass(frozen=True)
class ChannelCheck:
    pad: Pad
    channel: int
    raw: RawCount | None
    pad_pf: float | None
    """What the pad adds over its multiplexer's reference slots (None: unknown)."""
    problem: str
    """"" when fine, else one of :data:`companion.inputs.pads.CHANNEL_PROBLEMS`."""

    @property
    def sentence(self) -> str:
        """One sentence for a person (``companion pads show --raw``, ``companion doctor``)."""
        where = f"Pad {self.pad.key} (channel {self.channel})"
        if self.problem == "silent":
            return f"{where} sent no count: the hub did not report it."
        raw = self.raw
        assert raw is not None
        if self.problem == "saturated":
            return (f"{where} never charged in the window (count above {raw.limit}): a short to "
                    "ground, its wire touching metal, a missing 390 kΩ resistor or too long a wire.")
        if self.problem == "shorted":
            return f"{where} reads charged at once: a short to 3.3 V."
        if self.problem == "open":
            return (f"{where} looks open: it adds {self.pad_pf:.1f} pF, less than a sector on "
                    f"its wire ({OPEN_PF:.1f} pF; the wire alone is {WIRE_PF:.1f} pF): check that "
                    "the sector is soldered to its wire and the wire to the multiplexer.")
        return (f"{where} is fine: {raw.count} counts ({microseconds(raw.count):.1f} µs), "
                f"the pad adds about {self.pad_pf:.0f} pF." if self.pad_pf is not None else
                f"{where} is fine: {raw.count} counts ({microseconds(raw.count):.1f} µs).")


def microseconds(counts: int) -> float:
    return counts * COUNT_NS / 1000.0


def picofarads(counts: float) -> float:
    """The capacitance that takes ``counts`` to charge (at the assumed switching factor)."""
    return counts * COUNT_NS * 1e-9 / (SWITCH_FACTOR * SENSE_OHMS) * 1e12


def _reference(raw: Mapping[int, RawCount], channel: int) -> int | None:
    base = (channel // SLOTS) * SLOTS
    counts = [raw[base + s].count for s in REFERENCE_SLOTS
              if base + s in raw and 0 < raw[base + s].count <= raw[base + s].limit]
    return min(counts) if counts else None


def check(raw: Mapping[int, RawCount], pads: Mapping[Pad, int]) -> list[ChannelCheck]:
    """Every pad of ``pads`` (pad -> hub channel), in order of its channel."""
    out = []
    for pad, channel in sorted(pads.items(), key=lambda kv: kv[1]):
        r = raw.get(channel)
        if r is None:
            out.append(ChannelCheck(pad, channel, None, None, "silent"))
            continue
        if r.count > r.limit:
            out.append(ChannelCheck(pad, channel, r, None, "saturated"))
            continue
        if r.count == 0:
            out.append(ChannelCheck(pad, channel, r, None, "shorted"))
            continue
        ref = _reference(raw, channel)
        added = picofarads(r.count - ref) if ref is not None else None
        problem = "open" if added is not None and added < OPEN_PF else ""
        out.append(ChannelCheck(pad, channel, r, added, problem))
    return out


def problems(checks: Iterable[ChannelCheck]) -> PadChannels:
    return PadChannels(tuple(PadChannel(c.pad, c.problem) for c in checks if c.problem))
