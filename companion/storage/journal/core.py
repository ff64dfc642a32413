"""The journal: every confirmed action in two files, read back to the last certain state."""

from __future__ import annotations

import dataclasses
import errno
import itertools
import logging
from collections.abc import Iterable
from enum import Enum
from pathlib import Path

from companion.storage.journal.lines import Record, encode_line
from companion.storage.journal.recovery import Recovered, recover
from companion.storage.journal.report import LoadReport, without_records
from companion.storage.journal.storage import JournalError, OSStorage, Storage, reason_of

log = logging.getLogger(__name__)

MARKS_KEPT = 64
"""Input marks kept in memory for :attr:`Journal.marks` (the latest; the files keep them all).
Whether an input was journaled (:meth:`Journal.seen`) is decided over the whole journal: the
highest sequence number of each board's boot (:class:`HighWater`)."""

COPIES_KEPT = 3
"""Copies of each file kept beside the journal (``game.journal.damaged-N``): the oldest go."""
COPIES_BYTES = 32 * 1024 * 1024
"""At most this many bytes of copies in all (the oldest go; the newest always stays)."""
COPY_MARK = ".damaged-"

NEWER_FORMAT = ("Deník zapsala novější verze programu a tahle ho neumí číst: hra se "
                "neobnovila a deník zůstává beze změny, dokud nezačne nová hra.")
HELD = "Nelze uložit: deník čeká, až začne nová hra."
UNKNOWN_RECORD = ("Deník má záznam, kterému tahle verze nerozumí: hra pokračuje před ním, "
                  "{without}; celý deník je uložen jako {copy}.")
UNKNOWN_RECORD_WAITING = ("Deník má záznam, kterému tahle verze nerozumí: hra pokračuje před "
                          "ním, {without}; deník zůstane celý, dokud nepůjde uložit jeho kopie.")

class Files(Enum):
    """What the journal knows of its two files."""

    UNLOADED = "unloaded"  # not read yet, or to be read again (a write's outcome unsure)
    CLEAN = "clean"  # read, both files the same certain records: ready for a write
    DIRTY = "dirty"  # read, but a repair the disk refused waits (no write until it heals)
    UNREADABLE = "unreadable"  # the files cannot be read at all


MIRROR_SUFFIX = ".mirror"
"""The second file: ``game.journal.mirror`` beside ``game.journal``."""


def mirror_of(path: Path) -> Path:
    return path.with_name(path.name + MIRROR_SUFFIX)


def _lines(records: list[Record], gen: int, checkpoints: dict[int, Record],
           marks: list[tuple[int, Record]]) -> list[bytes]:
    """Each record's lines: the record, its checkpoint, its input marks."""
    by_place: dict[int, list[Record]] = {}
    for n, m in marks:
        by_place.setdefault(n, []).append(m)
    out = []
    for i, r in enumerate(records):
        line = encode_line(gen, i, r)
        if i in checkpoints:
            line += encode_line(gen, i, checkpoints[i], checkpoint=True)
        for m in by_place.get(i, ()):
            line += encode_line(gen, i, m, mark=True)
        out.append(line)
    return out


def encode_journal(records: list[Record], gen: int = 1,
                   checkpoints: dict[int, Record] | None = None,
                   marks: list[tuple[int, Record]] | None = None) -> bytes:
    """One whole file of a journal holding ``records`` (and ``checkpoints`` by place, and
    input ``marks``)."""
    return b"".join(_lines(records, gen, checkpoints or {}, marks or []))


Board = tuple[str, str]
"""An input's board and boot: ``(src, boot)`` of its mark."""


class HighWater:
    """The highest sequence number journaled for each board's boot, over the whole journal,
    and the record it belongs to (so that a cut can forget the marks of the cut records).

    A board numbers its inputs from its power-up on (a new boot id), so an input whose number
    is at or below its boot's highest is in the journal, however long ago it came: exactly
    once has no window.  One entry per boot: a game of thousands of throws holds a few."""

    def __init__(self, marks: Iterable[tuple[int, Record]] = ()) -> None:
        self.top: dict[Board, tuple[int, int]] = {}  # board -> (highest seq, its record)
        for n, m in marks:
            self.add(n, m)

    @staticmethod
    def board(mark: Record) -> Board | None:
        seq = mark.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return None
        return (str(mark.get("src")), str(mark.get("boot")))

    def add(self, n: int, mark: Record) -> None:
        key = self.board(mark)
        if key is None:
            return
        seq = int(mark["seq"])
        if key not in self.top or seq >= self.top[key][0]:
            self.top[key] = (seq, n)

    def seen(self, mark: Record) -> bool:
        key = self.board(mark)
        return key is not None and key in self.top and self.top[key][0] >= int(mark["seq"])


class Journal:
    """The journal of the game in play at ``path`` (and its mirror, ``path`` + ``.mirror``)."""

    def __init__(self, path: str | Path, *, storage: Storage | None = None) -> None:
        self.path = Path(path)
        self.mirror = mirror_of(self.path)
        self.storage: Storage = storage if storage is not None else OSStorage()
        self.dropped = 0  # records the last damaged or torn load could not keep
        self.report = LoadReport()  # the last load that found damage or a torn end
        self._gen = 0  # the generation of the files (a rewrite takes the next)
        self._count = 0  # records in the files
        self._ends: list[int] = []  # the byte offset after each record (and its checkpoint)
        self._state = Files.UNLOADED
        self._error = ""  # Czech "Nelze uložit: …" while dirty or unreadable
        self._refused_from: int | None = None  # a refused write that could not be cut off
        self._held = ""  # Czech "Nelze uložit: …": kept as it is until a new game sets it aside
        self._cut_to: int | None = None  # records to keep once the whole journal is copied
        self._cut_skipped = 0  # records after it (for the sentence)
        self.copies_kept = COPIES_KEPT
        self.copies_bytes = COPIES_BYTES
        self._marks: list[tuple[int, Record]] = []  # input marks: (record's place, mark)
        self._high = HighWater()  # every input mark of the journal, as each boot's highest

    @property
    def _size(self) -> int:
        return self._ends[-1] if self._ends else 0

    def has_records(self) -> bool:
        """Whether the journal holds a game (read once if it was not yet)."""
        if self._state is Files.UNLOADED:
            self.load()
        return bool(self._ends) or self._count > 0

    @property
    def writable(self) -> bool:
        """Whether the last load left the journal ready to take a write."""
        return self._state is Files.CLEAN and not self._held and self._cut_to is None

    @property
    def waiting(self) -> str:
        """Why the journal takes no write until the disk has room or heals ("Nelze uložit: …":
        a repair or a cut the disk refused), "" when nothing waits."""
        if self._state is Files.DIRTY or self._cut_to is not None:
            return self._error or "Nelze uložit: chyba disku."
        return ""

    def retry(self) -> str:
        """Try again what waits for the disk (a repair, a cut); :attr:`waiting` after it."""
        if self._state is Files.DIRTY:
            self.load()
        if self._cut_to is not None:
            try:
                self._cut_unknown()
            except JournalError:
                pass
        return self.waiting

    @property
    def held(self) -> bool:
        """The journal is kept as it is (a newer format, a game this version cannot resume)
        until a new game sets it aside."""
        return bool(self._held)

    def hold(self, sentence: str) -> None:
        """Keep the journal exactly as it is, take no write, and say ``sentence`` (what was
        not resumed and why) with the load's report; a new game (:meth:`replace`) sets both
        files aside whole (``damaged-N``, renamed: no space needed) and starts anew."""
        log.error("journal %s is kept as it is until a new game: %s", self.path, sentence)
        self._held = HELD
        self.report = dataclasses.replace(self.report, note=sentence)

    # --- reading ------------------------------------------------------------------------------

    def _read(self, path: Path) -> bytes | None:
        return self.storage.read(path)

    def load(self) -> list[Record]:
        """The records of the last certain state, in order; repairs the files (see the
        package's docstring).  Never raises."""
        try:
            primary = self._read(self.path)
            mirror = self._read(self.mirror)
        except OSError as exc:
            log.error("journal %s cannot be read (%s); starting without it", self.path, exc)
            self._state = Files.UNREADABLE
            self._error = f"Nelze uložit: {reason_of(exc)}."
            self._count, self._ends = 0, []
            self.report = LoadReport(repaired=False, error=f"Deník nejde přečíst: {reason_of(exc)}.")
            return []
        if primary is None and mirror is None:
            self._count, self._ends, self._state, self._error = 0, [], Files.CLEAN, ""
            self._refused_from, self._marks, self._high = None, [], HighWater()
            return []
        found = recover(primary, mirror, below=self._refused_from)
        if found.newer:
            self._count, self._ends, self._state, self._error = 0, [], Files.CLEAN, ""
            self._marks, self._high = [], HighWater()
            if not self._held:
                self.report = LoadReport()
                self.hold(NEWER_FORMAT)
            return []
        self._gen = max(self._gen, found.gen)
        self._marks = list(found.marks[-MARKS_KEPT:])
        self._high = HighWater(found.marks)
        if found.clean:
            self._count, self._ends = len(found.records), found.ends
            self._state, self._error, self._refused_from = Files.CLEAN, "", None
            return found.records
        return self._repair(found, primary, mirror)

    def _repair(self, found: Recovered, primary: bytes | None,
                mirror: bytes | None) -> list[Record]:
        copy: Path | None = None
        error = ""
        again = self._state is Files.DIRTY  # a retry of a repair the disk refused: logged once
        keep = [path for name, path, data in (("primary", self.path, primary),
                                              ("mirror", self.mirror, mirror))
                if name in found.damaged and data is not None]
        try:
            copies = self._write_whole(found.records, found.checkpoints, found.marks,
                                       keep=keep)
            copy = copies[0] if copies else None
            self._state, self._refused_from = Files.CLEAN, None
        except OSError as exc:
            (log.debug if again else log.error)(
                "journal %s: cannot rewrite the recovered journal (%s)", self.path, exc)
            self._state, error = Files.DIRTY, f"Nelze uložit: {reason_of(exc)}."
            self._count, self._ends = 0, []
        self._error = error
        damaged = bool(found.damaged)
        unusable = not found.records and (found.header_lost or found.lost > 0)
        if damaged or unusable:
            (log.debug if again and error else log.error)("journal %s is damaged (%s): kept %d records%s, lost %d; the damaged "
                      "file is kept as %s", self.path, ", ".join(found.damaged) or "both",
                      len(found.records), " from a checkpoint" if found.from_checkpoint else "",
                      found.lost, copy)
            self.dropped = found.lost
            self.report = LoadReport(
                recovered=len(found.records), lost=found.lost, torn=found.torn, damaged=True,
                copy=copy, repaired=not error, error=error,
                lost_records=tuple(found.lost_records), from_checkpoint=found.from_checkpoint,
                header_lost=found.header_lost, unusable=unusable)
        elif found.torn or error:
            if found.torn:
                log.warning("journal %s: dropped a torn last record", self.path)
                self.dropped = 1
            self.report = LoadReport(recovered=len(found.records), torn=found.torn,
                                     repaired=not error, error=error)
        elif found.legacy:
            log.info("journal %s: rewritten in the current format", self.path)
        return found.records

    # --- copies beside the journal --------------------------------------------------------------

    def _copies(self, path: Path) -> list[tuple[int, Path]]:
        """The copies of ``path`` kept beside it, oldest first."""
        head = path.name + COPY_MARK
        out = []
        for name in self.storage.names(path.parent):
            if name.startswith(head) and name[len(head):].isdigit():
                out.append((int(name[len(head):]), path.with_name(name)))
        return sorted(out)

    def _copy_name(self, path: Path) -> Path:
        copies = self._copies(path)
        n = copies[-1][0] + 1 if copies else 1
        return path.with_name(f"{path.name}{COPY_MARK}{n}")

    def _keep_copy(self, path: Path) -> Path:
        """``path`` as it is now, under the next ``damaged-N`` name: a second name of the same
        file (no space needed, the bytes exactly), or where the file system has no links a
        copy, removed again if the disk refuses it."""
        copy = self._copy_name(path)
        try:
            self.storage.link(path, copy)
            return copy
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO):
                raise
        data = self.storage.read(path)
        try:
            self.storage.write(copy, 0, data or b"")
        except OSError:
            try:
                self.storage.remove(copy)
            except OSError:
                pass
            raise
        return copy

    def _prune(self) -> None:
        """At most :attr:`copies_kept` copies of each file and :attr:`copies_bytes` in all:
        the oldest go (the newest copy of each file always stays)."""
        try:
            doomed: list[Path] = []
            older: list[tuple[int, Path]] = []
            total = 0
            for path in (self.path, self.mirror):
                copies = self._copies(path)
                cut = max(0, len(copies) - self.copies_kept)
                doomed += [p for _, p in copies[:cut]]
                older += copies[cut:-1]
                total += sum(self.storage.size(p) or 0 for _, p in copies[cut:])
            for _, p in sorted(older):
                if total <= self.copies_bytes:
                    break
                doomed.append(p)
                total -= self.storage.size(p) or 0
            for p in doomed:
                self.storage.remove(p)
                log.info("journal %s: an old copy %s removed", self.path, p.name)
        except OSError as exc:
            log.warning("journal %s: old copies cannot be removed (%s)", self.path, exc)

    # --- writing ------------------------------------------------------------------------------

    def _ready(self) -> None:
        """Make sure both files are the clean journal this object knows, or raise."""
        if self._held:
            raise JournalError(errno.EPERM, self._held, f"journal {self.path} is held")
        if self._cut_to is not None:
            self._cut_unknown()
        if self._state is Files.CLEAN:
            try:
                sizes = (self.storage.size(self.path), self.storage.size(self.mirror))
            except OSError:
                sizes = (None, -1)
            if sizes == (self._size, self._size) or (sizes == (None, None) and not self._ends):
                return
        if self._state is not Files.UNREADABLE:
            self.load()
        if self._state is not Files.CLEAN:
            raise JournalError(errno.EIO, self._error or "Nelze uložit: chyba disku.",
                               f"journal {self.path} is not writable now")

    def append(self, record: Record, checkpoint: Record | None = None,
               mark: Record | None = None) -> None:
        """Write one record (in both files) and make it durable before returning; on failure
        cut the files back and raise :class:`JournalError`.  ``checkpoint``: the state after
        this record, as a header record with the state's notation (``"state"``); ``mark``:
        the input that caused it (a board's ``src``, ``boot`` and ``seq``), in the same
        write, so that :meth:`seen` knows it from then on."""
        self._ready()
        if not self._ends and self._gen == 0:
            self._gen = 1
        data = encode_line(self._gen, self._count, record)
        if checkpoint is not None:
            data += encode_line(self._gen, self._count, checkpoint, checkpoint=True)
        if mark is not None:
            data += encode_line(self._gen, self._count, mark, mark=True)
        created = not self._ends and self.storage.size(self.path) is None
        try:
            if created:
                self.storage.makedirs(self.path.parent)
            self.storage.write(self.path, self._size, data)
            self.storage.write(self.mirror, self._size, data)
            if created:
                self.storage.sync_dir(self.path.parent)
        except OSError as exc:
            raise self._undo_write(exc, "append") from exc
        self._count += 1
        self._ends.append(self._size + len(data))
        if mark is not None:
            self._remember(self._count - 1, mark)

    def note(self, mark: Record) -> None:
        """Journal an input that was seen and did not count (a throw nobody wanted): its mark
        goes after the last record, so it is acknowledged and never taken again.  Needs a
        record to follow (a game); raises :class:`JournalError` like :meth:`append`."""
        self._ready()
        if not self._ends:
            raise JournalError(errno.EIO, "Nelze uložit: chyba disku.", "no record to note after")
        n = self._count - 1
        data = encode_line(self._gen, n, mark, mark=True)
        try:
            self.storage.write(self.path, self._size, data)
            self.storage.write(self.mirror, self._size, data)
        except OSError as exc:
            raise self._undo_write(exc, "note") from exc
        self._ends[-1] += len(data)
        self._remember(n, mark)

    def _remember(self, n: int, mark: Record) -> None:
        self._high.add(n, mark)
        self._marks.append((n, mark))
        if len(self._marks) > MARKS_KEPT:
            del self._marks[:-MARKS_KEPT]

    def seen(self, mark: Record) -> bool:
        """Whether the journal already holds this input (a board's ``boot`` and ``seq``: the
        same boot's mark with the same or a later number anywhere in the journal, however
        many inputs came since)."""
        return self._high.seen(mark)

    @property
    def marks(self) -> list[Record]:
        """The latest input marks (at most :data:`MARKS_KEPT`), in order."""
        return [m for _, m in self._marks]

    def _undo_write(self, exc: OSError, what: str) -> JournalError:
        log.error("journal %s: %s failed (%s); the action is refused", self.path, what, exc)
        failed = False
        for path in (self.path, self.mirror):
            try:
                if self.storage.size(path) in (None, self._size):
                    continue  # nothing of the write reached this file: nothing to cut
                self.storage.truncate(path, self._size)
            except FileNotFoundError:
                continue
            except OSError as again:
                log.error("journal %s: cannot cut the failed write off (%s)", path, again)
                failed = True
        if failed:
            self._state, self._refused_from = Files.UNLOADED, self._count
            return JournalError.of(exc, what, rolled_back=False)
        return JournalError.of(exc, what)

    def keep(self, count: int) -> list[Record]:
        """Cut the journal to its first ``count`` records, durably; return what was cut."""
        if self._cut_to is not None:
            self._cut_unknown()
        records = self.load()
        count = max(0, count)
        if count >= len(records):
            return []
        if self._held:
            raise JournalError(errno.EPERM, self._held, f"journal {self.path} is held")
        if self._state is not Files.CLEAN:
            raise JournalError(errno.EIO, self._error or "Nelze uložit: chyba disku.",
                               f"journal {self.path} is not writable now")
        size = self._ends[count - 1] if count else 0
        done: list[Path] = []
        try:
            for path in (self.path, self.mirror):
                self.storage.truncate(path, size)
                done.append(path)
        except OSError as exc:
            log.error("journal %s: undo failed (%s)", self.path, exc)
            self._restore(done)
            raise JournalError.of(exc, "keep") from exc
        self._count, self._ends = count, self._ends[:count]
        self._marks = [(n, m) for n, m in self._marks if n < count]
        if any(n >= count for _, n in self._high.top.values()):  # an undone input's mark
            self._high = HighWater(self._all_marks(count))
        return records[count:]

    def _all_marks(self, count: int) -> list[tuple[int, Record]]:
        """Every input mark of the first ``count`` records, read from the files."""
        try:
            found = recover(self._read(self.path), self._read(self.mirror))
        except OSError:
            return [(n, m) for n, m in self._marks if n < count]
        return [(n, m) for n, m in found.marks if n < count]

    def _restore(self, cut: list[Path]) -> None:
        """After a failed cut: the files that were cut get their records back (best effort;
        the other file holds them all), so the journal holds what the screen still shows."""
        source = self.mirror if self.path in cut else self.path
        try:
            data = self.storage.read(source)
            for path in cut:
                if data is not None:
                    self.storage.write(path, 0, data)
        except OSError:
            pass
        self._state = Files.UNLOADED

    def pop(self) -> Record | None:
        """Remove and return the last record (undo), durably; ``None`` if empty."""
        cut = self.keep(max(0, len(self.load()) - 1))
        return cut[0] if cut else None

    def replace(self, records: list[Record]) -> None:
        """Start the journal anew with ``records`` (a new game), atomically.  A journal that
        could not be read or was held is first set aside whole (renamed to ``damaged-N``)."""
        if self._state is Files.UNREADABLE or self._held:
            self._move_aside()
        try:
            self._write_whole(records, {}, [])
            self._held, self._cut_to = "", None
        except OSError as exc:
            log.error("journal %s: a new journal cannot be written (%s)", self.path, exc)
            self._state = Files.UNLOADED  # the old journal, or the new one if only the folder's
            raise JournalError.of(exc, "replace") from exc  # fsync failed: read it again
        self._state, self._error, self._refused_from = Files.CLEAN, "", None

    def _write_whole(self, records: list[Record], checkpoints: dict[int, Record],
                     marks: list[tuple[int, Record]], *, keep: list[Path] | None = None
                     ) -> list[Path]:
        """Both files anew (a new generation): temporary files written and fsynced first,
        then the files of ``keep`` kept as they are under ``damaged-N`` names (links: no
        space), then the temporary files renamed over the old ones, then the folder fsynced,
        then the oldest copies pruned.  Nothing is copied unless the new files fit: on a full
        disk nothing is left behind.  Returns the copies made."""
        gen = self._gen + 1
        lines = _lines(records, gen, checkpoints, marks)
        data = b"".join(lines)
        self.storage.makedirs(self.path.parent)
        tmps = [(p.with_name(p.name + ".tmp"), p) for p in (self.path, self.mirror)]
        copies: list[Path] = []
        try:
            for tmp, _ in tmps:
                self.storage.remove(tmp)
                self.storage.write(tmp, 0, data)
            for path in keep or ():
                copies.append(self._keep_copy(path))
            for tmp, path in tmps:
                self.storage.replace(tmp, path)
        except OSError:
            for tmp, _ in tmps:
                try:
                    self.storage.remove(tmp)
                except OSError:
                    pass
            raise
        self.storage.sync_dir(self.path.parent)
        self._gen = gen
        self._count = len(records)
        self._ends = list(itertools.accumulate(len(line) for line in lines))
        self._marks = list(marks[-MARKS_KEPT:])
        self._high = HighWater(marks)
        if copies:
            self._prune()
        return copies

    def _move_aside(self) -> None:
        """Both files renamed to their next ``damaged-N`` names (the bytes exactly, no space)."""
        for path in (self.path, self.mirror):
            try:
                if self.storage.size(path) is None:
                    continue
                aside = self._copy_name(path)
                self.storage.replace(path, aside)
                log.error("journal %s was not resumed; kept as %s", path, aside)
            except OSError:
                pass
        try:
            self.storage.sync_dir(self.path.parent)
        except OSError:
            pass
        self._prune()

    # --- a record this version does not know -----------------------------------------------------

    def cut_unknown(self, count: int) -> None:
        """The game resumes before record ``count``, which this version cannot play: both
        files are rewritten with the first ``count`` records, the originals kept whole as
        ``damaged-N`` copies, and the report says so in one sentence.  When the disk refuses
        it, the journal stays whole and takes no write until the cut can be made (tried
        again before every write).  Never raises."""
        self._cut_to = count
        self._cut_skipped = max(0, len(self.load()) - count)
        try:
            self._cut_unknown()
        except JournalError as exc:
            self._error = exc.message
            self.report = dataclasses.replace(self.report, note=UNKNOWN_RECORD_WAITING.format(
                without=without_records(self._cut_skipped)), error=exc.message)

    def _cut_unknown(self) -> None:
        count = self._cut_to
        assert count is not None
        try:
            found = recover(self._read(self.path), self._read(self.mirror))
            copies = self._write_whole(
                found.records[:count], {n: c for n, c in found.checkpoints.items() if n < count},
                [(n, m) for n, m in found.marks if n < count],
                keep=[p for p in (self.path, self.mirror) if self.storage.size(p) is not None])
        except OSError as exc:
            log.error("journal %s: the records this version does not know stay until the "
                      "journal can be copied (%s)", self.path, exc)
            refused = JournalError.of(exc, "cut")
            self._error = refused.message
            raise refused from exc
        self._cut_to = None
        self._state, self._error, self._refused_from = Files.CLEAN, "", None
        copy = copies[0].name if copies else "?"
        log.error("journal %s: resumed before record %d, which this version does not know; "
                  "the whole journal is kept as %s", self.path, count, copy)
        self.report = dataclasses.replace(self.report, error="", note=UNKNOWN_RECORD.format(
            without=without_records(self._cut_skipped), copy=copy))
