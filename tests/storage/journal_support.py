"""Shared by the journal's tests: storages that remember, fail or crash, and scripted games.

* :class:`MemStorage` — the journal's :class:`Storage` in memory (fast crash states).
* :class:`RecordingStorage` — passes every call to another storage and records the
  persisted operations (write, fsync, truncate, rename, remove, folder fsync).
* :func:`crash_states` — every file image a power cut after a prefix of those operations
  can leave (un-fsynced writes dropped or kept, the write in flight torn at a byte or left
  as zeros, names not yet fsynced in their folder old or new), in the manner of ALICE
  and CrashMonkey.
* :class:`FaultyStorage` — the real file system with a full disk, a read-only remount or
  an I/O error injected.
* :data:`GAMES` — scripted journals shaped like real ones (Člověče, Gobbit, napij se).
"""

from __future__ import annotations

import errno
import itertools
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from companion.storage.journal import Journal, OSStorage, Record, encode_journal, mirror_of


def write_journal(path: Path, records: list[Record], *, primary: bytes | None = None,
                  mirror: bytes | None = None) -> bytes:
    """Both files of a journal of ``records`` on disk (``primary``/``mirror``: other bytes
    for one of them); returns the clean file's bytes."""
    good = encode_journal(records)
    path.write_bytes(good if primary is None else primary)
    mirror_of(path).write_bytes(good if mirror is None else mirror)
    return good


def journal_files(path: Path, primary: bytes, mirror: bytes | None = None) -> dict[Path, bytes]:
    """The two files of a journal for :class:`MemStorage` (the mirror the same by default)."""
    return {path: primary, mirror_of(path): primary if mirror is None else mirror}


def put(buf: bytearray, offset: int, data: bytes) -> None:
    """Write ``data`` into ``buf`` at ``offset`` (zero-filling a gap), as pwrite does."""
    if len(buf) < offset:
        buf.extend(bytes(offset - len(buf)))
    buf[offset:offset + len(data)] = data


class MemStorage:
    """Files in a dict, for crash states: ``files[path] = bytes``."""

    def __init__(self, files: dict[Path, bytes] | None = None) -> None:
        self.files: dict[Path, bytearray] = {p: bytearray(b) for p, b in (files or {}).items()}

    def read(self, path: Path) -> bytes | None:
        data = self.files.get(path)
        return None if data is None else bytes(data)

    def size(self, path: Path) -> int | None:
        data = self.files.get(path)
        return None if data is None else len(data)

    def write(self, path: Path, offset: int, data: bytes) -> None:
        put(self.files.setdefault(path, bytearray()), offset, data)

    def truncate(self, path: Path, size: int) -> None:
        buf = self.files[path]
        if size < len(buf):
            del buf[size:]
        else:
            buf.extend(bytes(size - len(buf)))

    def replace(self, src: Path, dst: Path) -> None:
        self.files[dst] = self.files.pop(src)

    def remove(self, path: Path) -> None:
        self.files.pop(path, None)

    def sync_dir(self, path: Path) -> None:
        pass

    def makedirs(self, path: Path) -> None:
        pass

    def link(self, src: Path, dst: Path) -> None:
        """A second name (a copy here: nothing in memory writes a file after it is kept)."""
        if dst in self.files:
            raise FileExistsError(str(dst))
        self.files[dst] = bytearray(self.files[src])

    def names(self, folder: Path) -> list[str]:
        return [p.name for p in self.files if p.parent == folder]


@dataclass(frozen=True)
class Op:
    kind: str  # write | fsync | truncate | rename | link | remove | sync_dir
    path: Path
    offset: int = 0
    data: bytes = b""
    dst: Path | None = None


class RecordingStorage:
    """Every persisted operation of the storage underneath, in order, in ``ops``."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.ops: list[Op] = []

    def read(self, path: Path) -> bytes | None:
        return self.inner.read(path)  # type: ignore[attr-defined, no-any-return]

    def size(self, path: Path) -> int | None:
        return self.inner.size(path)  # type: ignore[attr-defined, no-any-return]

    def write(self, path: Path, offset: int, data: bytes) -> None:
        self.ops.append(Op("write", path, offset, bytes(data)))
        self.inner.write(path, offset, data)  # type: ignore[attr-defined]
        self.ops.append(Op("fsync", path))

    def truncate(self, path: Path, size: int) -> None:
        self.ops.append(Op("truncate", path, size))
        self.inner.truncate(path, size)  # type: ignore[attr-defined]
        self.ops.append(Op("fsync", path))

    def replace(self, src: Path, dst: Path) -> None:
        self.inner.replace(src, dst)  # type: ignore[attr-defined]
        self.ops.append(Op("rename", src, dst=dst))

    def remove(self, path: Path) -> None:
        if self.inner.size(path) is not None:  # type: ignore[attr-defined]
            self.ops.append(Op("remove", path))
        self.inner.remove(path)  # type: ignore[attr-defined]

    def sync_dir(self, path: Path) -> None:
        self.inner.sync_dir(path)  # type: ignore[attr-defined]
        self.ops.append(Op("sync_dir", path))

    def makedirs(self, path: Path) -> None:
        self.inner.makedirs(path)  # type: ignore[attr-defined]

    def link(self, src: Path, dst: Path) -> None:
        self.inner.link(src, dst)  # type: ignore[attr-defined]
        self.ops.append(Op("link", src, dst=dst))

    def names(self, folder: Path) -> list[str]:
        return self.inner.names(folder)  # type: ignore[attr-defined, no-any-return]


# --- crash states -----------------------------------------------------------------------------


@dataclass
class _Disk:
    """Inodes with their current and durable contents, names current and durable."""

    content: dict[int, bytearray] = field(default_factory=dict)
    durable: dict[int, bytes] = field(default_factory=dict)
    names: dict[Path, int] = field(default_factory=dict)
    durable_names: dict[Path, int] = field(default_factory=dict)
    next_ino: int = 0

    @classmethod
    def of(cls, files: dict[Path, bytes]) -> _Disk:
        disk = cls()
        for path, data in files.items():
            ino = disk.new()
            disk.content[ino] = bytearray(data)
            disk.durable[ino] = bytes(data)
            disk.names[path] = disk.durable_names[path] = ino
        return disk

    def new(self) -> int:
        self.next_ino += 1
        self.content[self.next_ino] = bytearray()
        self.durable[self.next_ino] = b""
        return self.next_ino

    def apply(self, op: Op) -> None:
        if op.kind == "write":
            ino = self.names.get(op.path) or self.new()
            self.names[op.path] = ino
            put(self.content[ino], op.offset, op.data)
        elif op.kind == "fsync":
            ino = self.names[op.path]
            self.durable[ino] = bytes(self.content[ino])
        elif op.kind == "truncate":
            buf = self.content[self.names[op.path]]
            del buf[op.offset:]
            buf.extend(bytes(max(0, op.offset - len(buf))))
        elif op.kind == "rename":
            assert op.dst is not None
            self.names[op.dst] = self.names.pop(op.path)
        elif op.kind == "link":
            assert op.dst is not None
            self.names[op.dst] = self.names[op.path]
        elif op.kind == "remove":
            self.names.pop(op.path)
        elif op.kind == "sync_dir":
            self.durable_names = dict(self.names)
        else:  # pragma: no cover
            raise ValueError(op.kind)

    def image(self, names: dict[Path, int], contents: dict[int, bytes]) -> dict[Path, bytes]:
        return {path: bytes(contents[ino]) for path, ino in names.items()}


def torn_offsets(data: bytes, rng: random.Random, sample: int | None) -> list[int]:
    """Where a write of ``data`` may stop: every byte, or the line ends and their neighbours
    plus ``sample`` random bytes."""
    if sample is None:
        return list(range(len(data)))
    picks = {0, 1, len(data) - 1}
    ends = [i for i, b in enumerate(data) if b == 0x0A]
    for i in ends[:2] + ends[-2:]:  # the first and last lines' ends (all of an append's)
        picks.update((i, i + 1, i + 2))
    picks.update(rng.randrange(len(data)) for _ in range(sample))
    return sorted(p for p in picks if 0 <= p < len(data))


def crash_states(initial: dict[Path, bytes], ops: list[Op], k: int, rng: random.Random,
                 sample: int | None = 12) -> Iterator[tuple[str, dict[Path, bytes]]]:
    """Every file image a power cut right after ``ops[:k]`` can leave, with a label."""
    disk = _Disk.of(initial)
    for op in ops[:k]:
        disk.apply(op)
    current = {ino: bytes(b) for ino, b in disk.content.items()}
    for dir_label, names in (("names durable", disk.durable_names),
                             ("names current", disk.names)):
        yield f"fsynced only, {dir_label}", disk.image(names, disk.durable)
        yield f"everything written, {dir_label}", disk.image(names, current)
    if k == 0 or ops[k - 1].kind != "write":
        return
    # the write in flight, not fsynced: torn at a byte, or its blocks allocated but zero
    op = ops[k - 1]
    before = _Disk.of(initial)
    for earlier in ops[:k - 1]:
        before.apply(earlier)
    ino = disk.names[op.path]
    old = bytes(before.content.get(before.names.get(op.path, -1), b""))
    for cut in torn_offsets(op.data, rng, sample):
        for fill in (op.data[:cut], op.data[:cut] + bytes(len(op.data) - cut)):
            buf = bytearray(old)
            put(buf, op.offset, fill)
            for dir_label, names in (("names durable", disk.durable_names),
                                     ("names current", disk.names)):
                if op.path in names:
                    contents = dict(current)
                    contents[ino] = bytes(buf)
                    zeros = "" if len(fill) == cut else " then zeros"
                    yield f"write torn at {cut}{zeros}, {dir_label}", disk.image(names, contents)


# --- scripted games ---------------------------------------------------------------------------


@dataclass
class Step:
    """One call on the journal: ``append``, ``pop``, ``keep`` or ``replace``."""

    call: str
    arg: object = None
    checkpoint: Record | None = None
    """With an append: the checkpoint written with it (as the hosts write one every 8)."""


CHECKPOINTS: dict[int, Record] = {}
"""The checkpoints of the scripted games' records, by the record's id (see :func:`_script`)."""


def _real_game(name: str, setup: object, seed: int, actions: int) -> tuple[Record, list[Record]]:
    """The header and the first ``actions`` records of a seeded game played on the protocol
    (so every crash state must also replay through the game itself); every 8th record has
    its checkpoint in :data:`CHECKPOINTS`, as the hosts write them."""
    from companion.engines.game import Game
    from companion.games import find_game
    from companion.selfplay.driver import steps

    game: Game[object, object, object, object] = find_game(name).engine()
    played = list(itertools.islice(steps(game, setup, random.Random(seed)), actions))
    header = game.setup_record(setup)
    records = [game.encode(s.action) for s in played]
    for i, (s, r) in enumerate(zip(played, records, strict=True)):
        if (i + 1) % 8 == 0:
            CHECKPOINTS[id(r)] = {**header, "state": game.format(s.after)}
    return header, records


def _script(header: Record, records: list[Record], *, undo_at: int, keep_at: int,
            keep: int) -> list[Step]:
    """The records as journal calls, with an undo and a cut (both replay: a prefix stays
    a prefix of the game)."""
    steps = [Step("replace", [header])]
    kept = 0
    for i, rec in enumerate(records):
        steps.append(Step("append", rec, CHECKPOINTS.get(id(rec))))
        kept += 1
        if i == undo_at:
            steps.append(Step("pop"))
            steps.append(Step("append", rec))  # the same action, confirmed again
        if i == keep_at:
            steps.append(Step("keep", keep))
            break
    return steps


def clovece_game(seed: int = 1) -> list[Step]:
    from companion.games.clovece.engine.game import Setup

    header, records = _real_game("clovece", Setup(2), seed, 70)
    steps = _script(header, records, undo_at=12, keep_at=60, keep=40)
    steps.append(Step("replace", [header]))  # a new game
    steps += [Step("append", r) for r in records[:3]]
    return steps


def gobbit_game(seed: int = 2) -> list[Step]:
    from companion.games.gobbit.engine.game import Setup

    header, records = _real_game("gobbit", Setup(3), seed, 50)
    return _script({**header, "mode": "virtual"}, records, undo_at=20, keep_at=49, keep=45)


def napij_game(seed: int = 3) -> list[Step]:
    from companion.games.napij.engine.game import Setup

    header, records = _real_game("napij", Setup(3), seed, 60)
    return _script(header, records, undo_at=20, keep_at=59, keep=50)


GAMES: dict[str, Callable[[], list[Step]]] = {
    "clovece": clovece_game, "gobbit": gobbit_game, "napij": napij_game}


@dataclass
class Played:
    """A scripted game played through a :class:`RecordingStorage`: the operations and, for
    every call, which operations it spans and the records before and after it."""

    initial: dict[Path, bytes]
    ops: list[Op]
    calls: list[tuple[int, int, list[Record], list[Record]]]


def play(steps: list[Step], path: Path, storage: object) -> Played:
    rec = RecordingStorage(storage)
    journal = Journal(path, storage=rec)  # type: ignore[arg-type]
    records: list[Record] = journal.load()
    initial = {p: bytes(b) for p, b in getattr(storage, "files", {}).items()}
    calls = []
    for step in steps:
        start, before = len(rec.ops), list(records)
        if step.call == "append":
            assert isinstance(step.arg, dict)
            journal.append(step.arg, step.checkpoint)
            records.append(step.arg)
        elif step.call == "pop":
            journal.pop()
            records.pop()
        elif step.call == "keep":
            assert isinstance(step.arg, int)
            journal.keep(step.arg)
            del records[step.arg:]
        else:
            assert isinstance(step.arg, list)
            journal.replace(step.arg)
            records = list(step.arg)
        calls.append((start, len(rec.ops), before, list(records)))
    return Played(initial, rec.ops, calls)


def allowed_at(played: Played, k: int) -> list[list[Record]]:
    """What a load may return after a power cut right after ``ops[:k]``: the records of the
    last call that returned, or of the call in flight if it got that far."""
    confirmed: list[Record] = []
    for start, end, before, after in played.calls:
        if end <= k:
            confirmed = after
        elif start < k:
            return [before, after]
        else:
            break
    return [confirmed]


# --- faults on the real file system -----------------------------------------------------------


class FaultyStorage(OSStorage):
    """The real file system, with faults: ``space`` bytes left (then ENOSPC after a
    partial write), ``read_only`` (EROFS on every change), ``fsync_error`` (EIO on fsync,
    after the data went to the page cache), ``fail_truncate`` (the cut back fails too)."""

    def __init__(self, *, space: int | None = None, read_only: bool = False,
                 fsync_error: bool = False, fail_truncate: bool = False,
                 fail_rename: bool = False, fail_read: bool = False) -> None:
        self.space = space
        self.read_only = read_only
        self.fsync_error = fsync_error
        self.fail_truncate = fail_truncate
        self.fail_rename = fail_rename
        self.fail_read = fail_read

    @staticmethod
    def _err(code: int, path: Path) -> OSError:
        return OSError(code, os.strerror(code), str(path))

    def read(self, path: Path) -> bytes | None:
        if self.fail_read and path.exists():
            raise self._err(errno.EIO, path)
        return super().read(path)

    def write(self, path: Path, offset: int, data: bytes) -> None:
        if self.read_only:
            raise self._err(errno.EROFS, path)
        if self.space is not None and len(data) > self.space:
            part = data[:self.space]
            with open(path, "r+b" if path.exists() else "wb") as f:
                f.seek(offset)
                f.write(part)
            self.space = 0
            raise self._err(errno.ENOSPC, path)
        if self.space is not None:
            self.space -= len(data)
        if self.fsync_error:
            with open(path, "r+b" if path.exists() else "wb") as f:
                f.seek(offset)
                f.write(data)
            raise self._err(errno.EIO, path)
        super().write(path, offset, data)

    def truncate(self, path: Path, size: int) -> None:
        if self.read_only or self.fail_truncate:
            raise self._err(errno.EROFS if self.read_only else errno.EIO, path)
        super().truncate(path, size)

    def replace(self, src: Path, dst: Path) -> None:
        if self.read_only or self.fail_rename:
            raise self._err(errno.EROFS if self.read_only else errno.EIO, dst)
        super().replace(src, dst)

    def remove(self, path: Path) -> None:
        if self.read_only and path.exists():
            raise self._err(errno.EROFS, path)
        super().remove(path)

    def link(self, src: Path, dst: Path) -> None:
        if self.read_only:
            raise self._err(errno.EROFS, dst)
        super().link(src, dst)


# --- the crash-consistency check ----------------------------------------------------------------


@dataclass
class CrashCheck:
    """What :func:`check_crashes` saw: how many crash points and file images it loaded,
    how many loads repaired the file (and how many images of a power cut during those
    repairs it loaded too), and every violation as text (empty = the journal held)."""

    points: int = 0
    states: int = 0
    repairs: int = 0
    repair_states: int = 0
    violations: list[str] = field(default_factory=list)


def replays(records: list[Record]) -> str:
    """Why the game of ``records`` does not resume through its engine ("" when it does)."""
    from companion.engines.game import replay
    from companion.games import GAMES as PLUGINS
    from companion.games import find_game

    if not records or records[0].get("game") not in {p.name for p in PLUGINS}:
        return ""
    try:
        r = replay(find_game(str(records[0]["game"])).engine(), records)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "" if r.used == len(records) else f"record {r.used} does not fit ({r.error})"


def _load(path: Path, files: dict[Path, bytes]) -> tuple[list[Record] | None, str,
                                                           RecordingStorage, MemStorage]:
    mem = MemStorage(files)
    rec = RecordingStorage(mem)
    try:
        return Journal(path, storage=rec).load(), "", rec, mem  # type: ignore[arg-type]
    except Exception as exc:  # the check: load never raises
        return None, f"{type(exc).__name__}: {exc}", rec, mem


def check_crashes(played: Played, path: Path, *, seed: int = 0, sample: int | None = 12,
                  nested_every: int | None = 1) -> CrashCheck:
    """Load every crash state of a played game; a load must never raise and must return the
    records of the last call that returned (or of the call in flight); the repaired file must
    take the next append; and a power cut during that repair (every ``nested_every``-th
    repair; ``None``: none) must load the same again."""
    rng = random.Random(seed)
    out = CrashCheck()
    for k in range(len(played.ops) + 1):
        out.points += 1
        allowed = allowed_at(played, k)
        for label, files in crash_states(played.initial, played.ops, k, rng, sample):
            out.states += 1
            got, error, rec, mem = _load(path, files)
            where = f"crash after {k}/{len(played.ops)} ops, {label}"
            if got is None:
                out.violations.append(f"{where}: load raised {error}")
                continue
            if got not in allowed:
                out.violations.append(f"{where}: loaded {len(got)} records, expected "
                                      f"{' or '.join(str(len(a)) for a in allowed)}")
                continue
            problem = replays(got)
            if problem:
                out.violations.append(f"{where}: the game does not resume: {problem}")
                continue
            probe: Record = {"t": "probe", "k": k}
            try:
                Journal(path, storage=mem).append(probe)  # type: ignore[arg-type]
                again = Journal(path, storage=MemStorage(mem.files)).load()  # type: ignore[arg-type]
            except Exception as exc:
                out.violations.append(f"{where}: no resume: {type(exc).__name__}: {exc}")
                continue
            if again != got + [probe]:
                out.violations.append(f"{where}: the next append did not resume the journal")
            if not rec.ops:
                continue
            out.repairs += 1
            if nested_every is None or (out.repairs - 1) % nested_every:
                continue
            for k2 in range(len(rec.ops) + 1):
                for label2, files2 in crash_states(files, rec.ops, k2, rng, sample):
                    out.repair_states += 1
                    got2, error2, _, _ = _load(path, files2)
                    if got2 != got:
                        out.violations.append(
                            f"{where}; then a crash during the repair after {k2} ops, "
                            f"{label2}: {error2 or f'loaded {len(got2 or [])} records'}")
    return out


class CardStorage(OSStorage):
    """The real file system as a card of ``capacity`` bytes holding the folder ``root``: a
    write that needs more than is free writes what fits and fails with ENOSPC; a link takes
    nothing (a file's bytes are counted once however many names it has)."""

    def __init__(self, root: Path, capacity: int) -> None:
        self.root = root
        self.capacity = capacity

    def used(self) -> int:
        inodes: dict[int, int] = {}
        for p in self.root.iterdir():
            st = p.stat()
            inodes[st.st_ino] = st.st_size
        return sum(inodes.values())

    def free(self) -> int:
        return max(0, self.capacity - self.used())

    def fill(self) -> None:
        """No byte free."""
        self.capacity = self.used()

    def write(self, path: Path, offset: int, data: bytes) -> None:
        size = self.size(path) or 0
        growth = max(0, offset + len(data) - size)
        if growth > self.free():
            fits = max(0, self.free() + size - offset)
            with open(path, "r+b" if path.exists() else "wb") as f:
                f.seek(offset)
                f.write(data[:fits])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        super().write(path, offset, data)
