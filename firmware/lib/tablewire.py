"""The table's wire protocol, version 1 (docs/dev/protocol.md): frames and checksums.

Shared by the boards around the table (copied to the board's ``:lib/``, which
MicroPython searches by default): the electronic dice and the pad hub speak it
to the companion.  A frame is one line of printable ASCII::

    $D1,ROLL,3F2A9C01,7,5*1B2C3D4E\r\n

``$``, then the body (talker, kind and fields separated by commas), ``*``, the
CRC-32 of the body (as zlib's ``crc32``) in eight upper-case hex digits, and
``\\r\\n``.  The talker is a letter and the protocol version: ``D`` the dice,
``P`` the pad hub (board -> companion), ``C`` the companion (-> a board).  The
companion has its own independent decoder; both are checked against
``tests/firmware/protocol_vectors.json``.
"""

from tableshims import const

PROTOCOL_VERSION = const(1)
DICE = "D1"
PADHUB = "P1"
COMPANION = "C1"
TALKER_LETTERS = "DPC"
MAX_LINE = const(80)  # bytes between "$" and "\n", both excluded

# Field types.
SEQ = "seq"  # event sequence number 1..4294967295, decimal, no leading zero
SEQ0 = "seq0"  # like SEQ but 0 allowed (an ACK before any event)
BOOT = "boot"  # boot id: 8 upper-case hex digits, random per power-up
VALUE = "value"  # a face 1..6
MS = "ms"  # a duration in milliseconds 0..999999
MV = "mv"  # battery millivolts 0..99999, or "-" when unknown / on USB power
NAME = "name"  # device id: 1..16 of A-Z a-z 0-9 _ -
VER = "ver"  # firmware version: 1..16 of A-Z a-z 0-9 . _ + -
CHANNELS = "channels"  # the pad hub's number of pad channels 1..64
SCAN = "scan"  # the pad hub's scan period in microseconds 1..99999
CHANNEL = "channel"  # a pad channel 0..63
US = "us"  # the pad hub's microsecond clock: 0..9999999999999 (13 digits, 115 days)
STATE = "state"  # "1" touched, "0" released
COUNT = "count"  # a counter 0..4294967295

# Talker -> kind -> field types, in order.
SCHEMA = {
    DICE: {
        "HELLO": (NAME, VER, BOOT, SEQ),  # device, firmware, boot, first unacked seq
        "ROLL": (BOOT, SEQ, VALUE),
        "DROP": (BOOT, SEQ, MS),  # free-fall duration
        "BEAT": (BOOT, MV),
    },
    PADHUB: {
        "HELLO": (NAME, VER, BOOT, SEQ, CHANNELS, SCAN),  # ... its channels and scan period
        "PAD": (BOOT, SEQ, CHANNEL, US, STATE),  # a pad touched or let go at us
        "BEAT": (BOOT, US, COUNT),  # the hub's clock now, scans it missed since boot
        "RAW": (BOOT, CHANNEL, COUNT, COUNT, COUNT),  # a channel's baseline, last count, limit
    },
    COMPANION: {
        "SYNC": (),  # "say hello and re-send what I have not acknowledged"
        "ACK": (BOOT, SEQ0),  # cumulative: every event up to seq arrived
    },
}

# Reasons a line is rejected (shared with the companion through the vectors).
GARBAGE = "garbage"  # bytes outside any frame
TRUNCATED = "truncated"  # a frame cut short by the next "$"
TOO_LONG = "too_long"  # no end of line within MAX_LINE bytes
CHECKSUM = "checksum"  # CRC mismatch
SYNTAX = "syntax"  # not printable ASCII, no "*", CRC not 8 hex digits
VERSION = "version"  # a talker of another protocol version
KIND = "kind"  # unknown talker letter or frame kind
FIELD = "field"  # wrong number of fields or a field out of its range

_HEX = "0123456789ABCDEF"
_NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_VER_CHARS = _NAME_CHARS + ".+"

_CRC_NIBBLES = (
    0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4, 0x4DB26158,
    0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C, 0x9B64C2B0, 0x86D3D2D4,
    0xA00AE278, 0xBDBDF21C,
)


def crc32_py(data, crc=0):
    """CRC-32 (IEEE 802.3, as zlib.crc32) with a 16-entry table: small and portable."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        crc = (crc >> 4) ^ _CRC_NIBBLES[crc & 15]
        crc = (crc >> 4) ^ _CRC_NIBBLES[crc & 15]
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32
except ImportError:  # a port built without it
    crc32 = crc32_py


class ProtocolError(ValueError):
    """A line that is not a valid frame; ``reason`` is one of the reason names."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def encode(talker, kind, fields=()):
    """The frame for ``talker``/``kind`` with ``fields`` (checked), as bytes with CRLF."""
    kinds = SCHEMA.get(talker)
    if kinds is None or kind not in kinds:
        raise ProtocolError(KIND)
    types = kinds[kind]
    texts = [str(field) for field in fields]
    if len(texts) != len(types):
        raise ProtocolError(FIELD)
    for index in range(len(types)):  # (MicroPython's zip has no strict=)
        if not field_ok(types[index], texts[index]):
            raise ProtocolError(FIELD)
    body = ",".join([talker, kind] + texts).encode()
    if len(body) + 9 > MAX_LINE:
        raise ProtocolError(TOO_LONG)
    return b"$" + body + b"*" + f"{crc32(body) & 0xFFFFFFFF:08X}".encode() + b"\r\n"


def decode(line):
    """Decode one line (the bytes between "$" and "\\n", a trailing "\\r" allowed).

    Returns ``(talker, kind, fields)`` with ``fields`` a list of str, or raises
    :class:`ProtocolError` with the reason.
    """
    if line and line[-1] == 13:  # "\r"
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(TOO_LONG)
    for byte in line:
        if byte < 32 or byte > 126 or byte == 36:  # control, non-ASCII, "$"
            raise ProtocolError(SYNTAX)
    star = len(line) - 9
    if star < 0 or line[star] != 42:  # "*"
        raise ProtocolError(SYNTAX)
    body = line[:star]
    given = line[star + 1 :].decode()
    for char in given:
        if char not in _HEX:
            raise ProtocolError(SYNTAX)
    if int(given, 16) != crc32(body) & 0xFFFFFFFF:
        raise ProtocolError(CHECKSUM)
    parts = body.decode().split(",")
    talker = parts[0]
    if len(talker) < 2 or talker[0] not in TALKER_LETTERS or not _decimal(talker[1:], 9):
        raise ProtocolError(KIND)
    kinds = SCHEMA.get(talker)
    if kinds is None:
        raise ProtocolError(VERSION)
    if len(parts) < 2 or parts[1] not in kinds:
        raise ProtocolError(KIND)
    kind = parts[1]
    fields = parts[2:]
    types = kinds[kind]
    if len(fields) != len(types):
        raise ProtocolError(FIELD)
    for index in range(len(types)):
        if not field_ok(types[index], fields[index]):
            raise ProtocolError(FIELD)
    return talker, kind, fields


def _decimal(text, digits):
    """Canonical unsigned decimal of at most ``digits`` digits (no sign, no leading 0)."""
    if not text or len(text) > digits or (len(text) > 1 and text[0] == "0"):
        return False
    for char in text:
        if char < "0" or char > "9":
            return False
    return True


def _charset(text, allowed):
    if not 1 <= len(text) <= 16:
        return False
    for char in text:
        if char not in allowed:
            return False
    return True


def field_ok(ftype, text):
    """True when ``text`` is a valid field of type ``ftype``."""
    if ftype == SEQ or ftype == SEQ0:
        return _decimal(text, 10) and int(text) <= 0xFFFFFFFF and (ftype == SEQ0 or text != "0")
    if ftype == BOOT:
        if len(text) != 8:
            return False
        for char in text:
            if char not in _HEX:
                return False
        return True
    if ftype == VALUE:
        return len(text) == 1 and "1" <= text <= "6"
    if ftype == MS:
        return _decimal(text, 6)
    if ftype == MV:
        return text == "-" or _decimal(text, 5)
    if ftype == NAME:
        return _charset(text, _NAME_CHARS)
    if ftype == VER:
        return _charset(text, _VER_CHARS)
    if ftype == CHANNELS:
        return _decimal(text, 2) and 1 <= int(text) <= 64
    if ftype == SCAN:
        return _decimal(text, 5) and text != "0"
    if ftype == CHANNEL:
        return _decimal(text, 2) and int(text) <= 63
    if ftype == US:
        return _decimal(text, 13)
    if ftype == STATE:
        return text == "0" or text == "1"
    if ftype == COUNT:
        return _decimal(text, 10) and int(text) <= 0xFFFFFFFF
    return False


class Splitter:
    """Cuts a byte stream into frame lines; resynchronises on "$" after garbage.

    ``feed(data)`` returns the complete lines (without "$" and "\\n").  Bytes
    outside frames are counted in ``garbage``; a frame cut by a new "$" in
    ``truncated``; a frame without an end of line within MAX_LINE bytes in
    ``too_long`` (its remaining bytes then count as garbage).
    """

    def __init__(self):
        self.buf = bytearray()
        self.inside = False
        self.garbage = 0
        self.truncated = 0
        self.too_long = 0

    def feed(self, data):
        lines = []
        for byte in data:
            if byte == 36:  # "$"
                if self.inside:
                    self.truncated += 1
                self.inside = True
                self.buf = bytearray()
            elif not self.inside:
                self.garbage += 1
            elif byte == 10:  # "\n"
                lines.append(bytes(self.buf))
                self.inside = False
                self.buf = bytearray()
            elif len(self.buf) > MAX_LINE:  # MAX_LINE + 1 bytes held (a final "\r" fits)
                self.too_long += 1
                self.garbage += 1
                self.inside = False
                self.buf = bytearray()
            else:
                self.buf.append(byte)
        return lines
