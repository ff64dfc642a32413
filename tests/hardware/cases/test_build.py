"""`make cases`: the committed STL files, manifest and pictures agree with the sources."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.hardware.cases.conftest import CASES, FIXTURE, require_cad

require_cad()

OUT = CASES / "out"
RENDERS = CASES / "renders"


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    from casecad.build import build_model
    return build_model()


def test_committed_stl_files_match_the_sources(model):
    import trimesh
    from casecad.build import print_pose, printed_parts
    from casecad.shapes import to_trimesh
    parts = printed_parts(model)
    assert sorted(p.stem for p in OUT.glob("*.stl")) == sorted(parts), \
        "run `make cases` and commit hardware/cases/out"
    for name, solid in parts.items():
        fresh = to_trimesh(print_pose(name, solid))
        committed = trimesh.load_mesh(OUT / f"{name}.stl")
        assert committed.is_watertight, name
        assert committed.volume == pytest.approx(fresh.volume, rel=1e-4), \
            f"{name}.stl is stale: run `make cases` and commit hardware/cases/out"
        assert committed.area == pytest.approx(fresh.area, rel=1e-4), name
        np.testing.assert_allclose(committed.bounds, fresh.bounds, atol=0.01, err_msg=name)


def test_committed_manifest_matches(model, tmp_path):
    from casecad.build import write_outputs
    fresh = write_outputs(model, tmp_path)
    committed = json.loads((OUT / "manifest.json").read_text(encoding="utf-8"))
    assert committed["hat_source"] == fresh["hat_source"]
    assert committed["die"]["balls"] == fresh["die"]["balls"]
    assert committed["die"]["offset_mm"] == pytest.approx(fresh["die"]["offset_mm"], abs=0.002)
    assert committed["buttons_mm"] == fresh["buttons_mm"]
    assert committed["oled_window_mm"] == fresh["oled_window_mm"]
    assert committed["die"]["offset_mm"] <= 0.5


def test_every_picture_is_committed():
    from casecad.build import RENDERS as NAMES
    assert sorted(p.stem for p in RENDERS.glob("*.png")) == sorted(NAMES)


def test_a_board_that_does_not_fit_is_one_sentence_and_exit_2(tmp_path, capsys):
    from casecad.build import main
    text = FIXTURE.read_text().replace("(at 156.63 82.23", "(at 126.63 82.23")
    assert text != FIXTURE.read_text()
    bad = tmp_path / "bad.kicad_pcb"
    bad.write_text(text)
    assert main(["--board", str(bad), "--out", str(tmp_path / "o"), "--no-renders"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cases: the board outline is") and err.count("\n") == 1
    assert main(["--board", str(tmp_path / "none.kicad_pcb"), "--out", str(tmp_path / "o"),
                 "--no-renders"]) == 2
    assert capsys.readouterr().err == (
        f"cases: there is no board file {tmp_path}/none.kicad_pcb (`make hardware` makes the "
        "HAT's)\n")


def test_the_projects_board_file_is_the_source(model):
    from casecad.build import load_layout
    assert model.hat_source == "hardware/hat/hat.kicad_pcb"
    layout, source = load_layout(FIXTURE)
    assert source.endswith("hat_fixture.kicad_pcb")
    assert layout.buttons[1] == pytest.approx((32.5, 8.5))
