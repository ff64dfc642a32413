"""Referee mode with real cards: the touch log, the dispute and its ruling, "Gobbit!" races.

One path through the screens, the same at every dispute:

* **log** (the latest touches): ● opens the dispute over the latest moment, ▶ its
  "Gobbit!" race (only with the Gobbit rule);
* **questions**, only when the ruling needs cards nobody entered for this moment: each
  is answered with one press, its answers listed with their buttons (the attacker's and
  the pile's card as one pair, ``◀ had → chameleon``, then their colour; a single seat's
  card by animal and colour; whether the "Gobbit!" condition held);
* **the ruling** (who touched first, by how much, what happens): ● confirms it and goes
  back to the log, ▶ shows more (the judge's call, the other touches, why, the cards),
  ◀ opens the card editor;
* **the card editor**: ◀ "hotovo" leaves it in one press, ● changes the marked card (the
  same questions), ▶ goes to the next one.

Every screen's last line (or its answer lines) says what ◀ ● ▶ do there.  The cards are
asked per moment: a new dispute starts with no top card known (between two disputes the
players flip), while whether a graveyard exists and the expert condition are kept.  A
seat whose card is not known counts as having none.

Which cards a ruling needs: those of the seats that touched and of the piles touched;
when the pile's owner alone touched it (a defence nobody attacked), every seat's, as
anybody's animal could have threatened it.  Every ruling comes from the same judge as
``companion judge gobbit``.

Inputs: :meth:`RefereeModel.on_pad_event` (from :class:`~companion.devices.pads.gpio.SlapPads`)
and :meth:`RefereeModel.on_button` (``"left"``, ``"select"``, ``"right"``).
Output: :meth:`RefereeModel.screen`, drawn by :func:`companion.ui.screens.render`.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.engines.errors import NotationError
from companion.games.gobbit.engine.cards import (
    CHAMELEON,
    COLOURS,
    GORILLA,
    MOSQUITO,
    SNAKE,
    Card,
    Condition,
    Rule,
)
from companion.games.gobbit.engine.describe import (
    CONDITION_LABEL,
    call_sentences,
    card_name,
    kind_word,
    ruling_sentences,
    why_sentence,
)
from companion.games.gobbit.engine.judge import (
    FACE_DOWN,
    GRAVEYARD,
    Kind,
    Ruling,
    Situation,
    Touch,
    Verdict,
    eats,
    judge,
)
from companion.games.gobbit.referee import words as W
from companion.games.gobbit.referee.ask import Answer, Question
from companion.inputs.events import Button
from companion.inputs.pads import Pad, PadLink, PadReleased, PadSignal, PadStuck, PadTouch
from companion.ui.referee import BODY_LINES, WIDTH, Screen, paginate, row, title_with, wrap

MOMENT_GAP_MS = 1500.0
"""Touches further apart than this belong to different moments (different disputes)."""

GHOST_CARD = "ghost"
"""The answer "duch" for a seat's card (the seat is a ghost and has no pile)."""


class Mode(StrEnum):
    LOG = "log"
    DISPUTE = "dispute"  # the ruling over the contested pile of a moment
    RACE = "race"  # the ruling over a "Gobbit!" race
    ASK = "ask"  # a question the ruling needs
    CARDS = "cards"  # the card editor


def seat_label(seat: int) -> str:
    return f"H{seat}"


def target_label(target: int | str, short: bool = False) -> str:
    if target == GRAVEYARD:
        return "hřb." if short else "hřbitov"
    return seat_label(int(target))


def delta_text(ms: float) -> str:
    """``+7 ms``, ``+1,5 ms``, ``+2,3 s`` (Czech decimal comma)."""
    return "+" + gap_text(ms)


def gap_text(ms: float) -> str:
    """``7,0 ms``, ``40 ms``, ``2,3 s`` (Czech decimal comma)."""
    if ms < 10:
        text = f"{ms:.1f} ms"
    elif ms < 1000:
        text = f"{ms:.0f} ms"
    else:
        text = f"{ms / 1000:.1f} s"
    return text.replace(".", ",")


def touch_of(event: PadTouch) -> Touch:
    return Touch(event.seat, event.target, event.ms)


def moments(touches: Sequence[Touch], gap_ms: float = MOMENT_GAP_MS) -> list[list[Touch]]:
    """Split time-ordered touches where two neighbours are more than ``gap_ms`` apart."""
    out: list[list[Touch]] = []
    for t in touches:
        if out and t.ms - out[-1][-1].ms <= gap_ms:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def contested_pile(moment: Iterable[Touch]) -> int | None:
    """The pile most seats touched in the moment (ties: the one touched last)."""
    seats: dict[int, set[int]] = {}
    last: dict[int, float] = {}
    for t in moment:
        if t.target == GRAVEYARD:
            continue
        pile = int(t.target)
        seats.setdefault(pile, set()).add(t.seat)
        last[pile] = max(last.get(pile, t.ms), t.ms)
    if not seats:
        return None
    return max(seats, key=lambda p: (len(seats[p]), last[p], -p))


def first_line(touches: Sequence[Touch], uncertainty_ms: float) -> str:
    """Who touched a place first and by how much (``H2 první o 40 ms``), or that the pads
    cannot tell (``H2 a H3 současně``, D28): the raw edge times, before any ruling."""
    seats: list[Touch] = []
    for t in sorted(touches, key=lambda t: (t.ms, t.seat)):
        if all(t.seat != s.seat for s in seats):
            seats.append(t)
    if not seats:
        return ""
    first = seats[0]
    if len(seats) == 1:
        return W.ALONE.format(first=seat_label(first.seat))
    together = [t for t in seats if t.ms - first.ms < uncertainty_ms or t.ms == first.ms]
    if len(together) > 1:
        names = [seat_label(t.seat) for t in together]
        text = ", ".join(names[:-1]) + " a " + names[-1]
        line = W.TOGETHER.format(seats=text)
        return line if len(line) <= WIDTH else W.TOGETHER.format(seats=" ".join(names))
    return W.FIRST_BY.format(first=seat_label(first.seat), gap=gap_text(seats[1].ms - first.ms))


@dataclass
class TableCards:
    """What the players entered for the moment in dispute (``tops``: only the seats they
    entered) and what lasts between moments (the graveyard, the expert condition)."""

    tops: dict[int, Card | None] = field(default_factory=dict)
    ghosts: set[int] = field(default_factory=set)
    graveyard: bool = False
    condition: Condition | None = None
    condition_known: bool = False
    gorilla: int | None = None
    race: bool | None = None
    """Whether the "Gobbit!" condition held in this moment, as the table answered."""
    pair_declined: bool = False
    """The table chose "jiné karty" for this moment: ask the cards one by one."""

    def known(self, seat: int) -> bool:
        return seat in self.tops or seat in self.ghosts

    def forget_moment(self) -> None:
        self.tops.clear()
        self.ghosts.clear()
        self.gorilla = None
        self.race = None
        self.pair_declined = False


def touch_rows(touches: Sequence[Touch], verdicts: dict[Touch, Verdict] | None = None,
               with_target: bool = False) -> list[str]:
    """``1. H2 útok      0 ms``: order, seat, what it was, time after the first touch."""
    rows = []
    first = touches[0].ms if touches else 0.0
    for i, t in enumerate(touches, 1):
        left = f"{i}. {seat_label(t.seat)}"
        if with_target:  # no room for the order number: the times show it
            left = f"{seat_label(t.seat)}→{target_label(t.target, short=True)}"
        v = verdicts.get(t) if verdicts else None
        if v is not None:
            left += f" {kind_word(v)}"
        right = "0 ms" if i == 1 else delta_text(t.ms - first)
        if len(left) + 1 + len(right) > WIDTH:  # "současně" and "+0,4 ms": the unit closes up
            right = right.replace(" ", "")
        rows.append(row(left, right))
    return rows


def verdict_sentences(ruling: Ruling, target: int | str) -> list[str]:
    """The ruling's sentences, the one about the disputed pile first."""
    if target not in ruling.piles or len(ruling.piles) == 1:
        return ruling_sentences(ruling)
    assert isinstance(target, int)
    own = tuple(f for f in ruling.fouls if f == target)
    first = ruling_sentences(replace(ruling, piles={target: ruling.piles[target]}, fouls=own,
                                     buried=()))
    rest = ruling_sentences(replace(ruling, piles={s: d for s, d in ruling.piles.items()
                                                   if s != target},
                                    fouls=tuple(f for f in ruling.fouls if f != target)))
    return first + rest


MomentKey = tuple[float, int, str]


def _key(moment: Sequence[Touch]) -> MomentKey | None:
    if not moment:
        return None
    t = moment[0]
    return (t.ms, t.seat, str(t.target))


class RefereeModel:
    """Referee mode with real cards for a ``seats``-seat table."""

    def __init__(self, seats: int, *, rules: Iterable[str] = (), expert: bool = False,
                 moment_gap_ms: float = MOMENT_GAP_MS, log_size: int = 64,
                 uncertainty_ms: float = 0.0) -> None:
        if not 2 <= seats <= 8:
            raise ValueError("A Gobbit table has 2 to 8 seats.")
        self.seats = seats
        self.uncertainty_ms = uncertainty_ms
        """The pads' timing uncertainty (D28): closer touches are simultaneous; the host
        sets it from the pads' timing budget (declared or calibrated)."""
        self.rules = frozenset(rules)
        self.expert = expert
        self.moment_gap_ms = moment_gap_ms
        self.log_size = log_size
        self.log: list[Touch] = []
        self.stuck: set[Pad] = set()
        self.link_down = False
        """The pad hub's line is down (no touches can come)."""
        self.cards = TableCards()
        self.mode = Mode.LOG
        self.page = 0
        self.cursor = 0
        self.subject: MomentKey | None = None
        """The moment in dispute (its first touch); the cards entered belong to it."""
        self.verdict_mode = Mode.DISPUTE
        """Where the questions lead: the dispute or the race."""
        self.question: Question[Any] | None = None
        self._then = "ruling"
        """Where an answered question leads: on to the ruling, or back to the editor."""
        self._back = Mode.DISPUTE
        self.confirmed: list[str] = []
        """The rulings the table confirmed with ●, latest last (for the phone's event list)."""

    # --- inputs -----------------------------------------------------------------

    def on_pad_event(self, event: PadSignal) -> None:
        if isinstance(event, PadTouch):
            if not (1 <= event.seat <= self.seats) or not (
                    event.target == GRAVEYARD or 1 <= int(event.target) <= self.seats):
                return
            touch = touch_of(event)
            bisect.insort(self.log, touch, key=lambda t: (t.ms, t.seat, str(t.target)))
            del self.log[:-self.log_size]
        elif isinstance(event, PadStuck):
            self.stuck.add(event.pad)
        elif isinstance(event, PadReleased):
            self.stuck.discard(event.pad)
        elif isinstance(event, PadLink):
            self.link_down = not event.up
            if event.up:
                self.stuck.clear()  # the hub tells again what is held

    @property
    def race_rule(self) -> bool:
        return Rule.GOBBIT.value in self.rules

    def on_button(self, button: Button) -> None:
        if self.mode is Mode.LOG:
            if button == Button.SELECT:
                self.open_dispute()
            elif button == Button.RIGHT and self.race_rule:
                self.open_race()
        elif self.mode in (Mode.DISPUTE, Mode.RACE):
            pages = self._pages()
            if button == Button.RIGHT:
                self.page = (self.page + 1) % len(pages)
            elif button == Button.SELECT:
                self.confirm()
            elif button == Button.LEFT and self._has_ruling():
                self.open_cards()
            elif button == Button.LEFT:
                self.to_log()
        elif self.mode is Mode.ASK:
            assert self.question is not None
            answer = self.question.press(button)
            if answer is not None:
                self._answer(self.question.topic, answer.value)
        elif self.mode is Mode.CARDS:
            self._edit(button)

    def to_log(self) -> None:
        self.mode, self.page, self.question = Mode.LOG, 0, None

    def confirm(self) -> None:
        """● on the ruling: the table accepts it; back to the log."""
        if self._has_ruling():
            moment = self.subject_moment()
            verdict = self.ruling(moment)
            self.confirmed.append(" ".join(ruling_sentences(verdict)))
            del self.confirmed[:-8]
        self.to_log()

    def open_dispute(self) -> None:
        """The dispute over the latest moment (its race when only the graveyard was touched)."""
        moment = self.latest_moment()
        race = bool(moment) and contested_pile(moment) is None and self.race_rule and any(
            t.target == GRAVEYARD for t in moment)
        self._open(Mode.RACE if race else Mode.DISPUTE)

    def open_race(self) -> None:
        self._open(Mode.RACE)

    def _open(self, mode: Mode) -> None:
        key = _key(self.latest_moment())
        if key != self.subject:
            if self.subject is not None:
                self.cards.forget_moment()  # between two disputes the players flipped cards
            self.subject = key
        self.verdict_mode = mode
        self._proceed()

    def open_cards(self) -> None:
        """The card editor (from a ruling): ◀ leaves it, back to that ruling."""
        self._back = self.mode if self.mode in (Mode.DISPUTE, Mode.RACE) else self.verdict_mode
        self.mode, self.cursor = Mode.CARDS, 0

    # --- the judge ----------------------------------------------------------------

    def latest_moment(self) -> list[Touch]:
        groups = moments(self.log, self.moment_gap_ms)
        return groups[-1] if groups else []

    def subject_moment(self) -> list[Touch]:
        """The touches of the moment in dispute (the latest one when none is)."""
        groups = moments(self.log, self.moment_gap_ms)
        for g in reversed(groups):
            if _key(g) == self.subject:
                return g
        return groups[-1] if groups else []

    def situation(self, touches: Iterable[Touch] = ()) -> Situation:
        """The entered cards and the given touches, as the judge reads them (a seat whose
        card was not entered has none)."""
        c = self.cards
        ghost_rule = Rule.GHOST.value in self.rules
        ghosts = frozenset(c.ghosts) if ghost_rule else frozenset()
        tops = {s: (None if s in ghosts else c.tops.get(s)) for s in range(1, self.seats + 1)}
        condition = c.condition if self.expert else None
        graveyard = FACE_DOWN if (c.graveyard or condition is not None) else None
        gorilla = c.gorilla
        top = tops.get(gorilla) if gorilla is not None else None
        if Rule.GORILLA.value not in self.rules or top is None or top.species != GORILLA:
            gorilla = None  # a gorilla attack is live only with a gorilla on that pile
        race = c.race if self.race_rule else None
        if race and graveyard is None:
            graveyard = FACE_DOWN  # the table says it was a race: there is a graveyard
        return Situation(tops=tops, ghosts=ghosts, graveyard=graveyard, rules=self.rules,
                         expert=condition, gorilla=gorilla, touches=tuple(touches),
                         uncertainty_ms=self.uncertainty_ms, race=race)

    def ruling(self, touches: Iterable[Touch] | None = None) -> Ruling:
        """The judge's ruling on ``touches`` (default: the moment in dispute) with the cards."""
        return judge(self.situation(self.subject_moment() if touches is None else touches))

    def needed_seats(self, moment: Sequence[Touch]) -> list[int]:
        """The seats whose top card the ruling on ``moment`` needs, the pile's owner first."""
        if self.cards.race:
            return []  # a race: only who touched the graveyard first counts
        pile = contested_pile(moment)
        order: list[int] = [pile] if pile is not None else []
        for t in moment:
            for s in (t.seat, t.target):
                if isinstance(s, int) and s not in order:
                    order.append(s)
        lone_defence = all(t.seat == t.target for t in moment if t.target != GRAVEYARD) and \
            pile is not None and all(t.target != GRAVEYARD for t in moment)
        if lone_defence:  # nobody attacked: anyone's animal may have threatened the pile
            order += [s for s in range(1, self.seats + 1) if s not in order]
        return order

    def ready(self, moment: Sequence[Touch] | None = None) -> bool:
        """The ruling on the moment in dispute needs nothing more from the table."""
        if moment is not None and _key(moment) != self.subject:
            return False
        return self._next_question() is None

    def target(self, moment: Sequence[Touch]) -> int | str | None:
        """What the ruling on ``moment`` is about: the graveyard in a race, else the contested
        pile (the graveyard when nobody touched a pile); ``None``: nothing to rule on."""
        graveyard = any(t.target == GRAVEYARD for t in moment)
        if self.verdict_mode is Mode.RACE:
            return GRAVEYARD if graveyard else None
        pile = contested_pile(moment)
        return pile if pile is not None else (GRAVEYARD if graveyard else None)

    def _has_ruling(self) -> bool:
        return self.question is None and self.target(self.subject_moment()) is not None

    def shown_ruling(self) -> tuple[MomentKey, tuple[str, ...]] | None:
        """The ruling the verdict screen shows now, said as the virtual deck says its own: how
        the first touch was decided, then what happens (the disputed pile first), with the
        moment it is about; ``None`` off the verdict screens or while cards make no sense."""
        if self.mode not in (Mode.DISPUTE, Mode.RACE) or not self._has_ruling() \
                or self.subject is None:
            return None
        moment = self.subject_moment()
        target = self.target(moment)
        assert target is not None
        try:
            ruling = self.ruling(moment)
        except NotationError:
            return None
        return self.subject, (*call_sentences(ruling, target), *verdict_sentences(ruling, target))

    def summary(self) -> str:
        """The whole situation in sentences (a held ◀ in the voice mode): the latest moment's
        touches, the top cards entered, the graveyard, the last ruling confirmed.  How many
        cards each player has and whose flip it is stay with the real cards."""
        parts: list[str] = []
        moment = self.latest_moment()
        if moment:
            said = []
            for i, t in enumerate(moment):
                place = W.SAID_GRAVEYARD if t.target == GRAVEYARD else W.SAID_OWN_PILE \
                    if t.target == t.seat else W.SAID_PILE.format(seat=t.target)
                touch = W.SAID_TOUCH.format(seat=t.seat, place=place)
                said.append(touch if i == 0 else W.SAID_LATER.format(
                    touch=touch, gap=gap_text(t.ms - moment[0].ms)))
            parts.append(W.SAID_TOUCHES.format(touches=", ".join(said)))
        else:
            parts.append(W.NOBODY_YET)
        c = self.cards
        if c.tops or c.ghosts:
            cards = [W.SAID_CARD.format(seat=s, card=W.SAID_UNKNOWN if not c.known(s)
                                        else self._seat_value_text(s, short=False))
                     for s in range(1, self.seats + 1)]
            parts.append(W.SAID_CARDS.format(cards=", ".join(cards)))
        else:
            parts.append(W.SAID_NO_CARDS)
        parts.append(W.SAID_GRAVEYARD_YES if c.graveyard else W.SAID_GRAVEYARD_NO)
        parts.append(W.SAID_LAST_RULING.format(ruling=self.confirmed[-1]) if self.confirmed
                     else W.SAID_NO_RULING)
        parts.append(W.SAID_REAL_CARDS)
        return " ".join(parts)

    # --- the questions ------------------------------------------------------------------

    def _proceed(self) -> None:
        """Ask the next thing the ruling needs, or show the ruling."""
        self.question = self._next_question()
        if self.question is None:
            self.mode, self.page = self.verdict_mode, 0
        else:
            self.mode, self._then = Mode.ASK, "ruling"

    def _after_answer(self) -> None:
        if self._then == "editor":
            self.mode, self.question = Mode.CARDS, None
        else:
            self._proceed()

    def _next_question(self) -> Question[Any] | None:
        moment = self.subject_moment()
        c = self.cards
        graveyard_touched = any(t.target == GRAVEYARD for t in moment)
        if self.target(moment) is None:
            return None
        if self.expert and not c.condition_known:
            return self._condition_question()
        if self.race_rule and graveyard_touched and c.race is None and (
                self.verdict_mode is Mode.RACE or contested_pile(moment) is None):
            return Question(W.RACE_QUESTION_TITLE, (Answer(W.NO, False), Answer(W.YES, True)),
                            W.RACE_QUESTION_LEAD, topic=("race",))
        needed = [s for s in self.needed_seats(moment) if not c.known(s)]
        if not needed:
            return None
        return self._pair_question(moment) or self._seat_question(needed[0])

    def _answer(self, topic: tuple[Any, ...], value: Any) -> None:
        """Take the table's answer to the question on ``topic``."""
        c = self.cards
        kind = topic[0]
        if kind == "race":
            c.race = bool(value)
            c.graveyard = c.graveyard or c.race
        elif kind == "pair" and value is None:
            c.pair_declined = True
        elif kind == "pair":
            a, v = value
            self.question = Question(W.PAIR_COLOUR_TITLE,
                                     [Answer(W.COLOUR_NOUN[k], k) for k in COLOURS],
                                     (f"{W.ANIMAL[a]} → {W.ANIMAL[v]}",),
                                     topic=("pair-colour", *topic[1:], a, v))
            return
        elif kind == "pair-colour":
            _kind, attacker, pile, a, v = topic
            c.tops[attacker], c.tops[pile] = Card(a, value), Card(v, value)
        elif kind == "seat" and value in (SNAKE, CHAMELEON, MOSQUITO):
            self.question = Question(W.SEAT_TITLE.format(seat=topic[1]),
                                     [Answer(W.COLOUR_ADJ[k], k) for k in COLOURS],
                                     (W.ANIMAL[value],), topic=("seat-colour", topic[1], value))
            return
        elif kind == "seat":
            self._set_card(topic[1], Card(GORILLA, None) if value == GORILLA else value)
        elif kind == "seat-colour":
            self._set_card(topic[1], Card(topic[2], value))
        elif kind == "condition":
            c.condition, c.condition_known = value, True
            c.graveyard = c.graveyard or value is not None
        elif kind == "gorilla":
            c.gorilla = value
        self._after_answer()

    def _set_card(self, seat: int, card: Card | None | str) -> None:
        c = self.cards
        c.ghosts.discard(seat)
        if c.gorilla == seat:
            c.gorilla = None
        if card == GHOST_CARD:
            c.ghosts.add(seat)
            c.tops.pop(seat, None)
            return
        assert not isinstance(card, str)
        c.tops[seat] = card
        if card is not None and card.species == GORILLA:
            c.gorilla = seat  # a gorilla on top: its attack is live

    def _pairs(self) -> list[tuple[str, str]]:
        cond = self.cards.condition if self.expert else None
        if cond is Condition.DIFFERENT_COLOURS:
            return []
        animals = (SNAKE, CHAMELEON, MOSQUITO)
        return [(a, v) for a in animals for v in animals
                if eats(Card(a, "b"), Card(v, "b"), cond)][:2]

    def _pair_question(self, moment: Sequence[Touch]) -> Question[Any] | None:
        """The attacker's and the pile's card as one answer (``had → chameleon``), when both
        are unknown: then their colour.  ``jiné karty`` asks them one by one."""
        pile = contested_pile(moment)
        if pile is None or self.cards.pair_declined or self.cards.race:
            return None
        attacker = next((t.seat for t in moment if t.target == pile and t.seat != pile), None)
        pairs = self._pairs()
        if attacker is None or not pairs or self.cards.known(pile) or \
                self.cards.known(attacker):
            return None
        answers: list[Answer[tuple[str, str] | None]] = [
            Answer(f"{W.ANIMAL[a]} → {W.ANIMAL[v]}", (a, v)) for a, v in pairs]
        answers.append(Answer(W.PAIR_OTHER, None))
        return Question(W.PAIR_TITLE.format(attacker=attacker, pile=pile), answers,
                        (W.PAIR_LEAD,), topic=("pair", attacker, pile))

    def _seat_question(self, seat: int) -> Question[Any]:
        """A seat's top card: its animal, then (for had, chameleon, komár) its colour."""
        species: list[Answer[str | None]] = [Answer(W.ANIMAL[s], s)
                                              for s in (SNAKE, CHAMELEON, MOSQUITO)]
        if Rule.GORILLA.value in self.rules:
            species.append(Answer(W.ANIMAL[GORILLA], GORILLA))
        species.append(Answer(W.NO_CARD, None))
        if Rule.GHOST.value in self.rules:
            species.append(Answer(W.GHOST, GHOST_CARD))
        return Question(W.SEAT_TITLE.format(seat=seat), species, topic=("seat", seat))

    def _condition_question(self) -> Question[Condition | None]:
        answers: list[Answer[Condition | None]] = [Answer(W.CONDITION_NONE, None)]
        answers += [Answer(CONDITION_LABEL[k], k) for k in Condition]
        return Question(W.CONDITION_TITLE, answers, topic=("condition",))

    def _gorilla_question(self) -> Question[int | None]:
        answers: list[Answer[int | None]] = [Answer(W.GORILLA_NOBODY_ANSWER, None)]
        answers += [Answer(seat_label(s), s) for s in range(1, self.seats + 1)]
        return Question(W.GORILLA_TITLE, answers, topic=("gorilla",))

    # --- screens ---------------------------------------------------------------------

    def screen(self) -> Screen:
        if self.mode is Mode.ASK and self.question is not None:
            return self.question.screen()
        if self.mode is Mode.CARDS:
            return self._cards_screen()
        if self.mode in (Mode.DISPUTE, Mode.RACE):
            pages = self._pages()
            return pages[self.page % len(pages)]
        return self._log_screen()

    def _log_screen(self) -> Screen:
        lines: list[str] = []
        if self.link_down:
            lines.append(W.PADS_UNPLUGGED)
        if self.stuck:
            pad = min(self.stuck, key=lambda p: (p.seat, str(p.target)))
            more = f" +{len(self.stuck) - 1}" if len(self.stuck) > 1 else ""
            line = W.STUCK.format(pad=f"{seat_label(pad.seat)}→{target_label(pad.target)}{more}")
            if len(line) > WIDTH:
                line = W.STUCK.format(
                    pad=f"{seat_label(pad.seat)}→{target_label(pad.target, True)}{more}")
            lines.append(line)
        room = BODY_LINES - 1 - len(lines)
        recent = self.log[-room:] if self.log and room > 0 else []
        if not recent and not lines:
            lines += wrap(W.NOBODY_YET)[:room]
        for t in recent:
            i = self.log.index(t)
            gap = "" if i == 0 else delta_text(t.ms - self.log[i - 1].ms)
            lines.append(row(f"{seat_label(t.seat)}→{target_label(t.target)}", gap))
        lines.append(W.LOG_KEYS if self.race_rule else W.LOG_KEYS_NO_RACE)
        return Screen(title_with(W.LOG_TITLE, W.LOG_TITLE_RIGHT), tuple(lines))

    def _empty(self, title: str, text: str) -> list[Screen]:
        return [Screen(title, (*wrap(text)[:BODY_LINES - 1], W.EMPTY_KEYS))]

    def _pages(self) -> list[Screen]:
        moment = self.subject_moment()
        race_mode = self.verdict_mode is Mode.RACE
        target = self.target(moment)
        if target is None:
            if race_mode:
                return self._empty(W.RACE_TITLE, W.NO_RACE if moment else W.NOTHING_TO_RULE)
            return self._empty(W.DISPUTE_EMPTY_TITLE, W.NOTHING_TO_RULE)
        try:
            ruling = self.ruling(moment)
        except NotationError:
            return [Screen(W.CARDS_TITLE, (*wrap(W.CARDS_MAKE_NO_SENSE)[:2],
                                           W.VERDICT_KEYS_ONE_PAGE))]
        verdicts = {v.touch: v for v in ruling.verdicts}
        on_target = [t for t in moment if t.target == target]
        title = W.RACE_TITLE if race_mode else W.GRAVEYARD_TITLE if target == GRAVEYARD \
            else W.DISPUTE_TITLE.format(pile=target)
        head = [first_line(on_target, self.uncertainty_ms)]
        head += [line for s in verdict_sentences(ruling, target) for line in wrap(s)]
        sections: list[tuple[str, list[list[str]]]] = [(title, [[line] for line in head])]
        close = call_sentences(ruling, target)
        order = [[line] for line in touch_rows(on_target, verdicts)]
        sections.append((W.CALL_TITLE if close else W.ORDER_TITLE,
                         [wrap(s) for s in close] + order))
        others = [t for t in moment if t.target != target]
        if others:
            sections.append((W.OTHERS_TITLE,
                             [[line] for line in touch_rows(others, verdicts, True)]))
        sit = self.situation()
        why = [wrap(why_sentence(v, dict(sit.tops))) for v in ruling.verdicts
               if v.kind in (Kind.FOUL, Kind.MISTAKE)]
        if why:
            sections.append((W.WHY_TITLE, why))
        if not self.cards.race:
            sections.append((W.CARDS_TITLE, [[line] for line in self._card_lines()]))
        pages = paginate(sections, lines=BODY_LINES - 1)
        if any("…" in p.title for p in pages) and target != GRAVEYARD:  # "n/m" took the room
            sections[0] = (W.DISPUTE_SHORT_TITLE.format(pile=target), sections[0][1])
            pages = paginate(sections, lines=BODY_LINES - 1)
        keys = W.VERDICT_KEYS if len(pages) > 1 else W.VERDICT_KEYS_ONE_PAGE
        return [Screen(p.title, (*p.lines, keys)) for p in pages]

    def _card_lines(self) -> list[str]:
        c = self.cards
        lines = [f"{s}: {self._seat_value_text(s)}" for s in range(1, self.seats + 1)]
        lines.append(W.GRAVEYARD_LINE.format(
            state=W.GRAVEYARD_YES if c.graveyard else W.GRAVEYARD_NO))
        if self.expert:
            lines.append(CONDITION_LABEL[c.condition] if c.condition else W.NO_CONDITION)
        if Rule.GORILLA.value in self.rules:
            lines.append(W.GORILLA_LINE.format(
                who=W.GORILLA_SEAT.format(seat=c.gorilla) if c.gorilla else W.GORILLA_NOBODY))
        if self._race_field():
            lines.append(W.RACE_LINE.format(state=W.UNKNOWN_CARD if c.race is None else
                                            W.RACE_YES if c.race else W.RACE_NO))
        return lines

    def _race_field(self) -> bool:
        return self.race_rule and any(t.target == GRAVEYARD for t in self.subject_moment())

    def _seat_value_text(self, seat: int, short: bool = True) -> str:
        """A seat's entered top card (``short``: abbreviated to fit the screen's line)."""
        if seat in self.cards.ghosts:
            return W.GHOST
        if seat not in self.cards.tops:
            return W.UNKNOWN_CARD
        card = self.cards.tops[seat]
        if card is None:
            return W.NO_CARD
        name = card_name(card)
        return name if len(name) <= WIDTH - 3 or not short else card_name(card, short=True)

    # --- the card editor ---------------------------------------------------------------

    def fields(self) -> list[str]:
        out = [f"seat{s}" for s in range(1, self.seats + 1)] + ["graveyard"]
        if self.expert:
            out.append("expert")
        if Rule.GORILLA.value in self.rules:
            out.append("gorilla")
        if self._race_field():
            out.append("race")
        return out

    def _edit(self, button: Button) -> None:
        fields = self.fields()
        if button == Button.LEFT:  # "hotovo": back to the ruling (asking what it still needs)
            self.verdict_mode = self._back
            self._proceed()
        elif button == Button.RIGHT:
            self.cursor = (self.cursor + 1) % len(fields)
        elif button == Button.SELECT:
            name = fields[self.cursor]
            asked: Question[Any] | None = None
            if name.startswith("seat"):
                asked = self._seat_question(int(name[4:]))
            elif name == "graveyard":
                self.cards.graveyard = not self.cards.graveyard
            elif name == "expert":
                asked = self._condition_question()
            elif name == "gorilla":
                asked = self._gorilla_question()
            elif name == "race":
                self.cards.race = not self.cards.race
            if asked is not None:
                self.question, self.mode, self._then = asked, Mode.ASK, "editor"

    def _cards_screen(self) -> Screen:
        texts = self._card_lines()
        room = BODY_LINES - 1
        start = min(max(self.cursor - 1, 0), max(len(texts) - room, 0))
        shown = tuple(texts[start:start + room])
        return Screen(W.CARDS_TITLE, (*shown, W.EDITOR_KEYS), self.cursor - start)
