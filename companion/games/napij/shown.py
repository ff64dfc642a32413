"""What a napij se table shows over the game after an action: cards and drinks to answer (pure).

After every action the host shows, in the order they happened, the cards drawn from the
virtual deck and the drinking duties (:mod:`.drinks`).  Nothing on show goes away by
itself: a card waits for "● dál" (it may say to move a piece on the real board), a drink
for its answer - "● vypito" for everyone it names, or "◀ později", which leaves it as a
debt.  So no debt is ever made by looking at a banner (D42 of docs/players/napij-rules.md).  A card
that says to drink carries that drink on its own screen: one press answers both.

What is on show is rebuilt from the state alone after a resume or an undo (the duties not
answered yet are in the state), so a pulled plug never loses a banner that still needs its
answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from companion.engines.czech import PLAYER
from companion.games.napij.drinks import Announcement, announcements
from companion.games.napij.engine.actions import Action, Drank, Later
from companion.games.napij.engine.events import CardDrawn, Event, MustDrink
from companion.games.napij.engine.game import GAME
from companion.games.napij.engine.state import Debt, DrinkReason, State
from companion.games.napij.views import Banner
from companion.ui.fonts import body_font
from companion.ui.screens import wrap

TEXT_WIDTH = 120
"""Pixels a card's wrapped text may take (room for the page marks)."""
CARD_DRINKS = (DrinkReason.CARD, DrinkReason.GLASS, DrinkReason.EVERYBODY)
"""Duties a card itself gives: said on the card's own screen."""


@dataclass(frozen=True)
class Shown:
    """A card or a drink on show until it is answered."""

    banner: Banner | None = None
    card: tuple[str, tuple[str, ...]] | None = None
    """A card: its title and its text's lines."""
    pattern: str = ""
    sentence: str = ""
    drank: tuple[Action, ...] = ()
    """The actions of ● (a drink); empty for a card alone (● only moves on)."""
    later: tuple[Action, ...] = ()
    """The actions of ◀ (empty: ◀ is not offered)."""
    from_card: int | None = None
    """The card that gave the drink (the engine answers a colour's duties of one reason
    oldest first: their banners come in that order, so each answer is the one shown)."""

    @property
    def prompt(self) -> str:
        if not self.drank:
            return "● dál"
        drank = "● vypili" if self.banner is not None and len(self.banner.marks) > 1 \
            else "● vypito"
        return f"{drank}  ◀ později" if self.later else drank

    def live(self, state: State) -> bool:
        """Still to be answered: a card always; a drink while one of its answers is legal
        (the ledger may have settled it meanwhile)."""
        return not self.drank or any(GAME.why_not(state, a) is None for a in self.drank)


def _drink(a: Announcement) -> Shown:
    return Shown(Banner(a.title, a.lines, a.marks), None, a.pattern, a.sentence, a.drank,
                 a.later, a.card)


def _in_debt_order(out: list[Shown], debts: Sequence[Debt]) -> list[Shown]:
    """``out`` with the drinks of one colour and reason in the order of their debts (the
    order in which ● and ◀ answer them), everything else where it was."""
    order: dict[tuple[int, object, int | None], int] = {
        (d.colour, d.reason, d.card): i for i, d in reversed(list(enumerate(debts)))}

    def key(item: Shown) -> tuple[int, object] | None:
        if item.banner is None or len(item.drank) != 1:
            return None
        a = item.drank[0]
        return (a.colour, a.reason) if isinstance(a, Drank) else None

    groups: dict[tuple[int, object], list[int]] = {}
    for i, item in enumerate(out):
        k = key(item)
        if k is not None:
            groups.setdefault(k, []).append(i)
    result = list(out)
    for (colour, reason), slots in groups.items():
        items = sorted((out[i] for i in slots),
                       key=lambda it: order.get((colour, reason, it.from_card), len(debts)))
        for i, item in zip(slots, items, strict=True):
            result[i] = item
    return result


def _card(state: State, number: int, colour: int, a: Announcement | None) -> Shown:
    card = state.rules.deck.card(number)
    lines = tuple(wrap(body_font(), card.text, TEXT_WIDTH))
    title = f"Karta {number} · {PLAYER[colour]}"
    if a is None:
        return Shown(None, (title, lines))
    return Shown(None, (title, lines), a.pattern, a.sentence, a.drank, a.later)


def after_action(before: State, after: State, events: Sequence[Event]) -> list[Shown]:
    """What to show after an action, in order: the duties of the play, then each card drawn
    from the virtual deck with the duties it gave (a card's own drink on its screen)."""
    if not any(isinstance(e, MustDrink | CardDrawn) for e in events):
        return []
    new = after.debts[len(before.debts):] if after.debts[:len(before.debts)] == before.debts \
        else after.unanswered()
    owes = tuple(after.debt(c) for c in range(4))
    said = announcements(new, after.colours, events, owes)
    out: list[Shown] = [_drink(a) for a in said if a.card is None]
    for e in events:
        if not isinstance(e, CardDrawn):
            continue
        mine = [a for a in said if a.card == e.card]
        for a in mine:
            said.remove(a)
        own = next((a for a in mine if a.reason in CARD_DRINKS), None)
        if after.physical:
            out += [_drink(a) for a in mine]
            continue
        out.append(_card(after, e.card, e.colour, own))
        out += [_drink(a) for a in mine if a is not own]
    out += [_drink(a) for a in said if a.card is not None]  # cards entered from a printed deck
    return _in_debt_order(out, after.unanswered())


def waiting(state: State) -> list[Shown]:
    """The duties not answered yet, as after a resume or an undo (the cards are not shown
    again: what they did is on the board and in the event line)."""
    owes = tuple(state.debt(c) for c in range(4))
    return [_drink(a) for a in announcements(state.unanswered(), state.colours, (), owes)]


def for_people(item: Shown, computer: AbstractSet[int]) -> tuple[Shown | None, tuple[str, ...]]:
    """A computer seat's drinks settle by themselves: nobody presses for them.  Its share of
    a drink stays in the ledger until its own turn begins, when the companion clears it;
    what is left for the people (or a card's text, "● dál") is shown - ``None`` when nothing
    is - with a line for each computer seat excused ("Zelený (PC) pít nemusí ...")."""
    mine = tuple(a for a in item.drank if isinstance(a, Drank) and a.colour in computer)
    if not mine:
        return item, ()
    why = item.banner.lines[-1] if item.banner is not None and item.banner.lines \
        else item.card[0].split(" · ")[0].lower() if item.card is not None else ""
    excused = tuple(f"{PLAYER[a.colour]} (PC) pít nemusí{f' ({why})' if why else ''}: "
                    "dluh mu odepíšu." for a in mine if isinstance(a, Drank))
    people = tuple(a for a in item.drank if a not in mine)
    later = tuple(a for a in item.later if not (isinstance(a, Later) and a.colour in computer))
    if item.card is not None:
        return replace(item, drank=people, later=later,
                       sentence=item.sentence if people else ""), excused
    if not people:
        return None, excused
    return replace(item, drank=people, later=later), excused
