"""A one-line text form of a Gobbit game state (``docs/players/gobbit-rules.md``, "Notation").

    turn=2 rules=ghost,gorilla expert=yes gorilla=- strays=- ghosts=- out=- over=no
    | SbR,CrA/MyE | -/Cb | CyD/- | G

Fields first, then one ``|`` section per seat, ``DECK/PILE`` (the deck top card
first, the pile bottom card first, ``-`` when empty), and last the graveyard
(bottom card first).  Cards carry their back picture letter (``SbR``).  The
text parses back to the same state.
"""

from __future__ import annotations

from companion.engines.errors import NotationError
from companion.games.gobbit.engine.cards import RULE_ORDER, Card, format_card, parse_card
from companion.games.gobbit.engine.rules import MAX_SEATS, MIN_SEATS, State


def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(format_card(c) for c in cards) if cards else "-"


def _seats(seats: frozenset[int]) -> str:
    return ",".join(str(s) for s in sorted(seats)) if seats else "-"


def format_state(state: State) -> str:
    fields = [
        f"turn={state.turn}",
        "rules=" + (",".join(r for r in RULE_ORDER if r in state.rules) or "-"),
        "expert=" + ("yes" if state.expert else "no"),
        "gorilla=" + (str(state.gorilla) if state.gorilla is not None else "-"),
        "strays=" + _seats(state.strays),
        "ghosts=" + _seats(state.ghosts),
        "out=" + _seats(state.out),
        "over=" + ("yes" if state.over else "no"),
    ]
    sections = [" ".join(fields)]
    sections += [f"{_cards(d)}/{_cards(p)}" for d, p in zip(state.decks, state.piles, strict=True)]
    sections.append(_cards(state.graveyard))
    return " | ".join(sections)


def _parse_cards(text: str) -> tuple[Card, ...]:
    text = text.strip()
    if text == "-":
        return ()
    return tuple(parse_card(c) for c in text.split(","))


def _parse_seats(text: str, name: str, seats: int) -> frozenset[int]:
    if text == "-":
        return frozenset()
    out = set()
    for part in text.split(","):
        if not part.isdigit() or not 1 <= int(part) <= seats:
            raise NotationError(f"{name}= must list seats from 1 to {seats}, not {part!r}.")
        out.add(int(part))
    return frozenset(out)


def _yes_no(text: str, name: str) -> bool:
    if text not in ("yes", "no"):
        raise NotationError(f"{name}= must be yes or no, not {text!r}.")
    return text == "yes"


def parse_state(text: str) -> State:
    sections = [s.strip() for s in text.split("|")]
    seats = len(sections) - 2
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise NotationError(f"A state has fields, {MIN_SEATS} to {MAX_SEATS} seat sections and the "
                          "graveyard, separated by |.")
    fields: dict[str, str] = {}
    for part in sections[0].split():
        key, sep, value = part.partition("=")
        if not sep:
            raise NotationError(f"Bad field {part!r}: write name=value.")
        fields[key] = value
    needed = ("turn", "rules", "expert", "gorilla", "strays", "ghosts", "out", "over")
    for key in needed:
        if key not in fields:
            raise NotationError(f"The state lacks the field {key}=.")
    extra = set(fields) - set(needed)
    if extra:
        raise NotationError(f"Unknown field {sorted(extra)[0]}=.")
    if not fields["turn"].isdigit() or not 1 <= int(fields["turn"]) <= seats:
        raise NotationError(f"turn= must be a seat from 1 to {seats}.")
    rules = frozenset(r for r in fields["rules"].split(",") if r and r != "-")
    unknown = rules - set(RULE_ORDER)
    if unknown:
        raise NotationError(f"Unknown rule {sorted(unknown)[0]!r}.")
    gorilla = None
    if fields["gorilla"] != "-":
        gorillas = _parse_seats(fields["gorilla"], "gorilla", seats)
        if len(gorillas) != 1:
            raise NotationError("gorilla= names one seat or -.")
        gorilla = min(gorillas)
    decks, piles = [], []
    for sec in sections[1:-1]:
        deck, sep, pile = sec.partition("/")
        if not sep:
            raise NotationError(f"Bad seat section {sec!r}: write DECK/PILE.")
        decks.append(_parse_cards(deck))
        piles.append(_parse_cards(pile))
    return State(
        decks=tuple(decks), piles=tuple(piles), graveyard=_parse_cards(sections[-1]),
        turn=int(fields["turn"]), rules=rules, expert=_yes_no(fields["expert"], "expert"),
        gorilla=gorilla, strays=_parse_seats(fields["strays"], "strays", seats),
        ghosts=_parse_seats(fields["ghosts"], "ghosts", seats),
        out=_parse_seats(fields["out"], "out", seats), over=_yes_no(fields["over"], "over"))
