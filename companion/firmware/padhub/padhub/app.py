"""The pad hub application: scans -> touches and releases -> frames to the companion.

Everything is passed in: ``source()`` returns the next complete scan as
``(index, counts)`` or None when none is ready (:class:`padhub.pio.PioScanner`
on the board, a simulation elsewhere); ``link`` is a ``tablelink.Link`` with the
hub's talker; ``detector`` a :class:`padhub.sense.Detector`.  ``step(now)``
handles every scan that is ready and keeps the link going (``now`` a ticks_ms
value); the board entry point calls ``run()``.

An event frame is ``PAD boot,seq,channel,us,state``: the channel
(:mod:`padhub.layout`), the sample time of the scan that saw the change first
(microseconds after the sequencer started) and 1 touched / 0 released.  The
heartbeat carries the clock of the last scan and the scans missed so far.
"""

from . import layout
from .sense import Detector


class Hub:
    def __init__(self, source, link, detector=None, missed=None, status_led=None):
        self.source = source
        self.link = link
        self.detector = detector if detector is not None else Detector()
        self.missed = missed or (lambda: 0)
        self.status_led = status_led
        self.last_scan = 0
        self.started = False
        self.events = 0

    def beat_fields(self):
        """The heartbeat's fields after the boot id: the hub's clock and the missed scans."""
        return (self.last_scan * layout.SCAN_US, self.missed())

    def step(self, now, budget=64):
        """Handle up to ``budget`` ready scans, then poll the link."""
        if not self.started:
            self.started = True
            self.link.start(now)
        for _ in range(budget):
            scan = self.source()
            if scan is None:
                break
            index, counts = scan
            self.last_scan = index
            for ch, touched, us in self.detector.update(index, counts):
                self.link.event("PAD", (ch, us, 1 if touched else 0), now)
                self.events += 1
        self.link.poll(now)
        if self.status_led is not None:
            self.status_led.value(1 if self.link.outbox else 0)

    def run(self, ticks_ms):
        """Forever: the scans set the pace (``source`` waits for the next one)."""
        while True:
            self.step(ticks_ms())
