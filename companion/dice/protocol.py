"""The dice wire protocol, version 1 (docs/dev/protocol.md), the companion's end.

One frame is one line of printable ASCII::

    $D1,ROLL,3F2A9C01,7,5*0FDFE855\\r\\n

``$``, the body (talker, kind, fields; comma-separated), ``*``, the CRC-32
(zlib) of the body as eight upper-case hex digits, and CRLF (a bare LF is
accepted).  The talker is ``D1`` for the dice, ``P1`` for the pad hub and ``C1``
for the companion (letter + protocol version).

:func:`decode` reads the dice's line (a pad hub's frame there is refused, as of
an unknown kind); :func:`decode_any` reads every talker (the pad hub's reader,
:mod:`companion.devices.pads.hub`, uses it).

This is an implementation independent of the firmware's ``dice/protocol.py``:
both are checked against the same vectors (``tests/firmware/protocol_vectors.json``)
and against each other, so the two ends cannot drift apart unnoticed.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from enum import StrEnum
from typing import assert_never

PROTOCOL_VERSION = 1
DICE = f"D{PROTOCOL_VERSION}"  # the talker of the dice's frames
PADHUB = f"P{PROTOCOL_VERSION}"  # the talker of the pad hub's frames
COMPANION = f"C{PROTOCOL_VERSION}"  # the talker of the companion's frames
_DICE, _PADHUB, _COMPANION = DICE.encode(), PADHUB.encode(), COMPANION.encode()
MAX_LINE = 80  # bytes between "$" and "\n", both excluded; a final "\r" may come on top
MAX_SEQ = 0xFFFF_FFFF
MAX_CHANNELS = 64  # pad channels a hub may have (0..63)
MAX_US = 9_999_999_999_999  # the hub's microsecond clock: 13 digits (115 days)


class Reason(StrEnum):
    """Why bytes were not a frame (the names match the firmware's and the vectors')."""

    GARBAGE = "garbage"  # bytes outside any frame
    TRUNCATED = "truncated"  # a frame cut short by the next "$"
    TOO_LONG = "too_long"  # no end of line within MAX_LINE bytes
    CHECKSUM = "checksum"  # CRC mismatch
    SYNTAX = "syntax"  # not printable ASCII, no "*", CRC not 8 upper-case hex digits
    VERSION = "version"  # another protocol version
    KIND = "kind"  # unknown talker letter or kind of frame
    FIELD = "field"  # wrong number of fields or a field out of range


class ProtocolError(ValueError):
    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(f"{reason.value}: {detail}" if detail else reason.value)
        self.reason = reason


@dataclass(frozen=True)
class Hello:
    """The dice introduces itself; ``first`` is its oldest unacknowledged sequence number."""

    device_id: str
    firmware: str
    boot: str
    first: int


@dataclass(frozen=True)
class Roll:
    boot: str
    seq: int
    value: int


@dataclass(frozen=True)
class Drop:
    boot: str
    seq: int
    fall_ms: int


@dataclass(frozen=True)
class Beat:
    boot: str
    millivolts: int | None


@dataclass(frozen=True)
class Sync:
    """The companion asks for a hello and a re-send of everything unacknowledged."""


@dataclass(frozen=True)
class Ack:
    """Cumulative: every event of ``boot`` up to ``seq`` arrived."""

    boot: str
    seq: int


Message = Hello | Roll | Drop | Beat | Sync | Ack


@dataclass(frozen=True)
class HubHello:
    """The pad hub introduces itself: like the dice, plus its channels and scan period."""

    device_id: str
    firmware: str
    boot: str
    first: int
    channels: int
    scan_us: int


@dataclass(frozen=True)
class PadEdge:
    """Pad channel ``channel`` was touched (``touched``) or let go at ``us`` on the hub's clock."""

    boot: str
    seq: int
    channel: int
    us: int
    touched: bool


@dataclass(frozen=True)
class HubBeat:
    """The hub's heartbeat: its clock now and the scans it missed since it booted."""

    boot: str
    us: int
    missed: int


@dataclass(frozen=True)
class HubRaw:
    """One channel's raw charge counts, sent after every ``SYNC`` (not an event: no sequence
    number): the detector's untouched baseline (0 before it settled), the last scan's count,
    and the count limit (a count above it: the line never charged)."""

    boot: str
    channel: int
    baseline: int
    count: int
    limit: int


HubMessage = HubHello | PadEdge | HubBeat | HubRaw

_HEX = frozenset(b"0123456789ABCDEF")
_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_VER = _NAME | frozenset(b".+")
_DIGITS = frozenset(b"0123456789")
_PRINTABLE = bytes(b for b in range(0x20, 0x7F) if b != 0x24)  # "$" only starts a frame


def crc32(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFF_FFFF


def _decimal(text: bytes, digits: int) -> int:
    if not text or len(text) > digits or (len(text) > 1 and text[0] == 0x30) or not _DIGITS.issuperset(text):
        raise ProtocolError(Reason.FIELD, f"not a number: {text!r}")
    return int(text)


def _seq(text: bytes, zero_ok: bool = False) -> int:
    value = _decimal(text, 10)
    if value > MAX_SEQ or (value == 0 and not zero_ok):
        raise ProtocolError(Reason.FIELD, f"sequence number out of range: {value}")
    return value


def _boot(text: bytes) -> str:
    if len(text) != 8 or not _HEX.issuperset(text):
        raise ProtocolError(Reason.FIELD, f"not a boot id: {text!r}")
    return text.decode()


def _chars(text: bytes, allowed: frozenset[int]) -> str:
    if not 1 <= len(text) <= 16 or not allowed.issuperset(text):
        raise ProtocolError(Reason.FIELD, f"bad name: {text!r}")
    return text.decode()


def _face(text: bytes) -> int:
    if len(text) != 1 or not 0x31 <= text[0] <= 0x36:
        raise ProtocolError(Reason.FIELD, f"not a face: {text!r}")
    return text[0] - 0x30


def _ranged(text: bytes, digits: int, low: int, high: int, what: str) -> int:
    value = _decimal(text, digits)
    if not low <= value <= high:
        raise ProtocolError(Reason.FIELD, f"{what} out of range: {value}")
    return value


def _state(text: bytes) -> bool:
    if text not in (b"0", b"1"):
        raise ProtocolError(Reason.FIELD, f"not a pad state: {text!r}")
    return text == b"1"


def _fields(fields: list[bytes], count: int) -> list[bytes]:
    if len(fields) != count:
        raise ProtocolError(Reason.FIELD, f"{len(fields)} fields instead of {count}")
    return fields


def _message(talker: bytes, kind: bytes, fields: list[bytes]) -> Message | HubMessage:
    if talker == _PADHUB:
        if kind == b"PAD":
            boot, seq, channel, us, state = _fields(fields, 5)
            return PadEdge(_boot(boot), _seq(seq), _ranged(channel, 2, 0, MAX_CHANNELS - 1, "channel"),
                           _decimal(us, 13), _state(state))
        if kind == b"BEAT":
            boot, us, missed = _fields(fields, 3)
            return HubBeat(_boot(boot), _decimal(us, 13), _ranged(missed, 10, 0, MAX_SEQ, "count"))
        if kind == b"RAW":
            boot, channel, baseline, count, limit = _fields(fields, 5)
            return HubRaw(_boot(boot), _ranged(channel, 2, 0, MAX_CHANNELS - 1, "channel"),
                          _ranged(baseline, 10, 0, MAX_SEQ, "count"),
                          _ranged(count, 10, 0, MAX_SEQ, "count"),
                          _ranged(limit, 10, 0, MAX_SEQ, "count"))
        if kind == b"HELLO":
            name, ver, boot, first, channels, scan = _fields(fields, 6)
            return HubHello(_chars(name, _NAME), _chars(ver, _VER), _boot(boot), _seq(first),
                            _ranged(channels, 2, 1, MAX_CHANNELS, "channels"),
                            _ranged(scan, 5, 1, 99_999, "scan period"))
    elif talker == _DICE:
        if kind == b"ROLL":
            boot, seq, value = _fields(fields, 3)
            return Roll(_boot(boot), _seq(seq), _face(value))
        if kind == b"BEAT":
            boot, mv = _fields(fields, 2)
            return Beat(_boot(boot), None if mv == b"-" else _decimal(mv, 5))
        if kind == b"DROP":
            boot, seq, ms = _fields(fields, 3)
            return Drop(_boot(boot), _seq(seq), _decimal(ms, 6))
        if kind == b"HELLO":
            name, ver, boot, first = _fields(fields, 4)
            return Hello(_chars(name, _NAME), _chars(ver, _VER), _boot(boot), _seq(first))
    else:
        if kind == b"ACK":
            boot, seq = _fields(fields, 2)
            return Ack(_boot(boot), _seq(seq, zero_ok=True))
        if kind == b"SYNC":
            _fields(fields, 0)
            return Sync()
    raise ProtocolError(Reason.KIND, f"unknown kind {kind!r}")


def decode(line: bytes) -> Message:
    """Decode one line of the dice's link (the bytes between "$" and "\\n"); raises
    :class:`ProtocolError` (a pad hub's frame: :attr:`Reason.KIND`)."""
    message = decode_any(line)
    if isinstance(message, HubHello | PadEdge | HubBeat | HubRaw):
        raise ProtocolError(Reason.KIND, "a pad hub's frame on the dice's line")
    return message


def decode_any(line: bytes) -> Message | HubMessage:
    """Decode one line of any talker; raises :class:`ProtocolError`."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(Reason.TOO_LONG)
    if line.translate(None, _PRINTABLE):
        raise ProtocolError(Reason.SYNTAX, "not printable ASCII")
    body, star, given = line.rpartition(b"*")
    if not star or len(given) != 8 or not _HEX.issuperset(given):
        raise ProtocolError(Reason.SYNTAX, "no checksum")
    if int(given, 16) != crc32(body):
        raise ProtocolError(Reason.CHECKSUM)
    parts = body.split(b",")
    talker = parts[0]
    version = talker[1:]
    if (
        talker[:1] not in (b"D", b"P", b"C")
        or not 1 <= len(version) <= 9
        or not _DIGITS.issuperset(version)
        or (len(version) > 1 and version[0] == 0x30)
    ):
        raise ProtocolError(Reason.KIND, f"unknown talker {talker!r}")
    if talker not in (_DICE, _PADHUB, _COMPANION):
        raise ProtocolError(Reason.VERSION, f"talker {talker.decode()}")
    if len(parts) < 2:
        raise ProtocolError(Reason.KIND, "no kind")
    return _message(talker, parts[1], parts[2:])


@functools.lru_cache(maxsize=64)
def encode(message: Message | HubMessage) -> bytes:
    """The frame of ``message`` with CRLF; the fields are checked by decoding it back.

    Cached: the companion sends the same few frames again and again (an ACK is sent again
    until the dice has it, a SYNC...).  Only a few: every throw's ACK has its own number, so
    a bigger cache would only keep old ones (1,024 of them grew the service by ~250 kB).
    """
    match message:
        case Hello(device_id, firmware, boot, first):
            body = f"{DICE},HELLO,{device_id},{firmware},{boot},{first}"
        case Roll(boot, seq, value):
            body = f"{DICE},ROLL,{boot},{seq},{value}"
        case Drop(boot, seq, fall_ms):
            body = f"{DICE},DROP,{boot},{seq},{fall_ms}"
        case Beat(boot, millivolts):
            body = f"{DICE},BEAT,{boot},{'-' if millivolts is None else millivolts}"
        case Sync():
            body = f"{COMPANION},SYNC"
        case Ack(boot, seq):
            body = f"{COMPANION},ACK,{boot},{seq}"
        case HubHello(device_id, firmware, boot, first, channels, scan_us):
            body = f"{PADHUB},HELLO,{device_id},{firmware},{boot},{first},{channels},{scan_us}"
        case PadEdge(boot, seq, channel, us, touched):
            body = f"{PADHUB},PAD,{boot},{seq},{channel},{us},{int(touched)}"
        case HubBeat(boot, us, missed):
            body = f"{PADHUB},BEAT,{boot},{us},{missed}"
        case HubRaw(boot, channel, baseline, count, limit):
            body = f"{PADHUB},RAW,{boot},{channel},{baseline},{count},{limit}"
        case _:
            assert_never(message)
    raw = body.encode()
    line = b"%s*%08X" % (raw, crc32(raw))
    if decode_any(line) != message:
        raise ProtocolError(Reason.FIELD, f"cannot encode {message!r}")
    return b"$" + line + b"\r\n"


class Splitter:
    """Cuts a byte stream into frame lines and resynchronises on "$" after garbage.

    The same rules as the firmware's splitter (checked by the shared vectors):
    bytes outside a frame count as ``garbage``; a "$" inside a frame starts a
    new one (``truncated``); a frame holding more than MAX_LINE + 1 bytes
    without "\\n" is dropped (``too_long``) and the bytes after it, up to the
    next "$", are garbage.
    """

    def __init__(self) -> None:
        self.garbage = 0
        self.truncated = 0
        self.too_long = 0
        self._inside = False
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        pos, size = 0, len(data)
        buf = self._buf
        while pos < size:
            if not self._inside:
                start = data.find(b"$", pos)
                if start < 0:
                    self.garbage += size - pos
                    break
                self.garbage += start - pos
                self._inside = True
                buf.clear()
                pos = start + 1
                continue
            newline = data.find(b"\n", pos)
            dollar = data.find(b"$", pos)
            if newline < 0:
                end = dollar
            elif dollar < 0:
                end = newline
            else:
                end = min(newline, dollar)
            stop = size if end < 0 else end
            room = MAX_LINE + 1 - len(buf)
            if stop - pos > room:
                self.too_long += 1
                self.garbage += 1
                self._inside = False
                buf.clear()
                pos += room + 1
                continue
            buf += data[pos:stop]
            if end < 0:
                break
            if data[end] == 0x0A:
                lines.append(bytes(buf))
                self._inside = False
            else:
                self.truncated += 1
            buf.clear()
            pos = end + 1
        return lines
