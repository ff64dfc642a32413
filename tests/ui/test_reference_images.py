"""Screens compared pixel by pixel with reference images (tests/ui/reference/*.png).

After a deliberate change of the drawing, regenerate them with
``COMPANION_UPDATE_REFERENCES=1 .venv/bin/pytest tests/ui/test_reference_images.py``
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.games.clovece.engine.board import cell_of
from companion.games.clovece.engine.notation import parse_position
from companion.games.clovece.engine.rules import BLUE, GREEN
from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.games.gobbit.screens import RefereeView
from companion.ui.referee import Screen as RefereeScreen
from companion.ui.screens import render
from companion.ui.views import Choice, ListView, View

HERE = Path(__file__).parent / "reference"
POS = parse_position("r:5,17,h,f1 b:12,30,h,f2 g:22,h,h,h y:31,h,h,h turn:b")

CASES: dict[str, tuple[View, float]] = {
    "turn-choice": (CloveceTurnView(
        position=POS, colour=BLUE, player="Modrý", computer=False, roll=5,
        prompt="◀▶ vyber, ● ok",
        choices=(Choice("2.→7.", True), Choice("20.→25."), Choice("cíl 2→3")), selected=1,
        event="Modrý hodil 5.", words="Přední figurka z 20. na 25. pole.",
        blink=(cell_of(BLUE, 20), cell_of(BLUE, 25))), 0.0),
    "turn-computer": (CloveceTurnView(
        position=POS, colour=BLUE, player="Modrý", computer=True, roll=5, roll_virtual=True,
        prompt="Táhni za PC ●", choices=(Choice("2.→7.", True), Choice("20.→25.")),
        selected=0, event="Modrý (PC) hodil 5.",
        words="Zadní figurka z 2. na 7. pole, vyhodí zeleného.",
        blink=(cell_of(BLUE, 2), cell_of(BLUE, 7))), 0.0),
    "turn-manual-roll": (CloveceTurnView(
        position=POS, colour=BLUE, player="Modrý", computer=False, roll=None,
        prompt="◀ ▶ hod, ● ok", manual_roll=4, dice="lost", tries=1, tries_shown=True,
        event="Kostka odpojena: hod zadej tlačítky."), 0.0),
    "setup": (ListView("Nová hra: Člověče", ("Hra: Člověče", "Hráči: 4", "Červený: člověk",
                                               "Modrý: počítač", "Zelený: člověk",
                                               "Žlutý: člověk", "PC hází: sám",
                                               "▶ Začít hru"), 3), 0.0),
    "win": (CloveceWinView(GREEN, "Zelený", POS), 0.0),
    "referee": (RefereeView(RefereeScreen("Spor o kupičku H3 1/7",
                                          ("1. H2 útok       0 ms", "2. H3 pozdě   +7,0 ms"))),
                0.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_its_reference_image(name):
    view, t = CASES[name]
    image = render(view, t).convert("1")
    path = HERE / f"{name}.png"
    if os.environ.get("COMPANION_UPDATE_REFERENCES"):
        HERE.mkdir(exist_ok=True)
        image.save(path)
    reference = Image.open(path).convert("1")
    diff = ImageChops.difference(image.convert("L"), reference.convert("L"))
    assert diff.getbbox() is None, f"{name} differs from {path} in {diff.getbbox()}"
