"""The companion's reader of the electronic dice.

:class:`DiceReader` owns a background thread that opens the dice's serial
port (a device path such as ``/dev/companion-dice`` or any pyserial URL such
as ``loop://``), reads frames, acknowledges events, asks the dice to say
hello and re-send (``SYNC``), reports unplug / replug as events and
reconnects by itself by polling the path.

Its decisions live in :class:`ReaderCore`, a pure state machine without I/O
or clock (time comes in as an argument), which the fuzz tests drive directly
(the session's rules and the thread are the ones the pad hub's reader uses
too: :mod:`companion.dice.link`):

* a roll or drop is delivered only when its sequence number is the next one
  expected for the dice's current boot, so a re-sent or replayed frame is
  counted once and a frame from before a gap waits for the re-send;
* garbage, truncated lines, bad checksums, unknown versions, replayed
  sequence numbers are counted in :class:`ReaderStats` and never delivered.

``on_event`` is called on the reader's thread, one event at a time and in
order; it should be quick (put the event on a queue).  An event is
acknowledged to the dice after ``on_event`` returned - or, when ``on_event``
returns a *receipt* (an object with ``wait(timeout) -> bool | None``), only
once the receipt says the event was taken: the service settles it after the
roll is in its journal, so a power cut between the dice and the disk can
never lose a roll the dice was told had arrived.  A refused event (the disk
would not take it) is not acknowledged: the reader rewinds to it, the dice
re-sends it, and it is offered again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.dice.link import LinkCore, LinkReader, LinkStats, SerialFactory
from companion.dice.protocol import Beat, Drop, Hello, Message, Roll, decode

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiceRoll:
    """A fair roll, delivered exactly once."""

    value: int
    seq: int
    boot: str = field(default="", compare=False)
    """The dice's boot id (with ``seq``: this roll, across restarts of the companion)."""


@dataclass(frozen=True)
class DiceDrop:
    """Free fall detected (a drinking game may make it cost a drink)."""

    seq: int
    fall_ms: int = 0
    boot: str = field(default="", compare=False)


@dataclass(frozen=True)
class DiceConnected:
    """The dice said hello."""

    device_id: str
    firmware: str


@dataclass(frozen=True)
class DiceDisconnected:
    """The port vanished, a read failed, the dice went silent or restarted."""

    reason: str


@dataclass(frozen=True)
class DiceBattery:
    """From heartbeats: on connecting and whenever it moved by ``battery_step_mv``."""

    millivolts: int | None


DiceEvent = DiceRoll | DiceDrop | DiceConnected | DiceDisconnected | DiceBattery


@dataclass
class ReaderStats(LinkStats):
    """What the dice reader saw; everything it threw away is counted here."""

    wrong_direction: int = 0  # companion frames read back (an echoing line)
    rolls: int = 0
    drops: int = 0
    refused: int = 0  # events the consumer could not take (not acknowledged; re-sent)
    consumer_errors: int = 0  # on_event raised


class ReaderCore(LinkCore[DiceEvent, ReaderStats]):
    """The reader's decisions, without I/O: bytes and time in, events and frames to send out."""

    board = "the dice"
    silence = "no heartbeat"
    hello_type = Hello
    beat_type = Beat
    event_types = (Roll, Drop)
    foreign = "wrong_direction"

    def __init__(
        self,
        stats: ReaderStats | None = None,
        *,
        heartbeat_timeout: float = 3.0,
        sync_interval: float = 1.0,
        battery_step_mv: int = 20,
    ) -> None:
        super().__init__(stats if stats is not None else ReaderStats(),
                         heartbeat_timeout=heartbeat_timeout, sync_interval=sync_interval)
        self.battery_step_mv = battery_step_mv
        self.hold_acks = False
        """Leave acknowledgements to the caller (:meth:`take_ack`), after it settled the events."""
        self.ack_due = False
        self.battery: int | None = None
        self._battery_known = False

    def _decode(self, line: bytes) -> Message:
        return decode(line)

    def _up(self, hello: Hello) -> DiceEvent:
        self._battery_known = False
        return DiceConnected(hello.device_id, hello.firmware)

    def _down(self, reason: str) -> DiceEvent:
        return DiceDisconnected(reason)

    def _event(self, message: Roll | Drop) -> DiceEvent:
        if isinstance(message, Roll):
            self.stats.rolls += 1
            return DiceRoll(message.value, message.seq, message.boot)
        self.stats.drops += 1
        return DiceDrop(message.seq, message.fall_ms, message.boot)

    def _acknowledge(self, out: list[bytes]) -> None:
        if self.hold_acks:
            self.ack_due = True
        else:
            super()._acknowledge(out)

    def take_ack(self) -> bytes | None:
        """With ``hold_acks``: the acknowledgement of what was settled, if one is due."""
        if not self.ack_due or self.boot is None:
            return None
        self.ack_due = False
        return self._ack()

    def refused(self, seq: int) -> None:
        """The consumer could not take event ``seq``: deliver it (and what follows) again
        when the dice re-sends it, and acknowledge only what came before it."""
        if seq < self.expected:
            self.expected = seq
            self.stats.refused += 1
            self.ack_due = True

    def _beat(self, beat: Beat, events: list[DiceEvent]) -> None:
        mv = beat.millivolts
        if (
            not self._battery_known
            or (mv is None) != (self.battery is None)
            or (mv is not None and self.battery is not None and abs(mv - self.battery) >= self.battery_step_mv)
        ):
            self._battery_known = True
            self.battery = mv
            events.append(DiceBattery(mv))


class DiceReader(LinkReader[DiceEvent, ReaderStats]):
    """Reads the dice on ``port`` in a background thread and calls ``on_event``.

    ``port`` is a device path (polled for existence while the dice is away) or
    a pyserial URL.  ``serial_factory`` replaces pyserial's opener in tests.
    """

    thread_name = "dice-reader"
    port_name = "the dice port"

    def __init__(
        self,
        port: str,
        on_event: Callable[[DiceEvent], object],
        *,
        confirm: bool = False,
        baudrate: int = 115200,
        reconnect_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        sync_interval: float = 1.0,
        battery_step_mv: int = 20,
        read_timeout: float = 0.05,
        serial_factory: SerialFactory | None = None,
    ) -> None:
        if reconnect_interval <= 0 or heartbeat_timeout <= 0 or read_timeout <= 0:
            raise ValueError("intervals and timeouts must be positive")
        if baudrate <= 0:
            raise ValueError(f"the baud rate must be positive, not {baudrate}")
        core = ReaderCore(
            heartbeat_timeout=heartbeat_timeout,
            sync_interval=sync_interval,
            battery_step_mv=battery_step_mv,
        )
        core.hold_acks = confirm
        super().__init__(port, core, baudrate=baudrate, reconnect_interval=reconnect_interval,
                         read_timeout=read_timeout, serial_factory=serial_factory)
        self.on_event = on_event
        self._dice = core

    def __enter__(self) -> DiceReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- delivering ---------------------------------------------------------------

    def _deliver(self, events: list[DiceEvent]) -> None:
        refused = False
        for event in events:
            if isinstance(event, DiceConnected):
                log.info("dice %s (firmware %s) connected on %s", event.device_id, event.firmware, self.port)
            elif isinstance(event, DiceDisconnected):
                log.warning("dice disconnected: %s", event.reason)
            seq = getattr(event, "seq", None)
            if refused and seq is not None:
                continue  # after a refusal: the dice re-sends these, they come again in order
            try:
                receipt = self.on_event(event)
            except Exception:
                with self._lock:
                    self._dice.stats.consumer_errors += 1
                log.exception("the dice event consumer failed on %r", event)
                continue
            if seq is not None and self._dice.hold_acks and not self._taken(receipt):
                with self._lock:
                    self._dice.refused(seq)
                refused = True
                log.warning("dice event %d was not taken; the dice will send it again", seq)

    def _taken(self, receipt: object) -> bool:
        """Wait for the consumer's verdict on an event (``True`` without a receipt)."""
        wait = getattr(receipt, "wait", None)
        if wait is None:
            return True
        while not self._stop.is_set():
            verdict = wait(0.5)
            if verdict is not None:
                return bool(verdict)
        return False  # stopping: not acknowledged, the dice keeps it for the next start

    def _settled(self) -> list[bytes]:
        with self._lock:
            ack = self._dice.take_ack() if self._dice.hold_acks else None
        return [ack] if ack else []
