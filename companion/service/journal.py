"""The game journal: an append-only file of confirmed actions that survives what storage does.

The file is a sequence of lines, each one record::

    <n>\\t<compact JSON>\\t<CRC-32 of "<n>\\t<JSON>" as 8 lowercase hex digits>\\n

``n`` is the record's place in the journal (0 = the game's header).  Every
record is written **twice**, both lines in one write, then fsynced: a single
damaged byte anywhere (the header included) costs nothing, because the other
copy checks out.  Lines are self-delimiting and checksummed, so after damage
the loader finds every later record that still checks out (a newline that was
hit is found again by the CRC field in front of it).

* ``append`` writes, fsyncs, and fsyncs the folder when it created the file.
  When the write fails (disk full, read-only, I/O error) it cuts the file back
  to its last good record and raises :class:`JournalError`, whose ``message``
  is one Czech sentence for the screen: the action must not be shown as done.
* ``load`` never raises.  A torn end (a power cut in the middle of an append:
  the unfinished record was never confirmed) is cut off in place.  Damage
  anywhere else: the damaged file is kept beside the journal
  (``game.journal.damaged-1``, ``-2`` …), every record that checks out is
  recovered, and the journal is rewritten clean (temporary file, fsync, rename,
  folder fsync).  :attr:`Journal.report` says what was recovered and lost, with
  a Czech sentence for the screen.
* ``keep``/``pop`` cut the end (undo), ``replace`` starts anew atomically.

Journals of the first format (``<JSON>\\t<CRC>\\n``, once, without ``n``) are
read and rewritten in this one.  All I/O goes through a :class:`Storage` so
that the crash-consistency tests can record every write and fsync.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

Record = dict[str, Any]

_CRC = re.compile(rb"[0-9a-f]{8}")
_CRC_FIELD = re.compile(rb"\t[0-9a-f]{8}")
_SEQ = re.compile(rb"0|[1-9][0-9]{0,8}")


# --- lines ------------------------------------------------------------------------------------


def _json(record: Record) -> bytes:
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return body.encode("utf-8")


def _crc(body: bytes) -> bytes:
    return f"{zlib.crc32(body):08x}".encode("ascii")


def encode(record: Record) -> bytes:
    """One line of the first format (JSON, tab, CRC); still read, no longer written."""
    raw = _json(record)
    return raw + b"\t" + _crc(raw) + b"\n"


def encode_entry(seq: int, record: Record) -> bytes:
    """One line of the journal: the record's place ``seq``, its JSON and the CRC of both."""
    body = str(seq).encode("ascii") + b"\t" + _json(record)
    return body + b"\t" + _crc(body) + b"\n"


def encode_journal(records: list[Record]) -> bytes:
    """The whole file of a journal holding ``records`` (each line twice)."""
    return b"".join(encode_entry(i, r) * 2 for i, r in enumerate(records))


def decode_entry(line: bytes) -> tuple[int | None, Record] | None:
    """``(seq, record)`` of one complete line (``seq`` is ``None`` for the first
    format), or ``None`` if the line is damaged or torn."""
    if not line.endswith(b"\n"):
        return None
    body, sep, crc = line[:-1].rpartition(b"\t")
    if not sep or not _CRC.fullmatch(crc) or int(crc, 16) != zlib.crc32(body):
        return None
    head, sep, payload = body.partition(b"\t")
    if sep:
        if not _SEQ.fullmatch(head):
            return None
        seq: int | None = int(head)
    else:
        seq, payload = None, body
    try:
        record = json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return (seq, record) if isinstance(record, dict) else None


def decode(line: bytes) -> Record | None:
    """The record of one complete line (either format), or ``None`` if it is damaged."""
    entry = decode_entry(line)
    return None if entry is None else entry[1]


def _pieces(segment: bytes) -> list[bytes]:
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


# --- what load found --------------------------------------------------------------------------


def _records_cz(n: int) -> str:
    if n == 1:
        return "1 záznam"
    if 2 <= n <= 4:
        return f"{n} záznamy"
    return f"{n} záznamů"


@dataclass(frozen=True)
class LoadReport:
    """What :meth:`Journal.load` found and did (all zero for a clean journal)."""

    recovered: int = 0  # records loaded
    lost: int = 0  # records that were confirmed once and could not be recovered
    torn: bool = False  # an unfinished last record (never confirmed) was cut off
    damaged: bool = False  # damage before the end: the file was kept and rewritten
    copy: Path | None = None  # where the damaged file was kept
    repaired: bool = True  # the file on disk is clean again (False: appends are refused)
    error: str = ""  # Czech: why the journal cannot be written now ("Nelze uložit: …")

    @property
    def clean(self) -> bool:
        return not (self.torn or self.damaged) and self.repaired

    @property
    def message(self) -> str:
        """One or two Czech sentences for the screen; "" for a clean journal."""
        parts = []
        if self.damaged:
            lost = "nic se neztratilo" if self.lost == 0 else f"ztraceno {_records_cz(self.lost)}"
            parts.append(f"Deník byl poškozený: obnoveno {_records_cz(self.recovered)}, {lost}.")
        elif self.torn:
            parts.append("Poslední neúplný záznam zahozen.")
        if self.error:
            parts.append(self.error)
        return " ".join(parts)


@dataclass
class _Scan:
    records: list[Record]
    clean_end: int  # bytes of the file that are already the clean journal of ``records``
    torn: bool = False
    damaged: bool = False
    lost: int = 0
    legacy: bool = False


def _scan(data: bytes) -> _Scan:
    # the clean prefix: every record twice, numbered from 0
    records: list[Record] = []
    off = 0
    while True:
        nl = data.find(b"\n", off)
        if nl < 0:
            break
        line = data[off:nl + 1]
        entry = decode_entry(line)
        if entry is None or entry[0] != len(records) or data[nl + 1:nl + 1 + len(line)] != line:
            break
        records.append(entry[1])
        off = nl + 1 + len(line)
    tail = data[off:]
    if not tail:
        return _Scan(records, off)
    # a torn end: the unfinished write of the next record (a prefix of its two lines)
    nl = tail.find(b"\n")
    if nl < 0:
        return _Scan(records, off, torn=True)
    first, rest = tail[:nl + 1], tail[nl + 1:].rstrip(b"\0")
    entry = decode_entry(first)
    if (entry is not None and entry[0] == len(records) and b"\n" not in rest
            and len(rest) < len(first) and first.startswith(rest)):
        return _Scan(records, off, torn=True)
    return _recover(data)


def _recover(data: bytes) -> _Scan:
    """Every record that checks out, anywhere in a damaged (or first-format) file."""
    numbered: dict[int, Record] = {}
    copies: dict[int, int] = {}
    legacy: list[Record] = []
    legacy_bad = 0
    good_bytes = good_lines = 0
    bad_after_last = 0  # bytes of damaged lines after the last good one
    last_len = 0  # the last good line's length

    def take(piece: bytes, entry: tuple[int | None, Record] | None) -> None:
        nonlocal bad_after_last, good_bytes, good_lines, last_len
        if entry is None:
            bad_after_last += len(piece) + 1
            return
        bad_after_last = 0
        good_bytes += len(piece) + 1
        good_lines += 1
        last_len = len(piece) + 1
        seq, record = entry
        if seq is None:
            legacy.append(record)
            return
        numbered.setdefault(seq, record)
        copies[seq] = copies.get(seq, 0) + 1

    *complete, unfinished = data.split(b"\n")
    previous: tuple[bytes, tuple[int | None, Record] | None] = (b"", None)
    for segment in complete:
        # the second copy of a line is the same bytes: decode it once
        entry = previous[1] if segment == previous[0] else decode_entry(segment + b"\n")
        previous = (segment, entry)
        if entry is not None:
            take(segment, entry)
            continue
        legacy_bad += 1
        for piece in _pieces(segment):
            take(piece, decode_entry(piece + b"\n"))
    for piece in _pieces(unfinished):  # the last line's newline may be the byte that was hit
        entry = decode_entry(piece + b"\n")
        if entry is not None and entry[0] is not None:
            numbered.setdefault(entry[0], entry[1])
            copies[entry[0]] = copies.get(entry[0], 0) + 1
    if not numbered and legacy:  # a journal of the first format
        return _Scan(legacy, 0, torn=bool(unfinished), damaged=legacy_bad > 0,
                     lost=legacy_bad, legacy=True)
    last = max(numbered, default=-1)
    missing = sum(1 for i in range(last + 1) if i not in numbered)
    # records lost after the last good line, estimated from the damaged bytes there (less
    # the other copy of the last good record when only one copy of it checked out)
    if copies.get(last) == 1:
        bad_after_last = max(0, bad_after_last - last_len)
    line = good_bytes / good_lines if good_lines else 64.0
    tail = round(bad_after_last / (2 * line))
    lost = missing + (max(1, tail) if bad_after_last >= line else tail)
    return _Scan([numbered[i] for i in sorted(numbered)], 0, damaged=True, lost=lost)


# --- storage ----------------------------------------------------------------------------------


class Storage(Protocol):
    """The few file operations the journal needs; every change is durable when it returns."""

    def read(self, path: Path) -> bytes | None:
        """The whole file, or ``None`` if it does not exist."""

    def size(self, path: Path) -> int | None:
        """The file's size, or ``None`` if it does not exist."""

    def write(self, path: Path, offset: int, data: bytes) -> None:
        """Write ``data`` at ``offset`` (creating the file), then fsync the file."""

    def truncate(self, path: Path, size: int) -> None:
        """Cut the file to ``size`` bytes, then fsync it."""

    def replace(self, src: Path, dst: Path) -> None:
        """Rename ``src`` over ``dst`` (atomic; durable after :meth:`sync_dir`)."""

    def remove(self, path: Path) -> None:
        """Delete the file if it exists."""

    def sync_dir(self, path: Path) -> None:
        """fsync the folder ``path`` (makes created and renamed names durable)."""

    def makedirs(self, path: Path) -> None:
        """Create the folder ``path`` and its parents if missing."""


class OSStorage:
    """:class:`Storage` on the real file system (each write and its fsync on one descriptor,
    so that a failed write-back is reported to us)."""

    def read(self, path: Path) -> bytes | None:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def size(self, path: Path) -> int | None:
        try:
            return path.stat().st_size
        except FileNotFoundError:
            return None

    def write(self, path: Path, offset: int, data: bytes) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            view = memoryview(data)
            done = 0
            while done < len(data):
                n = os.pwrite(fd, view[done:], offset + done)
                if n <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
                done += n
            os.fsync(fd)
        finally:
            os.close(fd)

    def truncate(self, path: Path, size: int) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        finally:
            os.close(fd)

    def replace(self, src: Path, dst: Path) -> None:
        os.replace(src, dst)

    def remove(self, path: Path) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass

    def sync_dir(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def makedirs(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)


# --- errors -----------------------------------------------------------------------------------

_REASONS = {
    errno.ENOSPC: "disk je plný",
    errno.EDQUOT: "disk je plný",
    errno.EFBIG: "disk je plný",
    errno.EROFS: "disk je jen pro čtení",
    errno.EACCES: "chybí právo zápisu",
    errno.EPERM: "chybí právo zápisu",
}


def reason_of(exc: OSError) -> str:
    """The Czech reason of a failed write, for "Nelze uložit: …"."""
    return _REASONS.get(exc.errno or 0, "chyba disku")


class JournalError(OSError):
    """A write the disk refused.  The journal is back at its last good record (unless
    ``rolled_back`` is false: then the disk refused that too, and the next load cuts
    what is left of the write).  ``message`` is the Czech sentence for the screen."""

    def __init__(self, code: int, message: str, detail: str, *, rolled_back: bool = True) -> None:
        super().__init__(code, detail)
        self.message = message
        self.rolled_back = rolled_back

    @classmethod
    def of(cls, exc: OSError, what: str, *, rolled_back: bool = True) -> JournalError:
        return cls(exc.errno or errno.EIO, f"Nelze uložit: {reason_of(exc)}.",
                   f"{what}: {exc.strerror or exc}", rolled_back=rolled_back)

    def __str__(self) -> str:
        return self.message


# --- the journal ------------------------------------------------------------------------------


class Journal:
    """The journal of the game in play at ``path``."""

    def __init__(self, path: str | Path, *, storage: Storage | None = None) -> None:
        self.path = Path(path)
        self.storage: Storage = storage if storage is not None else OSStorage()
        self.dropped = 0  # records the last damaged or torn load could not keep
        self.report = LoadReport()  # the last load that found damage or a torn end
        self._count = 0  # records in the file
        self._size = 0  # its bytes (the clean journal of those records)
        self._state = "unloaded"  # unloaded | clean | dirty (a repair failed) | unreadable
        self._error = ""  # Czech "Nelze uložit: …" while dirty or unreadable
        self._refused_from: int | None = None  # a refused write that could not be cut off

    # --- reading ------------------------------------------------------------------------------

    def load(self) -> list[Record]:
        """Every record that checks out, in order; repairs the file (see the module)."""
        try:
            data = self.storage.read(self.path)
        except OSError as exc:
            log.error("journal %s cannot be read (%s); starting without it", self.path, exc)
            self._state = "unreadable"
            self._error = f"Nelze uložit: {reason_of(exc)}."
            self._count = self._size = 0
            self.report = LoadReport(repaired=False, error=f"Deník nejde přečíst: {reason_of(exc)}.")
            return []
        if data is None:
            self._count = self._size = 0
            self._state = "clean"
            return []
        if self._refused_from is not None and len(data) > self._refused_from:
            data = data[:self._refused_from]  # never bring a refused action back
            try:
                self.storage.truncate(self.path, self._refused_from)
                self._refused_from = None
            except OSError as exc:
                self._state, self._count, self._size = "dirty", 0, 0
                self._error = f"Nelze uložit: {reason_of(exc)}."
                return _scan(data).records
        else:
            self._refused_from = None
        scan = _scan(data)
        records = scan.records
        if scan.clean_end == len(data):  # clean
            self._count, self._size, self._state = len(records), len(data), "clean"
            self._error = ""
            return records
        if scan.torn and not scan.damaged:
            records = self._cut_torn_end(scan, len(data))
        else:
            records = self._rewrite_damaged(scan, data)
        return records

    def _cut_torn_end(self, scan: _Scan, size: int) -> list[Record]:
        log.warning("journal %s: dropped a torn last record (%d bytes)",
                    self.path, size - scan.clean_end)
        error = ""
        try:
            self.storage.truncate(self.path, scan.clean_end)
            self._count, self._size, self._state = len(scan.records), scan.clean_end, "clean"
        except OSError as exc:
            log.error("journal %s: cannot cut the torn record off (%s)", self.path, exc)
            self._state, error = "dirty", f"Nelze uložit: {reason_of(exc)}."
        self._error = error
        self.dropped = 1
        self.report = LoadReport(recovered=len(scan.records), torn=True,
                                 repaired=not error, error=error)
        return scan.records

    def _rewrite_damaged(self, scan: _Scan, data: bytes) -> list[Record]:
        records = scan.records
        copy: Path | None = None
        error = ""
        try:
            if scan.damaged:
                copy = self._keep_copy(data)
            self._write_whole(records)
            self._state = "clean"
        except OSError as exc:
            log.error("journal %s: cannot rewrite the recovered journal (%s)", self.path, exc)
            self._state, error = "dirty", f"Nelze uložit: {reason_of(exc)}."
        self._error = error
        if scan.damaged:
            log.error("journal %s is damaged: recovered %d records, lost %d; the damaged "
                      "file is kept as %s", self.path, len(records), scan.lost, copy)
            self.dropped = scan.lost
            self.report = LoadReport(recovered=len(records), lost=scan.lost, torn=scan.torn,
                                     damaged=True, copy=copy, repaired=not error, error=error)
        else:
            log.info("journal %s: rewritten from the first format", self.path)
            if scan.torn:
                log.warning("journal %s: dropped a torn last record", self.path)
                self.dropped = 1
            if scan.torn or error:
                self.report = LoadReport(recovered=len(records), torn=scan.torn,
                                         repaired=not error, error=error)
        return records

    def _keep_copy(self, data: bytes) -> Path:
        n = 1
        while self.storage.size(copy := self.path.with_name(f"{self.path.name}.damaged-{n}")) \
                is not None:
            n += 1
        self.storage.write(copy, 0, data)
        self.storage.sync_dir(self.path.parent)
        return copy

    # --- writing ------------------------------------------------------------------------------

    def _ready(self) -> None:
        """Make sure the file is the clean journal this object knows, or raise."""
        if self._state == "clean":
            try:
                size = self.storage.size(self.path)
            except OSError:
                size = None
            if size == self._size or (size is None and self._size == 0):
                return
        if self._state != "unreadable":
            self.load()
        if self._state != "clean":
            raise JournalError(errno.EIO, self._error or "Nelze uložit: chyba disku.",
                               f"journal {self.path} is not writable now")

    def append(self, record: Record) -> None:
        """Write one record (twice) and make it durable before returning; on failure cut
        the file back and raise :class:`JournalError`."""
        self._ready()
        data = encode_entry(self._count, record) * 2
        created = self._size == 0 and self.storage.size(self.path) is None
        try:
            if created:
                self.storage.makedirs(self.path.parent)
            self.storage.write(self.path, self._size, data)
            if created:
                self.storage.sync_dir(self.path.parent)
        except OSError as exc:
            raise self._undo_write(exc, "append") from exc
        self._count += 1
        self._size += len(data)

    def _undo_write(self, exc: OSError, what: str) -> JournalError:
        log.error("journal %s: %s failed (%s); the action is refused", self.path, what, exc)
        try:
            self.storage.truncate(self.path, self._size)
        except FileNotFoundError:
            return JournalError.of(exc, what)
        except OSError as again:
            log.error("journal %s: cannot cut the failed write off (%s)", self.path, again)
            self._state, self._refused_from = "unloaded", self._size
            return JournalError.of(exc, what, rolled_back=False)
        return JournalError.of(exc, what)

    def keep(self, count: int) -> list[Record]:
        """Cut the journal to its first ``count`` records, durably; return what was cut."""
        records = self.load()
        count = max(0, count)
        if count >= len(records):
            return []
        if self._state != "clean":
            raise JournalError(errno.EIO, self._error or "Nelze uložit: chyba disku.",
                               f"journal {self.path} is not writable now")
        size = len(encode_journal(records[:count]))
        try:
            self.storage.truncate(self.path, size)
        except OSError as exc:
            log.error("journal %s: undo failed (%s)", self.path, exc)
            self._restore(size, records[count:], count)
            raise JournalError.of(exc, "keep") from exc
        self._count, self._size = count, size
        return records[count:]

    def _restore(self, size: int, cut: list[Record], count: int) -> None:
        """After a failed cut: write the cut records back (best effort) so the file
        holds what the screen still shows."""
        data = b"".join(encode_entry(count + i, r) * 2 for i, r in enumerate(cut))
        try:
            self.storage.write(self.path, size, data)
        except OSError:
            pass
        self._state = "unloaded"

    def pop(self) -> Record | None:
        """Remove and return the last record (undo), durably; ``None`` if empty."""
        cut = self.keep(max(0, len(self.load()) - 1))
        return cut[0] if cut else None

    def replace(self, records: list[Record]) -> None:
        """Start the journal anew with ``records`` (a new game), atomically."""
        if self._state == "unreadable":
            self._move_unreadable_aside()
        try:
            self._write_whole(records)
        except OSError as exc:
            log.error("journal %s: a new journal cannot be written (%s)", self.path, exc)
            self._state = "unloaded"  # the old journal, or the new one if only the folder's
            raise JournalError.of(exc, "replace") from exc  # fsync failed: read it again
        self._state, self._error = "clean", ""

    def _write_whole(self, records: list[Record]) -> None:
        data = encode_journal(records)
        tmp = self.path.with_name(self.path.name + ".tmp")
        self.storage.makedirs(self.path.parent)
        try:
            self.storage.remove(tmp)
            self.storage.write(tmp, 0, data)
            self.storage.replace(tmp, self.path)
        except OSError:
            try:
                self.storage.remove(tmp)
            except OSError:
                pass
            raise
        self.storage.sync_dir(self.path.parent)
        self._count, self._size = len(records), len(data)

    def _move_unreadable_aside(self) -> None:
        n = 1
        while self.storage.size(aside := self.path.with_name(f"{self.path.name}.damaged-{n}")) \
                is not None:
            n += 1
        try:
            self.storage.replace(self.path, aside)
            log.error("journal %s could not be read; kept as %s", self.path, aside)
        except OSError:
            pass
