"""The few file operations the journal needs, and how a refused write is said to the table."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Protocol

from companion.files import JOURNAL_LIMIT, TooBig, read_limited


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

    def link(self, src: Path, dst: Path) -> None:
        """A second name ``dst`` for the file ``src``: no data copied, no space taken
        (durable after :meth:`sync_dir`)."""

    def names(self, folder: Path) -> list[str]:
        """The names in ``folder`` (``[]`` if it does not exist)."""


class OSStorage:
    """:class:`Storage` on the real file system (each write and its fsync on one descriptor,
    so that a failed write-back is reported to us).  A file is read with a size limit
    (:data:`companion.files.JOURNAL_LIMIT`): over it, :class:`~companion.files.TooBig`."""

    limit: int = JOURNAL_LIMIT

    def read(self, path: Path) -> bytes | None:
        try:
            return read_limited(path, self.limit, "game journal")
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

    def link(self, src: Path, dst: Path) -> None:
        os.link(src, dst)

    def names(self, folder: Path) -> list[str]:
        try:
            return os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            return []


_REASONS = {
    errno.ENOSPC: "disk je plný",
    errno.EDQUOT: "disk je plný",
    errno.EROFS: "disk je jen pro čtení",
    errno.EACCES: "chybí právo zápisu",
    errno.EPERM: "chybí právo zápisu",
}


def reason_of(exc: OSError) -> str:
    """The Czech reason of a failed read or write, for "Nelze uložit: …"."""
    if isinstance(exc, TooBig):
        return "deník je příliš velký"
    if exc.errno == errno.EFBIG:
        return "disk je plný"
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
