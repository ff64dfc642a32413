"""The slap pads: one gpiozero pin per pad, timed by the edge tick, never by callback time.

A pad is a (seat, target) pair (:class:`~companion.devices.pinmap.Pad`): seat
``s`` touches the pile of a seat or the graveyard ``g``.  Each pad is a
capacitive touch module (TTP223 class) whose digital output drives one GPIO.

Pins.  Each pad is a gpiozero :class:`~gpiozero.InputDevice` (pulled towards
"untouched"), so gpiozero reserves its pin as it does for every device: a pin
a button already holds is refused, and so is a button on a pad's pin.  The
adapter uses the device's pin (``device.pin``) through the public pin API:
edge detection on both edges and no bounce filter (the chatter filter below is
ours, on edge ticks).  Its ``when_changed`` callback receives ``(ticks,
state)`` for every edge.

Timing.  Under the lgpio factory ``ticks`` is the kernel's line-event
timestamp, taken when the edge happened, however late Python gets to run the
callback.  A touch is timed by those ticks, compared only with the factory's
``ticks_diff``, never by when the callback ran.  Callbacks may come late and,
across pads, in the wrong order; consumers order touches by
:attr:`PadTouch.ms`, never by arrival.

Chatter.  A pad that becomes active again less than ``chatter_ms`` after it was
released (edge ticks again) continues the same touch: no second
:class:`PadTouch`.

Offsets.  A calibration (:mod:`companion.devices.pads.calibration`) measures how late each
pad reports compared with the others; ``offsets`` (ms per pad, changed at run time
with :meth:`SlapPads.set_offsets`) are subtracted from every touch's ``ms``.

Stuck pads.  A pad that stays active ``stuck_after_s`` seconds is reported once
(:class:`PadStuck`) and ignored until it is released (:class:`PadReleased`).
This is a coarse, seconds-scale check on the host clock, run by :meth:`SlapPads.poll`
(call it a few times a second); touch times never use that clock.

The touch, chatter, offset and stuck rules are the pad hub's too
(:mod:`companion.devices.pads.state`).

Events go to the ``on_event`` callback, from the pin factory's thread: a
service hands them to its own loop (a queue), the adapter itself keeps no
queue.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Device, GPIOPinInUse, InputDevice

from companion.devices.pads.state import CHATTER_MS, STUCK_AFTER_S, PadStates
from companion.devices.pinmap import PinMap, PinMapError
from companion.devices.ports import PinFactory
from companion.inputs.pads import Pad, PadSignal, PadTouch

PadEvent = PadSignal


class PadInput:
    """One pad's GPIO line: a gpiozero :class:`~gpiozero.InputDevice` and its pin's edges.

    The device claims the pin from the factory like every gpiozero device (a
    pin another device holds is refused with :exc:`gpiozero.GPIOPinInUse`, and
    so is a later device asking for this one); it is an input pulled towards
    "untouched".  Its pin (``device.pin``) gets edge detection on both edges,
    no bounce filter, and ``when_changed``: every edge goes, with its tick, to
    ``on_edge(pad, ticks, active)``.
    """

    def __init__(self, factory: Any, number: int, pad: Pad, *, active_high: bool,
                 on_edge: Callable[[Pad, Any, bool], None]) -> None:
        self.pad = pad
        self.active_high = active_high
        self._on_edge = on_edge
        try:
            # pulled down when the module drives high on touch: an unplugged module is untouched
            self.device: Any = InputDevice(number, pull_up=not active_high, pin_factory=factory)
        except GPIOPinInUse as exc:
            raise GPIOPinInUse(f"slap pad {pad.key} cannot have GPIO{number}: {exc}") from exc
        try:
            pin = self.device.pin
            pin.bounce = None
            pin.edges = "both"
            # The pin keeps only a weak reference to this bound method; the
            # adapter keeps this object (and so the callback) alive.
            pin.when_changed = self.changed
        except BaseException:
            self.close()
            raise

    @property
    def pin(self) -> Any:
        """The gpiozero pin (a MockPin under the mock factory); ``None`` once closed."""
        return self.device.pin

    def changed(self, ticks: Any, state: Any) -> None:
        """The pin's ``when_changed`` callback: an edge at ``ticks``, the line now ``state``."""
        self._on_edge(self.pad, ticks, bool(state) == self.active_high)

    @property
    def is_active(self) -> bool:
        """Whether the pad is touched now (the line read this moment)."""
        return not self.device.closed and bool(self.device.is_active)

    def close(self) -> None:
        pin = self.device.pin
        if pin is not None:
            pin.when_changed = None
        self.device.close()

    def __repr__(self) -> str:
        where = f" on {self.pin.info.name}" if self.pin is not None else ""
        return f"<slap pad {self.pad.key}{where}>"


class SlapPads:
    """The pad adapter: one input per pad, events to ``on_event``.

    ``pads`` maps each :class:`Pad` to its BCM pin (``PinMap.pads[seats]``).
    ``pin_factory`` is a gpiozero factory (default: gpiozero's, e.g.
    ``GPIOZERO_PIN_FACTORY=mock``).  ``active_high``: TTP223 modules drive their
    output high while touched (the default jumper setting); the input then has a
    pull-down so an unplugged module reads untouched.  ``clock`` is the host clock
    for stuck detection only.
    """

    def __init__(self, pads: Mapping[Pad, int], on_event: Callable[[PadEvent], None], *,
                 pin_factory: PinFactory | None = None, chatter_ms: float = CHATTER_MS,
                 stuck_after_s: float = STUCK_AFTER_S, active_high: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 offsets: Mapping[Pad, float] | None = None) -> None:
        chatter_s = chatter_ms / 1000.0
        self._lock = threading.Lock()
        self._states = PadStates(pads, on_event, chatter_ms=chatter_ms, stuck_after_s=stuck_after_s,
                                 clock=clock, offsets=offsets, lock=self._lock,
                                 within_chatter=lambda later, earlier:
                                 self._diff_s(later, earlier) < chatter_s)
        pins = list(pads.values())
        if len(set(pins)) != len(pins):
            raise PinMapError("Two pads share one GPIO; every pad needs its own pin.")
        self._on_event = on_event
        self._clock = clock
        self._epoch: Any = None
        self._inputs: dict[Pad, PadInput] = {}
        self.stale_count = 0
        """Edges older than the pad's previous edge (dropped; the kernel never sends them)."""
        if pin_factory is None:
            Device.ensure_pin_factory()  # gpiozero's default ($GPIOZERO_PIN_FACTORY, lgpio, ...)
            pin_factory = Device.pin_factory
        self._factory: Any = pin_factory  # set before any edge can arrive
        try:
            for pad, pin in pads.items():
                self._inputs[pad] = PadInput(pin_factory, pin, pad, active_high=active_high,
                                             on_edge=self._edge)
        except BaseException:
            self.close()
            raise
        now = clock()
        with self._lock:
            for pad, line in self._inputs.items():
                st = self._states.states[pad]
                if line.is_active and st.last_tick is None:  # active from the start: no touch
                    st.active = True
                    st.since = now

    @classmethod
    def from_pinmap(cls, pinmap: PinMap, seats: int, on_event: Callable[[PadEvent], None],
                    **kwargs: Any) -> SlapPads:
        """The pads of a ``seats``-seat table as the pin map wires them."""
        if seats not in pinmap.pads:
            raise PinMapError(f"The pin map has no pads for {seats} seats.")
        return cls(pinmap.pads[seats], on_event, **kwargs)

    # --- the edge path (pin factory thread) ---------------------------------------

    def _diff_s(self, later: Any, earlier: Any) -> float:
        """Signed seconds from ``earlier`` to ``later`` using only ``ticks_diff``.

        Local factories return a signed difference; wrapping ones (pigpio's 32-bit
        microseconds) always return a positive one, so the shorter way round wins.
        """
        d = float(self._factory.ticks_diff(later, earlier))
        if d > 0:
            back = float(self._factory.ticks_diff(earlier, later))
            if 0 <= back < d:
                return -back
        return d

    def _edge(self, pad: Pad, ticks: Any, active: bool) -> None:
        with self._lock:
            st = self._states.states[pad]
            if self._epoch is None:
                self._epoch = ticks
            if st.last_tick is not None and self._diff_s(ticks, st.last_tick) < 0:
                self.stale_count += 1
                return
            st.last_tick = ticks
            event = self._states.edge(pad, ticks, active, self._diff_s(ticks, self._epoch) * 1000.0)
        if event is not None:
            self._on_event(event)

    # --- the host side ----------------------------------------------------------------

    def set_offsets(self, offsets: Mapping[Pad, float]) -> None:
        """Subtract these per-pad offsets (ms, from a calibration) from the next touches."""
        self._states.set_offsets(offsets)

    def poll(self) -> None:
        """Report pads that have been active ``stuck_after_s`` seconds (call a few times a second)."""
        self._states.poll()

    def ms_between(self, later: PadTouch, earlier: PadTouch) -> float:
        """Milliseconds from ``earlier`` to ``later`` by their edge ticks."""
        return self._diff_s(later.tick, earlier.tick) * 1000.0

    @property
    def pads(self) -> tuple[Pad, ...]:
        return tuple(self._inputs)

    @property
    def stuck(self) -> frozenset[Pad]:
        return self._states.stuck

    @property
    def chatter_count(self) -> int:
        """Re-activations merged into the touch before them."""
        return self._states.chatter_count

    def device(self, pad: Pad) -> PadInput:
        """The input of ``pad``; its ``.pin`` is the gpiozero pin (a MockPin under the mock factory)."""
        return self._inputs[pad]

    def close(self) -> None:
        for line in self._inputs.values():
            line.close()
        self._inputs.clear()

    def __enter__(self) -> SlapPads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SimulatedSlapPads(SlapPads):
    """The simulated twin: the same adapter on gpiozero's MockFactory, driven by
    :meth:`press`, :meth:`release` and :meth:`tap` (the terminal's pad keys)."""

    def __init__(self, pads: Mapping[Pad, int], on_event: Callable[[PadEvent], None],
                 **kwargs: Any) -> None:
        if kwargs.get("pin_factory") is None:
            from gpiozero.pins.mock import MockFactory

            kwargs["pin_factory"] = MockFactory()
        super().__init__(pads, on_event, **kwargs)

    def press(self, pad: Pad) -> None:
        self.device(pad).pin.drive_high()

    def release(self, pad: Pad) -> None:
        self.device(pad).pin.drive_low()

    def tap(self, pad: Pad) -> None:
        """One short touch (a key has no release in a terminal)."""
        self.press(pad)
        self.release(pad)
