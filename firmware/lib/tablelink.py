"""A board's end of the link: sequence numbers, the outbox, acks, re-sends, heartbeats.

Shared by the boards around the table (copied to the board's ``:lib/``): the
dice and the pad hub.  Every event gets the next sequence number of this boot
and waits in the outbox until the companion acknowledges it (``ACK`` is
cumulative).  Unacknowledged events are re-sent, in order, every ``resend_ms``
and at once when the companion asks with ``SYNC`` (it does when it opens the
port), so an event made while the link was down arrives when it is back.  The
companion counts a re-sent event once.  If the outbox overflows, the oldest
event is dropped and counted in ``lost``; the next ``HELLO`` tells the companion
where the outbox now starts.

``stream`` is any object with ``write(bytes)`` and a non-blocking ``read()``
that returns bytes or None (USB CDC, a UART, a pty in a simulator).  ``talker``
is the board's talker (``tablewire.DICE``, ``tablewire.PADHUB``);
``hello_extra`` the fields its ``HELLO`` carries after the first unacknowledged
sequence number, ``beat()`` returns the fields of its ``BEAT`` after the boot id.
``now`` is a ticks_ms value.
"""

import tablewire as protocol
from tableshims import const, ticks_diff

RESEND_MS = const(300)
BEAT_MS = const(1000)
OUTBOX = const(32)


class Link:
    def __init__(
        self,
        stream,
        talker,
        device_id,
        firmware,
        boot_id,
        hello_extra=(),
        beat=None,
        outbox_size=OUTBOX,
        resend_ms=RESEND_MS,
        beat_ms=BEAT_MS,
    ):
        self.stream = stream
        self.talker = talker
        self.device_id = device_id
        self.firmware = firmware
        self.boot_id = boot_id
        self.hello_extra = tuple(hello_extra)
        self.beat_fields = beat
        self.outbox_size = outbox_size
        self.resend_ms = resend_ms
        self.beat_ms = beat_ms
        self.seq = 0  # the last sequence number given out
        self.acked = 0  # the highest acknowledged one
        self.outbox = []  # [(seq, frame)] in order
        self.splitter = protocol.Splitter()
        self.last_send = 0  # when the outbox was last (re-)sent
        self.last_beat = 0
        self.lost = 0
        self.rejected = 0
        self.acks = 0
        self.syncs = 0
        self.ignore_acks = False  # a simulator's "the acks get lost" switch

    def send(self, frame):
        self.stream.write(frame)

    def encode(self, kind, fields):
        """A frame of this board's talker (one that is not an event: no sequence number)."""
        return protocol.encode(self.talker, kind, fields)

    def hello(self):
        fields = (self.device_id, self.firmware, self.boot_id, self.first()) + self.hello_extra
        return protocol.encode(self.talker, "HELLO", fields)

    def first(self):
        """The oldest unacknowledged sequence number (the next one if all are acked)."""
        return self.outbox[0][0] if self.outbox else self.seq + 1

    def start(self, now):
        """Say hello and beat (at boot)."""
        self.last_beat = now
        self.last_send = now
        self.send(self.hello())
        self.send(self.beat())

    def event(self, kind, fields, now):
        """Queue and send an event of ``kind`` with ``fields`` after boot and seq; its seq."""
        self.seq += 1
        frame = protocol.encode(self.talker, kind, (self.boot_id, self.seq) + tuple(fields))
        self.outbox.append((self.seq, frame))
        if len(self.outbox) > self.outbox_size:
            self.outbox.pop(0)
            self.lost += 1
        self.send(frame)
        if len(self.outbox) == 1:
            self.last_send = now
        return self.seq

    def beat(self):
        extra = tuple(self.beat_fields()) if self.beat_fields is not None else ()
        return protocol.encode(self.talker, "BEAT", (self.boot_id,) + extra)

    def resend(self, now):
        self.last_send = now
        for _seq, frame in self.outbox:
            self.send(frame)

    def receive(self, line, now):
        """Handle one line from the companion."""
        try:
            talker, kind, fields = protocol.decode(line)
        except protocol.ProtocolError:
            self.rejected += 1
            return
        if talker != protocol.COMPANION:
            self.rejected += 1  # our own frames echoed back, or another board's
        elif kind == "SYNC":
            self.syncs += 1
            self.send(self.hello())
            self.send(self.beat())
            self.last_beat = now
            self.resend(now)
        elif kind == "ACK" and not self.ignore_acks:
            if fields[0] != self.boot_id:
                self.rejected += 1  # meant for an earlier boot
                return
            seq = int(fields[1])
            if seq > self.seq:
                self.rejected += 1  # acknowledges what was never sent
                return
            self.acks += 1
            if seq > self.acked:
                self.acked = seq
            while self.outbox and self.outbox[0][0] <= seq:
                self.outbox.pop(0)

    def poll(self, now):
        """Read what arrived, re-send what is due, beat when due.  Call often."""
        data = self.stream.read()
        if data:
            for line in self.splitter.feed(data):
                self.receive(line, now)
        if self.outbox and ticks_diff(now, self.last_send) >= self.resend_ms:
            self.resend(now)
        if ticks_diff(now, self.last_beat) >= self.beat_ms:
            self.last_beat = now
            self.send(self.beat())
