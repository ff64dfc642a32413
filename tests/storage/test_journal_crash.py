"""Crash consistency of the journal, in the manner of ALICE and CrashMonkey.

A scripted game (Člověče, Gobbit, napij se) is played on the real file system through a
recording shim; then, for every crash point (every prefix of the persisted operations), every
file image a power cut can leave there is rebuilt (un-fsynced writes dropped or kept, the
write in flight torn at a byte or left as zeros, names not yet fsynced in their folder old or
new) and loaded: a load never raises, never loses a record whose call had returned, never
invents one, the repaired journal takes the next action, and a second power cut during that
repair changes nothing.  Torn offsets are sampled (line ends and their neighbours plus 12
random bytes a write); crash points are not.
"""

from __future__ import annotations

import logging

import pytest

from companion.storage.journal import Journal, OSStorage
from tests.storage.journal_support import (
    GAMES,
    MemStorage,
    Op,
    RecordingStorage,
    check_crashes,
    play,
)


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    """Thousands of loads each log a torn or damaged journal: not worth formatting here."""
    monkeypatch.setattr(logging.getLogger("companion.storage.journal"), "disabled", True)


# make test plays the first QUICK_STEPS actions of each scripted game (every kind of record
# and a checkpoint), make test-long the whole games
QUICK_STEPS = 15


@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.long)],
                         ids=["start", "whole"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_power_cut_loses_a_confirmed_action(game, whole, tmp_path):
    path = tmp_path / "game.journal"
    steps = GAMES[game]()
    played = play(steps if whole else steps[:QUICK_STEPS], path, OSStorage())
    assert Journal(path).load() == played.calls[-1][3]  # the real file holds the game
    result = check_crashes(played, path, seed=len(game), nested_every=40)
    assert result.violations == []
    assert result.points == len(played.ops) + 1 > (90 if whole else 30)
    assert result.repairs > 0 and result.repair_states > result.repairs / 40


def test_every_byte_of_every_write_of_a_short_game(tmp_path):
    """No sampling: each write torn at each of its bytes."""
    path = tmp_path / "game.journal"
    played = play(GAMES["clovece"]()[:12], path, MemStorage())
    result = check_crashes(played, path, sample=None, nested_every=None)
    assert result.violations == []
    torn = sum(len(op.data) for op in played.ops if op.kind == "write")
    assert result.states > 2 * torn


class _NoFsync(RecordingStorage):
    """A journal that returns before its data is durable: writes are never fsynced."""

    def write(self, path, offset, data):
        self.ops.append(Op("write", path, offset, bytes(data)))
        self.inner.write(path, offset, data)


class _NoDirFsync(RecordingStorage):
    def sync_dir(self, path):
        self.inner.sync_dir(path)


def _played_with(shim, steps, path):
    import companion.storage.journal as journal_module
    from tests.storage import journal_support

    real = journal_support.RecordingStorage
    journal_support.RecordingStorage = shim
    try:
        return journal_support.play(steps, path, MemStorage())
    finally:
        journal_support.RecordingStorage = real
        assert journal_module.Journal is Journal


@pytest.mark.parametrize("shim", [_NoFsync, _NoDirFsync])
def test_the_check_catches_a_journal_that_confirms_too_early(shim, tmp_path):
    path = tmp_path / "game.journal"
    played = _played_with(shim, GAMES["clovece"]()[:6], path)
    result = check_crashes(played, path, nested_every=None)
    assert any("expected" in v for v in result.violations)


@pytest.mark.parametrize("steps", [6, pytest.param(15, marks=pytest.mark.long)])
def test_a_power_cut_during_any_repair_of_a_short_game(steps, tmp_path):
    path = tmp_path / "game.journal"
    played = play(GAMES["gobbit"]()[:steps], path, MemStorage())
    # make test: a power cut during every fourth repair; make test-long: during every one
    result = check_crashes(played, path, nested_every=1 if steps > 6 else 4)
    assert result.violations == []
    assert result.repair_states > 5 * result.repairs


def test_the_check_replays_every_loaded_journal_through_its_game():
    from tests.storage.journal_support import clovece_game, replays

    header, *records = [s.arg for s in clovece_game()[:6]]
    journal = [header[0], *records]
    assert replays(journal) == ""
    assert "does not fit" in replays([header[0], {"t": "move", "from": "h"}])
