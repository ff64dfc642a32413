"""Screen helpers: wrapping, titles with a right part, pages of blocks."""

from __future__ import annotations

from companion.ui.referee import BODY_LINES, WIDTH, Screen, paginate, row, title_with, wrap


def test_wrap_keeps_words_and_width():
    lines = wrap("Hráč 2 fauloval, jeho kupička jde na hřbitov.")
    assert lines == ["Hráč 2 fauloval, jeho", "kupička jde na", "hřbitov."]
    assert all(len(line) <= WIDTH for line in lines)
    assert wrap("") == [""]


def test_title_and_row_put_the_right_part_flush_right():
    assert title_with("Verdikt", "2/3") == "Verdikt" + " " * 11 + "2/3"
    assert len(row("H2→H3", "+7 ms")) == WIDTH
    assert title_with("Spor o kupičku hráče číslo 3", "1/9") .endswith("… 1/9")
    assert len(title_with("Spor o kupičku hráče číslo 3", "1/9")) == WIDTH


def test_paginate_never_splits_a_short_block_and_counts_pages():
    blocks = [["a1", "a2"], ["b1", "b2"], ["c1", "c2", "c3"]]
    pages = paginate([("T", blocks), ("U", [["u"]])])
    assert [p.lines for p in pages] == [("a1", "a2", "b1", "b2"), ("c1", "c2", "c3"), ("u",)]
    assert [p.title[-3:] for p in pages] == ["1/3", "2/3", "3/3"]
    assert all(len(p.lines) <= BODY_LINES for p in pages)


def test_a_block_longer_than_a_page_is_split():
    pages = paginate([("T", [[str(i) for i in range(6)]])])
    assert [len(p.lines) for p in pages] == [4, 2]


def test_one_page_has_no_counter():
    assert paginate([("Verdikt", [["x"]])]) == [Screen("Verdikt", ("x",))]
