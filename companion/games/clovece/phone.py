"""Člověče's page for the phone view: a snapshot of a position (:mod:`companion.web.snapshot`),
built from the engine's values only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from companion.engines.czech import PLAYER_LOWER
from companion.games.clovece import svg as clovece_svg
from companion.games.clovece.engine.rules import Move, Position
from companion.games.clovece.facts import CloveceFacts
from companion.web.snapshot import Snapshot, Topic, colour_player, computer_names, tail

TITLE = "Člověče, nezlob se"


def position(pos: Position, *, events: Iterable[str] = (), throws: Sequence[int] = (),
            moved: Move | None = None, rules: Sequence[Topic] = (),
            names: Mapping[int, str] | None = None) -> Snapshot:
    """A Člověče position; ``throws`` the rolls of the turn so far or just played, ``moved``
    the last move (rung on the board), ``names`` colour -> a player's name."""
    if pos.winner is not None:
        status = f"Hra skončila, vyhrál {PLAYER_LOWER[pos.winner]}."
        turn = colour_player(pos.winner, names)
    else:
        turn = colour_player(pos.turn, names)
        status = f"Na tahu je {PLAYER_LOWER[pos.turn]}."
        if pos.tries:
            status = (f"Na tahu je {PLAYER_LOWER[pos.turn]}, hází o šestku "
                      f"už po {pos.tries + 1}. ze 3 pokusů.")
    return Snapshot("clovece", TITLE, status, clovece_svg.render(pos, moved),
                    turn, tuple(throws), tail(events), tuple(rules),
                    over=pos.winner is not None)



def from_facts(facts: CloveceFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    """The page of the host's facts (:meth:`CloveceFacts.snapshot`)."""
    return position(facts.pos, events=facts.events, throws=facts.throws, moved=facts.moved,
                    rules=rules, names=computer_names(facts.computer, facts.levels))
