"""What the table's voice says of a Člověče game as a whole (a long ◀ in the voice mode)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engines.czech import PLAYER
from companion.games.clovece.engine.describe import field_where
from companion.games.clovece.engine.rules import HOUSE

if TYPE_CHECKING:
    from companion.games.clovece.facts import CloveceFacts

COUNT = ("žádná", "jedna", "dvě", "tři", "čtyři")
PIECES = ("figurek", "figurka", "figurky", "figurky", "figurky")


def situation(facts: CloveceFacts) -> str:
    """Where every colour's pieces are ("Červený: dvě figurky v domečku, jedna na 12. poli
    od startu, jedna v cíli 2; modrý: ...")."""
    parts: list[str] = []
    for colour, pieces in enumerate(facts.pos.pieces):
        if pieces is None:
            continue
        house = sum(1 for p in pieces if p == HOUSE)
        words = []
        if house:
            words.append(f"{COUNT[house]} {PIECES[house]} v domečku")
        for p in sorted((p for p in pieces if p != HOUSE), reverse=True):
            where = field_where(p)
            words.append(f"jedna {where} od startu" if where.startswith("na ") and p
                         else f"jedna {where}")
        who = PLAYER[colour] if not parts else PLAYER[colour].lower()
        parts.append(f"{who}: {', '.join(words)}")
    turn = f"Na tahu je {PLAYER[facts.pos.turn].lower()}."
    return "; ".join(parts) + ". " + turn
