from __future__ import annotations

import logging

from companion.service.journal import Journal, decode, encode


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
    for cut in range(1, len(encode({"t": "roll", "v": 2}))):
        path.write_bytes(full[:-cut])
        with caplog.at_level(logging.WARNING):
            records = Journal(path).load()
        assert records == [{"t": "game"}]
        assert "torn" in caplog.text
        # the tail is cut off, so the next append starts on a clean line
        assert path.read_bytes() == encode({"t": "game"})


def test_a_damaged_middle_record_keeps_the_good_prefix(tmp_path, caplog):
    path = tmp_path / "g.journal"
    j = Journal(path)
    for v in (1, 2, 3):
        j.append({"v": v})
    data = path.read_bytes().replace(b'"v":2', b'"v":9')
    path.write_bytes(data)
    with caplog.at_level(logging.ERROR):
        assert Journal(path).load() == [{"v": 1}]
    assert "damaged" in caplog.text


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
