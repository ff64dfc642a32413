"""Which pad is on which channel, and when each channel is sampled in a scan.

One 74HC4051 8-channel multiplexer per *island* (a pile, or the graveyard), lying
under it, so that every pad's wire to its multiplexer is a few centimetres long
(hardware/guide/pads.md, "The pad hub's front end"): multiplexer ``t - 1`` serves the
pile of seat ``t`` (``t`` = 1..6), multiplexer 6 the graveyard.  On each
multiplexer, slot ``s - 1`` is the sector of seat ``s`` (``s`` = 1..6); slots 6
and 7 have no pad: they measure the multiplexer and its line alone, the
reference that tells a pad from an open channel.  Channel = ``mux * 8 + slot``:
7 multiplexers x 8 = 56 channels, 42 of them pads.

The sequencer state machine (:mod:`padhub.pio`, 1 MHz: one cycle is 1 us) runs
one scan of :data:`SCAN_US`: one cycle to start, then the eight slots from 7
down to 0, :data:`SLOT_US` each.  In a slot it sets the multiplexers' address,
waits for them to settle, then raises the strobe: every multiplexer's sense
machine discharges its selected pad and times its charge, all seven at once.
So slot ``s`` of scan ``k`` is sampled :func:`sample_us` after the sequencer
started, on every multiplexer alike; the hub's time stamps are these sample
times, on the one clock that drives every state machine.
"""

from .shims import const

SEATS = const(6)
MUXES = const(7)  # six piles and the graveyard
SLOTS = const(8)  # channels of one multiplexer
CHANNELS = const(56)  # MUXES * SLOTS
GRAVEYARD_MUX = const(6)
REFERENCE_SLOTS = (6, 7)  # no pad: the multiplexer and its line alone
SLOT_US = const(124)  # 5 (address, settle) + 1 + 14 * 8 (strobe window) + 6
SCAN_US = const(993)  # 1 + SLOTS * SLOT_US: every pad once per scan, within 1 ms
FIRST_SLOT_US = const(1)  # the "set y, 7" that starts a scan
CHARGE_US = const(6)  # from a slot's start to the strobe: the charge starts then
COUNT_LIMIT = const(6000)  # 2 cycles per count at 125 MHz: 96 us, inside the 113 us strobe
COUNT_NS = const(16)  # one count of the charge timers


def channel(seat, target):
    """The channel of the pad where ``seat`` touches ``target`` (a seat number or "g")."""
    if not 1 <= seat <= SEATS:
        raise ValueError("seats are 1 to 6")
    if target == "g":
        return GRAVEYARD_MUX * SLOTS + seat - 1
    if not 1 <= target <= SEATS:
        raise ValueError("piles are 1 to 6")
    return (target - 1) * SLOTS + seat - 1


def pad(ch):
    """(seat, target) of channel ``ch``, or None for a reference slot."""
    mux, slot = divmod(ch, SLOTS)
    if slot >= SEATS or not 0 <= mux < MUXES:
        return None
    return (slot + 1, "g" if mux == GRAVEYARD_MUX else mux + 1)


def references(ch):
    """The reference channels (no pad) of channel ``ch``'s multiplexer."""
    base = (ch // SLOTS) * SLOTS
    return tuple(base + slot for slot in REFERENCE_SLOTS)


def sample_us(scan, ch):
    """When channel ``ch`` is sampled in scan ``scan`` (us after the sequencer started)."""
    slot = ch % SLOTS
    return scan * SCAN_US + FIRST_SLOT_US + (SLOTS - 1 - slot) * SLOT_US + CHARGE_US
