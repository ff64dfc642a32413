"""Roll and drop detection from accelerometer samples (milli-g, any sensor).

The thresholds and why they are what they are: hardware/guide/dice.md, "Rolls and drops".

Offsets.  An accelerometer at rest on a level table reads 0 g on its two
horizontal axes; what it reads there instead is that axis's 0 g offset (the
ADXL345 allows +-150 mg on X and Y, +-250 mg on Z).  Every time the die has lain
still for ``settle_ms`` on a face *on the table* (not in a hand), the two
horizontal axes' readings become their offsets (averaged with the old value),
and every sample is corrected by them: in free fall a corrected sensor reads
near 0, so the free-fall threshold keeps its margin.  The vertical axis's
reading is 1 g times the sensor's gain error plus its offset; until the die has
lain with that axis horizontal, its reading less 1 g stands in for its offset.
A reading further from 0 than an offset can be (``offset_mg``), or further from
an axis's known offset than it drifts (``offset_drift_mg``), is a die lying
tilted (against a box, on a hand): nothing is learnt from it.

Roll: a state machine ``REST -> SHAKEN -> (settled) -> REST`` that reports
one roll each time the die comes to rest after being shaken or thrown.

* A sample is *moving* when the acceleration's magnitude is more than
  ``shake_mg`` away from 1 g, or when it changed by more than ``jerk_mg``
  since the previous sample (a die turned in the hand keeps |a| = 1 g but
  swaps axes).  Moving time fills a leaky score (still time drains it at half
  speed); the die is SHAKEN once the score reaches ``shake_ms``, so a bump
  on the table is not a roll.
* A SHAKEN die is *settled* after ``settle_ms`` of still samples in a row
  (|a| within ``rest_mg`` of 1 g and a change below ``still_mg``): one roll.

Drop.  Free fall (|a| below ``fall_mg``, as the ADXL345's own free-fall
detector) is also what a thrown die does on its way up, so its length alone
cannot tell a high throw from a fall off the table.  What tells them apart is
*where the fall began*:

* In a hand.  A hand that picks the die up, shakes it or tosses it accelerates
  it: a sample is a hand's when |a| is above ``lift_mg`` without the die lying
  still, or when the reading grows along the 1 g it last lay under by
  ``lift_pct`` % (a die lifted straight up).  ``lift_ms`` of those make it the
  hand's (a leaky score: a quarter of the other samples' time drains it, so the
  single-sample knocks of a die rolling on the table never fill it).  A fall
  from the hand is a toss; it is a drop only when it lasts longer than the
  highest toss onto the table can: ``toss_ms``.
* On the table.  After a toss lands (a fall of ``flight_ms`` or more ends),
  the die may bounce: a fall that starts within ``bounce_gap_ms`` of that
  landing rises with at most ``bounce_pct`` / 200 of the speed the die landed
  with and comes down on the same table, so it lasts at most ``bounce_pct`` %
  of the fall before it.  A die lying or rolling on the table does not leave
  it for longer than ``hop_ms``.  A fall from the table longer than that is a
  die that left the table: a drop.

A die settled after it left the hand (a landing, or a knock above
``impact_mg`` once the hand's score has drained), or held still
``hand_still_ms`` (put back down without a throw), is on the table.  Falls shorter than ``flight_ms`` (a die
hopping in a shaking hand, a rolling die's hops) change nothing, nor does a fall
that does not end in a knock (above ``impact_mg``, within one sample): a die
caught, or a hand slowing down faster than gravity.

A drop is reported when the fall ends, with its duration; a die that fell off
the table usually tumbles and settles afterwards, which is also a roll: both
events are sent and the service decides.

The clock comes in as MicroPython ticks (``now`` in ms), wrap-around safe.
"""

from .shims import const, ticks_diff

REST = const(0)
SHAKEN = const(1)

HAND = const(0)
TABLE = const(1)

ROLL = "roll"
DROP = "drop"

_MAX_STEP_MS = const(100)  # a stalled loop does not count as long shaking
_LIFT_GAIN = const(4)  # the lift score: 4 x the time above lift_mg, less the time below


class MotionTracker:
    def __init__(
        self,
        shake_mg=600,
        jerk_mg=500,
        shake_ms=150,
        rest_mg=400,
        still_mg=100,
        settle_ms=400,
        fall_mg=500,
        flight_ms=130,
        toss_ms=800,
        hop_ms=150,
        bounce_pct=120,
        bounce_gap_ms=30,
        lift_mg=1300,
        lift_pct=125,
        lift_ms=50,
        hand_still_ms=10000,
        offset_mg=270,
        offset_drift_mg=60,
        impact_mg=2000,
    ):
        self.lo2 = max(0, 1000 - shake_mg) ** 2
        self.hi2 = (1000 + shake_mg) ** 2
        self.jerk2 = jerk_mg * jerk_mg
        self.rest_lo2 = max(0, 1000 - rest_mg) ** 2
        self.rest_hi2 = (1000 + rest_mg) ** 2
        self.still2 = still_mg * still_mg
        self.fall2 = fall_mg * fall_mg
        self.lift2 = lift_mg * lift_mg
        self.shake_ms = shake_ms
        self.settle_ms = settle_ms
        self.flight_ms = flight_ms
        self.toss_ms = toss_ms
        self.hop_ms = hop_ms
        self.bounce_pct = bounce_pct
        self.bounce_gap_ms = bounce_gap_ms
        self.lift_full = lift_ms * _LIFT_GAIN
        self.lift_pct = lift_pct
        self.rest = None  # the mean corrected reading of the last still spell (1 g, upwards)
        self.rest_lift = 0  # |rest|^2 * lift_pct / 100: a lift's reading along rest exceeds it
        self.hand_still_ms = hand_still_ms
        self.offset_mg = offset_mg
        self.offset_drift_mg = offset_drift_mg
        self.impact2 = impact_mg * impact_mg
        self.left_hand = True  # since the hand last held it, the die fell or knocked on something
        self.state = REST
        self.score = 0
        self.last = None  # (now, x, y, z) of the previous sample, corrected
        self.still_since = None
        self.fall_since = None
        self._ended = None  # (began, ms) of a fall waiting one sample for its knock
        self.rolls = 0
        self.drops = 0
        # where the die was when it last left a support, and the fall before
        self.contact = TABLE
        self.last_air = 0
        self.landed_at = None  # when the last fall of flight_ms or more ended
        self.lift = 0
        self.still_ms = 0  # still time in a row (for the hand's time-out)
        self.landing = None  # (fall ms, budget ms) of the last landing: for tests and tuning
        # offsets: raw reading of each axis at 0 g, and whether it has been measured
        self.offset = [0, 0, 0]
        self.known = [False, False, False]
        self.calibrations = 0
        self._window = [0, 0, 0, 0]  # raw sums of x, y, z and the count of the still run
        self._window_used = False

    def update(self, now, x, y, z):
        """Feed one sample; returns a list of events: ``(ROLL,)`` or ``(DROP, ms)``."""
        raw_x, raw_y, raw_z = x, y, z
        off = self.offset
        x -= off[0]
        y -= off[1]
        z -= off[2]
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

        # Free fall: a landing decides whether the fall was a drop.  A fall ends in a landing
        # when it is met by a knock (this sample or the next); one that ends softly was
        # caught, or was a hand slowing down faster than gravity.
        ended = self._ended
        self._ended = None
        if mag2 < self.fall2:
            if self.fall_since is None:
                self.fall_since = now
        elif self.fall_since is not None:
            fell = ticks_diff(now, self.fall_since)
            if fell >= self.flight_ms:
                ended = (self.fall_since, fell)
                if mag2 <= self.impact2:
                    self._ended, ended = ended, None  # wait one sample for the knock
            self.fall_since = None
        if ended is not None and mag2 > self.impact2 and self._landed(now, ended[0], ended[1]):
            self.drops += 1
            events.append((DROP, ended[1]))

        # A hand: sustained acceleration beyond what lying or rolling on a table gives, or a
        # lift straight up from where the die lay (its 1 g reading grows along itself).
        r = self.rest
        still = self.rest_lo2 <= mag2 <= self.rest_hi2 and change2 <= self.still2
        if ((mag2 > self.lift2 and not still)
                or (r is not None and x * r[0] + y * r[1] + z * r[2] > self.rest_lift)):
            self.lift += _LIFT_GAIN * step
            if self.lift >= self.lift_full:
                self.lift = self.lift_full
                self.contact = HAND
                self.left_hand = False
                self.still_ms = 0
            elif mag2 > self.impact2 and self.lift == _LIFT_GAIN * step:
                self.left_hand = True  # a knock on the table, long after the hand's last push
        elif self.lift:
            self.lift = max(0, self.lift - step)

        moving = mag2 < self.lo2 or mag2 > self.hi2 or change2 > self.jerk2
        if still:
            w = self._window
            w[0] += raw_x
            w[1] += raw_y
            w[2] += raw_z
            w[3] += 1
            if self.still_since is None:
                self.still_since = now
            self.still_ms += step
            if self.contact == HAND and self.still_ms >= self.hand_still_ms:
                self._on_table()  # put down without a throw
        else:
            self._window = [0, 0, 0, 0]
            self._window_used = False
            self.still_since = None
            self.still_ms = 0
        rested = self.still_since is not None and ticks_diff(now, self.still_since) >= self.settle_ms
        if rested and not self._window_used:
            self._window_used = True
            self._calibrate(self.contact == TABLE and self.left_hand)
        if self.state == REST:
            if moving:
                self.score += step
            else:
                self.score = max(0, self.score - step // 2)
            if self.score >= self.shake_ms:
                self.state = SHAKEN
        elif rested:
            self.state = REST
            self.score = 0
            if self.left_hand:
                self._on_table()  # else it settled in the hand that still holds it
            self.rolls += 1
            events.append((ROLL,))
        return events

    def _landed(self, now, began, fell):
        """A fall that began at ``began`` ended ``fell`` ms later: True when it was a drop."""
        if self.contact == HAND:
            budget = self.toss_ms
        elif self.landed_at is not None and ticks_diff(began, self.landed_at) <= self.bounce_gap_ms:
            budget = max(self.hop_ms, self.last_air * self.bounce_pct // 100)  # a bounce
        else:
            budget = self.hop_ms
        self.landing = (fell, budget)
        self.contact = TABLE
        self.left_hand = True
        self.last_air = fell
        self.landed_at = now
        self.lift = 0
        return fell > budget

    def _on_table(self):
        self.contact = TABLE
        self.last_air = 0
        self.landed_at = None
        self.lift = 0

    def _calibrate(self, on_table):
        """The die has lain still ``settle_ms``.  Its mean reading is the 1 g it rests under
        (``rest``).  Lying on a face on the table (``on_table``, not in a hand), the two
        horizontal axes' readings are their offsets, and the vertical axis's reading less
        1 g is a first guess of its offset (within the sensor's gain error) until that axis
        lies horizontal.  A reading further from 0 than an offset can be (``offset_mg``), or
        from a known offset than it drifts (``offset_drift_mg``), is a die lying tilted:
        nothing is learnt."""
        sx, sy, sz, n = self._window
        if n == 0:
            return
        mean = (sx // n, sy // n, sz // n)
        vertical = 0
        for axis in (1, 2):
            if abs(mean[axis]) > abs(mean[vertical]):
                vertical = axis
        old = tuple(self.offset)
        level = True
        for axis in range(3):
            if axis == vertical:
                continue
            if abs(mean[axis]) > self.offset_mg:
                level = False
            elif self.known[axis] and abs(mean[axis] - self.offset[axis]) > self.offset_drift_mg:
                level = False
        if level and not self.known[vertical]:  # a guess, in a level hand too: better than none
            self.offset[vertical] = mean[vertical] - (1000 if mean[vertical] > 0 else -1000)
        if level and on_table:
            for axis in range(3):
                if axis == vertical:
                    continue
                if self.known[axis]:
                    self.offset[axis] = (self.offset[axis] + mean[axis]) // 2
                else:
                    self.offset[axis] = mean[axis]
                    self.known[axis] = True
            self.calibrations += 1
        off = self.offset
        r = (mean[0] - off[0], mean[1] - off[1], mean[2] - off[2])
        self.rest = r
        self.rest_lift = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) * self.lift_pct // 100
        if self.last is not None:  # the next sample's change is measured with the new offsets
            t, x, y, z = self.last
            self.last = (t, x + old[0] - off[0], y + old[1] - off[1], z + old[2] - off[2])
