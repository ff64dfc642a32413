# ruff: noqa: F821 - PIO assembly: rp2.asm_pio supplies the instruction names
"""The pad hub's PIO state machines (board only: imports ``rp2``; pins come from main.py).

Two programs (docs: hardware/guide/pads.md, "The pad hub"):

* ``sequencer`` (1 MHz, one cycle = 1 us): for each slot 7..0, put the slot on
  the multiplexers' three address lines (``mov pins, y``), let them settle 5 us,
  raise the strobe (side-set) for 113 us, drop it for 6 us.  One scan is
  1 + 8 * 124 = 993 us (:mod:`padhub.layout`); the timing is the program's
  alone, on the one system clock.
* ``charge_timer`` (system clock, 125 MHz), one per multiplexer: wait for the
  strobe, drive its sense line low for 0.5 us (discharging the selected pad),
  let go and count down while the line is still low (the pad charges through
  its 390 kOhm resistor: a hand makes it slower); push the count left together
  with the strobe and address pins, then wait for the strobe to drop.  The count
  limit (put once by the CPU) keeps every measurement inside the strobe.

PIO0 holds the sequencer and three charge timers, PIO1 the other four (15 of
PIO0's 32 instruction words, 10 of PIO1's; all eight state machines).
:class:`PioScanner` starts them together and reads one scan (eight words per
multiplexer, the joined RX FIFOs hold exactly one scan) into
:class:`padhub.scan.ScanAssembler`.
"""

import rp2

from . import layout
from .scan import ScanAssembler
from .shims import ticks_diff, ticks_us

SEQUENCER_HZ = 1_000_000
COUNT_LIMIT = layout.COUNT_LIMIT


@rp2.asm_pio(out_init=(rp2.PIO.OUT_LOW,) * 3, sideset_init=rp2.PIO.OUT_LOW)
def sequencer():
    wrap_target()
    set(y, 7)                 .side(0)        # a scan: slots 7..0
    label("slot")
    mov(pins, y)              .side(0) [4]    # the multiplexers' address; 5 us to settle
    set(x, 13)                .side(1)        # strobe: every multiplexer times its pad now
    label("window")
    jmp(x_dec, "window")      .side(1) [7]    # 14 x 8 us
    jmp(y_dec, "slot")        .side(0) [5]    # strobe down; next slot
    wrap()


@rp2.asm_pio(set_init=rp2.PIO.IN_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT,
             fifo_join=rp2.PIO.JOIN_RX)
def charge_timer():
    pull(block)                               # the count limit, once
    wrap_target()
    wait(1, pin, 0)                           # the strobe (in_base = the strobe pin)
    set(pindirs, 1)           [31]            # drive the sense line low: discharge
    mov(x, osr)               [31]
    set(pindirs, 0)                           # let go: the pad charges
    label("charge")
    jmp(pin, "done")                          # the line reads high: charged
    jmp(x_dec, "charge")
    label("done")
    mov(isr, x)
    in_(pins, 4)                              # strobe and address: the slot, to check
    push(noblock)
    wait(0, pin, 0)
    wrap()


class PioScanner:
    """The state machines of one hub, started together; ``read()`` gives one scan.

    ``strobe``: the strobe pin (the sense machines' ``in_base``; the address pins
    must be the next three GPIOs), ``address``: the first address pin, ``sense``:
    one pin per multiplexer (at most seven: the sequencer takes the eighth state
    machine).  Pins are ``machine.Pin`` objects from main.py.
    """

    def __init__(self, strobe, address, sense, limit=COUNT_LIMIT):
        self.assembler = ScanAssembler(len(sense), limit)
        self.timers = []
        for i, pin in enumerate(sense):
            sm = rp2.StateMachine(1 + i if i < 3 else 4 + i - 3, charge_timer,
                                  set_base=pin, jmp_pin=pin, in_base=strobe)
            sm.put(limit)
            self.timers.append(sm)
        self.sequencer = rp2.StateMachine(0, sequencer, freq=SEQUENCER_HZ,
                                          out_base=address, sideset_base=strobe)
        self.started_us = 0

    def start(self):
        for sm in self.timers:
            sm.active(1)
        self.started_us = ticks_us()
        self.sequencer.active(1)  # the clock of every time stamp starts here

    def _scan_now(self):
        return ticks_diff(ticks_us(), self.started_us) // layout.SCAN_US

    def read(self):
        """The next scan as ``(index, counts)``, waiting for it; None after an overrun
        (the FIFOs are drained and the scan count follows the clock again)."""
        words = [[sm.get() for _ in range(layout.SLOTS)] for sm in self.timers]
        a = self.assembler
        if a.take(words):
            return a.index, a.counts
        for sm in self.timers:  # drop what is left and start on the next scan
            while sm.rx_fifo():
                sm.get()
        a.resync(self._scan_now())
        return None

    def missed(self):
        return self.assembler.overruns
