from __future__ import annotations

from companion.engines import czech
from companion.games.clovece.engine import describe as clovece_describe
from companion.games.napij.engine import describe as napij_describe


def test_both_games_speak_of_the_colours_with_the_same_words():
    assert clovece_describe.PLAYER is czech.PLAYER is napij_describe.PLAYER
    assert napij_describe.PLAYER_GEN is czech.PLAYER_ACC


def test_every_form_has_four_colours_in_table_order():
    for name in ("PLAYER", "PLAYER_LOWER", "PLAYER_ACC", "PLAYER_DAT", "WITH_PLAYER",
                 "COLOUR_NAME", "MARK_NAME"):
        forms = getattr(czech, name)
        assert len(forms) == 4, name
    assert [w[:3].lower() for w in czech.PLAYER] == ["čer", "mod", "zel", "žlu"]
    assert czech.MARK_NAME == ("tečka", "kosočtverec", "pruh", "trojúhelník")
