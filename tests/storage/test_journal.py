from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.storage.journal import (
    Entry,
    Journal,
    LoadReport,
    OSStorage,
    decode,
    decode_line,
    encode,
    encode_entry,
    encode_journal,
    encode_line,
    mirror_of,
)
from tests.storage.journal_support import MemStorage, RecordingStorage, journal_files, write_journal


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
    head = encode_journal([{"t": "game"}])
    # the roll is written to the primary file first: a power cut may stop it at any byte
    for cut in range(1, len(full) - len(head)):
        path.write_bytes(full[:-cut])
        mirror_of(path).write_bytes(head)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            loaded = Journal(path)
            records = loaded.load()
        assert records == [{"t": "game"}]
        assert "torn" in caplog.text
        assert loaded.dropped == 1 and loaded.report.torn and not loaded.report.damaged
        assert loaded.report.message == "Poslední neúplný záznam zahozen."
        # both files are clean again, so the next append starts on a clean line
        assert Journal(path).load() == [{"t": "game"}] and Journal(path).report.clean
        assert path.read_bytes() == mirror_of(path).read_bytes()
    assert not list(tmp_path.glob("*.damaged-*"))  # a torn end is no damage


def test_a_record_in_only_the_primary_file_is_the_append_in_flight_either_way(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game"})
    j.append({"t": "roll", "v": 2})
    mirror_of(path).write_bytes(encode_journal([{"t": "game"}]))  # cut before its second copy
    assert Journal(path).load() == [{"t": "game"}, {"t": "roll", "v": 2}]


def test_a_record_lost_in_both_files_is_never_skipped(tmp_path, caplog):
    """The issue's wrong game: the records after a lost one are not replayed onto a state they
    were not played in; the game resumes before it, and the table is told what to play again."""
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3, 4):
        j.append({"t": "roll", "v": v})
    damaged = path.read_bytes().replace(b'"v":2', b'"v":9')  # both copies of record 1
    write_journal(path, [], primary=damaged, mirror=damaged)
    again = Journal(path)
    with caplog.at_level(logging.ERROR):
        assert again.load() == [{"t": "roll", "v": 1}]
    assert "damaged" in caplog.text
    copy = tmp_path / "g.journal.damaged-1"
    assert copy.read_bytes() == damaged  # kept beside the journal, as it was
    assert again.report.lost == 3 and again.report.damaged and again.report.copy == copy
    assert again.dropped == 3
    assert again.report.message == (
        "Ztratily se poslední 3 akce: hod 3, hod 4, 1 nečitelná; zahrajte je znovu. "
        "Poškozený deník je uložen jako g.journal.damaged-1.")
    assert Journal(path).load() == [{"t": "roll", "v": 1}] and Journal(path).report.clean
    again.append({"v": 5})
    assert Journal(path).load() == [{"t": "roll", "v": 1}, {"v": 5}]


def test_a_checkpoint_after_the_lost_record_is_the_last_certain_state(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game", "game": "x"})
    j.append({"t": "roll", "v": 1})
    j.append({"t": "roll", "v": 2}, checkpoint={"t": "game", "game": "x", "state": "S2"})
    j.append({"t": "roll", "v": 3})
    damaged = path.read_bytes().replace(b'"v":1', b'"v":7')  # record 1 in both files
    write_journal(path, [], primary=damaged, mirror=damaged)
    again = Journal(path)
    assert again.load() == [{"t": "game", "game": "x", "state": "S2"}, {"t": "roll", "v": 3}]
    assert again.report.damaged and again.report.from_checkpoint and again.report.lost == 0


def test_a_damaged_header_is_said_and_recovered_from_a_checkpoint(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game", "game": "x"})
    j.append({"t": "roll", "v": 1}, checkpoint={"t": "game", "game": "x", "state": "S1"})
    damaged = path.read_bytes().replace(b'"x","t"', b'"y","t"', 1)  # the header
    write_journal(path, [], primary=damaged, mirror=damaged)
    again = Journal(path)
    assert again.load() == [{"t": "game", "game": "x", "state": "S1"}]
    assert again.report.header_lost
    assert again.report.message == ("Začátek deníku byl poškozený: hra obnovena z uloženého "
                                     "stavu.")


def test_a_damaged_header_without_a_checkpoint_is_said(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game", "game": "x"})
    j.append({"t": "roll", "v": 1})
    damaged = path.read_bytes().replace(b'"x","t"', b'"y","t"', 1)
    write_journal(path, [], primary=damaged, mirror=damaged)
    again = Journal(path)
    assert again.load() == []
    assert again.report.unusable and again.report.message == (
        "Deník je poškozený a hru z něj nejde obnovit. Poškozený deník je uložen jako "
        "g.journal.damaged-1.")


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
    assert j.pop() is None and path.read_bytes() == b"" == mirror_of(path).read_bytes()


def test_replace_starts_anew(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"v": 1})
    j.replace([{"t": "game"}])
    assert Journal(path).load() == [{"t": "game"}]
    assert not (tmp_path / "g.journal.tmp").exists()
    assert not (tmp_path / "g.journal.mirror.tmp").exists()


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


# --- the format: every record in two files, numbered, checksummed ---------------------------------


def test_every_record_is_written_to_both_files_with_its_generation_and_number(tmp_path):
    path = tmp_path / "g.journal"
    j = Journal(path)
    j.append({"t": "game", "game": "clovece"})
    j.append({"t": "roll", "v": 6, "src": "dice"})
    lines = path.read_bytes().splitlines(keepends=True)
    assert mirror_of(path).read_bytes() == path.read_bytes() and len(lines) == 2
    key, body, crc = lines[1].rstrip(b"\n").split(b"\t")
    assert key == b"1/1" and body == b'{"src":"dice","t":"roll","v":6}' and len(crc) == 8
    assert decode_line(lines[1]) == Entry(1, 1, False, {"t": "roll", "v": 6, "src": "dice"})
    assert decode_line(lines[1].replace(b"1/1\t", b"1/2\t", 1)) is None  # the CRC covers n
    assert decode_line(lines[1][:-1]) is None  # torn
    assert decode_line(encode({"v": 1})) == Entry(None, None, False, {"v": 1})  # format 1
    assert decode_line(encode_entry(3, {"v": 1})) == Entry(0, 3, False, {"v": 1})  # format 2
    cp = encode_line(4, 7, {"state": "x"}, checkpoint=True)
    assert cp.startswith(b"4/7/c\t") and decode_line(cp) == Entry(4, 7, True, {"state": "x"})


def test_a_journal_of_the_second_format_is_read_and_rewritten(tmp_path):
    path = tmp_path / "g.journal"
    old = [{"t": "game"}, {"t": "roll", "v": 5}]
    path.write_bytes(b"".join(encode_entry(i, r) * 2 for i, r in enumerate(old)))
    j = Journal(path)
    assert j.load() == old and j.report.clean
    assert Journal(path).load() == old and mirror_of(path).read_bytes() == path.read_bytes()


def test_lines_of_an_older_generation_are_never_mixed_in(tmp_path):
    """A power cut between the two renames of a new game: one file new, one old."""
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3):
        j.append({"v": v})
    old = path.read_bytes()
    j.replace([{"t": "game", "n": 2}])
    mirror_of(path).write_bytes(old)
    assert Journal(path).load() == [{"t": "game", "n": 2}]


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
    assert path.read_bytes() == encode_journal(old, 1) == mirror_of(path).read_bytes()
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
    """Each byte of a small journal in turn, in either file, including every newline and the
    header."""
    path, records = _journal(tmp_path, 3)
    good = path.read_bytes()
    for i in range(len(good)):
        for flip in (0x01, 0x0A ^ good[i] or 0x20):  # a bit, and (where it is not) a newline
            damaged = bytearray(good)
            damaged[i] ^= flip
            for which in (0, 1):
                files = journal_files(path, *((bytes(damaged), good) if which == 0
                                              else (good, bytes(damaged))))
                disk = MemStorage(files)
                j = Journal(path, storage=disk)
                assert j.load() == records, (i, flip, which)
                assert j.report.lost == 0, (i, flip, which)
                if i == len(good) - 1 and which == 1:  # the mirror's last newline: as if its
                    assert j.report.torn  # write had stopped right before it (no damage)
                    continue
                assert j.report.damaged, (i, flip, which)
                assert j.report.message.endswith("nic se neztratilo."), (i, flip)
                assert Journal(path, storage=disk).load() == records  # rewritten clean
                assert Journal(path, storage=disk).report.clean
                assert disk.read(j.report.copy) == damaged  # and the damaged file kept


def test_a_newline_that_was_hit_is_found_again_by_the_crc_in_front_of_it(tmp_path):
    path, records = _journal(tmp_path, 2)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    merged = lines[0][:-1] + b"X" + lines[1][:-1] + b"Y" + b"".join(lines[2:])
    write_journal(path, [], primary=merged, mirror=merged)  # in both files
    j = Journal(path)
    assert j.load() == records and j.report.lost == 0


def test_lost_records_at_the_end_are_counted(tmp_path):
    path, records = _journal(tmp_path, 4)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"v":', b'"w":')
    bad = b"".join(lines)
    write_journal(path, [], primary=bad, mirror=bad)
    j = Journal(path)
    assert j.load() == records[:-1]
    assert j.report.lost == 1 and j.report.recovered == len(records) - 1


def test_only_one_copy_of_the_last_record_is_enough(tmp_path):
    path, records = _journal(tmp_path, 2)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"v":', b'"w":')
    write_journal(path, [], primary=b"".join(lines), mirror=path.read_bytes())
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
    cut = path.read_bytes()[:-3]
    write_journal(path, [], primary=cut, mirror=cut)
    j = Journal(path)
    j.load()
    assert j.report.torn
    assert j.load() == records[:-1] and j.report.torn and j.dropped == 1


@pytest.mark.parametrize("lost, known, text", [
    (0, (), "Deník byl poškozený: obnoveno 5 záznamů, nic se neztratilo."),
    (1, (), "Ztratila se poslední akce: 1 nečitelná; zahrajte ji znovu."),
    (3, ({"t": "roll", "v": 5, "src": "dice"}, {"t": "move", "from": "h"}),
     "Ztratily se poslední 3 akce: hod 5, tah, 1 nečitelná; zahrajte je znovu."),
    (12, tuple({"t": "drank", "c": "g"} for _ in range(6)),
     "Ztratilo se posledních 12 akcí: zelený: napití, zelený: napití, zelený: napití, "
     "zelený: napití, a 2 další, 6 nečitelné; zahrajte je znovu."),
])
def test_the_screen_says_what_was_recovered_and_lost(lost, known, text):
    report = LoadReport(recovered=5, lost=lost, damaged=True, lost_records=known)
    assert report.message == text
    assert LoadReport().message == "" and LoadReport().clean


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400), records=st.integers(0, 4), cut=st.integers(0, 600))
def test_load_never_raises_on_any_bytes(tmp_path_factory, data, records, cut):
    path = tmp_path_factory.mktemp("j") / "g.journal"
    good = encode_journal([{"t": "roll", "v": i} for i in range(records)])
    write_journal(path, [], primary=good[:cut] + data + good[cut:], mirror=data[:cut] + good)
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
    assert kinds == ["write", "fsync", "write", "fsync", "sync_dir"]
    assert [op.path.name for op in rec.ops[::2]] == ["g.journal", "g.journal.mirror", "d"]
    j.append({"t": "roll", "v": 1})
    assert [op.kind for op in rec.ops[5:]] == ["write", "fsync"] * 2  # no folder fsync
    del rec.ops[:]
    j.replace([{"t": "game", "n": 2}])
    assert [op.kind for op in rec.ops] == ["write", "fsync", "write", "fsync", "rename",
                                           "rename", "sync_dir"]
    assert not (tmp_path / "d" / "g.journal.tmp").exists()


def test_only_the_latest_input_marks_stay_in_memory(tmp_path):
    """A game of thousands of throws: the marks in memory stay bounded (the soak's growth),
    the files keep them all, and a re-sent recent input is still recognised."""
    from companion.storage.journal import recover
    from companion.storage.journal.core import MARKS_KEPT

    j = Journal(tmp_path / "g.journal")
    j.append({"t": "game"})
    for seq in range(1, 3 * MARKS_KEPT):
        j.append({"t": "roll", "v": 1}, mark={"src": "dice", "boot": "B", "seq": seq})
    assert len(j.marks) == MARKS_KEPT
    again = Journal(tmp_path / "g.journal")
    again.load()
    assert len(again.marks) == MARKS_KEPT
    assert again.seen({"src": "dice", "boot": "B", "seq": 3 * MARKS_KEPT - 1})
    assert not again.seen({"src": "dice", "boot": "B", "seq": 3 * MARKS_KEPT})
    found = recover((tmp_path / "g.journal").read_bytes(), None)
    assert len(found.marks) == 3 * MARKS_KEPT - 1


@pytest.mark.parametrize("apart", [10, 100, 10_000])
def test_an_input_already_journaled_is_recognised_however_many_inputs_came_since(apart):
    """A board that sends an old boot's inputs again (a replaying device on the line) after
    ``apart`` newer ones: each is still in the journal, live and after a restart; the next
    input of that boot and any input of a boot never seen are not."""
    path = Path("/j/g.journal")
    storage = MemStorage()
    j = Journal(path, storage=storage)
    j.append({"t": "game"})
    old = [{"src": "dice", "boot": "OLD", "seq": seq} for seq in (1, 2, 3)]
    for mark in old:
        j.append({"t": "roll", "v": 2}, mark=mark)
    for seq in range(1, apart + 1):
        j.append({"t": "roll", "v": 3}, mark={"src": "dice", "boot": "NEW", "seq": seq})
    again = Journal(path, storage=storage)
    assert len(again.load()) == 1 + 3 + apart
    for journal in (j, again):
        assert all(journal.seen(m) for m in old)
        assert journal.seen({"src": "dice", "boot": "NEW", "seq": apart})
        assert not journal.seen({"src": "dice", "boot": "OLD", "seq": 4})
        assert not journal.seen({"src": "dice", "boot": "OTHER", "seq": 1})
        assert not journal.seen({"src": "pads", "boot": "OLD", "seq": 1})
        assert len(journal.marks) <= 64  # what stays in memory is bounded


def test_an_undone_input_is_forgotten_and_the_inputs_before_it_are_not(tmp_path):
    j = Journal(tmp_path / "g.journal")
    j.append({"t": "game"})
    for seq in range(1, 101):
        j.append({"t": "roll", "v": 1}, mark={"src": "dice", "boot": "B", "seq": seq})
    j.pop()
    assert not j.seen({"src": "dice", "boot": "B", "seq": 100})
    assert j.seen({"src": "dice", "boot": "B", "seq": 99})
    assert j.seen({"src": "dice", "boot": "B", "seq": 1})
