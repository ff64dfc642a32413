from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.service.journal import (
    Journal,
    LoadReport,
    OSStorage,
    decode,
    decode_entry,
    encode,
    encode_entry,
    encode_journal,
)

from .journal_support import MemStorage, RecordingStorage


def test_records_round_trip_and_survive_a_new_instance(tmp_path):
    j = Journal(tmp_path / "g.journal")
    j.append({"t": "game", "players": 2})
    j.append({"t": "roll", "v": 6, "src": "dice"})
    assert Journal(tmp_path / "g.journal").load() == [
        {"t": "game", "players": 2}, {"t": "roll", "v": 6, "src": "dice"}]


def test_a_line_is_json_a_tab_and_a_crc():
    line = encode({"t": "roll", "v": 3})
    body, crc = line.rstrip(b"\n").split(b"\t")
    assert body == b'{"t":"roll","v":3}' and len(crc) == 8
    assert decode(line) == {"t": "roll", "v": 3}
    assert decode(line.replace(b"3", b"4", 1)) is None  # the CRC catches a changed value
    assert decode(line[:-1]) is None  # no newline: torn


def test_a_torn_last_record_is_dropped_with_a_log_line(tmp_path, caplog):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game"})
    j.append({"t": "roll", "v": 2})
    full = path.read_bytes()
    # the roll is written as two lines in one write: a power cut may stop it at any byte
    for cut in range(1, 2 * len(encode_entry(1, {"t": "roll", "v": 2}))):
        path.write_bytes(full[:-cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            loaded = Journal(path)
            records = loaded.load()
        assert records == [{"t": "game"}]
        assert "torn" in caplog.text
        assert loaded.dropped == 1 and loaded.report.torn and not loaded.report.damaged
        assert loaded.report.message == "Poslední neúplný záznam zahozen."
        # the tail is cut off, so the next append starts on a clean line
        assert path.read_bytes() == encode_journal([{"t": "game"}])
    assert not list(tmp_path.glob("*.damaged-*"))  # a torn end is no damage


def test_a_damaged_middle_record_costs_that_record_not_the_rest(tmp_path, caplog):
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3):
        j.append({"v": v})
    damaged = path.read_bytes().replace(b'"v":2', b'"v":9')  # both copies of record 2
    path.write_bytes(damaged)
    again = Journal(path)
    with caplog.at_level(logging.ERROR):
        assert again.load() == [{"v": 1}, {"v": 3}]
    assert "damaged" in caplog.text
    copy = tmp_path / "g.journal.damaged-1"
    assert copy.read_bytes() == damaged  # kept beside the journal, as it was
    assert again.report == LoadReport(recovered=2, lost=1, damaged=True, copy=copy)
    assert again.dropped == 1
    assert again.report.message == "Deník byl poškozený: obnoveno 2 záznamy, ztraceno 1 záznam."
    assert path.read_bytes() == encode_journal([{"v": 1}, {"v": 3}])  # rewritten clean
    again.append({"v": 4})
    assert Journal(path).load() == [{"v": 1}, {"v": 3}, {"v": 4}]


def test_pop_removes_the_last_record_durably(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3):
        j.append({"v": v})
    assert j.pop() == {"v": 3}
    assert Journal(path).load() == [{"v": 1}, {"v": 2}]
    j.append({"v": 4})
    assert Journal(path).load() == [{"v": 1}, {"v": 2}, {"v": 4}]
    assert j.pop() == {"v": 4} and j.pop() == {"v": 2} and j.pop() == {"v": 1}
    assert j.pop() is None and path.read_bytes() == b""


def test_replace_starts_anew(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"v": 1})
    j.replace([{"t": "game"}])
    assert Journal(path).load() == [{"t": "game"}]
    assert not (tmp_path / "g.journal.tmp").exists()


def test_missing_journal_is_empty(tmp_path):
    assert Journal(tmp_path / "none").load() == []


def test_append_fsyncs_before_returning(tmp_path, monkeypatch):
    import os

    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    Journal(tmp_path / "g.journal").append({"v": 1})
    assert synced


def test_keep_cuts_to_the_first_records_and_returns_the_rest(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3, 4):
        j.append({"v": v})
    assert j.keep(2) == [{"v": 3}, {"v": 4}]
    assert Journal(path).load() == [{"v": 1}, {"v": 2}]
    assert j.keep(5) == [] and len(Journal(path).load()) == 2
    assert j.keep(0) == [{"v": 1}, {"v": 2}] and path.read_bytes() == b""


# --- the format: every record twice, numbered, checksummed ------------------------------------


def test_every_record_is_written_twice_with_its_number(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game", "game": "clovece"})
    j.append({"t": "roll", "v": 6, "src": "dice"})
    lines = path.read_bytes().splitlines(keepends=True)
    assert lines[0] == lines[1] and lines[2] == lines[3] and len(lines) == 4
    n, body, crc = lines[2].rstrip(b"\n").split(b"\t")
    assert n == b"1" and body == b'{"src":"dice","t":"roll","v":6}' and len(crc) == 8
    assert decode_entry(lines[2]) == (1, {"t": "roll", "v": 6, "src": "dice"})
    assert decode_entry(lines[2].replace(b"1\t", b"2\t", 1)) is None  # the CRC covers n
    assert decode_entry(lines[2][:-1]) is None  # torn
    assert decode_entry(encode({"v": 1})) == (None, {"v": 1})  # the first format still reads


def test_czech_text_round_trips_as_utf8(tmp_path):
    j = Journal(tmp_path / "g.journal")
    j.append({"t": "drink", "why": "Hospoda: žluťoučký kůň"})
    assert Journal(tmp_path / "g.journal").load() == [{"t": "drink", "why": "Hospoda: žluťoučký kůň"}]
    assert "žluťoučký".encode() in (tmp_path / "g.journal").read_bytes()


def test_a_journal_of_the_first_format_is_read_and_rewritten(tmp_path):
    path = tmp_path / "g.journal"
    old = [{"t": "game", "players": 2}, {"t": "roll", "v": 5}, {"t": "move", "from": "h"}]
    path.write_bytes(b"".join(encode(r) for r in old))
    j = Journal(path)
    assert j.load() == old
    assert path.read_bytes() == encode_journal(old)
    assert j.report.clean and not list(tmp_path.glob("*.damaged-*"))
    j.append({"t": "roll", "v": 1})
    assert Journal(path).load() == old + [{"t": "roll", "v": 1}]


def test_a_damaged_line_of_the_first_format_costs_only_that_record(tmp_path):
    path = tmp_path / "g.journal"
    old = [{"v": 1}, {"v": 2}, {"v": 3}]
    path.write_bytes(b"".join(encode(r) for r in old).replace(b'"v":2', b'"v":7'))
    j = Journal(path)
    assert j.load() == [{"v": 1}, {"v": 3}]
    assert j.report.lost == 1 and j.report.damaged and j.report.copy is not None


def _journal(tmp_path, n=6):
    path = tmp_path / "g.journal"
    j = Journal(path)
    records = [{"t": "game", "game": "clovece", "players": 2, "variants": [],
                "computer": [], "first": "r"}]
    records += [{"t": "roll", "v": 1 + i % 6, "src": "dice"} for i in range(n)]
    for r in records:
        j.append(r)
    return path, records


def test_any_single_damaged_byte_costs_nothing(tmp_path):
    """Each byte of a small journal in turn, including every newline and the header."""
    path, records = _journal(tmp_path, 3)
    good = path.read_bytes()
    for i in range(len(good)):
        for flip in (0x01, 0x0A ^ good[i] or 0x20):  # a bit, and (where it is not) a newline
            damaged = bytearray(good)
            damaged[i] ^= flip
            disk = MemStorage({path: bytes(damaged)})
            j = Journal(path, storage=disk)
            assert j.load() == records, (i, flip)
            assert j.report.damaged and j.report.lost == 0, (i, flip)
            assert j.report.message.endswith("nic se neztratilo."), (i, flip)
            assert disk.read(path) == good  # rewritten clean
            assert disk.read(j.report.copy) == damaged  # and the damaged file kept


def test_a_newline_that_was_hit_is_found_again_by_the_crc_in_front_of_it(tmp_path):
    path, records = _journal(tmp_path, 2)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    merged = lines[0][:-1] + b"X" + lines[1][:-1] + b"Y" + b"".join(lines[2:])  # header x2
    path.write_bytes(merged)
    j = Journal(path)
    assert j.load() == records and j.report.lost == 0


def test_lost_records_at_the_end_are_counted(tmp_path):
    path, records = _journal(tmp_path, 4)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"v":', b'"w":')
    lines[-2] = lines[-2].replace(b'"v":', b'"w":')
    path.write_bytes(b"".join(lines))
    j = Journal(path)
    assert j.load() == records[:-1]
    assert j.report.lost == 1 and j.report.recovered == len(records) - 1


def test_only_one_copy_of_the_last_record_is_enough(tmp_path):
    path, records = _journal(tmp_path, 2)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"v":', b'"w":')
    path.write_bytes(b"".join(lines))
    j = Journal(path)
    assert j.load() == records and j.report.lost == 0


def test_copies_are_numbered_and_never_overwritten(tmp_path):
    path, records = _journal(tmp_path, 1)
    for n in (1, 2):
        path.write_bytes(path.read_bytes().replace(b"dice", b"dicf", 1))
        Journal(path).load()
        assert (tmp_path / f"g.journal.damaged-{n}").is_file()


def test_the_report_stays_until_the_next_damage(tmp_path):
    """The service reads it after every controller has loaded the journal once."""
    path, records = _journal(tmp_path, 2)
    path.write_bytes(path.read_bytes()[:-3])
    j = Journal(path)
    j.load()
    assert j.report.torn
    assert j.load() == records[:-1] and j.report.torn and j.dropped == 1


@pytest.mark.parametrize("lost, text", [
    (0, "Deník byl poškozený: obnoveno 5 záznamů, nic se neztratilo."),
    (1, "Deník byl poškozený: obnoveno 5 záznamů, ztraceno 1 záznam."),
    (3, "Deník byl poškozený: obnoveno 5 záznamů, ztraceno 3 záznamy."),
    (12, "Deník byl poškozený: obnoveno 5 záznamů, ztraceno 12 záznamů."),
])
def test_the_screen_says_what_was_recovered_and_lost(lost, text):
    assert LoadReport(recovered=5, lost=lost, damaged=True).message == text
    assert LoadReport().message == "" and LoadReport().clean


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400), records=st.integers(0, 4), cut=st.integers(0, 600))
def test_load_never_raises_on_any_bytes(tmp_path_factory, data, records, cut):
    path = tmp_path_factory.mktemp("j") / "g.journal"
    good = encode_journal([{"t": "roll", "v": i} for i in range(records)])
    path.write_bytes(good[:cut] + data + good[cut:])
    j = Journal(path)
    loaded = j.load()
    assert all(isinstance(r, dict) for r in loaded)
    assert Journal(path).load() == loaded  # the rewrite is clean
    j.append({"t": "probe"})
    assert Journal(path).load() == loaded + [{"t": "probe"}]


# --- durability: fsync of the file and of its folder --------------------------------------------


def test_the_folder_is_fsynced_when_the_file_is_created_or_replaced(tmp_path):
    rec = RecordingStorage(OSStorage())
    j = Journal(tmp_path / "d" / "g.journal", storage=rec)
    j.append({"t": "game"})
    kinds = [op.kind for op in rec.ops]
    assert kinds == ["write", "fsync", "sync_dir"]
    j.append({"t": "roll", "v": 1})
    assert [op.kind for op in rec.ops[3:]] == ["write", "fsync"]  # an append: no folder fsync
    del rec.ops[:]
    j.replace([{"t": "game", "n": 2}])
    assert [op.kind for op in rec.ops] == ["write", "fsync", "rename", "sync_dir"]
    assert not (tmp_path / "d" / "g.journal.tmp").exists()
