"""Reading the journal's two files back: every line that checks out, and the last certain state.

The journal keeps each record in two files (:mod:`.core`), so the two copies of a record are
never in the same 4 KiB block: a bad sector or block of one file is read from the other.
:func:`recover` takes both files' bytes and decides, without touching the disk:

* which lines check out in either file (a damaged stretch is cut where a CRC field ends, so
  two lines merged by a hit newline come apart again);
* the current generation (lines of an older journal, left by a new game or a repair that a
  power cut interrupted, are ignored);
* the **last certain state**: the longest run of records from the header with none missing,
  or from a checkpoint (the state after record ``c``, written with it) on.  A record missing
  in both files ends the run: the records after it are never replayed onto a state they were
  not played in.  They are lost, and kept (``lost_records``) so that the table can be told in
  words which actions to play again;
* whether this is damage (a stretch before the end, a record missing from one file) or only
  the unfinished end of an append a power cut interrupted (``torn``: never confirmed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.storage.journal.lines import Entry, Record, decode_line, newer_line, pieces


@dataclass
class FileScan:
    """One file's lines that checked out, with their byte ranges, and its damaged bytes.

    A power cut can only leave one thing behind an append: the unfinished end of the
    write (a prefix of its lines, maybe followed by zeros), never a line that ends in a
    newline but does not check out, and never a good line without its newline.  So
    ``damage`` holds every stretch that is not a good line, except such an unfinished end
    (``tail``: its bytes, zeros included)."""

    entries: list[tuple[Entry, int, int]] = field(default_factory=list)
    damage: list[tuple[int, int]] = field(default_factory=list)
    tail: int = 0
    newer: int = 0
    """Lines that check out but are keyed in a format newer than this one."""

    def damage_after(self, at: int) -> int:
        """Damaged bytes after offset ``at``."""
        return sum(stop - max(start, at) for start, stop in self.damage if stop > at)

    def top(self, gen: int) -> int:
        return max((e.n for e, _, _ in self.entries
                    if e.gen == gen and e.n is not None and not (e.checkpoint or e.mark)),
                   default=-1)


def scan_file(data: bytes) -> FileScan:
    out = FileScan()
    off = 0
    previous: tuple[bytes, Entry | None] = (b"", None)
    while off < len(data):
        nl = data.find(b"\n", off)
        end = len(data) if nl < 0 else nl + 1
        segment = data[off:end]
        if segment == previous[0]:  # format 2 wrote each line twice: decode it once
            entry = previous[1]
        else:
            entry = decode_line(segment)
        previous = (segment, entry)
        if entry is not None:
            out.entries.append((entry, off, end))
        elif newer_line(segment):
            out.newer += 1
        else:
            _split(segment.rstrip(b"\n"), off, out, complete=nl >= 0)
        off = end
    return out


def _split(segment: bytes, off: int, out: FileScan, *, complete: bool) -> None:
    """A damaged segment: the lines inside it that still check out.  The file's unfinished
    end (no newline) is the tail of a write a power cut stopped, even when the line in it
    checks out up to its missing newline: that write never finished."""
    if not complete:
        out.tail = len(segment)
        return
    end = off + len(segment) + 1
    at = start = off
    found = False
    for piece in pieces(segment):
        stop = start + len(piece) + 1
        entry = decode_line(piece + b"\n")
        if entry is not None:
            found = True
            if start > at:
                out.damage.append((at, start))
            at = min(stop, end)
            out.entries.append((entry, start, at))
        start = stop
    if at < end:  # a line that ends but does not check out
        out.damage.append((at, end))
    elif found:
        out.damage.append((end - 1, end))  # a good line whose newline was hit


@dataclass
class Recovered:
    """What :func:`recover` found."""

    records: list[Record]
    """The records of the last certain state, in order: the header (or a checkpoint, a header
    with the state's notation) first."""
    checkpoints: dict[int, Record] = field(default_factory=dict)
    """Checkpoints kept, by their place in ``records``."""
    marks: list[tuple[int, Record]] = field(default_factory=list)
    """Input marks kept, in file order, with the place in ``records`` they belong to."""
    gen: int = 0
    """The generation of the journal read (the highest seen: a rewrite takes the next)."""
    clean: bool = True
    """Both files hold exactly this journal: nothing to repair."""
    ends: list[int] = field(default_factory=list)
    """When clean: the byte offset after each record (and its checkpoint)."""
    torn: bool = False
    """An unfinished last record (a power cut during an append: never confirmed) was left out."""
    damaged: list[str] = field(default_factory=list)
    """Which files hold damage (``"primary"``, ``"mirror"``): keep a copy, tell the table."""
    lost: int = 0
    """Records after the last certain state that the journal had and cannot give back."""
    lost_records: list[Record] = field(default_factory=list)
    """Those of them that still checked out (after a gap): for the words to the table."""
    from_checkpoint: bool = False
    """The state was recovered from a checkpoint (the records before it are gone)."""
    header_lost: bool = False
    """The game's header is gone from both files (recovered from a checkpoint, or not at all)."""
    legacy: bool = False
    """An older format (rewritten in the current one)."""
    newer: bool = False
    """A newer format: lines this version cannot read although they check out.  Nothing is
    recovered: the journal is kept as it is."""


def recover(primary: bytes | None, mirror: bytes | None, *,
            below: int | None = None) -> Recovered:
    """Everything the two files still hold (see the module); ``below``: ignore records from
    this place on (a refused write that could not be cut off)."""
    scans = {name: scan_file(data) for name, data in (("primary", primary), ("mirror", mirror))
             if data is not None}
    if not scans:
        return Recovered([])
    if any(scan.newer for scan in scans.values()):
        return Recovered([], clean=False, newer=True)
    numbered = [(name, e, s, t) for name, scan in scans.items() for e, s, t in scan.entries
                if e.gen is not None and e.n is not None]
    if not numbered:
        return _format_one(scans)
    gen = max(e.gen for _, e, _, _ in numbered if e.gen is not None)
    recs: dict[int, Record] = {}
    cps: dict[int, Record] = {}
    marks: list[tuple[int, Record]] = []
    seen_marks: set[tuple[int, str]] = set()
    have: dict[str, set[int]] = {name: set() for name in scans}
    last_end: dict[str, int] = {name: 0 for name in scans}
    stale = {name for name in scans}
    for name, e, _, stop in numbered:
        assert e.n is not None
        if e.gen != gen or (below is not None and e.n >= below):
            continue
        stale.discard(name)
        if e.mark:
            key = (e.n, repr(sorted(e.record.items())))
            if key not in seen_marks:
                seen_marks.add(key)
                marks.append((e.n, e.record))
            continue
        target = cps if e.checkpoint else recs
        target.setdefault(e.n, e.record)
        if not e.checkpoint:
            have[name].add(e.n)
        last_end[name] = max(last_end[name], stop)
    top = max(recs, default=-1)
    out = Recovered([], gen=gen, legacy=gen == 0)
    # damage: a stretch that is not a good line, a record missing from one file, or a torn
    # end of the primary file while the mirror (always written second) holds more
    tops = {name: scan.top(gen) for name, scan in scans.items()}
    for name, scan in scans.items():
        if name in stale:
            continue
        missing = any(n not in have[name] for n in range(top))
        behind = name == "primary" and scan.tail and tops.get("mirror", -1) > tops[name]
        if missing or scan.damage or behind:
            out.damaged.append(name)
    # the last certain state: from the header, or from a checkpoint
    cp: int | None = None
    p = _run(recs, 0) if 0 in recs else -1
    for c in sorted(cps):  # the state after record c is certain, whatever came before
        q = c
        while q + 1 in recs:
            q += 1
        if q > p:
            cp, p = c, q
    out.header_lost = 0 not in recs and (top >= 0 or bool(cps))
    if p < 0:
        out.lost = top + 1
        out.lost_records = [recs[n] for n in sorted(recs)]
        out.clean = False
        return out
    if cp is None:
        out.records = [recs[n] for n in range(0, p + 1)]
        out.checkpoints = {n: cps[n] for n in cps if n <= p}
        out.marks = [(n, m) for n, m in marks if n <= p]
    else:
        out.from_checkpoint = True
        out.records = [cps[cp]] + [recs[n] for n in range(cp + 1, p + 1)]
        out.checkpoints = {n - cp: cps[n] for n in cps if cp < n <= p}
        out.marks = [(n - cp, m) for n, m in marks if cp <= n <= p]
    out.lost = max(0, top - p)
    out.lost_records = [recs[n] for n in range(p + 1, top + 1) if n in recs]
    out.lost += _tail_lost(scans, last_end, stale, numbered)
    out.torn = any(scan.tail for name, scan in scans.items() if name not in stale)
    if out.lost or out.from_checkpoint:
        out.damaged = out.damaged or [n for n in scans if n not in stale]
    out.clean = _is_clean(scans, primary, mirror, out, stale, top, p)
    if out.clean:
        out.ends = _ends(scans["primary"], gen)
    return out


def _run(recs: dict[int, Record], start: int) -> int:
    n = start
    while n + 1 in recs:
        n += 1
    return n


def _tail_lost(scans: dict[str, FileScan], last_end: dict[str, int], stale: set[str],
               numbered: list[tuple[str, Entry, int, int]]) -> int:
    """Records destroyed in both files after the last good line, estimated from the damaged
    bytes there (an unfinished write in flight is no damage and counts as none)."""
    lengths = [t - s for _, e, s, t in numbered if not (e.checkpoint or e.mark)]
    line = sum(lengths) / len(lengths) if lengths else 64.0
    live = [name for name in scans if name not in stale]
    est = []
    for name in live:
        bad = scans[name].damage_after(last_end[name])
        est.append(0 if bad == 0 else max(1, round(bad / line)))
    return min(est) if len(live) == 2 else 0


def _is_clean(scans: dict[str, FileScan], primary: bytes | None, mirror: bytes | None,
              out: Recovered, stale: set[str], top: int, p: int) -> bool:
    if primary is None or mirror is None or primary != mirror or stale or out.legacy:
        return False
    scan = scans["primary"]
    if scan.damage or scan.tail or out.damaged or out.from_checkpoint or p != top:
        return False
    return all(e.gen == out.gen for e, _, _ in scan.entries)


def _ends(scan: FileScan, gen: int) -> list[int]:
    ends: list[int] = []
    for e, _, stop in scan.entries:
        if e.gen != gen or e.n is None:
            continue
        if e.checkpoint or e.mark:
            if ends:
                ends[-1] = stop
        else:
            ends.append(stop)
    return ends


def _format_one(scans: dict[str, FileScan]) -> Recovered:
    """A journal of format 1 (unnumbered lines, once each, in the primary file)."""
    scan = scans.get("primary") or next(iter(scans.values()))
    records = [e.record for e, _, _ in scan.entries]
    out = Recovered(records, clean=False, legacy=True, torn=bool(scan.tail))
    if scan.damage:
        out.damaged = ["primary"]
        out.lost = len(scan.damage)
    return out
