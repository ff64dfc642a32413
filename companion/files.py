"""Reading a file a person handed the companion, with a size limit.

Boards, decks, configurations, journals, the pads' timing book: a family can point the
companion at any path, ``/dev/zero`` and a 5 GB film included.  :func:`read_limited` reads
at most ``limit`` bytes and one more (so a file over the limit is found without reading it
whole, and without trusting ``st_size``, which is 0 for ``/dev/zero`` and ``/proc``), and
raises :class:`TooBig` with one sentence naming the file and the limit.  A folder, a fifo
or a device that never ends are refused the same way, in bounded time and memory: a
non-regular file is read with a deadline (:data:`READ_SECONDS`).
"""

from __future__ import annotations

import errno
import os
import select
import stat
import time

from companion.errors import UsageError

KIB = 1024
MIB = 1024 * KIB

BOARD_LIMIT = 1 * MIB
"""A board or deck file (TOML): the shipped ones are about 10 kB."""
CONFIG_LIMIT = 256 * KIB
"""The service's configuration (TOML)."""
JOURNAL_LIMIT = 16 * MIB
"""One file of the game journal: a long game is about 100 kB."""
SMALL_LIMIT = 256 * KIB
"""Small state files the service keeps itself (the pads' timing book, settings, tallies)."""
READ_SECONDS = 1.0
"""A file that is not a regular file (a fifo, a device) must be read within this time."""


def size_words(limit: int) -> str:
    """``limit`` bytes for people: "1 MiB", "256 KiB", "100 bytes"."""
    if limit >= MIB and limit % MIB == 0:
        return f"{limit // MIB} MiB"
    if limit >= KIB and limit % KIB == 0:
        return f"{limit // KIB} KiB"
    return f"{limit} bytes"


class TooBig(UsageError, OSError):
    """A file over its size limit (or one that never ends); ``str()`` is one sentence."""

    def __init__(self, path: str | os.PathLike[str], what: str, limit: int,
                 endless: str = "") -> None:
        self.path = str(path)
        self.what = what
        self.limit = limit
        self.endless = endless
        """What kind of file gave no end in time (a fifo, a device), "" when it was too big."""
        OSError.__init__(self, errno.EFBIG, self.sentence())

    def sentence(self) -> str:
        if self.endless:
            return (f"The {self.what} {self.path} is a {self.endless} that gave no end within "
                    f"{READ_SECONDS:g} s; choose a regular file.")
        return (f"The {self.what} {self.path} is larger than the {size_words(self.limit)} "
                "this companion reads; choose a smaller file.")

    def __str__(self) -> str:
        return self.sentence()


def read_limited(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``, at most ``limit``; :class:`TooBig` if there are more.

    ``OSError`` (``FileNotFoundError``, ``IsADirectoryError``, ``PermissionError``...) passes
    through for the caller to word.  A non-regular file that gives no end within
    :data:`READ_SECONDS` counts as too big.
    """
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        regular = stat.S_ISREG(mode)
        if regular:
            os.set_blocking(fd, True)
        deadline = time.monotonic() + READ_SECONDS
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            if not regular:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise TooBig(path, what, limit, _kind(mode))
            try:
                chunk = os.read(fd, min(64 * KIB, limit + 1 - got))
            except BlockingIOError:
                continue
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            got += len(chunk)
        raise TooBig(path, what, limit)
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "socket" if stat.S_ISSOCK(mode) else "special file"


def read_text_limited(path: str | os.PathLike[str], limit: int, what: str = "file") -> str:
    """:func:`read_limited` decoded as UTF-8 (``UnicodeDecodeError`` passes through)."""
    return read_limited(path, limit, what).decode("utf-8")


