"""Napij se's page for the phone view: a snapshot of a state (:mod:`companion.web.snapshot`)
with the drink ledger and the card drawn last.  It reads ``State`` fields only, never the
engine's event classes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from companion.engines.colours import COLOURS
from companion.engines.czech import MARK_NAME, PLAYER, PLAYER_LOWER
from companion.games.napij import svg as napij_svg
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.state import Phase, State
from companion.games.napij.facts import NapijFacts
from companion.web.snapshot import (
    LedgerRow,
    Snapshot,
    Topic,
    colour_player,
    computer_names,
    tail,
)

TITLE = "Člověče, napij se!"


def status_of(state: State) -> str:
    phase = state.phase
    if phase is Phase.OVER:
        assert state.winner is not None
        return f"Hra skončila, vyhrál {PLAYER_LOWER[state.winner]}."
    if phase is Phase.CHOOSE:
        assert state.pending is not None
        return f"{PLAYER[state.pending.colour]} vybírá, na čí figurku karta platí."
    who = PLAYER_LOWER[state.turn]
    if phase is Phase.PLAY:
        return f"Na tahu je {who} a táhne."
    if state.due(state.turn):
        return f"Na tahu je {who}, ale nejdřív musí vypít, co dluží."
    if state.debt(state.turn):  # incurred during this turn: drunk before the next one
        return f"Na tahu je {who} a hází kostkou; dluh vypije před svým příštím tahem."
    if state.with_bottle:
        return f"Na tahu je {who}, hází a hraje s láhví."
    return f"Na tahu je {who} a hází kostkou."


def state_page(state: State, *, events: Iterable[str] = (), throws: Sequence[int] | None = None,
          moved: Iterable[str] = (), card: int | None = None,
          tonight: Sequence[int] | Mapping[int, int] | None = None,
          rules: Sequence[Topic] = (), names: Mapping[int, str] | None = None) -> Snapshot:
    """A napij se state; ``throws`` the values to show (default: the turn's so far),
    ``moved`` field names to ring, ``card`` the number of the card drawn last (a
    card waiting for a choice wins), ``tonight`` drinks per colour since the box was
    switched on (default: this game's)."""
    deck = state.rules.deck
    number = state.pending.card if state.pending is not None else card
    card_text = None
    if number is not None and number in deck.by_number:
        card_text = f"Karta {number}: {deck.card(number).text}"
    ledger = []
    for c in state.colours:
        since = state.drunk[c]
        if tonight is not None:
            since = tonight.get(c, since) if isinstance(tonight, Mapping) else tonight[c]
        ledger.append(LedgerRow(COLOURS[c], (names or {}).get(c) or PLAYER[c], MARK_NAME[c],
                                state.owed[c], state.glasses[c], state.drunk[c], since,
                                debts_text(state.debts_of(c))))
    if state.winner is not None:
        turn = colour_player(state.winner, names)
    elif state.pending is not None:
        turn = colour_player(state.pending.colour, names)
    else:
        turn = colour_player(state.turn, names)
    return Snapshot("napij", TITLE, status_of(state),
                    napij_svg.render(state, moved), turn,
                    tuple(state.throws if throws is None else throws), tail(events),
                    tuple(rules), tuple(ledger), card_text, over=state.winner is not None)



def from_facts(facts: NapijFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    """The page of the host's facts (:meth:`NapijFacts.snapshot`)."""
    return state_page(facts.state, events=facts.events, throws=facts.throws, moved=facts.moved,
                      card=facts.card, tonight=facts.tonight or None, rules=rules,
                      names=computer_names(facts.computer, facts.levels))
