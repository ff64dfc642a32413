"""What survives what: the journal against its peer, SQLite (WAL, synchronous=FULL), in one run.

The same scripted games and the same faults for both (the figures of docs/faults.md):

* power cuts — the crash-consistency check of tests/service/test_journal_crash.py: the game
  is played through a shim that records every write, fsync, truncate, rename and folder
  fsync; every prefix of those operations is turned into every file image a power cut can
  leave (un-fsynced writes dropped or kept, the write in flight torn at a byte or left as
  zeros, names not yet fsynced old or new) and loaded.  A violation is a load that raised,
  lost a record whose call had returned, or returned one that was never written.  For SQLite
  the shim is an APSW VFS (`pip install apsw`; without it that row is skipped) and every
  image is opened with the standard library's sqlite3.
* damaged bytes — N single-byte flips (and N double flips) anywhere in the file of a
  201-record game: records lost, records silently changed, loads that failed.

    .venv/bin/python benchmarks/journal_faults.py [--flips 2000]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.service.journal import Journal, OSStorage, encode_journal  # noqa: E402
from tests.service.journal_support import (  # noqa: E402
    GAMES,
    MemStorage,
    Op,
    Played,
    allowed_at,
    check_crashes,
    crash_states,
    play,
)

HEADER = {"t": "game", "game": "clovece", "players": 2, "variants": [], "computer": [],
          "first": "r"}


def game_records(n: int = 200) -> list[dict[str, object]]:
    return [HEADER] + [{"t": "roll", "v": 1 + i % 6, "src": "dice", "i": i} for i in range(n)]


# --- SQLite as the journal ----------------------------------------------------------------------


SCHEMA = "CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, record TEXT NOT NULL)"


def sqlite_open(path: Path, factory=sqlite3.connect):  # type: ignore[no-untyped-def]
    db = factory(str(path))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA wal_autocheckpoint=8")  # checkpoints happen during the game, too
    db.execute(SCHEMA)
    return db


def sqlite_load(path: Path) -> list[dict[str, object]]:
    db = sqlite3.connect(str(path))
    db.text_factory = bytes  # a damaged page may hold text that is no longer UTF-8
    out = []
    try:
        for (text,) in db.execute("SELECT record FROM journal ORDER BY seq"):
            try:  # a careful reader skips a record that is no longer JSON
                record = json.loads(text)
            except (ValueError, TypeError):  # UnicodeDecodeError is a ValueError
                continue
            if isinstance(record, dict):
                out.append(record)
    finally:
        db.close()
    return out


def sqlite_step(db, call: str, arg: object, count: int) -> int:  # type: ignore[no-untyped-def]
    """One journal call as one SQLite transaction; the number of records after it."""
    with db if hasattr(db, "__enter__") else _Tx(db):
        if call == "append":
            db.execute("INSERT INTO journal VALUES (?, ?)", (count, json.dumps(arg)))
            return count + 1
        if call == "pop":
            db.execute("DELETE FROM journal WHERE seq = ?", (count - 1,))
            return count - 1
        if call == "keep":
            db.execute("DELETE FROM journal WHERE seq >= ?", (arg,))
            return int(arg)  # type: ignore[call-overload]
        db.execute("DELETE FROM journal")
        for i, r in enumerate(arg):  # type: ignore[arg-type]
            db.execute("INSERT INTO journal VALUES (?, ?)", (i, json.dumps(r)))
        return len(arg)  # type: ignore[arg-type]


class _Tx:
    def __init__(self, db) -> None:  # type: ignore[no-untyped-def]
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN")

    def __exit__(self, *exc: object) -> None:
        self.db.execute("COMMIT")


def sqlite_crashes(game: str, folder: Path) -> tuple[int, int, int, list[str]] | None:
    """The crash-consistency check for SQLite through an APSW VFS that records its I/O."""
    try:
        import apsw
    except ImportError:
        return None
    ops: list[Op] = []
    synced_names: set[Path] = set()

    class File(apsw.VFSFile):  # type: ignore[misc]
        def __init__(self, name, flags) -> None:  # type: ignore[no-untyped-def]
            self.path = Path(name.filename() if hasattr(name, "filename") else name)
            super().__init__("", name, flags)

        def xWrite(self, data, offset) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
            ops.append(Op("write", self.path, offset, bytes(data)))
            super().xWrite(data, offset)

        def xTruncate(self, size) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
            super().xTruncate(size)
            ops.append(Op("truncate", self.path, size))

        def xSync(self, flags) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
            super().xSync(flags)
            ops.append(Op("fsync", self.path))
            if self.path not in synced_names:  # SQLite fsyncs the folder of a new WAL
                synced_names.add(self.path)
                ops.append(Op("sync_dir", self.path.parent))

    class VFS(apsw.VFS):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__("recording", "")

        def xOpen(self, name, flags):  # type: ignore[no-untyped-def]  # noqa: N802
            return File(name, flags)

        def xDelete(self, name, syncdir) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
            super().xDelete(name, syncdir)
            ops.append(Op("remove", Path(name)))
            if syncdir:
                ops.append(Op("sync_dir", Path(name).parent))

    _vfs = VFS()  # registered while it lives
    path = folder / "game.sqlite"
    db = sqlite_open(path, lambda p: apsw.Connection(p, vfs="recording"))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    initial = {p: p.read_bytes() for p in folder.iterdir() if not p.name.endswith("-shm")}
    synced_names.update(initial)
    ops.clear()
    calls, records = [], []
    for step in GAMES[game]():
        start, before = len(ops), list(records)
        n = sqlite_step(db, step.call, step.arg, len(records))
        if step.call == "append":
            records.append(step.arg)
        elif step.call == "replace":
            records = list(step.arg)  # type: ignore[call-overload]
        else:
            del records[n:]
        calls.append((start, len(ops), before, list(records)))
    db.close()
    played = Played(initial, ops, calls)
    rng = random.Random(1)
    states = violations = 0
    examples: list[str] = []
    for k in range(len(ops) + 1):
        allowed = allowed_at(played, k)
        for label, files in crash_states(initial, ops, k, rng):
            states += 1
            with tempfile.TemporaryDirectory() as tmp:
                for p, data in files.items():
                    if not p.name.endswith("-shm"):  # the WAL index is rebuilt after a reboot
                        (Path(tmp) / p.name).write_bytes(data)
                try:
                    got = sqlite_load(Path(tmp) / path.name)
                except (sqlite3.Error, UnicodeDecodeError) as exc:
                    got, label = None, f"{label}: {exc}"
            if got not in allowed:
                violations += 1
                if len(examples) < 3:
                    examples.append(f"crash after {k} ops, {label}")
    return len(ops) + 1, states, violations, examples


# --- damaged bytes ------------------------------------------------------------------------------


def flips(good: bytes, n: int, per: int, rng: random.Random) -> list[bytes]:
    out = []
    for _ in range(n):
        d = bytearray(good)
        for at in rng.sample(range(len(good)), per):
            d[at] ^= rng.randrange(1, 256)
        out.append(bytes(d))
    return out


def judge(records: list[dict[str, object]], got: list[dict[str, object]] | None) -> tuple[int, int]:
    """(lost, changed): records missing, and records returned that were never written."""
    if got is None:
        return len(records), 0
    written = {json.dumps(r, sort_keys=True) for r in records}
    changed = sum(1 for r in got if json.dumps(r, sort_keys=True) not in written)
    return len(records) - (len(got) - changed), changed


def journal_flips(records, n: int, per: int, seed: int):  # type: ignore[no-untyped-def]
    path = Path("/journal/game.journal")
    out = []
    for damaged in flips(encode_journal(records), n, per, random.Random(seed)):
        try:
            got = Journal(path, storage=MemStorage({path: damaged})).load()
        except Exception:
            got = None
        out.append(judge(records, got))
    return out


def sqlite_flips(records, n: int, per: int, seed: int, folder: Path):  # type: ignore[no-untyped-def]
    path = folder / "game.sqlite"
    db = sqlite_open(path)
    count = 0
    for r in records:
        count = sqlite_step(db, "append", r, count)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    good = path.read_bytes()
    out, failed = [], 0
    for damaged in flips(good, n, per, random.Random(seed)):
        path.write_bytes(damaged)
        try:
            got = sqlite_load(path)
        except (sqlite3.Error, UnicodeDecodeError):  # the schema's own text was hit
            got, failed = None, failed + 1
        out.append(judge(records, got))
    return out, failed, len(good)


def summary(name: str, results: list[tuple[int, int]], failed: int | None = None) -> str:
    lost = [x for x, _ in results]
    changed = [c for _, c in results]
    hit = sum(1 for x in lost if x)
    bad = sum(1 for c in changed if c)
    text = (f"{name:<28} lost records: mean {sum(lost) / len(lost):6.2f}, max {max(lost):4d}, "
            f"in {hit:4d} of {len(lost)} cases; silently changed: {bad:4d} cases")
    if failed is not None:
        text += f"; load failed: {failed}"
    return text


def append_cost(folder: Path, n: int = 200) -> tuple[float, float]:
    """Median seconds of one durable append: the journal's, and an SQLite INSERT's."""
    records = game_records(n - 1)
    j = Journal(folder / "speed.journal")
    times = []
    for r in records:
        t0 = time.perf_counter()
        j.append(r)
        times.append(time.perf_counter() - t0)
    db = sqlite_open(folder / "speed.sqlite")
    times_db = []
    for i, r in enumerate(records):
        t0 = time.perf_counter()
        sqlite_step(db, "append", r, i)
        times_db.append(time.perf_counter() - t0)
    db.close()
    return sorted(times)[n // 2], sorted(times_db)[n // 2]


def power_cuts(tmp: Path) -> None:
    print("power cuts (every crash point; torn offsets sampled):")
    for game in sorted(GAMES):
        t0 = time.perf_counter()
        path = tmp / game / "game.journal"
        path.parent.mkdir()
        played = play(GAMES[game](), path, OSStorage())
        r = check_crashes(played, path, seed=len(game), nested_every=40)
        print(f"  journal {game:<8} {r.points:5d} crash points, {r.states:6d} images, "
              f"{r.repairs:5d} repairs (+{r.repair_states} images of a cut during one): "
              f"{len(r.violations)} violations ({time.perf_counter() - t0:.1f} s)")
        folder = tmp / f"sqlite-{game}"
        folder.mkdir()
        t0 = time.perf_counter()
        s = sqlite_crashes(game, folder)
        if s is None:
            print(f"  sqlite  {game:<8} skipped: pip install apsw")
            continue
        points, states, violations, examples = s
        print(f"  sqlite  {game:<8} {points:5d} crash points, {states:6d} images: "
              f"{violations} violations ({time.perf_counter() - t0:.1f} s)")
        for e in examples:
            print(f"      {e}")


def damaged_bytes(tmp: Path, n: int) -> None:
    records = game_records()
    print(f"damaged bytes ({n} cases each, a {len(records)}-record game):")
    for per in (1, 2):
        print("  " + summary(f"journal, {per} byte(s)", journal_flips(records, n, per, per)))
        folder = tmp / f"flips{per}"
        folder.mkdir()
        results, failed, size = sqlite_flips(records, n, per, per, folder)
        print("  " + summary(f"sqlite ({size // 1024} KiB), {per} byte(s)", results, failed))
    print(f"  (the journal's file: {len(encode_journal(records)) // 1024} KiB)")
    ours, peer = append_cost(tmp)
    print(f"durable append, median of 200: journal {ours * 1e3:.2f} ms, sqlite INSERT "
          f"{peer * 1e3:.2f} ms ({peer / ours:.2f}x the journal's)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flips", type=int, default=2000)
    ap.add_argument("--only", choices=["power-cuts", "bytes"], help="one half of the run")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "bytes":
            power_cuts(Path(tmp))
        if args.only != "power-cuts":
            damaged_bytes(Path(tmp), args.flips)


if __name__ == "__main__":
    main()
