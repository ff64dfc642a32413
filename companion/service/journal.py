"""The game journal: an append-only file of confirmed actions that survives a pulled plug.

One record per line: compact JSON, a tab, the CRC-32 of the JSON as 8 hex
digits, a newline.  ``append`` writes, flushes and fsyncs before it returns, so
a record the screen has confirmed is on disk.  ``load`` keeps every good
record; a torn or damaged record ends the journal there (it is cut off with a
log line — never a crash).  ``pop`` removes the last record the same way
(truncate + fsync): that is undo.
"""

from __future__ import annotations

import json
import logging
import os
import zlib
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Record = dict[str, Any]


def encode(record: Record) -> bytes:
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raw = body.encode("utf-8")
    return raw + b"\t" + f"{zlib.crc32(raw):08x}".encode("ascii") + b"\n"


def decode(line: bytes) -> Record | None:
    """The record of one complete line, or ``None`` if the line is damaged."""
    if not line.endswith(b"\n"):
        return None
    body, sep, crc = line[:-1].rpartition(b"\t")
    if not sep or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(body):
            return None
        record = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return record if isinstance(record, dict) else None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Journal:
    """The journal of the game in play at ``path``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._ends: list[int] = []  # byte offset after each good record, set by load()
        self.dropped = 0  # damaged records cut off by load()

    def load(self) -> list[Record]:
        """Every good record, in order; cut off (and log) a torn or damaged tail."""
        self._ends = []
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        records: list[Record] = []
        offset = 0
        while offset < len(data):
            nl = data.find(b"\n", offset)
            line = data[offset:] if nl < 0 else data[offset:nl + 1]
            record = decode(line)
            if record is None:
                rest = data[offset:].count(b"\n") + (0 if data.endswith(b"\n") else 1)
                self.dropped = rest
                if nl < 0 or rest == 1:
                    log.warning("journal %s: dropped a torn last record (%d bytes)",
                                self.path, len(data) - offset)
                else:
                    log.error("journal %s: record %d is damaged; dropped it and the %d after it",
                              self.path, len(records) + 1, rest - 1)
                self._truncate(offset)
                break
            records.append(record)
            offset += len(line)
            self._ends.append(offset)
        return records

    def append(self, record: Record) -> None:
        """Write one record and make it durable before returning."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        with open(self.path, "ab") as f:
            f.write(encode(record))
            f.flush()
            os.fsync(f.fileno())
        if new:
            _fsync_dir(self.path.parent)

    def keep(self, count: int) -> list[Record]:
        """Cut the journal to its first ``count`` good records, durably; return what was cut."""
        records = self.load()
        if count < len(records):
            self._truncate(self._ends[count - 1] if count > 0 else 0)
        return records[count:]

    def pop(self) -> Record | None:
        """Remove and return the last record (undo), durably; ``None`` if empty."""
        cut = self.keep(max(0, len(self.load()) - 1))
        return cut[0] if cut else None

    def replace(self, records: list[Record]) -> None:
        """Start the journal anew with ``records`` (a new game), atomically."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        with open(tmp, "wb") as f:
            f.write(b"".join(encode(r) for r in records))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)

    def _truncate(self, size: int) -> None:
        with open(self.path, "r+b") as f:
            f.truncate(size)
            f.flush()
            os.fsync(f.fileno())
