"""What a pad adapter keeps of every pad, whatever its front end: touched, stuck, last let go.

Both pad adapters - the GPIO pads (:class:`~companion.devices.pads.gpio.SlapPads`)
and the pad hub (:class:`~companion.devices.pads.hub.PadHub`) - turn a pad's
edges into the same events with the same rules, kept here in
:class:`PadStates`:

* **Touches.** An edge to "touched" of a pad that was not touched is a
  :class:`PadTouch` at the edge's time; its ``ms`` less the pad's calibrated
  offset (:meth:`PadStates.set_offsets`).
* **Chatter.** A pad touched again within ``chatter_ms`` of its release (by the
  edges' own times) continues the same touch: no second :class:`PadTouch`.
* **Stuck pads.** A pad touched ``stuck_after_s`` seconds (the host clock, by
  :meth:`PadStates.poll`) is reported once (:class:`PadStuck`) and ignored until
  it is let go (:class:`PadReleased`).

Edge times are the front end's own (gpiozero's ticks, the hub's microseconds):
the adapter says how to tell that an edge came within the chatter window
(``within_chatter``) and what an edge's ``ms`` is.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.inputs.pads import Pad, PadReleased, PadSignal, PadStuck, PadTouch

log = logging.getLogger(__name__)

CHATTER_MS = 10.0
"""Default: a re-activation within this many ms of a release is the same touch."""
STUCK_AFTER_S = 5.0
"""Default: a pad active this long is stuck (a slap lasts well under a second)."""


@dataclass
class PadState:
    active: bool = False
    stuck: bool = False
    since: float = 0.0  # host clock when it became active (stuck detection only)
    released: Any = None  # the front end's time of the last release
    last_tick: Any = None  # the front end's time of the last edge seen (GPIO: stale edges)


class PadStates:
    """Every pad's state and the events its edges make.

    ``lock`` is the adapter's lock: :meth:`edge`, :meth:`reset` and
    :meth:`forget_releases` are called with it held; :meth:`poll`,
    :meth:`set_offsets` and :attr:`stuck` take it themselves.  ``on_event`` gets
    the stuck pads :meth:`poll` finds (the adapter delivers the events of
    :meth:`edge` itself).  ``within_chatter(later, earlier)`` says whether edge
    time ``later`` is less than ``chatter_ms`` after ``earlier``.
    """

    def __init__(self, pads: Iterable[Pad], on_event: Callable[[PadSignal], None], *,
                 chatter_ms: float, stuck_after_s: float, clock: Callable[[], float],
                 offsets: Mapping[Pad, float] | None, lock: threading.Lock,
                 within_chatter: Callable[[Any, Any], bool]) -> None:
        if chatter_ms < 0:
            raise ValueError("chatter_ms must not be negative.")
        if stuck_after_s <= 0:
            raise ValueError("stuck_after_s must be more than zero.")
        self.states: dict[Pad, PadState] = {pad: PadState() for pad in pads}
        self.chatter_count = 0
        """Re-activations merged into the touch before them."""
        self._on_event = on_event
        self._stuck_after_s = stuck_after_s
        self._clock = clock
        self._offsets: dict[Pad, float] = dict(offsets or {})
        self._lock = lock
        self._within_chatter = within_chatter

    def edge(self, pad: Pad, at: Any, active: bool, ms: float) -> PadSignal | None:
        """``pad`` became ``active`` (or was let go) at ``at``, ``ms`` on the adapter's
        millisecond scale: the event it makes, if any.  Call with the lock held."""
        st = self.states[pad]
        if active:
            if st.active:
                return None
            st.active = True
            st.since = self._clock()
            if st.stuck:
                return None
            if st.released is not None and self._within_chatter(at, st.released):
                self.chatter_count += 1
                return None
            return PadTouch(pad.seat, pad.target, at, ms - self._offsets.get(pad, 0.0))
        if not st.active:
            return None
        st.active = False
        st.released = at
        if st.stuck:
            st.stuck = False
            return PadReleased(pad.seat, pad.target)
        return None

    def reset(self) -> None:
        """What every pad holds is unknown now (the front end went away); with the lock held."""
        for st in self.states.values():
            st.active = st.stuck = False

    def forget_releases(self) -> None:
        """The edge times start again (a new clock); with the lock held."""
        for st in self.states.values():
            st.released = None

    def set_offsets(self, offsets: Mapping[Pad, float]) -> None:
        """Subtract these per-pad offsets (ms, from a calibration) from the next touches."""
        with self._lock:
            self._offsets = dict(offsets)

    def poll(self) -> None:
        """Report pads that have been active ``stuck_after_s`` seconds (call a few times a second)."""
        now = self._clock()
        stuck: list[PadStuck] = []
        with self._lock:
            for pad, st in self.states.items():
                if st.active and not st.stuck and now - st.since >= self._stuck_after_s:
                    st.stuck = True
                    stuck.append(PadStuck(pad.seat, pad.target))
        for event in stuck:
            log.warning("pad %s is stuck active and is ignored until released", event.pad.key)
            self._on_event(event)

    @property
    def stuck(self) -> frozenset[Pad]:
        with self._lock:
            return frozenset(p for p, st in self.states.items() if st.stuck)
