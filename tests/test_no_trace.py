"""The session's check that tests leave no files outside their temporary folders (conftest)."""

from __future__ import annotations

from tests.conftest import _entries, new_traces


def test_a_new_path_in_a_watched_place_is_reported_with_its_place():
    before = {"the root folder": {"/bin", "/etc"}, "the checkout": {"a.txt"}}
    after = {"the root folder": {"/bin", "/etc", "/nonexistent"}, "the checkout": {"a.txt", "b.log"}}
    assert new_traces(before, after) == ["the root folder: /nonexistent", "the checkout: b.log"]


def test_nothing_new_is_nothing_reported_and_a_vanished_path_is_no_trace():
    assert new_traces({"the home folder": {"/h/a", "/h/b"}}, {"the home folder": {"/h/a"}}) == []


def test_a_folder_that_cannot_be_read_holds_nothing_new(tmp_path):
    (tmp_path / "x").write_text("")
    assert _entries(str(tmp_path)) == {str(tmp_path / "x")}
    assert _entries(str(tmp_path / "missing")) == set()
