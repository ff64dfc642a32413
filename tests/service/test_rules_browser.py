from __future__ import annotations

import pytest

from companion.games.clovece import rules_text as clovece
from companion.games.gobbit import rules_text as gobbit
from companion.games.napij import rules_text as napij
from companion.service.rules_browser import WHY, RulesBrowser, page_size, paginate
from companion.ui.fonts import body_font, heading_font, missing_glyphs
from companion.ui.screens import WIDTH
from companion.ui.views import ListView, MessageView

SEEDS = "/work/shared/seeds"


def test_pages_hold_whole_wrapped_lines_that_fit():
    pages = paginate("slovo " * 80)
    assert len(pages) > 1 and all(len(p) <= page_size() for p in pages)
    for page in pages:
        for line in page:
            assert body_font().getlength(line) <= WIDTH


def test_why_comes_first_when_given():
    b = RulesBrowser("Člověče", clovece.TOPICS, "Proto.")
    assert b.view().items[0] == WHY
    assert RulesBrowser("Člověče", clovece.TOPICS).view().items[0] == "Cíl hry"


def test_reading_and_going_back():
    b = RulesBrowser("Gobbit", gobbit.TOPICS)
    b.button("right")
    b.button("select")
    v = b.view()
    assert isinstance(v, MessageView) and v.title.startswith("Potravní řetězec")
    b.button("select")
    assert isinstance(b.view(), ListView) and b.view().selected == 1


@pytest.mark.parametrize("topics", [clovece.TOPICS, gobbit.TOPICS, napij.TOPICS],
                         ids=["clovece", "gobbit", "napij"])
def test_every_topic_can_be_drawn_and_is_our_own_wording(topics):
    from pathlib import Path

    seeds = " ".join(p.read_text("utf-8") for p in Path(SEEDS).glob("*.txt")) if Path(
        SEEDS).is_dir() else ""
    for title, text in topics:
        for font in (body_font(), heading_font()):
            assert missing_glyphs(font, title + text) == set()
        # no sentence of ours is a sentence of the rules sources
        for sentence in text.split(". "):
            if len(sentence) > 40 and seeds:
                assert sentence not in seeds, sentence
