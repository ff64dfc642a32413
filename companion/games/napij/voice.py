"""What the table's voice says of a napij se game as a whole (a long ◀ in the voice mode)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engines.czech import PLAYER
from companion.games.napij.engine.places import piece_places

if TYPE_CHECKING:
    from companion.games.napij.facts import NapijFacts


def situation(facts: NapijFacts) -> str:
    """Where every colour's pieces are, and whose turn it is."""
    s = facts.state
    parts: list[str] = []
    for colour, pieces in enumerate(s.pieces):
        if pieces is None:
            continue
        parts.append(f"{PLAYER[colour]}: {', '.join(piece_places(s, colour))}")
    return "; ".join(parts) + f". Na tahu je {PLAYER[s.turn].lower()}."
