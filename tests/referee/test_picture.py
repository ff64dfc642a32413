"""The docs picture of the referee screens is made by the drawing code."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from companion.referee.picture import GAP, SCALE, example_screens, main, picture

ROOT = Path(__file__).resolve().parents[2]


def test_example_screens_show_log_dispute_close_call_and_virtual_table():
    screens = example_screens()
    assert [s.title.split()[0] for s in screens] == ["Rozhodčí", "Spor", "Kdo", "Na"]
    assert screens[1].lines[0].startswith("1. H2 stejně")
    assert "pod přesností čidel (±60 ms)" in " ".join(screens[2].lines)


def test_picture_size_and_the_committed_file(tmp_path):
    size = (2 * 128 * SCALE + 3 * GAP, 2 * 64 * SCALE + 3 * GAP)
    assert picture(example_screens()).size == size
    out = tmp_path / "referee.png"
    assert main([str(out)]) == 0
    assert Image.open(out).size == size
    assert Image.open(ROOT / "docs" / "img" / "referee.png").size == size
