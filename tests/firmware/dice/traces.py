"""Simulated accelerometer traces of throws and drops (CPython and MicroPython alike).

A die of :data:`SIZE_M` (hardware/guide/dice.md) with an ADXL345 whose every imperfection
the datasheet allows is drawn from a seeded generator: 0 g offsets up to +-150 mg
(X, Y) and +-250 mg (Z), gains within 3.5-4.3 mg/LSB of 3.9 (+-10 %), 4 mg of noise
(1.1 LSB rms at 100 Hz), the sensor up to 3 mm from the die's centre (the spin then
reads as a centripetal pull even in free fall), a table up to 1 degree off level.
The sensor samples at 100 Hz and clips at +-16 g, as the firmware sets it up.

Every trace is a list of (x, y, z) milli-g samples, 10 ms apart, built phase by phase
from the mechanics of the moment:

* **a throw** (:func:`throw`): the die rests, is picked up (a lift of 0.3-0.6 g),
  shaken in a cupped hand (1.2-2.5 g at 4-7 Hz, with hops in the hand of up to
  100 ms) or held still, then released from 5-30 cm above the table with the upward
  speed that takes it to a highest point 10-60 cm above the table (``apex_m``),
  spinning up to 5 turns a second; it flies (rise and fall), lands, bounces with a
  coefficient of restitution of 0.2-0.55 (each bounce lasts 2e times the fall before
  it), rolls (a slap and a pivot every quarter turn) and settles on a face;
* **a drop from a 75 cm table** (:func:`drop`), three ways: a die lying on the table
  is knocked (a 1.5-4 g knock), slides or tumbles to the edge and tips over it; one
  is pushed slowly over the edge; or a thrown die lands, bounces, rolls and rolls off
  the edge (spinning with its rolling speed, 0.2-0.8 m/s).  Then it falls 75 cm,
  hits the floor (restitution 0.05-0.5: carpet to tiles), bounces, rolls and
  settles.

The generator is a 32-bit xorshift (identical under both Pythons), so a seed gives the
same traces on CPython and in the MicroPython port.
"""

import math

G = 9.81
SIZE_M = 0.06  # the die's edge (hardware/guide/dice.md: a 60 mm cube)
TABLE_M = 0.75
STEP_S = 0.01  # 100 Hz
CLIP_MG = 16000
APEX_M = (0.10, 0.60)


class Rng:
    """xorshift32: the same numbers under CPython and MicroPython."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def next(self):
        s = self.state
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.state = s
        return s

    def uniform(self, low, high):
        return low + (high - low) * (self.next() / 4294967296.0)

    def chance(self, p):
        return self.uniform(0.0, 1.0) < p

    def gauss(self):
        u = max(self.uniform(0.0, 1.0), 1e-12)
        v = self.uniform(0.0, 1.0)
        return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)

    def unit(self):
        """A random unit vector."""
        while True:
            v = (self.uniform(-1, 1), self.uniform(-1, 1), self.uniform(-1, 1))
            n = norm(v)
            if 0.1 < n <= 1.0:
                return (v[0] / n, v[1] / n, v[2] / n)

    def horizontal(self):
        a = self.uniform(0, 2 * math.pi)
        return (math.cos(a), math.sin(a), 0.0)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(v):
    return math.sqrt(dot(v, v))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def scale(v, k):
    return (v[0] * k, v[1] * k, v[2] * k)


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def rotate(v, axis, angle):
    """``v`` turned by ``angle`` about the unit vector ``axis`` (Rodrigues)."""
    c = math.cos(angle)
    s = math.sin(angle)
    k = axis
    return add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c)))


class Die:
    """The die's orientation (its three axes in table coordinates, z up) and its sensor."""

    def __init__(self, rng):
        self.rng = rng
        self.offset = (rng.uniform(-150, 150), rng.uniform(-150, 150), rng.uniform(-250, 250))
        self.gain = (rng.uniform(0.9, 1.1), rng.uniform(0.9, 1.1), rng.uniform(0.9, 1.1))
        r = rng.unit()
        self.sensor_m = scale(r, rng.uniform(0.0, 0.003))  # from the centre, in die axes
        tilt = rng.uniform(0.0, math.radians(1.0))
        h = rng.horizontal()
        self.up = (h[0] * math.sin(tilt), h[1] * math.sin(tilt), math.cos(tilt))
        self.axes = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
        self.flat()
        self.samples = []

    def flat(self):
        """Lie on a random face (random turn about the vertical)."""
        rng = self.rng
        face = int(rng.uniform(0, 6)) % 6
        axes = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
        # the face's axis points up (or down), the others lie flat
        k = face % 3
        sign = 1.0 if face < 3 else -1.0
        order = [k, (k + 1) % 3, (k + 2) % 3]
        yaw = rng.uniform(0, 2 * math.pi)
        c, s = math.cos(yaw), math.sin(yaw)
        world = [(0.0, 0.0, sign), (c, s, 0.0), (-s * sign, c * sign, 0.0)]
        for i in range(3):
            axes[order[i]] = world[i]
        self.axes = tuple(axes)

    def turn(self, axis, angle):
        self.axes = tuple(rotate(a, axis, angle) for a in self.axes)

    def sample(self, force_mg, spin=None):
        """Record one sample of the specific force ``force_mg`` (table coordinates, mg);
        ``spin`` = (unit axis in table coordinates, rad/s) adds the centripetal pull."""
        rng = self.rng
        body = [dot(a, force_mg) for a in self.axes]
        if spin is not None:
            axis_t, w = spin
            axis_b = (dot(self.axes[0], axis_t), dot(self.axes[1], axis_t), dot(self.axes[2], axis_t))
            r = self.sensor_m
            along = dot(r, axis_b)
            perp = (r[0] - axis_b[0] * along, r[1] - axis_b[1] * along, r[2] - axis_b[2] * along)
            k = -w * w / G * 1000.0  # towards the spin axis
            body = [body[i] + perp[i] * k for i in range(3)]
        out = []
        for i in range(3):
            v = body[i] * self.gain[i] + self.offset[i] + 4.0 * rng.gauss()
            v = max(-CLIP_MG, min(CLIP_MG, v))
            out.append(int(round(v)))
        self.samples.append(tuple(out))

    # --- phases ---------------------------------------------------------------------------

    def rest(self, seconds):
        for _ in range(steps(seconds)):
            self.sample(scale(self.up, 1000.0))

    def lift(self, seconds, height_m):
        """Picked up ``height_m`` in ``seconds``: speeding up, then slowing to a stop in the
        hand (a sine of acceleration: peak 2 pi h / T^2); turned a little by the fingers."""
        n = steps(seconds)
        peak_mg = 2 * math.pi * height_m / (seconds * seconds) / G * 1000.0
        axis = self.rng.horizontal()
        turn = self.rng.uniform(0.0, math.radians(60)) / n
        for i in range(n):
            a = peak_mg * math.sin(2 * math.pi * (i + 0.5) / n)
            self.sample((0.0, 0.0, 1000.0 + a))
            self.turn(axis, turn)

    def hold(self, seconds):
        n = steps(seconds)
        axis = self.rng.unit()
        drift = math.radians(self.rng.uniform(0.0, 10.0)) / n
        for _ in range(n):
            tremor = scale(self.rng.unit(), self.rng.uniform(0.0, 15.0))
            self.sample(add((0.0, 0.0, 1000.0), tremor))
            self.turn(axis, drift)

    def shake(self, seconds):
        """Rattled in a cupped hand, hopping in it now and then (up to 100 ms)."""
        rng = self.rng
        n = steps(seconds)
        hz = rng.uniform(4.0, 7.0)
        amp = rng.uniform(1200.0, 2500.0)
        axis = rng.unit()
        rate = rng.uniform(3.0, 10.0)
        direction = rng.unit()
        i = 0
        while i < n:
            phase = math.sin(2 * math.pi * hz * i * STEP_S)
            if i and int(2 * hz * i * STEP_S) != int(2 * hz * (i - 1) * STEP_S):
                direction = rng.unit()  # the hand changes direction every half-cycle
                if rng.chance(0.25):  # a hop in the hand
                    hop = int(rng.uniform(2, 10))
                    for _ in range(hop):
                        self.sample((0.0, 0.0, 0.0), (axis, rate))
                        self.turn(axis, rate * STEP_S)
                    self.sample(add((0.0, 0.0, 1000.0), scale(rng.unit(), rng.uniform(1500, 4000))))
                    i += hop + 1
                    continue
            self.sample(add((0.0, 0.0, 1000.0), scale(direction, amp * phase)))
            self.turn(axis, rate * STEP_S)
            i += 1

    def push(self, v_up, v_side):
        """The hand's last push: ``v_up`` m/s upwards and ``v_side`` sideways in 100-150 ms."""
        tau = self.rng.uniform(0.10, 0.15)
        h = self.rng.horizontal()
        n = steps(tau)
        up = v_up / tau / G * 1000.0
        side = v_side / tau / G * 1000.0
        for _ in range(n):
            self.sample((h[0] * side, h[1] * side, 1000.0 + up))

    def fly(self, seconds, spin):
        axis, w = spin
        for _ in range(steps(seconds)):
            self.sample((0.0, 0.0, 0.0), spin)
            self.turn(axis, w * STEP_S)

    def impact(self, dv_up, dv_side=0.0):
        """A landing: the change of speed, spread over one 10 ms sample (clipped at 16 g)."""
        h = self.rng.horizontal()
        up = dv_up / STEP_S / G * 1000.0
        side = dv_side / STEP_S / G * 1000.0
        self.sample((h[0] * side, h[1] * side, 1000.0 + up))

    def roll(self, seconds, speed):
        """Tumbling over its edges: per quarter turn a pivot (the force dips as the centre
        goes over the edge), then the next face slaps down."""
        rng = self.rng
        axis = rng.horizontal()
        axis = (-axis[1], axis[0], 0.0)
        left = seconds
        w = max(speed / (SIZE_M / 2), 2.0)
        while left > 0:
            quarter = (math.pi / 2) / w
            n = max(1, steps(quarter) - 1)
            dip = min(0.6, w * w * SIZE_M / 2 / G)  # centripetal over the edge
            for i in range(n):
                self.sample((0.0, 0.0, 1000.0 * (1.0 - dip * math.sin(math.pi * (i + 0.5) / n))))
                self.turn(axis, (math.pi / 2) / (n + 1))
            self.turn(axis, (math.pi / 2) / (n + 1))
            self.sample((0.0, 0.0, 1000.0 + rng.uniform(500.0, 2000.0)))  # the slap
            left -= (n + 1) * STEP_S
            w *= 0.8
            if w < 3.0:
                break
        self.flat_on_current_face()

    def flat_on_current_face(self):
        """Snap to the face nearest to lying flat (the die comes to rest on it)."""
        best = 0
        for i in range(3):
            if abs(self.axes[i][2]) > abs(self.axes[best][2]):
                best = i
        sign = 1.0 if self.axes[best][2] > 0 else -1.0
        other = [i for i in range(3) if i != best]
        a = self.axes[other[0]]
        h = norm((a[0], a[1], 0.0)) or 1.0
        first = (a[0] / h, a[1] / h, 0.0)
        second = cross((0.0, 0.0, sign), first)
        axes = [None, None, None]
        axes[best] = (0.0, 0.0, sign)
        axes[other[0]] = first
        axes[other[1]] = second
        self.axes = tuple(axes)

    def slide(self, seconds, friction):
        h = self.rng.horizontal()
        for _ in range(steps(seconds)):
            self.sample((h[0] * friction * 1000.0, h[1] * friction * 1000.0, 1000.0))

    def tip(self, seconds):
        """Tipping over the table's edge: the table's push fades while the die turns."""
        n = steps(seconds)
        axis = self.rng.horizontal()
        for i in range(n):
            self.sample((0.0, 0.0, 1000.0 * (1.0 - 0.85 * (i + 1) / n)))
            self.turn(axis, math.radians(45.0) / n)

    def bounces(self, v, restitution, spin):
        """Land at ``v`` m/s, then bounce until the bounces are shorter than a sample."""
        axis, w = spin
        while True:
            e = restitution
            self.impact((1 + e) * v, self.rng.uniform(0.0, 0.5) * v)
            v *= e
            air = 2 * v / G
            if air < 0.03:
                return
            w *= 0.7
            self.fly(air, (axis, w))


def steps(seconds):
    return max(1, int(seconds / STEP_S + 0.5))


def _spin(rng, low, high):
    return (rng.unit(), rng.uniform(low, high))


def _toss(die, rng, lift_first=True):
    """Picked up, shaken or held, released and landed on the table; returns the apex (m)."""
    apex = rng.uniform(APEX_M[0], APEX_M[1])
    release = rng.uniform(0.05, min(0.30, apex))
    if lift_first:
        die.lift(rng.uniform(0.25, 0.5), release)
    if rng.chance(0.7):
        die.shake(rng.uniform(0.3, 1.5))
    else:
        die.hold(rng.uniform(0.3, 1.0))
    v_up = math.sqrt(2 * G * (apex - release))
    if v_up > 0.05:
        die.push(v_up, rng.uniform(0.3, 2.0))
    spin = _spin(rng, 0.0, 5 * 2 * math.pi)
    die.fly(v_up / G + math.sqrt(2 * apex / G), spin)
    die.bounces(math.sqrt(2 * G * apex), rng.uniform(0.2, 0.55), spin)
    return apex


def throw(die, rng):
    """A throw onto the table that settles there; returns the apex (m)."""
    apex = _toss(die, rng)
    die.roll(rng.uniform(0.2, 1.2), rng.uniform(0.2, 1.0))
    die.rest(rng.uniform(1.0, 1.5))
    return apex


DROPS = ("knocked", "pushed", "rolled-off")


def drop(die, rng, how):
    """The die leaves a 75 cm table (``how``: one of :data:`DROPS`), settles on the floor and
    is put back on the table by hand."""
    if how == "rolled-off":
        _toss(die, rng)
        speed = rng.uniform(0.2, 0.8)
        die.roll(rng.uniform(0.1, 0.6), speed)
        die.tip(rng.uniform(0.03, 0.08))
        fall_spin = (rng.horizontal(), speed / (SIZE_M / 2))
    else:
        if how == "knocked":
            die.impact(0.0, rng.uniform(0.15, 0.4))  # 1.5-4 g from a hand or an elbow
            if rng.chance(0.5):
                die.roll(rng.uniform(0.1, 0.4), rng.uniform(0.2, 0.6))
            else:
                die.slide(rng.uniform(0.1, 0.4), rng.uniform(0.2, 0.4))
        else:
            die.slide(rng.uniform(0.3, 1.0), rng.uniform(0.05, 0.2))
        die.tip(rng.uniform(0.06, 0.15))
        fall_spin = (rng.horizontal(), rng.uniform(1.0, 15.0))
    die.fly(math.sqrt(2 * TABLE_M / G), fall_spin)
    die.bounces(math.sqrt(2 * G * TABLE_M), rng.uniform(0.05, 0.5), fall_spin)
    die.roll(rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0))
    die.rest(rng.uniform(1.0, 1.5))
    # back onto the table: up from the floor, over to the table, down onto it
    die.lift(rng.uniform(0.6, 1.0), TABLE_M + 0.1)
    die.hold(rng.uniform(0.2, 0.6))
    die.lift(rng.uniform(0.3, 0.5), -0.1)
    die.flat_on_current_face()
    die.rest(rng.uniform(1.5, 2.5))


def session(seed, plan):
    """One die (its own sensor flaws), switched on lying on the table, then the events of
    ``plan``: "t" a throw, "d" a drop (the kinds of :data:`DROPS` in turn).  Returns the
    samples and the segments: (event, detail, first sample, end sample)."""
    rng = Rng(seed)
    die = Die(rng)
    die.rest(rng.uniform(1.0, 2.0))
    segments = []
    drops = int(rng.uniform(0, 3))
    for event in plan:
        start = len(die.samples)
        if event == "t":
            detail = f"apex {round(throw(die, rng) * 100)} cm"
        else:
            detail = DROPS[drops % 3]
            drops += 1
            drop(die, rng, detail)
        segments.append((event, detail, start, len(die.samples)))
    return die.samples, segments


def judge(tracker, samples, segments, start=0):
    """Run ``samples`` through ``tracker`` (10 ms apart); per segment its events and the
    landings the tracker judged in it: [(event, detail, events, landings)]."""
    out = []
    now = start
    index = 0
    for event, detail, _first, end in segments:
        events = []
        landings = []
        while index < end:
            x, y, z = samples[index]
            before = tracker.landing
            events.extend(tracker.update(now, x, y, z))
            if tracker.landing is not before:
                landings.append(tracker.landing)
            now += 10
            index += 1
        out.append((event, detail, events, landings))
    return out


def play(tracker, samples, start=0):
    """Feed ``samples`` 10 ms apart; returns the events and the landings (fall ms, budget ms)."""
    events = []
    landings = []
    now = start
    for x, y, z in samples:
        before = tracker.landing
        events.extend(tracker.update(now, x, y, z))
        if tracker.landing is not before and tracker.landing is not None:
            landings.append(tracker.landing)
        now += 10
    return events, landings


def summary(sessions, plan="tdtdtd"):
    """Counts and margins of the seeded set: ``python -m tests.firmware.dice.traces``."""
    from dice import motion

    lines = []
    throws = drops = false_drops = missed = 0
    closest_throw = 0.0  # the longest fall of a throw over what its start allowed
    closest_drop = 99.0  # the drop's fall over what its start allowed (smallest)
    kinds = {}
    for seed in range(sessions):
        samples, segments = session(seed, plan)
        tracker = motion.MotionTracker()
        for event, detail, events, landings in judge(tracker, samples, segments):
            names = [e[0] for e in events]
            ratios = [fell / budget for fell, budget in landings]
            if event == "t":
                throws += 1
                false_drops += motion.DROP in names
                closest_throw = max([closest_throw] + ratios)
            else:
                drops += 1
                kinds[detail] = kinds.get(detail, 0) + 1
                missed += motion.DROP not in names
                drop_ratios = [fell / budget for fell, budget in landings if fell > budget]
                closest_drop = min([closest_drop] + drop_ratios)
    lines.append(f"throws {throws} (10-60 cm), reported as drops {false_drops}")
    lines.append("drops {} ({}), missed {}".format(drops, ", ".join(
        f"{k} {kinds[k]}" for k in sorted(kinds)), missed))
    lines.append(f"longest throw fall: {closest_throw * 100:.0f} % of what its start allowed")
    lines.append(f"shortest drop fall: {closest_drop * 100:.0f} % of what its start allowed")
    return lines


if __name__ == "__main__":
    import sys

    for line in summary(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
        print(line)
