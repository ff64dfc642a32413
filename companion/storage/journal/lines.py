"""The journal's lines: how one record (or one checkpoint) is written and read back.

A line of the current format (3) is::

    <generation>/<n>[/c]\\t<compact JSON>\\t<CRC-32 of everything before it, 8 hex digits>\\n

``n`` is the record's place in the game (0 = its header); ``/c`` marks a *checkpoint*: the
state after record ``n`` as a header record carrying the state's notation (``"state"``), so
that recovery can start there; ``/i`` an *input mark* (the dice's boot and sequence number of
the input that record ``n`` came from, or that came after it and did not count).  The *generation* grows with every rewrite of the journal (a
new game, a repair), so lines left from an older journal are never mixed into a newer one.

Older formats are still read: format 2 (``<n>\\t<JSON>\\t<CRC>``, each line twice in one
file) counts as generation 0; format 1 (``<JSON>\\t<CRC>``, once, no number) is read in order.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

Record = dict[str, Any]

_CRC = re.compile(rb"[0-9a-f]{8}")
_CRC_FIELD = re.compile(rb"\t[0-9a-f]{8}")
_SEQ = re.compile(rb"0|[1-9][0-9]{0,8}")
_KEY = re.compile(rb"(0|[1-9][0-9]{0,8})/(0|[1-9][0-9]{0,8})(/[ci])?")


@dataclass(frozen=True)
class Entry:
    """One line that checked out: its generation (``None``: format 1, unnumbered), its place
    ``n`` (``None`` for format 1), whether it is a checkpoint, and its record."""

    gen: int | None
    n: int | None
    checkpoint: bool
    record: Record
    mark: bool = False
    """An input mark (``/i``): which input of a board (the dice's boot and sequence number)
    record ``n`` came from, or that it was seen and did not count (record ``n`` the last one
    before it).  A re-sent input whose mark is in the journal is not taken twice."""


def _json(record: Record) -> bytes:
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return body.encode("utf-8")


def _crc(body: bytes) -> bytes:
    return f"{zlib.crc32(body):08x}".encode("ascii")


def encode(record: Record) -> bytes:
    """One line of format 1 (JSON, tab, CRC); still read, no longer written."""
    raw = _json(record)
    return raw + b"\t" + _crc(raw) + b"\n"


def encode_entry(seq: int, record: Record) -> bytes:
    """One line of format 2 (``n``, JSON, CRC); still read, no longer written."""
    body = str(seq).encode("ascii") + b"\t" + _json(record)
    return body + b"\t" + _crc(body) + b"\n"


def encode_line(gen: int, n: int, record: Record, *, checkpoint: bool = False,
                mark: bool = False) -> bytes:
    """One line of the current format (``checkpoint`` or ``mark``: such a line of record n)."""
    kind = "/c" if checkpoint else "/i" if mark else ""
    key = f"{gen}/{n}{kind}".encode("ascii")
    body = key + b"\t" + _json(record)
    return body + b"\t" + _crc(body) + b"\n"


def decode_line(line: bytes) -> Entry | None:
    """The entry of one complete line (any format), or ``None`` if it is damaged or torn."""
    if not line.endswith(b"\n"):
        return None
    body, sep, crc = line[:-1].rpartition(b"\t")
    if not sep or not _CRC.fullmatch(crc) or int(crc, 16) != zlib.crc32(body):
        return None
    head, sep, payload = body.partition(b"\t")
    gen: int | None = None
    n: int | None = None
    checkpoint = mark = False
    if sep:
        key = _KEY.fullmatch(head)
        if key is not None:
            gen, n = int(key.group(1)), int(key.group(2))
            checkpoint, mark = key.group(3) == b"/c", key.group(3) == b"/i"
        elif _SEQ.fullmatch(head):
            gen, n = 0, int(head)
        else:
            return None
    else:
        payload = body
    try:
        record = json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return Entry(gen, n, checkpoint, record, mark) if isinstance(record, dict) else None


_FOREIGN_KEY = re.compile(rb"(0|[1-9][0-9]{0,8})/(0|[1-9][0-9]{0,8})/[a-z]+|[a-z][a-z0-9]*[:/].*")


def newer_line(line: bytes) -> bool:
    """Whether a complete line that :func:`decode_line` refuses checks out all the same and is
    keyed in a way this format does not know (a line kind other than ``/c`` and ``/i``, or a
    versioned key): a newer version of the journal wrote it, damage did not."""
    if not line.endswith(b"\n"):
        return False
    body, sep, crc = line[:-1].rpartition(b"\t")
    if not sep or not _CRC.fullmatch(crc) or int(crc, 16) != zlib.crc32(body):
        return False
    head, sep, _ = body.partition(b"\t")
    return bool(sep) and _FOREIGN_KEY.fullmatch(head) is not None and decode_line(line) is None


def decode(line: bytes) -> Record | None:
    """The record of one complete line (any format), or ``None`` if it is damaged."""
    entry = decode_line(line)
    return None if entry is None else entry.record


def pieces(segment: bytes) -> list[bytes]:
    """A damaged stretch cut where a CRC field ends (the byte after it should have been
    the newline), so that two lines merged by a hit newline come apart again."""
    out, start = [], 0
    for m in _CRC_FIELD.finditer(segment):
        if m.start() >= start:
            out.append(segment[start:m.end()])
            start = m.end() + 1
    if start < len(segment):
        out.append(segment[start:])
    return out
