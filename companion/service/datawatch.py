"""Whether the service's data folder takes writes (an SD card the kernel remounted read-only).

A card that had an error is remounted read-only by the kernel; the service must still start,
show the game that is on it and say in one sentence why nothing can be saved (decision: the
sentence is the journal's own, "Nelze uložit: disk je jen pro čtení.", so the boot, a refused
action and the set-up all say the same).  :class:`DataWatch` probes the folder by creating and
removing a small file (``os.access`` does not see every reason: a full disk, a card that
fails), at the start and then every :data:`PROBE_EVERY` seconds while writes are refused,
and says when writing works again.  The folder taking a small file is not enough on a full
card: the service also asks its journal (a repair or a cut that waits for room is tried
again), so "Ukládání zase funguje." is said only when the journal takes writes.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from companion.storage.journal import reason_of

READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
PROBE_EVERY = 5.0
"""Seconds between probes while the folder refuses writes."""
PROBE_NAME = ".companion-write-probe"
WRITABLE_AGAIN = "Ukládání zase funguje."


def probe(folder: Path) -> str:
    """"" when ``folder`` takes a new file, else the sentence why not ("Nelze uložit: …")."""
    path = folder / PROBE_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            try:
                os.unlink(path)  # also when the write failed: no probe left behind
            except OSError:
                pass
    except OSError as exc:
        if exc.errno == errno.ENOENT:  # the folder itself is missing (it could not be made)
            exc = OSError(errno.EROFS, os.strerror(errno.EROFS))
        return f"Nelze uložit: {reason_of(exc)}."
    return ""


class DataWatch:
    """The data folder's state: :meth:`check` at the start, :meth:`poll` from the idle loop."""

    def __init__(self, folder: Path, *, every: float | None = None,
                 probe: Callable[[Path], str] = probe) -> None:
        self.folder = folder
        self.every = PROBE_EVERY if every is None else every
        self.probe = probe
        self.refused = ""
        """Why writes are refused now ("" = they are not)."""
        self._next = 0.0

    def check(self, now: float) -> str:
        self.refused = self.probe(self.folder)
        self._next = now + self.every
        return self.refused

    def poll(self, now: float) -> str | None:
        """The sentence to show when the state changed (``None``: no change, or not due)."""
        if not self.refused or now < self._next:
            return None
        before = self.refused
        if self.check(now) == before:
            return None
        return self.refused or WRITABLE_AGAIN
