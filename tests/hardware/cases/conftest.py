"""Shared set-up of the printable cases' tests: the CAD libraries (skipped with a reason when
they are not installed: `make cases-check` installs them) and the models, built once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "hardware" / "cases"
FIXTURE = Path(__file__).resolve().parent / "hat_fixture.kicad_pcb"
FIXTURE_PADS = Path(__file__).resolve().parent / "hat_fixture_pads.json"

CAD_LIBRARIES = ("manifold3d", "trimesh", "sexpdata", "rtree", "matplotlib")


def require_cad() -> None:
    """Skip the calling test module, saying why, when a CAD library is missing."""
    for name in CAD_LIBRARIES:
        pytest.importorskip(name, reason=f"the cases' CAD library {name} is not installed: "
                                         "`make cases-check` installs it (pip: .[cases])")

if str(CASES) not in sys.path:
    sys.path.insert(0, str(CASES))


@pytest.fixture(scope="session")
def fixture_layout():  # type: ignore[no-untyped-def]
    from casecad.hat_layout import layout_from_board
    from casecad.kicad_board import read_board
    return layout_from_board(read_board(FIXTURE))


@pytest.fixture(scope="session", params=["fixture board", "project's board"])
def layout(request, fixture_layout):  # type: ignore[no-untyped-def]
    """The fixture board's layout, and the project's (hardware/hat/hat.kicad_pcb)."""
    if request.param == "fixture board":
        return fixture_layout
    from casecad.build import load_layout
    return load_layout()[0]


@pytest.fixture(scope="session")
def box_parts(layout):  # type: ignore[no-untyped-def]
    from casecad.box import build_box
    return build_box(layout)


@pytest.fixture(scope="session")
def die_parts():  # type: ignore[no-untyped-def]
    from casecad.die import build_die
    return build_die()


@pytest.fixture(scope="session")
def pad_parts():  # type: ignore[no-untyped-def]
    from casecad.pads import build_pads
    return build_pads()
