"""Slap pads on MPR121 touch controllers: twelve pads a chip on the Pi's I2C bus.

An MPR121 (NXP/Freescale; breakouts with STEMMA QT / Qwiic sockets plug in without
solder) measures each of its twelve electrodes once per **electrode sampling interval**
(ESI), averages the last **SFI** samples (its second-level filter) and sets an
electrode's bit in the touch status registers (0x00, 0x01) when that average lies more
than the touch threshold below the electrode's baseline (after **DT** more agreeing
samples: the debounce).  A chip answers at 0x5A (ADDR to ground, the breakouts'
default), 0x5B (ADDR to 3.3 V), 0x5C (to SDA) or 0x5D (to SCL): up to four chips, 48
electrodes, enough for the 42 pads of six seats.

**The driver** is register level on ``smbus2`` (already installed: luma.oled's I2C
needs it).  Adafruit's ``adafruit-circuitpython-mpr121`` does the same few writes but
needs Blinka (the CircuitPython compatibility layer, with its own GPIO and board
detection) underneath, a second GPIO stack beside gpiozero for one register read; so the
init sequence below follows the datasheet (and the values Adafruit's library chose),
and the bus is anything with smbus2's three methods (:class:`I2CBus`), so the simulated
twin (:mod:`.mpr121_sim`) is a bus too.

**Timing** (:class:`Mpr121Settings`, decision D28 of the slap-pad game's rules).  A hand is
in the first sample of its electrode after it lands (at most one ESI later) and the
average crosses the threshold after 1 to SFI samples, fewer the stronger the touch (a
big copper pad under a flat hand: one); the debounce adds the same DT samples to every
pad.  So from a touch to its status bit takes between 0 and ``SFI x ESI``, whatever
the chip or pad, and two pads differ by at most that much.  The Pi then learns of it
at its next read of the chip: every ``poll_ms`` (a reader thread), or at once when
the chip's IRQ line (open drain, low while a status changed and unread) is wired to
a GPIO: its falling edge is timed by gpiozero's edge tick (the kernel's timestamp)
and wakes the reader.  A touch's time is the edge's tick, or the start of the read
that first saw it; ``read_bound_ms`` bounds how late that can be (the poll period,
the read itself, a display frame's chunk on the shared bus at 400 kHz, the thread's
wake-up).  The declared uncertainty is the sum: :meth:`Mpr121Settings.uncertainty_ms`
(4 + 4 = 8 ms at the settings below), and ``tests/devices/pads/test_mpr121.py``
checks on the simulated chips that no two touches that far apart come out in the
wrong order.

Pads to electrodes: :func:`mpr121_pads` fills the chips in the order of their
addresses, twelve pads each, the pads in the order of ``table_pads`` (seat 1's pads on
every pile and the graveyard, then seat 2's...), so each seat's pads lie next to each
other on the chips' terminals (hardware/no-solder.md, the pad mat).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.devices.pads.state import CHATTER_MS, STUCK_AFTER_S, PadStates
from companion.devices.ports import PinFactory
from companion.inputs.pads import Pad, PadSignal, PadTouch, table_pads

log = logging.getLogger(__name__)

ADDRESSES = (0x5A, 0x5B, 0x5C, 0x5D)
"""Where an MPR121 answers, by its ADDR pin: ground, 3.3 V, SDA, SCL."""
ELECTRODES = 12
MAX_SEATS = 6
"""42 pads on four chips (48 electrodes)."""

# registers (datasheet, "Register map")
TOUCH_STATUS = 0x00
FILTERED_DATA = 0x04
BASELINE = 0x1E
BASELINE_FILTER = 0x2B  # MHDR .. FDLT, 11 registers
TOUCH_THRESHOLD = 0x41  # then release at 0x42, two registers an electrode
DEBOUNCE = 0x5B
CONFIG1 = 0x5C  # FFI (7:6), CDC (5:0)
CONFIG2 = 0x5D  # CDT (7:5), SFI (4:3), ESI (2:0)
ECR = 0x5E  # electrode configuration: baseline tracking (7:6), electrodes enabled (3:0)
SOFT_RESET = 0x80
RESET_VALUE = 0x63
CONFIG2_AFTER_RESET = 0x24
"""CONFIG2 after a soft reset (0.5 us charge, 4 samples, 16 ms): the chip's fingerprint."""
BASELINE_FILTER_VALUES = (0x01, 0x01, 0x0E, 0x00, 0x01, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00)
"""Rising, falling and touched baseline filter settings (the datasheet's AN3891 example
values, as Adafruit's library writes them): the baseline follows slow drift only."""

ESI_MS = (1, 2, 4, 8, 16, 32, 64, 128)
SFI_SAMPLES = (4, 6, 10, 18)
FFI_SAMPLES = (6, 10, 18, 34)


class I2CBus(Protocol):
    """What the driver uses of ``smbus2.SMBus`` (the simulated bus has the same)."""

    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...
    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...
    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...


class Mpr121Error(OSError):
    """A chip that is not there or does not answer as an MPR121 (one sentence)."""


@dataclass(frozen=True)
class Mpr121Settings:
    """The chip's sensing settings and the reader's, and the timing they give."""

    esi_ms: int = 1
    sfi: int = 4
    ffi: int = 6
    debounce: int = 0
    """DT: agreeing samples more before a touch is reported (the same delay on every pad)."""
    charge_ua: int = 16
    touch_threshold: int = 12
    release_threshold: int = 6
    poll_ms: float = 2.0
    """How often the reader reads every chip's status (without an IRQ line; with one it
    reads on the line's edges and as often as this anyway)."""
    read_bound_ms: float = 4.0
    """How late after its status changed the reader may time a touch: the poll period, the
    read of up to four chips at 400 kHz (0.12 ms each), a display chunk ahead of it on the
    shared bus (0.8 ms at 400 kHz) and a thread's wake-up on a busy Pi."""

    def __post_init__(self) -> None:
        if self.esi_ms not in ESI_MS:
            raise ValueError(f"The MPR121's sampling interval is one of {ESI_MS} ms, "
                             f"not {self.esi_ms}.")
        if self.sfi not in SFI_SAMPLES:
            raise ValueError(f"The MPR121's second filter takes {SFI_SAMPLES} samples, "
                             f"not {self.sfi}.")
        if self.ffi not in FFI_SAMPLES:
            raise ValueError(f"The MPR121's first filter takes {FFI_SAMPLES} samples, "
                             f"not {self.ffi}.")
        if not 0 <= self.debounce <= 7:
            raise ValueError("The MPR121's debounce is 0 to 7 samples.")
        if not 1 <= self.charge_ua <= 63:
            raise ValueError("The MPR121's charge current is 1 to 63 uA.")
        if not 0 < self.release_threshold < self.touch_threshold <= 255:
            raise ValueError("The MPR121's release threshold must be below its touch "
                             "threshold, both 1 to 255.")
        if not 0 < self.poll_ms <= self.read_bound_ms:
            raise ValueError("The reader's poll period must be more than 0 and within its "
                             "read bound.")

    @property
    def config1(self) -> int:
        return FFI_SAMPLES.index(self.ffi) << 6 | self.charge_ua

    @property
    def config2(self) -> int:
        return 1 << 5 | SFI_SAMPLES.index(self.sfi) << 3 | ESI_MS.index(self.esi_ms)

    @property
    def filter_ms(self) -> float:
        """The longest a touch takes to reach the status bit beyond the debounce every pad
        shares: its first sample (at most one ESI) and the average's 1 to SFI samples."""
        return float(self.esi_ms * self.sfi)

    def uncertainty_ms(self) -> float:
        """Two touches this far apart or more are never reported in the wrong order."""
        return self.filter_ms + self.read_bound_ms


DEFAULT_SETTINGS = Mpr121Settings()


def mpr121_pads(seats: int, addresses: Sequence[int] = ADDRESSES) -> dict[Pad, tuple[int, int]]:
    """Every pad of a ``seats``-seat table and its (chip address, electrode)."""
    pads = table_pads(seats)
    chips = -(-len(pads) // ELECTRODES)
    if not 2 <= seats <= MAX_SEATS:
        raise ValueError(f"MPR121 pads serve 2 to {MAX_SEATS} seats, not {seats}.")
    if chips > len(addresses):
        raise ValueError(f"{seats} seats have {len(pads)} pads: they need {chips} MPR121 chips, "
                         f"not {len(addresses)}.")
    return {pad: (addresses[i // ELECTRODES], i % ELECTRODES) for i, pad in enumerate(pads)}


def chips_for(seats: int) -> int:
    """How many chips a ``seats``-seat table needs."""
    return -(-len(table_pads(seats)) // ELECTRODES)


def init_chip(bus: I2CBus, address: int, settings: Mpr121Settings = DEFAULT_SETTINGS) -> None:
    """Reset the chip at ``address`` and start it sensing its twelve electrodes."""
    try:
        bus.write_byte_data(address, SOFT_RESET, RESET_VALUE)
        bus.write_byte_data(address, ECR, 0x00)  # stop: the other registers take writes only so
        found = bus.read_byte_data(address, CONFIG2)
    except OSError as exc:
        raise Mpr121Error(f"No MPR121 answers at 0x{address:02X} on the I2C bus "
                          f"({exc.__class__.__name__}).") from None
    if found != CONFIG2_AFTER_RESET:
        raise Mpr121Error(f"The chip at 0x{address:02X} does not reset as an MPR121 does "
                          f"(0x{found:02X} where 0x{CONFIG2_AFTER_RESET:02X} was expected).")
    for e in range(ELECTRODES):
        bus.write_byte_data(address, TOUCH_THRESHOLD + 2 * e, settings.touch_threshold)
        bus.write_byte_data(address, TOUCH_THRESHOLD + 2 * e + 1, settings.release_threshold)
    for i, value in enumerate(BASELINE_FILTER_VALUES):
        bus.write_byte_data(address, BASELINE_FILTER + i, value)
    bus.write_byte_data(address, DEBOUNCE, settings.debounce << 4 | settings.debounce)
    bus.write_byte_data(address, CONFIG1, settings.config1)
    bus.write_byte_data(address, CONFIG2, settings.config2)
    # run: baseline tracking starts from the first reading (10), electrodes 0-11 (12)
    bus.write_byte_data(address, ECR, 0x80 | ELECTRODES)


def read_status(bus: I2CBus, address: int) -> int:
    """The chip's touch bits (electrode 0 = bit 0)."""
    low, high = bus.read_i2c_block_data(address, TOUCH_STATUS, 2)
    return (high << 8 | low) & 0x0FFF


@dataclass(frozen=True)
class ElectrodeReading:
    """One electrode's filtered data and baseline (10-bit counts; lower when touched)."""

    address: int
    electrode: int
    filtered: int
    baseline: int


def read_electrodes(bus: I2CBus, address: int) -> list[ElectrodeReading]:
    """Every electrode's filtered data and baseline (``companion pads show`` and the doctor)."""
    data = bus.read_i2c_block_data(address, FILTERED_DATA, 2 * ELECTRODES)
    base = bus.read_i2c_block_data(address, BASELINE, ELECTRODES)
    return [ElectrodeReading(address, e, (data[2 * e + 1] << 8 | data[2 * e]) & 0x3FF,
                             base[e] << 2) for e in range(ELECTRODES)]


class Mpr121Pads:
    """The pad adapter on MPR121 chips: the same events as the other front ends.

    ``pads`` maps each pad to its (chip address, electrode) (:func:`mpr121_pads`);
    ``bus`` is an :class:`I2CBus` (``smbus2.SMBus(1)`` on a Pi).  ``irq_pin``: the BCM
    pin the chips' IRQ lines are wired to (open drain, several may share it), or
    ``None`` (polled).  ``ticks`` / ``ticks_diff`` are the clock of touch times (default:
    the pin factory's when there is an IRQ pin, else ``time.monotonic``), ``sleep``
    waits between polls.  ``start=False``: no reader thread; the caller calls
    :meth:`read` (the simulated table, the tests).
    """

    def __init__(self, pads: Mapping[Pad, tuple[int, int]], on_event: Callable[[PadSignal], None],
                 bus: I2CBus, *, settings: Mpr121Settings = DEFAULT_SETTINGS,
                 irq_pin: int | None = None, pin_factory: PinFactory | None = None,
                 ticks: Callable[[], Any] | None = None,
                 ticks_diff: Callable[[Any, Any], float] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 chatter_ms: float = CHATTER_MS, stuck_after_s: float = STUCK_AFTER_S,
                 offsets: Mapping[Pad, float] | None = None, start: bool = True,
                 close_bus: bool = False) -> None:
        where = list(pads.values())
        if len(set(where)) != len(where):
            raise ValueError("Two pads share one electrode; every pad needs its own.")
        self.settings = settings
        self.bus = bus
        self._close_bus = close_bus
        self._on_event = on_event
        self._lock = threading.Lock()
        self._by_chip: dict[int, dict[int, Pad]] = {}
        for pad, (address, electrode) in pads.items():
            if address not in ADDRESSES or not 0 <= electrode < ELECTRODES:
                raise ValueError(f"Pad {pad.key} is on electrode {electrode} of 0x{address:02X}, "
                                 "which no MPR121 has.")
            self._by_chip.setdefault(address, {})[electrode] = pad
        self._pads = dict(pads)
        self._irq: Any = None
        self._factory: Any = pin_factory
        if irq_pin is not None and pin_factory is None:
            from gpiozero import Device

            Device.ensure_pin_factory()
            self._factory = Device.pin_factory
        if ticks is None:
            ticks = self._factory.ticks if irq_pin is not None else time.monotonic
        if ticks_diff is None:
            ticks_diff = (self._factory.ticks_diff if irq_pin is not None
                          else lambda later, earlier: float(later - earlier))
        self._ticks = ticks
        self._diff = ticks_diff
        self._epoch: Any = None
        self._status: dict[int, int] = {}
        self._last_read: Any = None
        self._edge_tick: Any = None
        self.reads = 0
        self.irq_edges = 0
        self.late_reads = 0
        """Reads that came later than ``read_bound_ms`` after the one before (polled)."""
        self._states = PadStates(pads, on_event, chatter_ms=chatter_ms,
                                 stuck_after_s=stuck_after_s, clock=clock, offsets=offsets,
                                 lock=self._lock, within_chatter=lambda later, earlier:
                                 self._diff(later, earlier) * 1000.0 < chatter_ms)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        for address in sorted(self._by_chip):
            init_chip(bus, address, settings)
            self._status[address] = 0
        if irq_pin is not None:
            self._claim_irq(irq_pin)
        if start:
            self._thread = threading.Thread(target=self._run, name="mpr121-pads", daemon=True)
            self._thread.start()

    @classmethod
    def for_seats(cls, seats: int, on_event: Callable[[PadSignal], None], bus: I2CBus,
                  **kwargs: Any) -> Mpr121Pads:
        return cls(mpr121_pads(seats), on_event, bus, **kwargs)

    # --- the IRQ line -----------------------------------------------------------------

    def _claim_irq(self, number: int) -> None:
        from gpiozero import InputDevice

        # a gpiozero device holds the line, so no other device can take it (GPIOPinInUse);
        # pulled up: the chips pull it low (open drain)
        device = InputDevice(number, pull_up=True, pin_factory=self._factory)
        try:
            pin = device.pin
            pin.bounce = None
            pin.edges = "falling"
            pin.when_changed = self._irq_edge
        except BaseException:
            device.close()
            raise
        self._irq = device

    def _irq_edge(self, ticks: Any, state: Any) -> None:
        """The line fell at ``ticks``: a status changed; the reader reads at once."""
        with self._lock:
            self.irq_edges += 1
            if self._edge_tick is None:
                self._edge_tick = ticks
        self._wake.set()

    # --- reading ----------------------------------------------------------------------

    def read(self) -> None:
        """Read every chip's status now and report what changed (the reader thread's step)."""
        with self._lock:
            start = self._ticks()
            edge, self._edge_tick = self._edge_tick, None
            if self._last_read is not None and edge is not None and \
                    self._diff(edge, self._last_read) < 0:
                edge = None  # an edge before the last read: its change was read then
            if self._irq is None and self._last_read is not None and \
                    self._diff(start, self._last_read) * 1000.0 > self.settings.read_bound_ms:
                self.late_reads += 1
            self._last_read = start
        events: list[PadSignal] = []
        for address, electrodes in self._by_chip.items():
            try:
                status = read_status(self.bus, address)
            except OSError as exc:
                log.warning("the MPR121 at 0x%02X did not answer (%s)", address,
                            exc.__class__.__name__)
                continue
            with self._lock:
                changed = status ^ self._status[address]
                self._status[address] = status
                if not changed:
                    continue
                at = edge if edge is not None else start
                if self._epoch is None:
                    self._epoch = at
                for electrode, pad in electrodes.items():
                    if changed >> electrode & 1:
                        event = self._states.edge(pad, at, bool(status >> electrode & 1),
                                                  self._diff(at, self._epoch) * 1000.0)
                        if event is not None:
                            events.append(event)
        self.reads += 1
        for event in events:
            self._on_event(event)

    def _run(self) -> None:
        period = self.settings.poll_ms / 1000.0
        while not self._stop.is_set():
            self._wake.wait(period)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.read()
            except Exception:  # the reader goes on: a bus glitch must not end the pads
                log.exception("reading the MPR121 pads failed")

    # --- the host side ----------------------------------------------------------------

    def set_offsets(self, offsets: Mapping[Pad, float]) -> None:
        self._states.set_offsets(offsets)

    def poll(self) -> None:
        self._states.poll()

    def ms_between(self, later: PadTouch, earlier: PadTouch) -> float:
        return self._diff(later.tick, earlier.tick) * 1000.0

    @property
    def pads(self) -> tuple[Pad, ...]:
        return tuple(self._pads)

    def where(self, pad: Pad) -> tuple[int, int]:
        """The (chip address, electrode) of ``pad``."""
        return self._pads[pad]

    @property
    def addresses(self) -> tuple[int, ...]:
        return tuple(sorted(self._by_chip))

    @property
    def stuck(self) -> frozenset[Pad]:
        return self._states.stuck

    @property
    def chatter_count(self) -> int:
        return self._states.chatter_count

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        if self._irq is not None:
            if self._irq.pin is not None:
                self._irq.pin.when_changed = None
            self._irq.close()
            self._irq = None
        if self._close_bus:
            closer = getattr(self.bus, "close", None)
            if closer is not None:
                closer()

    def __enter__(self) -> Mpr121Pads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_bus(port: int = 1) -> Any:
    """``smbus2.SMBus(port)``: the Pi's I2C bus (``/dev/i2c-1``)."""
    from smbus2 import SMBus

    return SMBus(port)
