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

After every ``SYNC`` from the companion (it sends one whenever it opens the
line), and every ``RAW_EVERY_MS``, the hub reports every channel's raw charge counts, ``RAW
boot,channel,baseline,count,limit`` (``RAW_PER_STEP`` frames a step, so the
scans go on, and once the baselines have settled): the detector's untouched
baseline, the last scan's count and the count limit (a count above it: the line never charged
in the strobe window).  They are not events: no sequence number, no
acknowledgement; the companion names saturated and open channels from them
(``companion pads show --raw``).
"""

from . import layout
from .sense import Detector
from .shims import const, ticks_diff

RAW_PER_STEP = const(8)
RAW_EVERY_MS = const(10000)


class Hub:
    def __init__(self, source, link, detector=None, missed=None, status_led=None, limit=6000):
        self.source = source
        self.link = link
        self.detector = detector if detector is not None else Detector()
        self.missed = missed or (lambda: 0)
        self.status_led = status_led
        self.limit = limit
        self.last_scan = 0
        self.started = False
        self.events = 0
        self.counts = None  # the last scan's counts
        self._raw_next = None  # the next channel of a raw report under way
        self._raw_at = 0  # when the last report started
        self._syncs = 0

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
            self.counts = counts
            for ch, touched, us in self.detector.update(index, counts):
                self.link.event("PAD", (ch, us, 1 if touched else 0), now)
                self.events += 1
        self.link.poll(now)
        if self.link.syncs != self._syncs or (
                self._raw_next is None and ticks_diff(now, self._raw_at) >= RAW_EVERY_MS):
            self._syncs = self.link.syncs
            self._raw_next = 0  # (again) from the first channel
            self._raw_at = now
        if self._raw_next is not None:
            self._raw(RAW_PER_STEP)
        if self.status_led is not None:
            self.status_led.value(1 if self.link.outbox else 0)

    def _raw(self, frames):
        """Send the next ``frames`` channels of the raw report."""
        counts = self.counts
        detector = self.detector
        if counts is None or not detector.ready:
            return  # the report waits for the baselines to settle (64 scans after power-up)
        ch = self._raw_next
        end = min(ch + frames, len(counts))
        while ch < end:
            base = detector.base[ch] // 16
            self.link.send(self.link.encode("RAW", (self.link.boot_id, ch, base, counts[ch],
                                                    self.limit)))
            ch += 1
        self._raw_next = ch if ch < len(counts) else None

    def run(self, ticks_ms):
        """Forever: the scans set the pace (``source`` waits for the next one)."""
        while True:
            self.step(ticks_ms())
