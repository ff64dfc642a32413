"""The dice application: samples -> roll / drop -> pips and frames.

Everything is passed in: ``accel`` (``read_mg()`` -> (x, y, z) milli-g),
``leds`` (seven pins with ``value()``), ``link`` (a :class:`dice.link.Link`)
and ``entropy`` (``os.urandom``).  ``step(now)`` does one 100 Hz tick; the
board entry point calls ``run()``.

The cell (optional): ``battery()`` returns its millivolts (None on USB power)
and ``guard`` (a :class:`dice.battery.Guard`) judges a reading every
``BATTERY_MS``.  On LOW the corner pips blink and a heartbeat goes out at
once; on EMPTY the die sends a last heartbeat, darkens its pips and
calls ``power_off()`` (the board's deep sleep), after which ``step`` does
nothing.
"""

from . import battery as cell
from . import motion, pips
from .fair import roll_die
from .shims import const, ticks_add, ticks_diff

PERIOD_MS = const(10)  # 100 Hz, the accelerometer's data rate
SPIN_MS = const(80)
DROP_FLASH_MS = const(600)
BLINK_MS = const(150)
BATTERY_MS = const(1000)
WARN_MS = const(900)  # the corners blink three times
CORNERS = (0, 1, 5, 6)


class App:
    def __init__(self, accel, leds, link, entropy, tracker=None, status_led=None,
                 battery=None, guard=None, power_off=None):
        self.accel = accel
        self.leds = leds
        self.link = link
        self.entropy = entropy
        self.tracker = tracker if tracker is not None else motion.MotionTracker()
        self.status_led = status_led
        self.face = 0  # the face on the pips (0 = none yet)
        self.flash_until = None
        self.sensor_errors = 0
        self.started = False
        self.battery = battery
        self.guard = guard
        self.power_off = power_off
        self.next_check = 0
        self.warn_until = None
        self.asleep = False

    def roll(self, now):
        """A fair face from the entropy, shown and sent; returns it."""
        face = roll_die(self.entropy)
        self.face = face
        pips.show(self.leds, face)
        self.link.event("ROLL", face, now)
        return face

    def step(self, now):
        if self.asleep:
            return
        if not self.started:
            self.started = True
            pips.show(self.leds, 0)
            self.link.start(now)
            self.next_check = now
        if self.guard is not None and ticks_diff(now, self.next_check) >= 0:
            self.next_check = ticks_add(now, BATTERY_MS)
            if self._check_battery(now):
                return
        try:
            x, y, z = self.accel.read_mg()
        except OSError:
            self.sensor_errors += 1
            events = ()
        else:
            events = self.tracker.update(now, x, y, z)
        for event in events:
            if event[0] == motion.ROLL:
                self.roll(now)
            elif event[0] == motion.DROP:
                self.link.event("DROP", event[1], now)
                self.flash_until = ticks_add(now, DROP_FLASH_MS)
        self._animate(now)
        self.link.poll(now)

    def _check_battery(self, now):
        """Judge the cell; True when the die has gone to sleep."""
        changed = self.guard.update(self.battery())
        if changed == cell.LOW:
            self.warn_until = ticks_add(now, WARN_MS)
            self.link.send(self.link.beat())
        elif changed == cell.EMPTY:
            self.link.send(self.link.beat())  # the companion hears the voltage that cut it
            self.asleep = True
            pips.light(self.leds, ())
            if self.status_led is not None:
                self.status_led.value(0)
            if self.power_off is not None:
                self.power_off()
            return True
        return False

    def _animate(self, now):
        if self.warn_until is not None:
            left = ticks_diff(self.warn_until, now)
            if left > 0:
                on = (left // BLINK_MS) % 2 == 0
                pips.light(self.leds, CORNERS if on else ())
                return
            self.warn_until = None
            pips.show(self.leds, self.face)
        if self.flash_until is not None:
            left = ticks_diff(self.flash_until, now)
            if left > 0:
                on = (left // BLINK_MS) % 2 == 0
                pips.light(self.leds, pips.ALL if on else ())
                return
            self.flash_until = None
            pips.show(self.leds, self.face)
        if self.tracker.state == motion.SHAKEN:
            pips.light(self.leds, pips.spin_frame(now // SPIN_MS))
        elif self.tracker.state == motion.REST:
            pips.show(self.leds, self.face)
        if self.status_led is not None:
            self.status_led.value(1 if self.link.outbox else 0)

    def run(self, ticks_ms, sleep_ms, period_ms=PERIOD_MS):
        """Tick forever at ``period_ms``."""
        while True:
            start = ticks_ms()
            self.step(start)
            spent = ticks_diff(ticks_ms(), start)
            if spent < period_ms:
                sleep_ms(period_ms - spent)
