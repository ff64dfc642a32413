"""What survives what: the journal against its peer, SQLite (WAL, synchronous=FULL), in one run.

The same scripted games and the same faults for both (the figures of docs/dev/faults.md):

* power cuts — the crash-consistency check of tests/storage/test_journal_crash.py: the game
  is played through a shim that records every write, fsync, truncate, rename and folder
  fsync; every prefix of those operations is turned into every file image a power cut can
  leave (un-fsynced writes dropped or kept, the write in flight torn at a byte or left as
  zeros, names not yet fsynced old or new) and loaded.  A violation is a load that raised,
  lost a record whose call had returned, or returned one that was never written.  For SQLite
  the shim is an APSW VFS (`pip install apsw`; without it that row is skipped) and every
  image is opened with the standard library's sqlite3.
* damage — a seeded game of each of the three games (played on the protocol to its end, at
  most 400 actions), journaled as the service does (two files, a checkpoint every 8 records,
  as the hosts write them; Gobbit's with the virtual deck) and stored in SQLite; then every 512-byte sector zeroed, every
  4 KiB block zeroed, --flips random byte flips, every truncation point, the same sector or
  block in both files, and both copies of each record zeroed.  Each image is loaded and the
  game resumed (the engine's replay of what the load gave); the resumed state is compared
  with the true game's states: a wrong state is one the true game was never in, and the
  records lost are the true records it does not stand for.  For SQLite, the reader skips a
  record that no longer parses and replays the rest, as a careful reader would.

    .venv/bin/python benchmarks/journal_faults.py [--flips 2000] [--only power-cuts|damage]
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.service.hosts.base import CHECKPOINT_EVERY  # noqa: E402  (as the hosts write them)
from companion.storage.journal import Journal, OSStorage, mirror_of  # noqa: E402
from tests.storage.journal_support import (  # noqa: E402
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


# --- damaged sectors, blocks, bytes, truncations: the resumed game ----------------------------

SECTOR, BLOCK = 512, 4096


@dataclass
class TrueGame:
    """A seeded game played on the protocol: its records and the true state after each."""

    name: str
    game: Any
    records: list[dict[str, Any]]
    states: list[Any]  # states[k]: after records[:k + 1] (states[0]: the new game)
    checkpoints: dict[int, dict[str, Any]]

    def resumed(self, got: list[dict[str, Any]] | None) -> int | None:
        """How many of the true records the resumed state stands for (0: no game resumed),
        or ``None`` for a wrong state (one the true game never was in)."""
        from companion.engines.errors import RulesError
        from companion.engines.game import replay

        if not got:
            return 0
        if got == self.records[:len(got)]:
            return len(got)
        first = got[0]
        if isinstance(first.get("state"), str):  # from a checkpoint
            for c, cp in self.checkpoints.items():
                if cp == first and got[1:] == self.records[c + 1:c + len(got)]:
                    return c + len(got)
        try:
            state = replay(self.game, got).state
        except (RulesError, ValueError, KeyError, TypeError):
            return 0  # not even a header: the set-up screen
        for k in range(len(self.states) - 1, -1, -1):
            if self.states[k] == state:
                return k + 1
        return None


def true_game(name: str, seed: int, max_actions: int = 200) -> TrueGame:
    import itertools

    from companion.games import find_game
    from companion.selfplay.driver import steps

    info = find_game(name)
    game = info.engine()
    setup = game.default_setup()
    header = game.setup_record(setup)
    if name == "gobbit":
        header = {**header, "mode": "virtual"}
    records, states, cps = [header], [game.new_game(setup)], {}
    for step in itertools.islice(steps(game, setup, random.Random(seed)), max_actions):
        k = len(records)
        records.append(game.encode(step.action))
        states.append(step.after)
        if k % CHECKPOINT_EVERY == 0:
            cps[k] = {**header, "state": game.format(step.after)}
    return TrueGame(name, game, records, states, cps)


def journal_bytes(tg: TrueGame, folder: Path) -> tuple[bytes, bytes]:
    """Both files of the game's journal, written by the journal itself."""
    path = folder / f"{tg.name}.journal"
    j = Journal(path)
    for i, r in enumerate(tg.records):
        j.append(r, tg.checkpoints.get(i))
    return path.read_bytes(), mirror_of(path).read_bytes()


def zeroed(data: bytes, start: int, size: int) -> bytes:
    return data[:start] + bytes(len(data[start:start + size])) + data[start + size:]


def journal_cases(p: bytes, m: bytes, rng: random.Random, flips: int
                  ) -> dict[str, list[tuple[bytes, bytes]]]:
    cases: dict[str, list[tuple[bytes, bytes]]] = {}
    for label, size in (("512-byte sector zeroed", SECTOR), ("4 KiB block zeroed", BLOCK)):
        cases[f"one {label}, either file"] = (
            [(zeroed(p, s, size), m) for s in range(0, len(p), size)]
            + [(p, zeroed(m, s, size)) for s in range(0, len(m), size)])
        cases[f"the same {label.split(' zeroed')[0]} zeroed in both files"] = [
            (zeroed(p, s, size), zeroed(m, s, size)) for s in range(0, len(p), size)]
    out = []
    for k in range(flips):
        at = rng.randrange(len(p))
        d = bytearray(p if k % 2 else m)
        d[at] ^= rng.randrange(1, 256)
        out.append((bytes(d), m) if k % 2 else (p, bytes(d)))
    cases[f"{flips} random byte flips"] = out
    cases["every truncation point, either file"] = (
        [(p[:t], m) for t in range(len(p) + 1)] + [(p, m[:t]) for t in range(len(m) + 1)])
    cases["every truncation point, both files"] = [(p[:t], m[:t]) for t in range(len(p) + 1)]
    lines, at, both = p.splitlines(keepends=True), 0, []
    for line in lines:
        both.append((zeroed(p, at, len(line)), zeroed(m, at, len(line))))
        at += len(line)
    cases["both copies of one record zeroed"] = both
    return cases


@dataclass
class Tally:
    cases: int = 0
    wrong: int = 0
    lost: list[int] = field(default_factory=list)
    unsaid: int = 0  # records lost but the screen said nothing about a loss

    def add(self, total: int, resumed: int | None, said: bool = True) -> None:
        self.cases += 1
        if resumed is None:
            self.wrong += 1
            return
        self.lost.append(total - resumed)
        if total - resumed and not said:
            self.unsaid += 1

    def line(self) -> str:
        lost = self.lost or [0]
        hit = sum(1 for x in lost if x)
        return (f"{self.cases:6d} cases  wrong resumed state {self.wrong:5d}  records lost: "
                f"mean {sum(lost) / len(lost):6.2f} max {max(lost):4d} (in {hit:5d} cases)")


class ReadOnlyMem(MemStorage):
    """The files in memory; the repair's writes are dropped (the benchmark judges the load)."""

    def write(self, path: Path, offset: int, data: bytes) -> None:
        pass

    def replace(self, src: Path, dst: Path) -> None:
        pass


def cached_decoding() -> None:
    """Decode each distinct line once in this process (the same lines come in every image):
    the same results, many times faster; and skip the repair's rewrite after each load (what
    is judged is what the load gives; the crash-consistency half checks the repairs).  Only
    here, never in the service."""
    import functools

    from companion.storage.journal import core, recovery

    if hasattr(recovery.decode_line, "cache_info"):
        return
    recovery.decode_line = functools.lru_cache(maxsize=1 << 16)(recovery.decode_line)

    def counted_only(self, records, checkpoints, marks):  # type: ignore[no-untyped-def]
        self._count = len(records)

    core.Journal._write_whole = counted_only  # type: ignore[method-assign]


def journal_damage(tg: TrueGame, p: bytes, m: bytes, flips: int, seed: int
                   ) -> dict[str, Tally]:
    path = Path("/journal/game.journal")
    out: dict[str, Tally] = {}
    for label, cases in journal_cases(p, m, random.Random(seed), flips).items():
        tally = out.setdefault(label, Tally())
        for one, two in cases:
            j = Journal(path, storage=ReadOnlyMem({path: one, mirror_of(path): two}))
            got = j.load()
            said = bool(j.report.message) and (j.report.lost > 0 or j.report.unusable
                                               or j.report.torn)
            tally.add(len(tg.records), tg.resumed(got), said)
    return out


def sqlite_bytes(tg: TrueGame, folder: Path) -> bytes:
    path = folder / f"{tg.name}.sqlite"
    db = sqlite_open(path)
    count = 0
    for r in tg.records:
        count = sqlite_step(db, "append", r, count)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path.read_bytes()


def sqlite_damage(tg: TrueGame, good: bytes, folder: Path, flips: int, seed: int
                  ) -> dict[str, Tally]:
    rng = random.Random(seed)
    cases: dict[str, list[bytes]] = {
        "one 512-byte sector zeroed": [zeroed(good, s, SECTOR) for s in range(0, len(good), SECTOR)],
        "one 4 KiB block zeroed": [zeroed(good, s, BLOCK) for s in range(0, len(good), BLOCK)],
    }
    out = []
    for _ in range(flips):
        d = bytearray(good)
        d[rng.randrange(len(good))] ^= rng.randrange(1, 256)
        out.append(bytes(d))
    cases[f"{flips} random byte flips"] = out
    cases["every truncation point"] = [good[:t] for t in range(len(good) + 1)]
    one = []
    for r in tg.records[1:]:
        text = json.dumps(r).encode()
        at = good.find(text)
        if at >= 0:
            one.append(zeroed(good, at, len(text)))
    cases["one record zeroed (its only copy)"] = one
    path = folder / "damaged.sqlite"
    tallies: dict[str, Tally] = {}
    for label, images in cases.items():
        tally = tallies.setdefault(label, Tally())
        for image in images:
            path.write_bytes(image)
            try:
                got: list[dict[str, Any]] | None = sqlite_load(path)
            except (sqlite3.Error, UnicodeDecodeError):
                got = None
            tally.add(len(tg.records), tg.resumed(got or []))
    return tallies


def damage(tmp: Path, flips: int) -> None:
    print("damage: the game resumed after each fault (a wrong state = one the true game "
          "never was in; records lost = true records the resumed state does not stand for)")
    for name, seed in (("clovece", 1), ("gobbit", 2), ("napij", 3)):
        t0 = time.perf_counter()
        tg = true_game(name, seed)
        folder = tmp / f"damage-{name}"
        folder.mkdir()
        p, m = journal_bytes(tg, folder)
        db = sqlite_bytes(tg, folder)
        assert p == m and tg.resumed(Journal(folder / f"{name}.journal").load()) == len(tg.records)
        cached_decoding()
        print(f"  {name}: {len(tg.records)} records ({len(tg.checkpoints)} checkpoints); "
              f"journal 2 x {len(p)} bytes, SQLite {len(db)} bytes")
        ours = journal_damage(tg, p, m, flips, seed)
        for label, tally in ours.items():
            unsaid = f"  not said: {tally.unsaid}" if tally.unsaid else ""
            print(f"    journal  {label:<46} {tally.line()}{unsaid}", flush=True)
        for label, tally in sqlite_damage(tg, db, folder, flips, seed).items():
            print(f"    SQLite   {label:<46} {tally.line()}")
        print(f"    ({time.perf_counter() - t0:.0f} s)", flush=True)


def append_cost(folder: Path, n: int = 200) -> tuple[float, float]:
    """Median seconds of one durable append: the journal's (two files, each fsynced), and an
    SQLite INSERT's (WAL, synchronous=FULL); interleaved, so the disk's other work hits both."""
    records = game_records(n - 1)
    j = Journal(folder / "speed.journal")
    db = sqlite_open(folder / "speed.sqlite")
    times, times_db = [], []
    for i, r in enumerate(records):
        t0 = time.perf_counter()
        j.append(r)
        times.append(time.perf_counter() - t0)
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


def speed(tmp: Path) -> None:
    ours, peer = append_cost(tmp)
    print(f"durable append, median of 200: journal (2 files) {ours * 1e3:.2f} ms, sqlite INSERT "
          f"{peer * 1e3:.2f} ms ({peer / ours:.2f}x the journal's)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flips", type=int, default=2000)
    ap.add_argument("--only", choices=["power-cuts", "damage", "speed"],
                    help="one part of the run")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "power-cuts"):
            power_cuts(Path(tmp))
        if args.only in (None, "damage"):
            damage(Path(tmp), args.flips)
        if args.only in (None, "damage", "speed"):
            speed(Path(tmp))


if __name__ == "__main__":
    main()
