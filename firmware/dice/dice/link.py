"""The dice's end of the link: the table's shared ``tablelink`` with the dice's frames.

Sequence numbers, the outbox, acks, re-sends and heartbeats are the shared
``firmware/lib/tablelink.py`` (flashed to ``:lib/``).  The dice's
events are ``ROLL`` (value = face) and ``DROP`` (value = fall ms); its heartbeat
carries the battery's millivolts.  ``battery()`` returns millivolts or None.
"""

import tablelink
from tablelink import BEAT_MS, OUTBOX, RESEND_MS  # noqa: F401 - the dice's defaults

from . import protocol


class Link(tablelink.Link):
    def __init__(
        self,
        stream,
        device_id,
        firmware,
        boot_id,
        battery=None,
        outbox_size=OUTBOX,
        resend_ms=RESEND_MS,
        beat_ms=BEAT_MS,
    ):
        self.battery = battery
        super().__init__(stream, protocol.DICE, device_id, firmware, boot_id, (),
                         self._beat_fields, outbox_size, resend_ms, beat_ms)

    def _beat_fields(self):
        mv = self.battery() if self.battery is not None else None
        return ("-" if mv is None else mv,)

    def event(self, kind, value, now):
        """Queue and send a ROLL (value = face) or DROP (value = fall ms); returns its seq."""
        return super().event(kind, (value,), now)
