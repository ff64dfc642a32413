"""The pad hub's adapter: the same pad events as the GPIO pads, timed by the hub's one clock.

The pad hub (``firmware/padhub``, hardware/guide/pads.md) senses every pad
itself and sends ``PAD boot,seq,channel,us,state`` over the table's wire
protocol (docs/dev/protocol.md: talker ``P1``), on USB or on the Pi's UART.  This
adapter reads that line and produces exactly what
:class:`~companion.devices.pads.gpio.SlapPads` produces (:class:`PadTouch`,
:class:`PadStuck`, :class:`PadReleased`), so the referee does not know which
front end is in use, plus :class:`PadLink` when the hub comes and goes (a first
``PadLink(False, ...)`` when the reader starts: no pads until the hub says hello).

* **Time.** A touch's ``tick`` is the hub's microsecond time stamp (the sample
  time of the scan that first saw it); ``ms`` is that time in milliseconds after
  the first touch of this hub's boot, minus the pad's calibrated offset.  If the
  hub restarts (a new boot id: its clock starts again), the new boot's times
  continue after the old ones by the host clock's gap, so the referee's log
  keeps its order.
* **Exactly once, in order.** :class:`HubCore` (pure: bytes and time in, events
  and frames out) delivers an edge only when it carries the current boot and
  the next expected sequence number, acknowledges, asks for a re-send with
  ``SYNC`` after a gap, and counts everything it threw away in :class:`HubStats`
  (the dice reader's rules and thread, docs/dev/protocol.md: both are
  :mod:`companion.dice.link`).
* **Chatter and stuck pads** as with GPIO pads (:mod:`companion.devices.pads.state`):
  a touch within ``chatter_ms`` of the pad's release (hub time) continues it; a
  pad touched ``stuck_after_s`` seconds (host clock, :meth:`PadHub.poll`) is
  reported and ignored until let go.

The channel of a pad is fixed by the hub's wiring (:func:`hub_channel`: the
multiplexer under pile ``t`` (``t - 1``) or under the graveyard (6), slot ``s - 1``
for seat ``s``).

The hub's raw charge counts (``RAW`` frames, after every ``SYNC`` and every ten
seconds) are kept (:meth:`PadHub.raw_counts`, :meth:`PadHub.channel_checks`); each
complete report goes to ``on_event`` as :class:`~companion.inputs.pads.PadChannels`
(the pads whose channel looks saturated, shorted, open or silent:
:mod:`companion.devices.pads.raw`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.devices.pads.raw import ChannelCheck, RawCount, check, problems
from companion.devices.pads.state import CHATTER_MS, STUCK_AFTER_S, PadStates
from companion.dice.link import HelloFrame, LinkCore, LinkReader, LinkStats, SerialFactory
from companion.dice.protocol import (
    HubBeat,
    HubHello,
    HubMessage,
    HubRaw,
    Message,
    PadEdge,
    decode_any,
)
from companion.inputs.pads import Pad, PadLink, PadSignal, table_pads

log = logging.getLogger(__name__)

HUB_SEATS = 6
"""Seats the hub is wired for: a multiplexer of eight channels under each of six piles and
the graveyard (56 channels, 42 pads)."""
SLOTS = 8
GRAVEYARD_MUX = 6


def hub_channel(pad: Pad) -> int:
    """The hub's channel of ``pad`` (firmware/padhub/padhub/layout.py)."""
    if not 1 <= pad.seat <= HUB_SEATS:
        raise ValueError(f"The pad hub has seats 1 to {HUB_SEATS}, not {pad.seat}.")
    if pad.target == "g":
        return GRAVEYARD_MUX * SLOTS + pad.seat - 1
    target = int(pad.target)
    if not 1 <= target <= HUB_SEATS:
        raise ValueError(f"The pad hub has piles 1 to {HUB_SEATS}, not {target}.")
    return (target - 1) * SLOTS + pad.seat - 1


def hub_pads(seats: int) -> dict[Pad, int]:
    """Every pad of a ``seats``-seat table and its hub channel."""
    if not 2 <= seats <= HUB_SEATS:
        raise ValueError(f"The pad hub serves 2 to {HUB_SEATS} seats, not {seats}.")
    return {p: hub_channel(p) for p in table_pads(seats)}


# --- the link's decisions -------------------------------------------------------------


@dataclass(frozen=True)
class HubUp:
    device_id: str
    firmware: str
    channels: int
    scan_us: int


@dataclass(frozen=True)
class HubDown:
    reason: str


@dataclass(frozen=True)
class HubEdge:
    channel: int
    us: int
    touched: bool
    boot: str


@dataclass(frozen=True)
class HubRawCount:
    raw: RawCount
    channels: int


HubEvent = HubUp | HubDown | HubEdge | HubRawCount


@dataclass
class HubStats(LinkStats):
    """What the hub's reader saw; everything it threw away is counted here."""

    not_from_a_hub: int = 0  # frames of another talker (a dice on this line, an echo)
    edges: int = 0
    missed_scans: int = 0  # the hub's own count, from its heartbeats


class HubCore(LinkCore[HubEvent, HubStats]):
    """The hub reader's decisions without I/O: bytes and time in, events and frames out."""

    board = "the pad hub"
    silence = "no heartbeat from the pad hub"
    hello_type = HubHello
    beat_type = HubBeat
    event_types = (PadEdge,)
    foreign = "not_from_a_hub"

    def __init__(self, stats: HubStats | None = None, *, heartbeat_timeout: float = 3.0,
                 sync_interval: float = 1.0) -> None:
        super().__init__(stats if stats is not None else HubStats(),
                         heartbeat_timeout=heartbeat_timeout, sync_interval=sync_interval)
        self.scan_us = 0
        self.channels = 0

    def _decode(self, line: bytes) -> Message | HubMessage:
        return decode_any(line)

    def _hello(self, hello: HelloFrame, events: list[HubEvent]) -> None:
        assert isinstance(hello, HubHello)
        self.scan_us = hello.scan_us
        self.channels = hello.channels
        super()._hello(hello, events)

    def _up(self, hello: HubHello) -> HubEvent:
        return HubUp(hello.device_id, hello.firmware, hello.channels, hello.scan_us)

    def _down(self, reason: str) -> HubEvent:
        return HubDown(reason)

    def _event(self, message: PadEdge) -> HubEvent:
        self.stats.edges += 1
        return HubEdge(message.channel, message.us, message.touched, message.boot)

    def _beat(self, beat: HubBeat, events: list[HubEvent]) -> None:
        self.stats.missed_scans = beat.missed

    def _other(self, message: object, events: list[HubEvent]) -> bool:
        if not isinstance(message, HubRaw):
            return False
        if self.connected and message.boot == self.boot:
            events.append(HubRawCount(RawCount(message.channel, message.baseline, message.count,
                                               message.limit), self.channels))
        return True


# --- the adapter ----------------------------------------------------------------------------


class PadHub(LinkReader[HubEvent, HubStats]):
    """The pad adapter of the pad hub on ``port`` (a device path or a pyserial URL).

    ``pads`` maps each :class:`Pad` to its hub channel (:func:`hub_pads`); events go
    to ``on_event`` from the reader's thread, like the GPIO adapter's from the pin
    factory's.  :meth:`start` starts the thread (the constructor does, unless
    ``start=False``); :meth:`close` stops it.
    """

    thread_name = "padhub-reader"
    port_name = "the pad hub's port"

    def __init__(self, pads: Mapping[Pad, int], on_event: Callable[[PadSignal], None],
                 port: str, *, baudrate: int = 115200, chatter_ms: float = CHATTER_MS,
                 stuck_after_s: float = STUCK_AFTER_S, clock: Callable[[], float] = time.monotonic,
                 offsets: Mapping[Pad, float] | None = None,
                 serial_factory: SerialFactory | None = None, reconnect_interval: float = 0.5,
                 heartbeat_timeout: float = 3.0, read_timeout: float = 0.05,
                 start: bool = True) -> None:
        self._hub = HubCore(heartbeat_timeout=heartbeat_timeout)
        super().__init__(port, self._hub, baudrate=baudrate, reconnect_interval=reconnect_interval,
                         read_timeout=read_timeout, serial_factory=serial_factory)
        chatter_us = chatter_ms * 1000.0
        self._states = PadStates(pads, on_event, chatter_ms=chatter_ms, stuck_after_s=stuck_after_s,
                                 clock=clock, offsets=offsets, lock=self._lock,
                                 within_chatter=lambda later, earlier: later - earlier < chatter_us)
        channels = list(pads.values())
        if len(set(channels)) != len(channels):
            raise ValueError("Two pads share one hub channel.")
        self._on_event = on_event
        self._by_channel = {ch: pad for pad, ch in pads.items()}
        self._clock = clock
        # the hub's clock -> ms: per boot, the first touch's us and the ms it maps to
        self._boot: str | None = None
        self._epoch_us: int | None = None
        self._base_ms = 0.0
        self._last_ms = 0.0
        self._last_host = 0.0
        self.hub_name = ""
        self._pads = dict(pads)
        self._raw: dict[int, RawCount] = {}
        if start:
            self.start()

    @classmethod
    def for_seats(cls, seats: int, on_event: Callable[[PadSignal], None], port: str,
                  **kwargs: Any) -> PadHub:
        return cls(hub_pads(seats), on_event, port, **kwargs)

    # --- the public face ----------------------------------------------------------------

    @property
    def pads(self) -> tuple[Pad, ...]:
        return tuple(self._states.states)

    @property
    def scan_us(self) -> int:
        """The hub's scan period (from its hello; 0 before it said hello)."""
        return self._hub.scan_us

    @property
    def stuck(self) -> frozenset[Pad]:
        return self._states.stuck

    @property
    def chatter_count(self) -> int:
        """Re-activations merged into the touch before them."""
        return self._states.chatter_count

    def raw_counts(self) -> dict[int, RawCount]:
        """The latest raw counts the hub reported, by channel."""
        with self._lock:
            return dict(self._raw)

    def channel_checks(self) -> list[ChannelCheck]:
        """Every pad's channel as the latest raw counts show it (:mod:`.padraw`)."""
        return check(self.raw_counts(), self._pads)

    def set_offsets(self, offsets: Mapping[Pad, float]) -> None:
        self._states.set_offsets(offsets)

    def poll(self) -> None:
        """Report pads touched ``stuck_after_s`` seconds (call a few times a second)."""
        self._states.poll()

    def start(self) -> None:
        if self._thread is None:
            super().start()

    def close(self) -> None:
        """Stop the reader and close the port; safe to call twice."""
        self.stop()

    def __enter__(self) -> PadHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- edges -> pad events --------------------------------------------------------------

    def _to_ms(self, boot: str, us: int) -> float:
        now = self._clock()
        if boot != self._boot:  # a new boot: its clock starts again; continue after the old
            if self._boot is not None:
                self._base_ms = self._last_ms + max(0.0, now - self._last_host) * 1000.0
            self._boot, self._epoch_us = boot, us
            self._states.forget_releases()
        assert self._epoch_us is not None
        ms = self._base_ms + (us - self._epoch_us) / 1000.0
        self._last_ms, self._last_host = max(self._last_ms, ms), now
        return ms

    def _edge(self, edge: HubEdge) -> PadSignal | None:
        pad = self._by_channel.get(edge.channel)
        if pad is None:
            return None  # a channel without a pad of this table
        return self._states.edge(pad, edge.us, edge.touched, self._to_ms(edge.boot, edge.us))

    def _deliver(self, events: list[HubEvent]) -> None:
        out: list[PadSignal] = []
        with self._lock:
            for event in events:
                if isinstance(event, HubEdge):
                    signal = self._edge(event)
                    if signal is not None:
                        out.append(signal)
                elif isinstance(event, HubRawCount):
                    self._raw[event.raw.channel] = event.raw
                    if event.raw.channel == event.channels - 1:  # the report is complete
                        out.append(problems(check(self._raw, self._pads)))
                elif isinstance(event, HubUp):
                    self._raw.clear()  # a new boot: its counts come anew
                    self.hub_name = f"{event.device_id} {event.firmware}"
                    log.info("pad hub %s connected on %s (%d channels, scan %d us)",
                             self.hub_name, self.port, event.channels, event.scan_us)
                    out.append(PadLink(True, self.hub_name))
                else:
                    log.warning("pad hub disconnected: %s", event.reason)
                    self._states.reset()  # what it held is unknown now
                    out.append(PadLink(False, event.reason))
        for signal in out:
            try:
                self._on_event(signal)
            except Exception:
                log.exception("the pad event consumer failed on %r", signal)

    def feed(self, data: bytes, now: float | None = None) -> list[bytes]:
        """Bytes from the hub (a test may call this instead of the reader's thread): the pad
        events go to ``on_event``; returns the frames to send back."""
        with self._lock:
            events, out = self._core.feed(data, self._clock() if now is None else now)
        self._deliver(events)
        return out

    def _started(self) -> None:
        try:  # until the hub says hello, the table has no pads
            self._on_event(PadLink(False, f"waiting for the pad hub on {self.port}"))
        except Exception:
            log.exception("the pad event consumer failed")
