"""The scripted games: a moment, then a roll (or touches), then what it led to."""

from __future__ import annotations

import json

import pytest

from companion.games import samples


@pytest.mark.parametrize("name", sorted(samples.SCRIPTS))
def test_every_script_gives_json_able_snapshots_that_change(name):
    frames = samples.SCRIPTS[name]()
    assert len(frames) >= 3
    texts = [json.dumps(f.to_json(), ensure_ascii=False) for f in frames]
    assert len(set(texts)) == len(texts)
    assert {f.game for f in frames} == {"gobbit" if name == "referee" else name}
    assert -len(frames) <= samples.SHOWCASE[name] < len(frames)


def test_clovece_rolls_then_captures():
    before, rolled, moved = samples.clovece()
    assert rolled.throws == (3,) and rolled.events[-1] == "Červený hodil trojku."
    assert before.board.top == rolled.board.top
    assert moved.board.top != rolled.board.top and "moved-to" in moved.board.top
    assert "Červený vyhodil zeleného." in moved.events
    assert moved.turn is not None and moved.turn.colour == "b"


def test_napij_throws_then_plays():
    before, thrown, played = samples.napij()
    assert thrown.throws == (5,) and before.throws == ()
    assert 'data-where="m12"' in thrown.board.top and 'data-where="m17"' in played.board.top
    assert 'data-where="m12"' not in played.board.top
    assert played.ledger and played.card is not None


def test_gobbit_touches_are_ruled_then_applied():
    flipped, touched, ruled = samples.gobbit()
    assert flipped.touches is not None and flipped.touches.moment == ()
    assert touched.touches is not None and touched.touches.provisional
    assert [r.kind for r in touched.touches.moment] == ["útok", "pozdě"]
    assert ruled.touches is not None and not ruled.touches.provisional
    assert any("bere kupičku" in s for s in ruled.touches.ruling)


def test_referee_logs_three_touches():
    frames = samples.referee()
    assert [len(f.touches.log) for f in frames if f.touches] == [0, 1, 2, 3]
