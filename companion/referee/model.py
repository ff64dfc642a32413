"""Referee mode with real cards: the touch log, the dispute view, "Gobbit!" races.

The pads tell who touched what and when; the cards are on the table, so the
players enter the top cards with the buttons when they want a ruling (the
entered cards are remembered for the next dispute).  Every ruling comes from the
same judge as ``companion judge gobbit``.

Inputs: :meth:`RefereeModel.on_pad_event` (from :class:`~companion.hardware.pads.SlapPads`)
and :meth:`RefereeModel.on_button` (``"left"``, ``"select"``, ``"right"``).
Output: :meth:`RefereeModel.screen`, drawn by :func:`~companion.referee.draw.draw_referee`.

Buttons:

* log: ◀ enter cards, ● dispute, ▶ race;
* dispute and race: ▶ next page, ◀ back to the log, ● enter cards;
* cards: ◀ ▶ change the value, ● next field; ● on "Hotovo" goes back.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from companion.engines.errors import NotationError
from companion.engines.gobbit.cards import (
    COLOURS,
    GORILLA,
    Card,
    Condition,
    Rule,
)
from companion.engines.gobbit.describe import (
    CONDITION_LABEL,
    call_sentences,
    card_name,
    kind_word,
    ruling_sentences,
    why_sentence,
)
from companion.engines.gobbit.judge import (
    FACE_DOWN,
    GRAVEYARD,
    Kind,
    Ruling,
    Situation,
    Touch,
    Verdict,
    judge,
)
from companion.inputs.pads import Pad, PadLink, PadReleased, PadSignal, PadStuck, PadTouch
from companion.ui.referee import WIDTH, Screen, paginate, row, title_with, wrap

CARD_CHOICES: tuple[Card | None, ...] = (
    None,
    *(Card(s, c) for s in ("S", "C", "M") for c in COLOURS),
    Card(GORILLA, None),
)
"""The values ◀/▶ step through for a seat's top card (None: no face-up card)."""

MOMENT_GAP_MS = 1500.0
"""Touches further apart than this belong to different moments (different disputes)."""


class Mode(StrEnum):
    LOG = "log"
    DISPUTE = "dispute"
    RACE = "race"
    CARDS = "cards"


def seat_label(seat: int) -> str:
    return f"H{seat}"


def target_label(target: int | str, short: bool = False) -> str:
    if target == GRAVEYARD:
        return "hřb." if short else "hřbitov"
    return seat_label(int(target))


def delta_text(ms: float) -> str:
    """``+7 ms``, ``+1,5 ms``, ``+2,3 s`` (Czech decimal comma)."""
    if ms < 10:
        text = f"+{ms:.1f} ms"
    elif ms < 1000:
        text = f"+{ms:.0f} ms"
    else:
        text = f"+{ms / 1000:.1f} s"
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


@dataclass
class TableCards:
    """What the players entered with the buttons; remembered between disputes."""

    tops: dict[int, Card | None]
    ghosts: set[int] = field(default_factory=set)
    graveyard: bool = False
    condition: Condition | None = None
    gorilla: int | None = None


def _rows(lines: list[str]) -> list[list[str]]:
    return [[line] for line in lines]


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
        rows.append(row(left, right))
    return rows


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
        self.cards = TableCards({s: None for s in range(1, seats + 1)})
        self.mode = Mode.LOG
        self.page = 0
        self.cursor = 0
        self._back = Mode.LOG

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

    def on_button(self, button: str) -> None:
        if self.mode is Mode.LOG:
            {"left": self.open_cards, "select": self.open_dispute,
             "right": self.open_race}.get(button, lambda: None)()
        elif self.mode in (Mode.DISPUTE, Mode.RACE):
            if button == "right":
                self.page = (self.page + 1) % len(self._pages())
            elif button == "left":
                self.mode, self.page = Mode.LOG, 0
            elif button == "select":
                self.open_cards()
        elif self.mode is Mode.CARDS:
            self._edit(button)

    def open_dispute(self) -> None:
        self.mode, self.page = Mode.DISPUTE, 0

    def open_race(self) -> None:
        self.mode, self.page = Mode.RACE, 0

    def open_cards(self) -> None:
        self._back = self.mode if self.mode is not Mode.CARDS else Mode.LOG
        self.mode, self.cursor = Mode.CARDS, 0

    # --- the judge ----------------------------------------------------------------

    def latest_moment(self) -> list[Touch]:
        groups = moments(self.log, self.moment_gap_ms)
        return groups[-1] if groups else []

    def situation(self, touches: Iterable[Touch] = ()) -> Situation:
        """The entered cards and the given touches, as the judge reads them."""
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
        return Situation(tops=tops, ghosts=ghosts, graveyard=graveyard, rules=self.rules,
                         expert=condition, gorilla=gorilla, touches=tuple(touches),
                         uncertainty_ms=self.uncertainty_ms)

    def ruling(self, touches: Iterable[Touch] | None = None) -> Ruling:
        """The judge's ruling on ``touches`` (default: the latest moment) with the entered cards."""
        return judge(self.situation(self.latest_moment() if touches is None else touches))

    # --- screens ---------------------------------------------------------------------

    def screen(self) -> Screen:
        if self.mode is Mode.CARDS:
            return self._cards_screen()
        if self.mode in (Mode.DISPUTE, Mode.RACE):
            pages = self._pages()
            return pages[self.page % len(pages)]
        return self._log_screen()

    def _log_screen(self) -> Screen:
        lines: list[str] = []
        if self.link_down:
            lines.append("Podložky odpojené!")
        if self.stuck:
            pad = min(self.stuck, key=lambda p: (p.seat, str(p.target)))
            more = f" +{len(self.stuck) - 1}" if len(self.stuck) > 1 else ""
            line = f"Zaseknutá: {seat_label(pad.seat)}→{target_label(pad.target)}{more}"
            if len(line) > WIDTH:
                line = f"Zaseknutá: {seat_label(pad.seat)}→{target_label(pad.target, True)}{more}"
            lines.append(line)
        room = 3 - len(lines)
        recent = self.log[-room:] if self.log else []
        if not recent and not lines:
            lines += wrap("Zatím se nikdo nedotkl žádné podložky.")[:room]
        for t in recent:
            i = self.log.index(t)
            gap = "" if i == 0 else delta_text(t.ms - self.log[i - 1].ms)
            lines.append(row(f"{seat_label(t.seat)}→{target_label(t.target)}", gap))
        lines.append("◀karty ●spor ▶závod")
        return Screen(title_with("Rozhodčí", "Gobbit"), tuple(lines))

    def _pages(self) -> list[Screen]:
        moment = self.latest_moment()
        try:
            ruling = self.ruling(moment)
        except NotationError:
            return [Screen("Spor", tuple(wrap("Zadané karty nedávají smysl, oprav je.")))]
        verdicts = {v.touch: v for v in ruling.verdicts}
        sections: list[tuple[str, list[list[str]]]] = []
        others: list[Touch] = []
        if self.mode is Mode.RACE:
            race = [t for t in moment if t.target == GRAVEYARD]
            if not race:
                return [Screen("Závod o hřbitov", tuple(wrap("Na hřbitov v poslední chvíli "
                                                             "nikdo nesáhl.")))]
            sections.append(("Závod o hřbitov", _rows(touch_rows(race, verdicts))))
            close = call_sentences(ruling, GRAVEYARD)
        else:
            pile = contested_pile(moment)
            if pile is None:
                text = ("Zatím není o čem rozhodovat." if not moment
                        else "Nikdo nesáhl na kupičku, zkus závod o hřbitov.")
                return [Screen("Spor", tuple(wrap(text)))]
            on_pile = [t for t in moment if t.target == pile]
            sections.append((f"Spor o kupičku {seat_label(pile)}",
                             _rows(touch_rows(on_pile, verdicts))))
            close = call_sentences(ruling, pile)
            others = [t for t in moment if t.target != pile]
        if close:  # D28: a gap inside the pads' uncertainty is no order at all
            sections.append(("Kdo byl první", [wrap(s) for s in close]))
        if others:
            sections.append(("Další doteky", _rows(touch_rows(others, verdicts, with_target=True))))
        sections.append(("Verdikt", [wrap(s) for s in ruling_sentences(ruling)]))
        sit = self.situation()
        why = [wrap(why_sentence(v, dict(sit.tops))) for v in ruling.verdicts
               if v.kind in (Kind.FOUL, Kind.MISTAKE)]
        if why:
            sections.append(("Proč", why))
        sections.append(("Karty na stole", _rows(self._card_lines())))
        return paginate(sections)

    def _card_lines(self) -> list[str]:
        c = self.cards
        lines = []
        for s in range(1, self.seats + 1):
            lines.append(f"{s}: {self._seat_value_text(s)}")
        lines.append("Hřbitov: " + ("je" if c.graveyard else "není"))
        if self.expert:
            lines.append(CONDITION_LABEL[c.condition] if c.condition else "Expert: bez podmínky")
        if Rule.GORILLA.value in self.rules:
            lines.append("Gorila: " + (f"útočí {seat_label(c.gorilla)}" if c.gorilla else "ne"))
        return lines

    def _seat_value_text(self, seat: int) -> str:
        if seat in self.cards.ghosts:
            return "duch"
        card = self.cards.tops.get(seat)
        if card is None:
            return "bez karty"
        name = card_name(card)
        return name if len(name) <= WIDTH - 3 else card_name(card, short=True)

    # --- the card editor ---------------------------------------------------------------

    def fields(self) -> list[str]:
        out = [f"seat{s}" for s in range(1, self.seats + 1)] + ["graveyard"]
        if self.expert:
            out.append("expert")
        if Rule.GORILLA.value in self.rules:
            out.append("gorilla")
        return out + ["done"]

    def _edit(self, button: str) -> None:
        fields = self.fields()
        name = fields[self.cursor]
        if button == "select":
            if name == "done":
                self.mode, self.page = self._back, 0
            else:
                self.cursor += 1
            return
        step = 1 if button == "right" else -1 if button == "left" else 0
        if not step:
            return
        c = self.cards
        if name.startswith("seat"):
            seat = int(name[4:])
            choices: list[Card | None | str] = list(CARD_CHOICES)
            if Rule.GHOST.value in self.rules:
                choices.append("ghost")
            now: Card | None | str = "ghost" if seat in c.ghosts else c.tops.get(seat)
            new = choices[(choices.index(now) + step) % len(choices)]
            c.ghosts.discard(seat)
            if new == "ghost":
                c.ghosts.add(seat)
                c.tops[seat] = None
            else:
                assert not isinstance(new, str)
                c.tops[seat] = new
        elif name == "graveyard":
            c.graveyard = not c.graveyard
        elif name == "expert":
            conds: list[Condition | None] = [None, *Condition]
            c.condition = conds[(conds.index(c.condition) + step) % len(conds)]
            if c.condition is not None:
                c.graveyard = True
        elif name == "gorilla":
            options: list[int | None] = [None, *range(1, self.seats + 1)]
            c.gorilla = options[(options.index(c.gorilla) + step) % len(options)]

    def _cards_screen(self) -> Screen:
        fields = self.fields()
        texts = self._card_lines() + ["Hotovo"]
        assert len(texts) == len(fields)
        start = min(max(self.cursor - 1, 0), max(len(texts) - 4, 0))
        shown = tuple(texts[start:start + 4])
        return Screen(title_with("Karty na stole", "◀▶●"), shown, self.cursor - start)
