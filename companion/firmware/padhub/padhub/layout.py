"""Which pad is on which channel, and when each channel is sampled in a scan.

Each seat has one 74HC4051 8-channel multiplexer: its *slot* ``t - 1`` is the
pad on seat ``t``'s pile (``t`` = 1..6), slot 7 the pad on the graveyard, slot 6
is free.  Channel = ``(seat - 1) * 8 + slot``: 6 seats x 8 = 48 channels, 42 of
them pads (6 seats x (6 piles + the graveyard)).

The sequencer state machine (:mod:`padhub.pio`, 1 MHz: one cycle is 1 us) runs
one scan of :data:`SCAN_US`: one cycle to start, then the eight slots from 7
down to 0, :data:`SLOT_US` each.  In a slot it sets the multiplexers' address,
waits for them to settle, then raises the strobe: every seat's sense machine
discharges its selected pad and times its charge, all six at once.  So slot
``s`` of scan ``k`` is sampled :func:`sample_us` after the sequencer started,
for every seat alike; the hub's time stamps are these sample times, on the one
clock that drives every state machine.
"""

from .shims import const

SEATS = const(6)
SLOTS = const(8)  # channels of one multiplexer
CHANNELS = const(48)  # SEATS * SLOTS
GRAVEYARD_SLOT = const(7)
SLOT_US = const(124)  # 5 (address, settle) + 1 + 14 * 8 (strobe window) + 6
SCAN_US = const(993)  # 1 + SLOTS * SLOT_US: every pad once per scan, within 1 ms
FIRST_SLOT_US = const(1)  # the "set y, 7" that starts a scan
CHARGE_US = const(6)  # from a slot's start to the strobe: the charge starts then


def channel(seat, target):
    """The channel of the pad where ``seat`` touches ``target`` (a seat number or "g")."""
    if not 1 <= seat <= SEATS:
        raise ValueError("seats are 1 to 6")
    if target == "g":
        return (seat - 1) * SLOTS + GRAVEYARD_SLOT
    if not 1 <= target <= SEATS:
        raise ValueError("piles are 1 to 6")
    return (seat - 1) * SLOTS + target - 1


def pad(ch):
    """(seat, target) of channel ``ch``, or None for a free slot."""
    seat, slot = divmod(ch, SLOTS)
    if slot == GRAVEYARD_SLOT:
        return (seat + 1, "g")
    if slot < SEATS:
        return (seat + 1, slot + 1)
    return None


def sample_us(scan, ch):
    """When channel ``ch`` is sampled in scan ``scan`` (us after the sequencer started)."""
    slot = ch % SLOTS
    return scan * SCAN_US + FIRST_SLOT_US + (SLOTS - 1 - slot) * SLOT_US + CHARGE_US
