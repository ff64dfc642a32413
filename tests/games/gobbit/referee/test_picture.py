"""The docs picture of the referee screens is made by the drawing code."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from companion.games.gobbit.referee.picture import GAP, SCALE, example_screens, main, picture

ROOT = Path(__file__).resolve().parents[4]


def test_example_screens_show_the_path_from_the_log_to_the_ruling_and_the_virtual_table():
    screens = example_screens()
    assert [s.title.split()[0] for s in screens] == ["Rozhodčí", "H2", "Barva", "Spor", "Na"]
    assert screens[1].lines[1] == "◀ had → chameleon"
    assert screens[3].lines[:3] == ("H2 a H3 současně", "Hráč 3 se ubránil a",
                                    "bere si svou kupičku.")


def test_picture_size_and_the_committed_file(tmp_path):
    size = (2 * 128 * SCALE + 3 * GAP, 3 * 64 * SCALE + 4 * GAP)
    assert picture(example_screens()).size == size
    out = tmp_path / "referee.png"
    assert main([str(out)]) == 0
    assert Image.open(out).size == size
    assert Image.open(ROOT / "docs" / "img" / "referee.png").size == size
