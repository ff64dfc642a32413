"""What the table's voice says of a Gobbit game: a settled ruling, and the game as a whole
(a long ◀ in the voice mode)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.gobbit.engine.describe import call_sentences, ruling_sentences, why_sentence
from companion.games.gobbit.engine.judge import Kind

if TYPE_CHECKING:
    from companion.games.gobbit.facts import GobbitFacts


def ruling_words(facts: GobbitFacts, calls: bool = True) -> str:
    """A settled ruling of the virtual deck: how each contested place was decided (with
    ``calls``: the voice mode), then what it does to the piles and why a foul was one (the
    verdict screen's sentences)."""
    ruling = facts.ruling
    if ruling is None:
        return ""
    how = [s for c in ruling.calls for s in call_sentences(ruling, c.target)] if calls else []
    tops = dict(facts.judged_tops)
    why = [why_sentence(v, tops) for v in ruling.verdicts if v.kind in (Kind.FOUL, Kind.MISTAKE)]
    return " ".join([*how, *ruling_sentences(ruling), *why])


def situation(facts: GobbitFacts) -> str:
    """Every seat's deck and pile, the graveyard, who turns next and the last verdict."""
    st = facts.state
    parts = []
    for seat in st.seats:
        deck, pile = len(st.decks[seat - 1]), len(st.piles[seat - 1])
        parts.append(f"Hráč {seat}: balíček {deck}, kupička {pile}")
    turn = "" if st.over else f" Otáčí hráč {st.turn}."
    ruling = ruling_words(facts) if not facts.provisional else ""
    last = f" Poslední verdikt: {ruling}" if ruling else ""
    return "; ".join(parts) + f"; hřbitov {len(st.graveyard)}." + turn + last
