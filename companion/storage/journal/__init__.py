"""The game journal: every confirmed action, kept in two files, read back to the last certain state.

Each record is one line (:mod:`.lines`)::

    <generation>/<n>\\t<compact JSON>\\t<CRC-32 of everything before it>\\n

written to **two files**, ``game.journal`` and ``game.journal.mirror``, each write fsynced
(:mod:`.core`).  The two copies of a record are in different files, so never in the same
512-byte sector or 4 KiB block: one bad sector, one bad block, any single damaged byte are
read from the other file and cost nothing.  Every few records a **checkpoint** goes with the
record (the state after it, in the game's own notation, with the game's header): when a
record is lost in both files, or the header is, the game is recovered from the last
checkpoint that is certainly right.

* ``append`` writes, fsyncs, and fsyncs the folder when it created the files.  When a write
  fails (disk full, read-only, I/O error) it cuts both files back to their last good record
  and raises :class:`JournalError`, whose ``message`` is one Czech sentence for the screen:
  the action must not be shown as done.
* ``load`` never raises (:mod:`.recovery`).  A torn end (a power cut in the middle of an
  append: that record was never confirmed) is left out.  A record missing in both files is
  **never skipped**: the game resumes at the last certain state (the run of records from the
  header, or from a checkpoint, with none missing) and the records after it are lost; the
  report names them in words so the table can play them again (:mod:`.report`).  Damaged
  files are kept beside the journal (``game.journal.damaged-1``...), and both files are
  rewritten clean (temporary files, fsync, rename, folder fsync) as a new generation, so a
  power cut during the repair leaves either the old files or the new ones.
* ``keep``/``pop`` cut the end (undo), ``replace`` starts anew (a new game).

Journals of the older formats (one file, each line twice; or unnumbered lines) are read and
rewritten in this one.  All I/O goes through a :class:`Storage` (:mod:`.storage`) so that the
crash-consistency tests can record every write and fsync; a file is read with a size limit.
"""

from __future__ import annotations

from companion.storage.journal.core import MIRROR_SUFFIX, Journal, encode_journal, mirror_of
from companion.storage.journal.lines import (
    Entry,
    Record,
    decode,
    decode_line,
    encode,
    encode_entry,
    encode_line,
)
from companion.storage.journal.recovery import Recovered, recover
from companion.storage.journal.report import LoadReport, action_words, lost_sentence
from companion.storage.journal.storage import JournalError, OSStorage, Storage, reason_of

__all__ = [
    "MIRROR_SUFFIX", "Entry", "Journal", "JournalError", "LoadReport", "OSStorage", "Record",
    "Recovered", "Storage", "action_words", "decode", "decode_line", "encode", "encode_entry",
    "encode_journal", "encode_line", "lost_sentence", "mirror_of", "reason_of", "recover",
]
