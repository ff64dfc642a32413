"""The pads' timing budget: declared per pad type, calibrated and kept in the data folder."""

from __future__ import annotations

import json

import pytest

from companion.devices.pads.timing import (
    PAD_TYPES,
    TIMING_FILE,
    PadTiming,
    TimingBook,
    TimingFileError,
    declared,
    from_json,
    to_json,
)
from companion.inputs.pads import Pad

A, B = Pad(1, 2), Pad(2, "g")


def test_every_pad_type_declares_a_sourced_figure_and_a_config_key():
    assert PAD_TYPES["ttp223-fast"].uncertainty_ms == 60.0  # the datasheet's fast mode
    assert PAD_TYPES["ttp223-low-power"].uncertainty_ms == 220.0
    assert PAD_TYPES["padhub"].uncertainty_ms >= PAD_TYPES["padhub"].floor_ms > 0
    for kind in PAD_TYPES.values():
        assert kind.source and kind.config_key.endswith("_ms")
        assert kind.frontend in ("gpio", "hub", "mpr121")


def test_declared_figures_take_the_configuration_but_never_go_below_the_floor():
    assert declared("ttp223-fast").uncertainty_ms == 60.0
    assert declared("ttp223-fast", {"ttp223-fast": 45.0}).uncertainty_ms == 45.0
    assert declared("padhub", {"padhub": 0.2}).uncertainty_ms == PAD_TYPES["padhub"].floor_ms
    assert not declared("ttp223-fast").calibrated


def test_a_calibration_is_stored_takes_effect_and_is_read_back(tmp_path):
    path = tmp_path / TIMING_FILE
    book = TimingBook("ttp223-fast", path=path)
    heard: list[PadTiming] = []
    book.listeners.append(heard.append)
    assert book.current().uncertainty_ms == 60.0 and not book.current().calibrated
    new = book.store({A: 3.0, B: -3.0}, 7.5, 24, "2025-01-01T10:00:00")
    assert new.calibrated and new.uncertainty_ms == 7.5 and new.offset(A) == 3.0
    assert heard == [new] and book.current() == new
    again = TimingBook("ttp223-fast", path=path)
    assert again.current() == new
    assert json.loads(path.read_text())["offsets_ms"] == {"1>2": 3.0, "2>g": -3.0}


def test_a_second_calibration_adds_to_the_offsets_in_force(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE)
    book.store({A: 3.0, B: -3.0}, 7.5, 24)
    new = book.store({A: 0.5, B: -0.5}, 5.0, 24)  # measured on touches already corrected
    assert new.offset(A) == 3.5 and new.offset(B) == -3.5 and new.uncertainty_ms == 5.0


def test_a_calibration_of_another_pad_type_or_a_broken_file_is_not_used(tmp_path):
    path = tmp_path / TIMING_FILE
    TimingBook("padhub", path=path).store({A: 1.0}, 0.5, 12)
    book = TimingBook("ttp223-fast", path=path)
    assert book.current() == declared("ttp223-fast")
    assert "padhub" in book.problem
    hub = TimingBook("padhub", path=path)
    assert hub.current().uncertainty_ms == PAD_TYPES["padhub"].floor_ms  # 0.5 < one scan
    path.write_text("{not json")
    broken = TimingBook("ttp223-fast", path=path)
    assert broken.current() == declared("ttp223-fast") and "not usable" in broken.problem
    ignored = TimingBook("padhub", path=path, use_calibration=False)
    assert ignored.problem == "" and not ignored.current().calibrated


def test_nothing_changes_when_the_file_cannot_be_written(tmp_path):
    book = TimingBook("ttp223-fast", path=tmp_path / "missing" / TIMING_FILE)
    with pytest.raises(OSError):
        book.store({A: 1.0}, 5.0, 12)
    assert book.current() == declared("ttp223-fast")


@pytest.mark.parametrize("data,fragment", [
    ([], "not one this companion"),
    ({"version": 9}, "not one this companion"),
    ({"version": 1, "pad_type": "laser"}, "unknown pad type"),
    ({"version": 1, "pad_type": "padhub", "offsets_ms": []}, "no offsets"),
    ({"version": 1, "pad_type": "padhub", "offsets_ms": {"x": 1}}, "Bad pad name"),
    ({"version": 1, "pad_type": "padhub", "offsets_ms": {"1>2": "1"}}, "not a number"),
    ({"version": 1, "pad_type": "padhub", "offsets_ms": {}, "uncertainty_ms": -1}, "negative"),
])
def test_bad_calibration_files_are_one_sentence(data, fragment):
    with pytest.raises(TimingFileError, match=fragment):
        from_json(data)


def test_the_file_round_trips():
    timing = PadTiming("padhub", 1.25, {A: 0.5}, True, 30, "x")
    assert from_json(json.loads(json.dumps(to_json(timing)))) == timing
