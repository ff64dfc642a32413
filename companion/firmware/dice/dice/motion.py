"""Roll and drop detection from accelerometer samples (milli-g, any sensor).

Roll: a state machine ``REST -> SHAKEN -> (settled) -> REST`` that reports
one roll each time the dice comes to rest after being shaken or thrown.

* A sample is *moving* when the acceleration's magnitude is more than
  ``shake_mg`` away from 1 g, or when it changed by more than ``jerk_mg``
  since the previous sample (a die turned in the hand keeps |a| = 1 g but
  swaps axes).  Moving time fills a leaky score (still time drains it at half
  speed); the dice is SHAKEN once the score reaches ``shake_ms``, so a bump
  on the table is not a roll.
* A SHAKEN dice is *settled* after ``settle_ms`` of still samples in a row
  (|a| within ``rest_mg`` of 1 g and a change below ``still_mg``): one roll.

Drop: free fall is |a| below ``fall_mg`` (the same rule as the ADXL345's own
free-fall detector).  A fall longer than ``drop_ms`` reports a drop when it
ends, with its duration; a throw onto the table falls far shorter (a 30 cm
fall lasts 250 ms; a 75 cm table edge, 390 ms).

The clock comes in as MicroPython ticks (``now`` in ms), wrap-around safe.
"""

from .shims import const, ticks_diff

REST = const(0)
SHAKEN = const(1)

ROLL = "roll"
DROP = "drop"

_MAX_STEP_MS = const(100)  # a stalled loop does not count as long shaking


class MotionTracker:
    def __init__(
        self,
        shake_mg=600,
        jerk_mg=500,
        shake_ms=150,
        rest_mg=150,
        still_mg=100,
        settle_ms=400,
        fall_mg=400,
        drop_ms=300,
    ):
        self.lo2 = max(0, 1000 - shake_mg) ** 2
        self.hi2 = (1000 + shake_mg) ** 2
        self.jerk2 = jerk_mg * jerk_mg
        self.rest_lo2 = max(0, 1000 - rest_mg) ** 2
        self.rest_hi2 = (1000 + rest_mg) ** 2
        self.still2 = still_mg * still_mg
        self.fall2 = fall_mg * fall_mg
        self.shake_ms = shake_ms
        self.settle_ms = settle_ms
        self.drop_ms = drop_ms
        self.state = REST
        self.score = 0
        self.last = None  # (now, x, y, z) of the previous sample
        self.still_since = None
        self.fall_since = None
        self.rolls = 0
        self.drops = 0

    def update(self, now, x, y, z):
        """Feed one sample; returns a list of events: ``(ROLL,)`` or ``(DROP, ms)``."""
        events = []
        mag2 = x * x + y * y + z * z
        last = self.last
        self.last = (now, x, y, z)
        if last is None:
            step = 0
            change2 = 0
        else:
            step = min(max(ticks_diff(now, last[0]), 0), _MAX_STEP_MS)
            dx = x - last[1]
            dy = y - last[2]
            dz = z - last[3]
            change2 = dx * dx + dy * dy + dz * dz

        # Free fall -> drop (independent of the roll state).
        if mag2 < self.fall2:
            if self.fall_since is None:
                self.fall_since = now
        elif self.fall_since is not None:
            fell = ticks_diff(now, self.fall_since)
            self.fall_since = None
            if fell >= self.drop_ms:
                self.drops += 1
                events.append((DROP, fell))

        moving = mag2 < self.lo2 or mag2 > self.hi2 or change2 > self.jerk2
        still = self.rest_lo2 <= mag2 <= self.rest_hi2 and change2 <= self.still2
        if self.state == REST:
            if moving:
                self.score += step
            else:
                self.score = max(0, self.score - step // 2)
            if self.score >= self.shake_ms:
                self.state = SHAKEN
                self.still_since = None
        else:
            if not still:
                self.still_since = None
            elif self.still_since is None:
                self.still_since = now
            if self.still_since is not None and ticks_diff(now, self.still_since) >= self.settle_ms:
                self._rest()
                self.rolls += 1
                events.append((ROLL,))
        return events

    def _rest(self):
        self.state = REST
        self.score = 0
        self.still_since = None
