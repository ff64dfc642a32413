"""The state value: its phase follows from its fields, the deck modes, the ledger."""

from __future__ import annotations

from dataclasses import replace

from companion.games.napij.engine.rules import UNSHUFFLED, new_game
from companion.games.napij.engine.state import DeckMode, Pending, Phase, State
from tests.games.napij.engine.helpers import RULES, pos

R, B, GR, Y = 0, 1, 2, 3


def test_the_phase_follows_from_the_fields_in_order_of_precedence():
    st = pos("r:m20,p,p,p g:m30,p,p,p bottle:m60 turn:r")
    assert st.phase is Phase.THROW
    assert replace(st, throws=(6,)).phase is Phase.THROW
    assert replace(st, throws=(6, 3)).phase is Phase.PLAY
    assert replace(st, deck=()).phase is Phase.SHUFFLE
    assert replace(st, deck=(), physical=True).phase is Phase.THROW
    queued = replace(st, deck=(), physical=True, queue=((R, 0, 5),))
    assert queued.phase is Phase.DRAW
    assert replace(queued, pending=Pending(10, R, 0)).phase is Phase.CHOOSE
    assert replace(queued, winner=GR).phase is Phase.OVER


def test_new_games_in_each_deck_mode():
    ordered = new_game()
    assert ordered.deck == RULES.deck.numbers and ordered.deck_mode is DeckMode.VIRTUAL
    waiting = new_game(deck_order=UNSHUFFLED)
    assert waiting.phase is Phase.SHUFFLE and waiting.deck == ()
    physical = new_game(deck=DeckMode.PHYSICAL)
    assert physical.phase is Phase.THROW and physical.deck_mode is DeckMode.PHYSICAL
    assert physical.deck == () and physical.physical


def test_colours_and_debts():
    st: State = pos("r:p,p,p,p g:p,p,p,p turn:r owe:r2 glass:r1,g1")
    assert st.colours == (R, GR)
    assert st.debt(R) == 3 and st.debt(GR) == 1 and st.debt(B) == 0
