"""The companion's end of a board's session on the table's serial line (the dice, the pad hub).

Both boards speak docs/dev/protocol.md the same way, so both readers share this
module: the dice's (:mod:`companion.dice.reader`) and the pad hub's
(:mod:`companion.devices.pads.hub`).  A board's reader is two parts:

* :class:`LinkCore`, the session's decisions without I/O or clock (bytes and
  time in, events and frames to send out): the port was opened, so ask for a
  hello (``SYNC``); a hello connects (a new boot id: the board restarted);
  a numbered event is delivered only when it carries the current boot and the
  next expected sequence number, so a re-sent or replayed frame counts once and
  a frame after a gap waits for the re-send (asked for with ``SYNC``); what
  arrived is acknowledged cumulatively (``ACK``); heartbeats keep the link up
  and silence closes the port.  Everything thrown away is counted in
  :class:`LinkStats`.  A board's core (``ReaderCore``, ``HubCore``) says which
  frames are its board's and which events they make.
* :class:`LinkReader`, the background thread: it opens the port (a device path,
  polled for existence while the board is away, or any pyserial URL), reads,
  feeds the core, hands the events to the board's adapter, writes the frames,
  and closes and reopens the port when the line fails or falls silent.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import serial

from companion.dice.protocol import Ack, ProtocolError, Reason, Splitter, Sync, encode

log = logging.getLogger(__name__)

E = TypeVar("E")


@dataclass
class LinkStats:
    """What a board's reader saw; everything it threw away is counted here."""

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
    before_hello: int = 0  # events before the board introduced itself
    wrong_boot: int = 0  # events from another boot of the board
    replayed: int = 0  # events already delivered (re-sends, replays): counted once
    out_of_order: int = 0  # events after a gap, waiting for the re-send
    lost_events: int = 0  # events the board gave up on (its outbox overflowed)
    heartbeats: int = 0
    hellos: int = 0
    acks_sent: int = 0
    syncs_sent: int = 0
    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0

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


class HelloFrame(Protocol):
    """What the session reads in a board's ``HELLO``."""

    @property
    def boot(self) -> str: ...

    @property
    def first(self) -> int: ...


class BeatFrame(Protocol):
    """What the session reads in a board's ``BEAT``."""

    @property
    def boot(self) -> str: ...


class EventFrame(Protocol):
    """What the session reads in a board's numbered event (``ROLL``, ``DROP``, ``PAD``)."""

    @property
    def boot(self) -> str: ...

    @property
    def seq(self) -> int: ...


S = TypeVar("S", bound=LinkStats)


class LinkCore(Generic[E, S]):
    """A board's session without I/O: bytes and time in, events ``E`` and frames out,
    counted in ``S``.

    A board's core sets the class attributes (its frames' types, its name in the
    reasons it gives, the counter of frames not its own) and the hooks that make
    its events: :meth:`_up`, :meth:`_down`, :meth:`_event`, :meth:`_beat`.
    """

    board = "the board"
    """The board in reasons: "no answer from the dice", "the dice restarted"."""
    silence = "no heartbeat"
    """The reason given when a connected board falls silent (followed by "for 3.1 s")."""
    hello_type: type[HelloFrame]
    beat_type: type[BeatFrame]
    event_types: tuple[type[EventFrame], ...]
    foreign: str
    """The :class:`LinkStats` counter of well-formed frames that are not the board's."""

    def __init__(self, stats: S, *, heartbeat_timeout: float = 3.0,
                 sync_interval: float = 1.0) -> None:
        self.stats = stats
        self.heartbeat_timeout = heartbeat_timeout
        self.sync_interval = sync_interval
        self.splitter = Splitter()
        self.boot: str | None = None
        self.expected = 1  # the next sequence number to deliver
        self.connected = False
        self._opened_at = 0.0
        self._last_heard = 0.0
        self._last_sync = -math.inf  # no SYNC sent yet

    # -- what a board's core says -------------------------------------------------

    def _decode(self, line: bytes) -> object:
        """One line -> a message (raises :class:`ProtocolError`)."""
        raise NotImplementedError

    def _up(self, hello: Any) -> E:
        """The board said hello and is connected now: the event that says so."""
        raise NotImplementedError

    def _down(self, reason: str) -> E:
        """The connected board is gone: the event that says so."""
        raise NotImplementedError

    def _event(self, message: Any) -> E:
        """The next numbered event of the current boot: the event to deliver."""
        raise NotImplementedError

    def _beat(self, beat: Any, events: list[E]) -> None:
        """A heartbeat of the connected board's current boot."""

    def _other(self, message: object, events: list[E]) -> bool:
        """A frame of the board that is neither hello, beat nor numbered event (the pad hub's
        raw counts): True when the board's core took it."""
        return False

    # -- the link -------------------------------------------------------------------

    def opened(self, now: float) -> list[bytes]:
        """The port was (re)opened: forget partial input and ask the board to say hello."""
        self.splitter = Splitter()
        self._opened_at = self._last_heard = now
        return [self._sync(now)]

    def closed(self, reason: str) -> list[E]:
        """The port closed (or is about to be): a disconnect event if the board was connected."""
        if not self.connected:
            return []
        self.connected = False
        self.stats.disconnects += 1
        return [self._down(reason)]

    def tick(self, now: float) -> tuple[list[bytes], str | None]:
        """Timers: SYNC while waiting for a hello; returns a reason to close the port or None."""
        silent = now - self._last_heard
        if self.connected:
            if silent > self.heartbeat_timeout:
                return [], f"{self.silence} for {silent:.1f} s"
            return [], None
        if silent > self.heartbeat_timeout and now - self._opened_at > self.heartbeat_timeout:
            return [], f"no answer from {self.board}"
        out: list[bytes] = []
        self._want_sync(now, out)
        return out, None

    def _sync(self, now: float) -> bytes:
        self._last_sync = now
        self.stats.syncs_sent += 1
        return _SYNC_FRAME

    def _want_sync(self, now: float, out: list[bytes]) -> None:
        if now - self._last_sync >= self.sync_interval:
            out.append(self._sync(now))

    def _ack(self) -> bytes:
        assert self.boot is not None
        self.stats.acks_sent += 1
        return encode(Ack(self.boot, self.expected - 1))

    def _acknowledge(self, out: list[bytes]) -> None:
        """Something arrived that calls for an acknowledgement (the reader's core may hold it)."""
        out.append(self._ack())

    # -- the input ------------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> tuple[list[E], list[bytes]]:
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
        events: list[E] = []
        out: list[bytes] = []
        ack = False
        for line in lines:
            try:
                message = self._decode(line)
            except ProtocolError as exc:
                name = _REASON_FIELD[exc.reason]
                setattr(stats, name, getattr(stats, name) + 1)
                continue
            if isinstance(message, self.hello_type):
                self._hello(message, events)
                ack = True
            elif isinstance(message, self.beat_type):
                stats.heartbeats += 1
                if not self.connected or message.boot != self.boot:
                    self._want_sync(now, out)
                else:
                    self._beat(message, events)
            elif isinstance(message, self.event_types):
                ack = self._numbered(message, now, events, out) or ack
            elif self._other(message, events):
                pass
            else:
                setattr(stats, self.foreign, getattr(stats, self.foreign) + 1)
                continue
            stats.frames_ok += 1
            self._last_heard = now
        if ack:
            self._acknowledge(out)
        return events, out

    def _numbered(self, message: EventFrame, now: float, events: list[E], out: list[bytes]) -> bool:
        """A numbered event: delivered if it is the next one; whether to acknowledge."""
        stats = self.stats
        if not self.connected:
            stats.before_hello += 1
            self._want_sync(now, out)
            return False
        if message.boot != self.boot:
            stats.wrong_boot += 1
            self._want_sync(now, out)
            return False
        if message.seq < self.expected:
            stats.replayed += 1
        elif message.seq > self.expected:
            stats.out_of_order += 1
            self._want_sync(now, out)
        else:
            self.expected += 1
            events.append(self._event(message))
        return True

    def _hello(self, hello: HelloFrame, events: list[E]) -> None:
        self.stats.hellos += 1
        if hello.boot != self.boot:
            events += self.closed(f"{self.board} restarted")
            self.boot = hello.boot
            self.expected = hello.first
        elif hello.first > self.expected:
            self.stats.lost_events += hello.first - self.expected
            log.warning("%s lost %d event(s) it could not deliver", self.board, hello.first - self.expected)
            self.expected = hello.first
        if not self.connected:
            self.connected = True
            self.stats.connects += 1
            events.append(self._up(hello))


class SerialPort(Protocol):
    """What a reader needs from a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


SerialFactory = Callable[[], SerialPort]


class LinkReader(Generic[E, S]):
    """Reads a board on ``port`` in a background thread, fed through ``core``.

    ``port`` is a device path (polled for existence while the board is away) or
    a pyserial URL; ``serial_factory`` replaces pyserial's opener in tests.  A
    board's reader sets :attr:`thread_name` and :attr:`port_name` and delivers
    the core's events in :meth:`_deliver` (on the reader's thread, in order).
    """

    thread_name = "link-reader"
    port_name = "the port"
    """The port in reasons and the log: "the dice port vanished"."""

    def __init__(self, port: str, core: LinkCore[E, S], *, baudrate: int = 115200,
                 reconnect_interval: float = 0.5, read_timeout: float = 0.05,
                 serial_factory: SerialFactory | None = None) -> None:
        self.port = port
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self.read_timeout = read_timeout
        self._is_path = "://" not in port
        self._factory = serial_factory or self._open_pyserial
        self._lock = threading.Lock()
        self._core = core
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: SerialPort | None = None

    # -- what a board's reader says -------------------------------------------------

    def _deliver(self, events: list[E]) -> None:
        """Hand the core's events on (the reader's thread, without the lock held)."""
        raise NotImplementedError

    def _settled(self) -> list[bytes]:
        """Frames due once the events were delivered (held acknowledgements)."""
        return []

    def _started(self) -> None:
        """The thread has started and is about to open the port."""

    # -- the public face ----------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._core.connected

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"the reader of {self._core.board} is already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
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

    @property
    def stats(self) -> S:
        """A snapshot of the counters."""
        with self._lock:
            return dataclasses.replace(self._core.stats)

    # -- the thread -------------------------------------------------------------------

    def _open_pyserial(self) -> SerialPort:
        port: SerialPort = serial.serial_for_url(
            self.port,
            baudrate=self.baudrate,
            timeout=self.read_timeout,
            write_timeout=0.5,
            exclusive=True if self._is_path else None,
        )
        return port

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
                self._core.stats.open_failures += 1
            log.debug("cannot open %s %s: %s", self.port_name, self.port, exc)
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
        self._started()
        waiting_logged = False
        next_path_check = 0.0
        while not self._stop.is_set():
            if self._serial is None:
                if not self._try_open():
                    if not waiting_logged:
                        log.info("waiting for %s on %s", self._core.board, self.port)
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
                self._drop_link(f"{self.port_name} vanished" if gone else f"read error: {exc}")
                continue
            now = time.monotonic()
            with self._lock:
                events, out = self._core.feed(data, now) if data else ([], [])
                more, close_reason = self._core.tick(now)
            self._deliver(events)
            try:
                self._send(out + more + self._settled())
            except (serial.SerialException, OSError) as exc:
                self._drop_link(f"write error: {exc}")
                continue
            if close_reason is None and self._is_path and now >= next_path_check:
                next_path_check = now + 0.25
                if not os.path.exists(self.port):
                    close_reason = f"{self.port_name} vanished"
            if close_reason is not None:
                self._drop_link(close_reason)
        self._close()
