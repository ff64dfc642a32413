"""The Gobbit judge: one moment of play in, a ruling out (pure, no I/O).

A :class:`Situation` is what the table shows at one moment (the top card of
every seat's face-up pile, the ghosts, whether there is a graveyard, the rules
and the expert condition in force, a live gorilla) plus the touches of that
moment with their times.  :func:`judge` says which touches were attacks,
defences or fouls, which piles move where, and who won a "Gobbit!" race.

The decisions the rules leave open are numbered in ``docs/players/gobbit-rules.md``
(written ``D<n>`` in the comments here); each is pinned by a test.  The text
form of a situation (``companion judge gobbit``) is described in ``docs/dev/gobbit-judge.md``.

Touch times come from sensors that are not exact: ``Situation.uncertainty_ms`` is
the timing uncertainty of the pads in use (D28).  Two touches closer than that
are never put in order by their times: they count as simultaneous and D2's order
of precedence decides.  Every decided pile (and the race) gets a :class:`Call`
saying how it was decided, with the gap and the margin, for the screens.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.engines.errors import NotationError
from companion.games.gobbit.engine.cards import (
    CHAMELEON,
    COLOURS,
    GORILLA,
    MOSQUITO,
    RULE_ORDER,
    SNAKE,
    Card,
    Condition,
    Rule,
    format_card,
    parse_card,
    parse_condition,
)

GRAVEYARD = "g"
"""The target letter of the graveyard."""
TO_GRAVEYARD = "graveyard"
"""The destination of a pile that goes to the graveyard (as in the JSON ruling)."""

FACE_DOWN = Card(GORILLA, None)
"""A graveyard top card whose face nobody entered: the judge only asks whether there is a
graveyard (its cards lie face down; the expert condition is given separately)."""

Target = int | str
"""A seat number (that seat's pile) or :data:`GRAVEYARD`."""
Destination = int | str
"""A seat number (the pile goes under that seat's deck) or :data:`TO_GRAVEYARD`."""


@dataclass(frozen=True, slots=True)
class Touch:
    """``seat`` touched ``target`` (a seat's pile or ``"g"``) at ``ms`` milliseconds."""

    seat: int
    target: Target
    ms: float

    def __str__(self) -> str:
        return f"t{self.seat}>{self.target}@{_ms_text(self.ms)}"


def _ms_text(ms: float) -> str:
    return f"{ms:.6f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Situation:
    """One moment of play.

    ``tops`` maps every seat that takes part to the top card of its face-up pile
    (``None``: no face-up card).  Ghost seats are listed in ``ghosts`` and have no
    pile.  ``graveyard`` is its top card, ``None`` when there is no graveyard yet.
    ``expert`` is the expert condition in force, ``gorilla`` the seat whose
    gorilla attack is live.
    """

    tops: Mapping[int, Card | None]
    ghosts: frozenset[int] = frozenset()
    graveyard: Card | None = None
    rules: frozenset[str] = frozenset()
    expert: Condition | None = None
    gorilla: int | None = None
    touches: tuple[Touch, ...] = ()
    uncertainty_ms: float = 0.0
    """The pads' timing uncertainty (D28): touch times closer than this are simultaneous."""
    race: bool | None = None
    """Whether the "Gobbit!" condition held, as the table says (the referee with real cards,
    which does not know every top card); ``None``: the cards decide (:func:`gobbit_in_force`)."""

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.tops) | self.ghosts))


class Kind(StrEnum):
    """What a touch was."""

    ATTACK = "attack"
    DEFENCE = "defence"
    FOUL = "foul"
    MISTAKE = "ghost-mistake"  # a ghost touched what it may not (FAQ 15)
    RACE = "race"  # a graveyard touch in a "Gobbit!" race
    IGNORED = "ignored"


class Why(StrEnum):
    """Why a touch is what it is."""

    CHAIN = "chain"  # attack along the food chain
    GORILLA = "gorilla"  # the live gorilla attacks any pile
    PAIR = "pair"  # a ghost (or anyone under all-ghosts) attacks a pair
    THREATENED = "threatened"  # defence: something could take this pile
    CANNOT_EAT = "cannot-eat"
    NO_CARD = "no-card"  # attacking without a face-up card of one's own
    EMPTY = "empty"  # touching a place with no face-up card
    NOT_THREATENED = "not-threatened"  # defence when nothing can take the pile
    GRAVEYARD = "graveyard"  # the graveyard touched without a race
    EXPLODING = "exploding"  # expert: mosquitoes must not be touched
    NOT_A_PAIR = "not-a-pair"  # a ghost attacked a card that is not a pair
    RACE = "race"
    RACE_ONLY = "race-only"  # during a race only the graveyard counts
    GHOST_IN_RACE = "ghost-in-race"  # ghosts do not race
    GHOST_NOTHING = "ghost-nothing"  # a ghost touched the graveyard or an empty place
    REPEAT = "repeat"  # the same seat touched the same target again


@dataclass(frozen=True, slots=True)
class Call:
    """How the first touch on one target (a pile, or ``"g"`` in a race) was decided.

    ``first`` decided it; ``rival`` is the closest other contender (``None``: there was
    none), ``gap_ms`` = ``rival.ms - first.ms`` (negative when the rival's time was
    earlier but D2 gave ``first`` precedence).  ``simultaneous``: the contenders were
    closer than ``uncertainty_ms``, so the sensors cannot tell who was first and D2's
    precedence decided (D28); otherwise ``first`` was first by ``margin_ms`` more than
    the uncertainty.
    """

    target: Target
    first: Touch
    rival: Touch | None
    gap_ms: float | None
    simultaneous: bool
    uncertainty_ms: float

    @property
    def margin_ms(self) -> float | None:
        """By how much a clear gap exceeds the uncertainty (``None``: no rival, or a tie)."""
        if self.gap_ms is None or self.simultaneous:
            return None
        return self.gap_ms - self.uncertainty_ms


@dataclass(frozen=True, slots=True)
class Verdict:
    """One touch and what it was; ``decisive``: it decided its pile or won the race;
    ``tied``: it was simultaneous with the decisive touch (D28), so precedence decided."""

    touch: Touch
    kind: Kind
    why: Why
    decisive: bool = False
    tied: bool = False


@dataclass(frozen=True)
class Ruling:
    """The judge's answer.

    ``fouls``: seats that fouled, ascending (D1).  ``piles``: every face-up pile that
    moves, source seat -> destination seat or ``"graveyard"`` (ascending source).
    ``buried``: fouling seats without a face-up card, whose deck's top card goes to
    the graveyard instead (FAQ 14, D3).  ``gobbit``: the winner of a race.
    ``race``: the "Gobbit!" condition held.  ``verdicts``: every touch in time order.
    ``calls``: how each contested target was decided (D28), ascending by target.
    """

    fouls: tuple[int, ...] = ()
    piles: Mapping[int, Destination] = field(default_factory=dict)
    gobbit: int | None = None
    buried: tuple[int, ...] = ()
    race: bool = False
    verdicts: tuple[Verdict, ...] = ()
    calls: tuple[Call, ...] = ()

    def call(self, target: Target) -> Call | None:
        """The call on ``target`` (a seat's pile or ``"g"``), if it was contested."""
        return next((c for c in self.calls if c.target == target), None)

    def to_json(self) -> dict[str, Any]:
        """The contract of ``companion judge gobbit``: exactly fouls, piles and gobbit."""
        return {
            "fouls": list(self.fouls),
            "piles": {str(s): d for s, d in sorted(self.piles.items())},
            "gobbit": self.gobbit,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


# --- the food chain --------------------------------------------------------------

_CHAIN: dict[Condition | None, dict[str, frozenset[str]]] = {
    None: {SNAKE: frozenset({CHAMELEON}), CHAMELEON: frozenset({MOSQUITO})},
    Condition.REVERSED: {MOSQUITO: frozenset({CHAMELEON}), CHAMELEON: frozenset({SNAKE})},
    Condition.SNAKES_EAT_MOSQUITOES: {SNAKE: frozenset({CHAMELEON, MOSQUITO}),
                                      CHAMELEON: frozenset({MOSQUITO})},
}


def eats(attacker: Card, victim: Card, expert: Condition | None = None) -> bool:
    """Whether ``attacker``'s animal may eat ``victim``'s under the expert condition."""
    if attacker.species == GORILLA or victim.species == GORILLA:
        return False  # the gorilla is outside the chain (its attack is separate)
    if expert is Condition.EXPLODE and MOSQUITO in (attacker.species, victim.species):
        return False
    chain = _CHAIN.get(expert, _CHAIN[None])
    if victim.species not in chain.get(attacker.species, frozenset()):
        return False
    if expert is Condition.ANY_COLOUR:
        return True
    if expert is Condition.DIFFERENT_COLOURS:
        return attacker.colour != victim.colour
    return attacker.colour == victim.colour


def gobbit_in_force(sit: Situation) -> bool:
    """The race condition: rule on, a graveyard exists, mosquitoes of all three colours show."""
    if Rule.GOBBIT.value not in sit.rules or sit.graveyard is None:
        return False
    shown = {c.colour for c in sit.tops.values() if c is not None and c.species == MOSQUITO}
    return shown >= set(COLOURS)


def pairs(sit: Situation) -> frozenset[int]:
    """Seats whose top card is identical to another seat's top card (D14)."""
    out: set[int] = set()
    faces = [(s, c.face) for s, c in sit.tops.items() if c is not None and s not in sit.ghosts]
    for s, face in faces:
        if any(t != s and f == face for t, f in faces):
            out.add(s)
    return frozenset(out)


class _Table:
    """Derived facts of one situation, computed once per ruling."""

    def __init__(self, sit: Situation) -> None:
        self.sit = sit
        self.seats = sit.seats
        self.index = {s: i for i, s in enumerate(self.seats)}
        self.pairs = pairs(sit)
        self.ghost_attackers = bool(sit.ghosts) and Rule.GHOST.value in sit.rules
        self.all_ghosts = sit.expert is Condition.ALL_GHOSTS

    def top(self, seat: int) -> Card | None:
        return None if seat in self.sit.ghosts else self.sit.tops.get(seat)

    def exploding(self, card: Card | None) -> bool:
        return (self.sit.expert is Condition.EXPLODE and card is not None
                and card.species == MOSQUITO)

    def threatened(self, victim: int) -> bool:
        """Whether anyone could take ``victim``'s pile now (a defence is then allowed)."""
        card = self.top(victim)
        if card is None or self.exploding(card):
            return False
        for seat in self.seats:
            if seat == victim or seat in self.sit.ghosts:
                continue
            if self.sit.gorilla == seat:
                return True
            other = self.top(seat)
            if other is not None and eats(other, card, self.sit.expert):
                return True
        return victim in self.pairs and (self.ghost_attackers or self.all_ghosts)

    def clockwise(self, frm: int, seat: int) -> int:
        """Seats clockwise from ``frm`` to ``seat`` (1 for the next seat)."""
        n = len(self.seats)
        return (self.index[seat] - self.index[frm]) % n or n


def _classify(t: _Table, touch: Touch) -> tuple[Kind, Why]:
    sit = t.sit
    seat, target = touch.seat, touch.target
    if seat in sit.ghosts:
        if target == GRAVEYARD or target == seat:
            return Kind.IGNORED, Why.GHOST_NOTHING
        assert isinstance(target, int)
        victim = t.top(target)
        if victim is None:
            return Kind.IGNORED, Why.GHOST_NOTHING
        if t.exploding(victim):
            return Kind.MISTAKE, Why.EXPLODING
        if target in t.pairs:
            return Kind.ATTACK, Why.PAIR
        return Kind.MISTAKE, Why.NOT_A_PAIR
    if target == GRAVEYARD:
        return Kind.FOUL, Why.GRAVEYARD
    assert isinstance(target, int)
    victim = t.top(target)
    if target == seat:
        if victim is None:
            return Kind.FOUL, Why.EMPTY
        if t.exploding(victim):
            return Kind.FOUL, Why.EXPLODING
        if t.threatened(seat):
            return Kind.DEFENCE, Why.THREATENED
        return Kind.FOUL, Why.NOT_THREATENED
    if victim is None:
        return Kind.FOUL, Why.EMPTY
    if t.exploding(victim):
        return Kind.FOUL, Why.EXPLODING
    if sit.gorilla == seat:
        return Kind.ATTACK, Why.GORILLA
    own = t.top(seat)
    if own is not None and eats(own, victim, sit.expert):
        return Kind.ATTACK, Why.CHAIN
    if t.all_ghosts and target in t.pairs:
        return Kind.ATTACK, Why.PAIR
    return Kind.FOUL, (Why.NO_CARD if own is None else Why.CANNOT_EAT)


def validate(sit: Situation) -> None:
    """Raise :class:`NotationError` (one sentence) unless the situation makes sense."""
    if len(sit.seats) < 2:
        raise NotationError("A Gobbit table needs at least two seats: name them as 1:CARD or 1:-.")
    for seat in sit.seats:
        if seat < 1:
            raise NotationError(f"Seats are numbered from 1, not {seat}.")
    for seat in sorted(sit.ghosts):
        if sit.tops.get(seat) is not None:
            raise NotationError(f"Seat {seat} is a ghost and cannot have a face-up card.")
    unknown = set(sit.rules) - set(RULE_ORDER)
    if unknown:
        raise NotationError(f"Unknown rule {sorted(unknown)[0]!r}: known are "
                          f"{', '.join(RULE_ORDER)}.")
    if sit.ghosts and Rule.GHOST.value not in sit.rules:
        raise NotationError("Ghosts take part only with the ghost rule: add rules:ghost.")
    if sit.gorilla is not None:
        if Rule.GORILLA.value not in sit.rules:
            raise NotationError("A live gorilla needs the gorilla rule: add rules:gorilla.")
        top = sit.tops.get(sit.gorilla)
        if top is None or top.species != GORILLA:
            raise NotationError(f"Seat {sit.gorilla} has no gorilla on top of its pile.")
    if sit.expert is not None and sit.graveyard is None:
        raise NotationError("An expert condition comes from the graveyard: add graveyard:CARD.")
    seats = set(sit.seats)
    for touch in sit.touches:
        if touch.seat not in seats:
            raise NotationError(f"Touch {touch}: seat {touch.seat} is not at the table.")
        if touch.target != GRAVEYARD and touch.target not in seats:
            raise NotationError(f"Touch {touch}: there is no seat {touch.target}.")
        if not math.isfinite(touch.ms):  # any origin will do: only differences matter
            raise NotationError(f"Touch {touch}: the time must be a number of milliseconds.")
    if sit.race and Rule.GOBBIT.value not in sit.rules:
        raise NotationError("A \"Gobbit!\" race needs the gobbit rule: add rules:gobbit.")
    if not math.isfinite(sit.uncertainty_ms) or sit.uncertainty_ms < 0:
        raise NotationError("The timing uncertainty must be zero or more milliseconds.")


def _in_time_order(touches: Iterable[Touch]) -> list[Touch]:
    # D2: equal times are ordered by seat and target, never by the order they were listed.
    return sorted(touches, key=lambda x: (x.ms, x.seat, str(x.target)))


def _decide(target: Target, candidates: Sequence[int], touches: Sequence[Touch],
            precedence: Callable[[int], tuple[int, ...]],
            uncertainty: float) -> tuple[int, Call, list[int]]:
    """The first of ``candidates`` (indexes into ``touches``, in time order), its call and
    the candidates simultaneous with it (empty when it was clearly first).

    D28: every candidate closer than ``uncertainty`` to the earliest one is simultaneous
    with it (exactly equal times always are); among simultaneous touches D2's
    ``precedence`` decides.  A candidate at least ``uncertainty`` after the earliest one
    was certainly not first.
    """
    earliest = touches[candidates[0]].ms
    tied = [i for i in candidates
            if touches[i].ms == earliest or round(touches[i].ms - earliest, 6) < uncertainty]
    first = min(tied, key=precedence)
    others = [i for i in (tied if len(tied) > 1 else candidates) if i != first]
    rival = others[0] if others else None
    gap = touches[rival].ms - touches[first].ms if rival is not None else None
    call = Call(target, touches[first], touches[rival] if rival is not None else None, gap,
                len(tied) > 1, uncertainty)
    return first, call, (tied if len(tied) > 1 else [])


def judge(sit: Situation) -> Ruling:
    """Rule on one moment of play (see ``docs/players/gobbit-rules.md`` for every decision)."""
    validate(sit)
    t = _Table(sit)
    touches = _in_time_order(sit.touches)
    seen: set[tuple[int, Target]] = set()
    repeats: set[int] = set()
    for i, touch in enumerate(touches):
        key = (touch.seat, touch.target)
        if key in seen:
            repeats.add(i)  # D4: only a seat's first touch of a target counts
        seen.add(key)

    if gobbit_in_force(sit) if sit.race is None else sit.race:
        return _race(t, touches, repeats)

    kinds: dict[int, tuple[Kind, Why]] = {}
    for i, touch in enumerate(touches):
        kinds[i] = (Kind.IGNORED, Why.REPEAT) if i in repeats else _classify(t, touch)
    fouls = sorted({touches[i].seat for i, (k, _w) in kinds.items() if k is Kind.FOUL})
    decisive: set[int] = set()
    piles: dict[int, Destination] = {}
    calls: list[Call] = []
    tied: set[int] = set()
    for victim in t.seats:
        if t.top(victim) is None:
            continue
        contenders = [i for i, touch in enumerate(touches)
                      if touch.target == victim
                      and kinds[i][0] in (Kind.ATTACK, Kind.DEFENCE, Kind.MISTAKE)]

        def precedence(i: int, victim: int = victim) -> tuple[int, int]:
            # D2: among simultaneous touches the owner (defence, a ghost's mistake) comes
            # first, then attackers clockwise from the victim.
            owner_side = 0 if kinds[i][0] in (Kind.DEFENCE, Kind.MISTAKE) else 1
            return (owner_side, t.clockwise(victim, touches[i].seat))

        first: int | None = None
        if contenders:
            first, call, together = _decide(victim, contenders, touches, precedence,
                                            sit.uncertainty_ms)
            calls.append(call)
            tied.update(together)
        kind, why = kinds[first] if first is not None else (Kind.IGNORED, Why.REPEAT)
        if victim in fouls:
            # FAQ 12: a fouled pile goes to the graveyard unless a predator takes it first.
            if first is not None and kind is Kind.ATTACK and why is Why.CHAIN:
                piles[victim] = touches[first].seat
                decisive.add(first)
            else:
                piles[victim] = TO_GRAVEYARD
                if first is not None and kind is Kind.ATTACK:
                    decisive.add(first)
            continue
        if first is None:
            continue
        decisive.add(first)
        if kind in (Kind.DEFENCE, Kind.MISTAKE):
            piles[victim] = victim  # a defence, or FAQ 15: the ghost's target keeps its pile
        elif why is Why.CHAIN:
            piles[victim] = touches[first].seat
        else:
            piles[victim] = TO_GRAVEYARD  # the gorilla's and the ghosts' victims
    buried = tuple(s for s in fouls if s not in piles and t.top(s) is None)
    verdicts = tuple(Verdict(touch, *kinds[i], i in decisive, i in tied)
                     for i, touch in enumerate(touches))
    return Ruling(tuple(fouls), dict(sorted(piles.items())), None, buried, False, verdicts,
                  tuple(calls))


def _race(t: _Table, touches: list[Touch], repeats: set[int]) -> Ruling:
    """FAQ 16-19: only the graveyard counts; the first non-ghost to touch it wins
    (simultaneous touches, D28: the lower seat number, D2)."""
    kinds: list[tuple[Kind, Why]] = []
    for i, touch in enumerate(touches):
        if i in repeats:
            kinds.append((Kind.IGNORED, Why.REPEAT))
        elif touch.target != GRAVEYARD:
            kinds.append((Kind.IGNORED, Why.RACE_ONLY))
        elif touch.seat in t.sit.ghosts:
            kinds.append((Kind.IGNORED, Why.GHOST_IN_RACE))
        else:
            kinds.append((Kind.RACE, Why.RACE))
    racers = [i for i, (kind, _why) in enumerate(kinds) if kind is Kind.RACE]
    first: int | None = None
    calls: tuple[Call, ...] = ()
    together: list[int] = []
    if racers:
        first, call, together = _decide(GRAVEYARD, racers, touches,
                                        lambda i: (touches[i].seat,), t.sit.uncertainty_ms)
        calls = (call,)
    verdicts = tuple(Verdict(touch, *kinds[i], i == first, i in together)
                     for i, touch in enumerate(touches))
    winner = touches[first].seat if first is not None else None
    piles: dict[int, Destination] = {}
    if winner is not None:
        piles = {s: s for s in t.seats if t.top(s) is not None}
    return Ruling((), piles, winner, (), True, verdicts, calls)


# --- the text form ---------------------------------------------------------------


def _shown(token: str) -> str:
    """A token quoted for an error message (a very long one is cut)."""
    return repr(token if len(token) <= 40 else token[:40] + "…")


def _number(text: str) -> bool:
    """Digits only, and few enough to be a seat (no giant numbers reach ``int``)."""
    return text.isascii() and text.isdigit() and len(text) <= 3


def _seat_number(text: str, token: str) -> int:
    if not _number(text) or int(text) < 1:
        raise NotationError(f"Bad token {_shown(token)}: seats are numbers 1, 2, 3, ...")
    return int(text)


def _milliseconds(text: str, token: str) -> float:
    """A non-negative decimal number of milliseconds (``uncertainty:30``, ``@7.5``)."""
    if len(text) > 15 or not text.replace(".", "", 1).isdigit() or not text.isascii():
        raise NotationError(f"Bad token {_shown(token)}: write a number of milliseconds, "
                            "e.g. uncertainty:30.")
    return float(text)


def _parse_touch(token: str) -> Touch:
    bad = (f"Bad touch {_shown(token)}: write tSEAT>TARGET@MS, e.g. t2>3@120 "
           "(TARGET a seat number or g for the graveyard).")
    body = token[1:]
    who, sep, rest = body.partition(">")
    where, sep2, when = rest.partition("@")
    if not sep or not sep2 or not _number(who) or len(when) > 15:
        raise NotationError(bad)
    target: Target
    if where == GRAVEYARD:
        target = GRAVEYARD
    elif _number(where):
        target = int(where)
    else:
        raise NotationError(bad)
    try:
        ms = float(when)
    except ValueError:
        raise NotationError(bad) from None
    if not math.isfinite(ms) or ms < 0 or not when.replace(".", "", 1).isdigit():
        raise NotationError(bad)
    return Touch(int(who), target, ms)


def parse_situation(text: str | Sequence[str]) -> Situation:
    """Parse the SITUATION of ``docs/dev/gobbit-judge.md`` (a string or its tokens)."""
    tokens = (text if isinstance(text, str) else " ".join(text)).split()
    if not tokens:
        raise NotationError("The situation is empty: name the seats, e.g. '1:Sb 2:Cb t1>2@0'.")
    tops: dict[int, Card | None] = {}
    ghosts: set[int] = set()
    graveyard: Card | None = None
    rules: set[str] = set()
    expert: Condition | None = None
    gorilla: int | None = None
    uncertainty = 0.0
    race: bool | None = None
    touches: list[Touch] = []
    once: set[str] = set()
    for token in tokens:
        if token.startswith("t") and ">" in token:
            touches.append(_parse_touch(token))
            continue
        key, sep, value = token.partition(":")
        if not sep:
            raise NotationError(f"Unknown token {_shown(token)}: see docs/dev/gobbit-judge.md for the syntax.")
        if key.isascii() and key.isdigit():
            seat = _seat_number(key, token)
            if seat in tops:
                raise NotationError(f"Seat {seat} is named twice.")
            tops[seat] = None if value == "-" else parse_card(value, allow_back=False)
            continue
        if key in once:
            raise NotationError(f"The {key}: token is given twice.")
        once.add(key)
        if key == "ghost":
            for part in value.split(","):
                ghosts.add(_seat_number(part, token))
        elif key == "graveyard":
            graveyard = None if value == "-" else parse_card(value, allow_back=False)
        elif key == "rules":
            rules.update(n for n in value.split(",") if n and n != "-")  # checked by validate()
        elif key == "expert":
            expert = parse_condition(value)
        elif key == "gorilla":
            gorilla = _seat_number(value, token)
        elif key == "uncertainty":
            uncertainty = _milliseconds(value, token)
        elif key == "race":
            if value not in ("yes", "no"):
                raise NotationError(f"Bad token {_shown(token)}: write race:yes or race:no.")
            race = value == "yes"
        else:
            raise NotationError(f"Unknown token {_shown(token)}: see docs/dev/gobbit-judge.md for the syntax.")
    sit = Situation(
        tops={s: tops.get(s) for s in sorted(set(tops) | ghosts)},
        ghosts=frozenset(ghosts), graveyard=graveyard, rules=frozenset(rules),
        expert=expert, gorilla=gorilla, touches=tuple(touches), uncertainty_ms=uncertainty,
        race=race)
    validate(sit)
    return sit


def format_situation(sit: Situation) -> str:
    """The text form of a situation (parses back to the same situation)."""
    parts = [f"{s}:{format_card(c, back=False) if c is not None else '-'}"
             for s, c in sorted(sit.tops.items()) if s not in sit.ghosts]
    if sit.ghosts:
        parts.append("ghost:" + ",".join(str(s) for s in sorted(sit.ghosts)))
    if sit.graveyard is not None:
        parts.append("graveyard:" + format_card(sit.graveyard, back=False))
    if sit.rules:
        parts.append("rules:" + ",".join(r for r in RULE_ORDER if r in sit.rules))
    if sit.expert is not None:
        parts.append(f"expert:{sit.expert.value}")
    if sit.gorilla is not None:
        parts.append(f"gorilla:{sit.gorilla}")
    if sit.uncertainty_ms:
        parts.append(f"uncertainty:{_ms_text(sit.uncertainty_ms)}")
    if sit.race is not None:
        parts.append(f"race:{'yes' if sit.race else 'no'}")
    parts += [str(t) for t in sit.touches]
    return " ".join(parts)
