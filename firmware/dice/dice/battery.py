"""The die's cell: its voltage, and the guard that stops it running the cell flat.

Voltage.  ``adc`` has ``read_u16()`` and reads the cell through a divider of
``divider``: the Pico W's own VSYS/3 on ADC3 cannot be read while its radio
runs (GP29 is also the radio chip's SPI clock), so the wireless die reads the
switched cell through two equal resistors on GP28 / ADC2 (``divider = 2``); a
plain Pico on a cable may use its VSYS/3 (``divider = 3``).  ``usb_power``
(the VBUS sense) has ``value()`` and is 1 while the die runs from USB, when
there is no battery reading.

The guard (:class:`Guard`).  The cell is a protected 1-cell LiPo of 500 mAh
(hardware/README.md, "The die's cell"): its datasheet's end of discharge is
3.0 V, where its own protection circuit cuts out.  The firmware stops well
before that, so the protection never has to act and the cell keeps a reserve
for the few hundred microamps the sleeping die still draws:

* ``LOW_MV`` (3.5 V, read under load, with the pips and the radio on): the
  die warns (its corners blink, the heartbeat tells the companion, which shows
  and says it); the warning is cleared only above ``CLEAR_MV`` (3.6 V: the
  cell was charged), so a voltage wobbling around 3.5 V warns once.
* ``CUTOFF_MV`` (3.3 V under load, ``CONFIRM`` readings in a row, so a
  moment's load does not cut it): the die says so, darkens the pips and sleeps
  until it is switched off and on again.
* At power-on the die starts only at ``LOW_MV`` or above (``may_start``): a
  cell that was cut off recovers some tenths of a volt at rest, not enough to
  start again without a charge.
"""

from .shims import const

VREF_MV = const(3300)
DIVIDER = const(3)  # the Pico's own VSYS/3 on ADC3
SAMPLES = const(8)

LOW_MV = const(3500)
CLEAR_MV = const(3600)
CUTOFF_MV = const(3300)
CONFIRM = const(5)
CELL_EMPTY_MV = const(3000)  # the cell datasheet's end of discharge (its protection's cut-out)

OK = const(0)
LOW = const(1)
EMPTY = const(2)


def to_millivolts(raw_u16, divider=DIVIDER):
    """The measured voltage in millivolts from a 16-bit ADC reading of it divided by ``divider``."""
    return raw_u16 * VREF_MV * divider // 65535


class Battery:
    def __init__(self, adc, usb_power=None, divider=DIVIDER):
        self.adc = adc
        self.usb_power = usb_power
        self.divider = divider

    def millivolts(self):
        """The averaged battery voltage in mV, or None while on USB power."""
        if self.usb_power is not None and self.usb_power.value():
            return None
        total = 0
        for _ in range(SAMPLES):
            total += self.adc.read_u16()
        return to_millivolts(total // SAMPLES, self.divider)


def may_start(mv, low_mv=LOW_MV):
    """Whether the die may start on a cell at ``mv`` (None: on USB, always)."""
    return mv is None or mv >= low_mv


class Guard:
    """OK -> LOW -> EMPTY from readings in millivolts (None: on USB power, which clears LOW).

    ``update(mv)`` returns the state when it changed, else None.  EMPTY is final: the
    die sleeps.
    """

    def __init__(self, low_mv=LOW_MV, clear_mv=CLEAR_MV, cutoff_mv=CUTOFF_MV, confirm=CONFIRM):
        if not cutoff_mv < low_mv < clear_mv:
            raise ValueError("the cut-off must be below the warning, the warning below its clearing")
        self.low_mv = low_mv
        self.clear_mv = clear_mv
        self.cutoff_mv = cutoff_mv
        self.confirm = confirm
        self.state = OK
        self.below = 0  # readings in a row under the cut-off

    def update(self, mv):
        if self.state == EMPTY:
            return None
        if mv is None:
            self.below = 0
            return self._to(OK)
        if mv < self.cutoff_mv:
            self.below += 1
            if self.below >= self.confirm:
                return self._to(EMPTY)
        else:
            self.below = 0
        if mv < self.low_mv:
            return self._to(LOW)
        if mv >= self.clear_mv:
            return self._to(OK)
        return None

    def _to(self, state):
        if state == self.state:
            return None
        self.state = state
        return state
