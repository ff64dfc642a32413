"""Every text the product can show must be drawable by the chosen fonts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games.clovece.engine.describe import describe_event, explain
from companion.games.clovece.engine.rules import (
    Captured,
    Entered,
    EnteredGoal,
    Moved,
    PassReason,
    Reason,
    RollAgain,
    TryFailed,
    TurnPassed,
    Why,
    Won,
)
from companion.ui.fonts import (
    MISC_FIXED_5X8,
    TERMINUS,
    body_font,
    font_file,
    heading_font,
    missing_glyphs,
)

ROOT = Path(__file__).resolve().parents[2]
UI_GLOBS = ("companion/service/**/*.py", "companion/ui/*.py", "companion/games/gobbit/referee/*.py",
            "companion/engines/*/describe.py", "companion/engines/*/places.py",
            "companion/engines/czech.py",
            "companion/rules_text/*.py")
UI_SOURCES = sorted({str(p.relative_to(ROOT)) for g in UI_GLOBS for p in ROOT.glob(g)}
                    - {"companion/ui/fonts.py"})  # its private-use probe glyph is meant to miss
"""Every module whose strings can reach the OLED."""
CZECH_ALPHABET = "aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž"


def literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if not (node.value.startswith(("\n", "Pure", "The ", "A ", "Whether")) and len(node.value) > 60):
                out.append(node.value)
    return out


def all_event_texts() -> list[str]:
    events = [Entered(0), Moved(1, 38, 41), Captured(2, 3, 5), EnteredGoal(3, 40),
              RollAgain(0), TryFailed(1, 2), Won(2)]
    events += [TurnPassed(0, 1, r) for r in PassReason]
    texts = [describe_event(e) for e in events]
    texts += [explain(Reason(w, 0, 5, r, 1)) for w in Why for r in range(1, 7)]
    return texts


def test_the_chosen_fonts_are_the_debian_bitmap_fonts():
    assert font_file(body_font()) == MISC_FIXED_5X8
    assert font_file(heading_font()) == TERMINUS


@pytest.mark.parametrize("font", [body_font(), heading_font()], ids=["body", "heading"])
def test_every_czech_letter_is_in_the_font(font):
    letters = CZECH_ALPHABET + CZECH_ALPHABET.upper()
    assert missing_glyphs(font, letters) == set()


def test_the_check_itself_finds_a_missing_glyph():
    assert missing_glyphs(body_font(), "a漢") == {"漢"}


@pytest.mark.parametrize("source", UI_SOURCES)
def test_every_string_in_the_ui_code_can_be_drawn(source):
    for text in literals(ROOT / source):
        for font in (body_font(), heading_font()):
            assert missing_glyphs(font, text) == set(), (source, text)


def test_every_event_and_explanation_can_be_drawn():
    for text in all_event_texts():
        assert missing_glyphs(body_font(), text) == set(), text
