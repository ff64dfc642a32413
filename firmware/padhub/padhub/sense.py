"""Charge times in, touches out: one detector for every channel of the hub.

A pad charges through its resistor in a time proportional to its capacitance; a
hand on (or just above) the pad adds capacitance, so the charge takes longer.
Each scan hands in every channel's charge time (in state-machine counts, as
:mod:`padhub.scan` assembles them); this module decides when a pad is touched
and when it is let go, and when that happened.

* **Baseline.** The first ``settle`` scans are averaged into each channel's
  untouched charge time (fixed point, x16).  After that, an untouched channel's
  baseline follows slow drift (temperature, a pile of cards growing) by
  ``1/2**drift_shift`` of the difference per scan, only while the count stays
  below the release threshold (rounded towards zero both ways, so noise
  around the baseline does not walk it).
* **Thresholds.** Touched when the count exceeds the baseline by
  ``baseline >> on_shift`` (3.1 % by default, at least ``min_delta`` counts);
  released below half that (hysteresis).  A hand through a pile of 20 cards
  adds about 6 % to a pad's node (hardware/guide/pads.md, "The pad hub's front end":
  the capacitance budget), so the threshold is half of that.
* **Confirmation.** ``confirm`` scans in a row beyond a threshold change the
  state (one noisy scan does nothing), and the change is *dated at the first of
  them*: confirmation delays the report, never the time stamp.
* **Maximum on time.** A pad held beyond ``max_on`` scans (10 s) is taken as
  changed surroundings: the detector reports it released and learns the new
  count as its baseline (as touch chips do).

Events are ``(channel, touched, us)`` with ``us`` the sample time of the first
confirming scan (``layout.sample_us``).  Integers only: cheap on the RP2040.
"""

from . import layout
from .shims import const

ON_SHIFT = const(5)
MIN_DELTA = const(8)
CONFIRM = const(2)
SETTLE = const(64)
DRIFT_SHIFT = const(8)
MAX_ON = const(10000)


class Detector:
    def __init__(self, channels=layout.CHANNELS, on_shift=ON_SHIFT, min_delta=MIN_DELTA,
                 confirm=CONFIRM, settle=SETTLE, drift_shift=DRIFT_SHIFT, max_on=MAX_ON,
                 sample_us=layout.sample_us):
        self.channels = channels
        self.on_shift = on_shift
        self.min_delta16 = min_delta * 16
        self.confirm = confirm
        self.settle = settle
        self.drift_shift = drift_shift
        self.max_on = max_on
        self.sample_us = sample_us
        self.base = [0] * channels  # baseline x16
        self.on = [0] * channels  # touch threshold x16
        self.off = [0] * channels  # release threshold x16
        self.touched = [False] * channels
        self.streak = [0] * channels  # scans in a row beyond the threshold that changes state
        self.since = [0] * channels  # the first scan of the streak
        self.held = [0] * channels  # scans touched
        self.settled = 0  # scans averaged so far

    def _thresholds(self, ch):
        base = self.base[ch]
        delta = base >> self.on_shift
        if delta < self.min_delta16:
            delta = self.min_delta16
        self.on[ch] = base + delta
        self.off[ch] = base + (delta >> 1)

    @property
    def ready(self):
        return self.settled >= self.settle

    def update(self, scan, counts):
        """One scan's charge counts (one per channel); returns the events it confirms."""
        if self.settled < self.settle:
            for ch in range(self.channels):
                self.base[ch] += counts[ch] * 16
            self.settled += 1
            if self.settled == self.settle:
                for ch in range(self.channels):
                    self.base[ch] //= self.settle
                    self._thresholds(ch)
            return ()
        events = []
        on, off, streak = self.on, self.off, self.streak
        for ch in range(self.channels):
            c16 = counts[ch] * 16
            if self.touched[ch]:
                self.held[ch] += 1
                if c16 < off[ch]:
                    n = streak[ch] + 1
                    if n == 1:
                        self.since[ch] = scan
                    if n >= self.confirm:
                        streak[ch] = 0
                        self.touched[ch] = False
                        events.append((ch, False, self.sample_us(self.since[ch], ch)))
                    else:
                        streak[ch] = n
                else:
                    streak[ch] = 0
                    if self.held[ch] >= self.max_on:
                        self.touched[ch] = False
                        self.base[ch] = c16
                        self._thresholds(ch)
                        events.append((ch, False, self.sample_us(scan, ch)))
            elif c16 > on[ch]:
                n = streak[ch] + 1
                if n == 1:
                    self.since[ch] = scan
                if n >= self.confirm:
                    streak[ch] = 0
                    self.touched[ch] = True
                    self.held[ch] = 0
                    events.append((ch, True, self.sample_us(self.since[ch], ch)))
                else:
                    streak[ch] = n
            else:
                streak[ch] = 0
                if c16 < off[ch]:
                    d = c16 - self.base[ch]
                    if d >= 0:
                        self.base[ch] += d >> self.drift_shift
                    else:
                        self.base[ch] -= (-d) >> self.drift_shift
                    if (scan & 63) == 0:
                        self._thresholds(ch)
        return events
