"""The companion's reader of the electronic dice.

:class:`DiceReader` owns a background thread that opens the dice's serial
port (a device path such as ``/dev/companion-dice`` or any pyserial URL such
as ``loop://``), reads frames, acknowledges events, asks the dice to say
hello and re-send (``SYNC``), reports unplug / replug as events and
reconnects by itself by polling the path.

Its decisions live in :class:`ReaderCore`, a pure state machine without I/O
or clock (time comes in as an argument), which the fuzz tests drive directly:

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

import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial

from .protocol import (
    Ack,
    Beat,
    Hello,
    ProtocolError,
    Reason,
    Roll,
    Splitter,
    Sync,
    decode,
    encode,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiceRoll:
    """A fair roll, delivered exactly once."""

    value: int
    seq: int


@dataclass(frozen=True)
class DiceDrop:
    """Free fall detected (costs a drink in "napij se")."""

    seq: int
    fall_ms: int = 0


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
class ReaderStats:
    """What the reader saw; everything it threw away is counted here."""

    bytes_received: int = 0
    frames_ok: int = 0
    garbage_bytes: int = 0  # bytes outside any frame
    truncated: int = 0  # frames cut short by the next "$"
    too_long: int = 0  # lines longer than the protocol allows
    bad_checksum: int = 0
    bad_syntax: int = 0  # not printable ASCII, no checksum
    bad_version: int = 0  # another protocol version
    bad_kind: int = 0  # unknown talker or kind
    bad_field: int = 0  # wrong field count or a field out of range
    wrong_direction: int = 0  # companion frames read back (an echoing line)
    before_hello: int = 0  # events before the dice introduced itself
    wrong_boot: int = 0  # events from another boot of the dice
    replayed: int = 0  # events already delivered (re-sends, replays): counted once
    out_of_order: int = 0  # events after a gap, waiting for the re-send
    lost_events: int = 0  # events the dice gave up on (its outbox overflowed)
    rolls: int = 0
    drops: int = 0
    heartbeats: int = 0
    hellos: int = 0
    acks_sent: int = 0
    refused: int = 0  # events the consumer could not take (not acknowledged; re-sent)
    syncs_sent: int = 0
    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0
    consumer_errors: int = 0  # on_event raised

    @property
    def garbage_lines(self) -> int:
        """Lines that looked like frames but were not valid ones."""
        return (
            self.truncated
            + self.too_long
            + self.bad_checksum
            + self.bad_syntax
            + self.bad_version
            + self.bad_kind
            + self.bad_field
        )


_REASON_FIELD = {
    Reason.CHECKSUM: "bad_checksum",
    Reason.SYNTAX: "bad_syntax",
    Reason.VERSION: "bad_version",
    Reason.KIND: "bad_kind",
    Reason.FIELD: "bad_field",
    Reason.TOO_LONG: "too_long",
}


_SYNC_FRAME = encode(Sync())


class ReaderCore:
    """The reader's decisions, without I/O: bytes and time in, events and frames to send out."""

    def __init__(
        self,
        stats: ReaderStats | None = None,
        *,
        heartbeat_timeout: float = 3.0,
        sync_interval: float = 1.0,
        battery_step_mv: int = 20,
    ) -> None:
        self.stats = stats if stats is not None else ReaderStats()
        self.heartbeat_timeout = heartbeat_timeout
        self.sync_interval = sync_interval
        self.battery_step_mv = battery_step_mv
        self.splitter = Splitter()
        self.boot: str | None = None
        self.expected = 1  # the next sequence number to deliver
        self.connected = False
        self.hold_acks = False
        """Leave acknowledgements to the caller (:meth:`take_ack`), after it settled the events."""
        self.ack_due = False
        self.battery: int | None = None
        self._battery_known = False
        self._opened_at = 0.0
        self._last_heard = 0.0
        self._last_sync = 0.0

    # -- the link -------------------------------------------------------------

    def opened(self, now: float) -> list[bytes]:
        """The port was (re)opened: forget partial input and ask the dice to say hello."""
        self.splitter = Splitter()
        self._opened_at = self._last_heard = now
        return [self._sync(now)]

    def closed(self, reason: str) -> list[DiceEvent]:
        """The port closed (or is about to be): a disconnect event if the dice was connected."""
        if not self.connected:
            return []
        self.connected = False
        self.stats.disconnects += 1
        return [DiceDisconnected(reason)]

    def tick(self, now: float) -> tuple[list[bytes], str | None]:
        """Timers: SYNC while waiting for a hello; returns a reason to close the port or None."""
        silent = now - self._last_heard
        if self.connected:
            if silent > self.heartbeat_timeout:
                return [], f"no heartbeat for {silent:.1f} s"
            return [], None
        if silent > self.heartbeat_timeout and now - self._opened_at > self.heartbeat_timeout:
            return [], "no answer from the dice"
        out: list[bytes] = []
        self._want_sync(now, out)
        return out, None

    def _sync(self, now: float) -> bytes:
        self._last_sync = now
        self.stats.syncs_sent += 1
        return _SYNC_FRAME

    def _ack(self) -> bytes:
        assert self.boot is not None
        self.stats.acks_sent += 1
        return encode(Ack(self.boot, self.expected - 1))

    # -- the input ------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> tuple[list[DiceEvent], list[bytes]]:
        """Bytes from the port -> events to deliver (in order) and frames to send back."""
        stats = self.stats
        stats.bytes_received += len(data)
        splitter = self.splitter
        before = (splitter.garbage, splitter.truncated, splitter.too_long)
        lines = splitter.feed(data)
        stats.garbage_bytes += splitter.garbage - before[0]
        stats.truncated += splitter.truncated - before[1]
        stats.too_long += splitter.too_long - before[2]
        if not lines:
            return [], []
        events: list[DiceEvent] = []
        out: list[bytes] = []
        ack = False
        for line in lines:
            try:
                message = decode(line)
            except ProtocolError as exc:
                name = _REASON_FIELD[exc.reason]
                setattr(stats, name, getattr(stats, name) + 1)
                continue
            if isinstance(message, Sync | Ack):
                stats.wrong_direction += 1
                continue
            stats.frames_ok += 1
            self._last_heard = now
            if isinstance(message, Hello):
                ack = self._hello(message, events) or ack
            elif isinstance(message, Beat):
                stats.heartbeats += 1
                if not self.connected or message.boot != self.boot:
                    self._want_sync(now, out)
                else:
                    self._beat(message, events)
            elif not self.connected:
                stats.before_hello += 1
                self._want_sync(now, out)
            elif message.boot != self.boot:
                stats.wrong_boot += 1
                self._want_sync(now, out)
            elif message.seq < self.expected:
                stats.replayed += 1
                ack = True
            elif message.seq > self.expected:
                stats.out_of_order += 1
                ack = True
                self._want_sync(now, out)
            else:
                self.expected += 1
                ack = True
                if isinstance(message, Roll):
                    stats.rolls += 1
                    events.append(DiceRoll(message.value, message.seq))
                else:
                    stats.drops += 1
                    events.append(DiceDrop(message.seq, message.fall_ms))
        if ack:
            if self.hold_acks:
                self.ack_due = True
            else:
                out.append(self._ack())
        return events, out

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

    def _want_sync(self, now: float, out: list[bytes]) -> None:
        if now - self._last_sync >= self.sync_interval:
            out.append(self._sync(now))

    def _hello(self, hello: Hello, events: list[DiceEvent]) -> bool:
        self.stats.hellos += 1
        if hello.boot != self.boot:
            events += self.closed("the dice restarted")
            self.boot = hello.boot
            self.expected = hello.first
        elif hello.first > self.expected:
            self.stats.lost_events += hello.first - self.expected
            log.warning("the dice lost %d event(s) it could not deliver", hello.first - self.expected)
            self.expected = hello.first
        if not self.connected:
            self.connected = True
            self._battery_known = False
            self.stats.connects += 1
            events.append(DiceConnected(hello.device_id, hello.firmware))
        return True

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


class SerialPort(Protocol):
    """What the reader needs from a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


SerialFactory = Callable[[], SerialPort]


class DiceReader:
    """Reads the dice on ``port`` in a background thread and calls ``on_event``.

    ``port`` is a device path (polled for existence while the dice is away) or
    a pyserial URL.  ``serial_factory`` replaces pyserial's opener in tests.
    """

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
        self.port = port
        self.on_event = on_event
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self.read_timeout = read_timeout
        self._is_path = "://" not in port
        self._factory = serial_factory or self._open_pyserial
        self._lock = threading.Lock()
        self._stats = ReaderStats()
        self._core = ReaderCore(
            self._stats,
            heartbeat_timeout=heartbeat_timeout,
            sync_interval=sync_interval,
            battery_step_mv=battery_step_mv,
        )
        self._core.hold_acks = confirm
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: SerialPort | None = None

    # -- the public face ------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._core.connected

    @property
    def stats(self) -> ReaderStats:
        """A snapshot of the counters."""
        with self._lock:
            return dataclasses.replace(self._stats)

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the dice reader is already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="dice-reader", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._stop.set()
        ser = self._serial
        cancel = getattr(ser, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except Exception:  # noqa: BLE001 - best effort wake-up
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None
        self._close()

    def __enter__(self) -> DiceReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the thread -----------------------------------------------------------

    def _open_pyserial(self) -> SerialPort:
        port: SerialPort = serial.serial_for_url(
            self.port,
            baudrate=self.baudrate,
            timeout=self.read_timeout,
            write_timeout=0.5,
            exclusive=True if self._is_path else None,
        )
        return port

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
                    self._stats.consumer_errors += 1
                log.exception("the dice event consumer failed on %r", event)
                continue
            if seq is not None and self._core.hold_acks and not self._taken(receipt):
                with self._lock:
                    self._core.refused(seq)
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

    def _send(self, frames: list[bytes]) -> None:
        if frames and self._serial is not None:
            self._serial.write(b"".join(frames))

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except Exception:  # noqa: BLE001 - closing a vanished port may fail
                pass

    def _drop_link(self, reason: str) -> None:
        self._close()
        with self._lock:
            events = self._core.closed(reason)
        self._deliver(events)

    def _try_open(self) -> bool:
        if self._is_path and not os.path.exists(self.port):
            return False
        try:
            ser = self._factory()
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._stats.open_failures += 1
            log.debug("cannot open the dice port %s: %s", self.port, exc)
            return False
        self._serial = ser
        with self._lock:
            frames = self._core.opened(time.monotonic())
        try:
            self._send(frames)
        except (serial.SerialException, OSError) as exc:
            self._drop_link(f"write error: {exc}")
            return False
        return True

    def _run(self) -> None:
        waiting_logged = False
        next_path_check = 0.0
        while not self._stop.is_set():
            if self._serial is None:
                if not self._try_open():
                    if not waiting_logged:
                        log.info("waiting for the dice on %s", self.port)
                        waiting_logged = True
                    self._stop.wait(self.reconnect_interval)
                    continue
                waiting_logged = False
            ser = self._serial
            assert ser is not None
            try:
                data = ser.read(1)
                if data:
                    waiting = ser.in_waiting
                    if waiting:
                        data += ser.read(waiting)
            except (serial.SerialException, OSError) as exc:
                if self._stop.is_set():
                    break
                gone = self._is_path and not os.path.exists(self.port)
                self._drop_link("the dice port vanished" if gone else f"read error: {exc}")
                continue
            now = time.monotonic()
            with self._lock:
                events, out = self._core.feed(data, now) if data else ([], [])
                more, close_reason = self._core.tick(now)
            self._deliver(events)
            with self._lock:
                ack = self._core.take_ack() if self._core.hold_acks else None
            try:
                self._send(out + more + ([ack] if ack else []))
            except (serial.SerialException, OSError) as exc:
                self._drop_link(f"write error: {exc}")
                continue
            if close_reason is None and self._is_path and now >= next_path_check:
                next_path_check = now + 0.25
                if not os.path.exists(self.port):
                    close_reason = "the dice port vanished"
            if close_reason is not None:
                self._drop_link(close_reason)
        self._close()
