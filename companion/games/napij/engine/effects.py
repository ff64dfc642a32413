"""The cards: drawing them in order and what each effect does (docs/players/napij-rules.md, *Cards*).

:data:`HANDLERS` has one function per :class:`~companion.games.napij.engine.deck.Effect`;
each acts on a :class:`~companion.games.napij.engine.playout.PlayOut` for the piece
that drew.  :func:`resolve` draws for every piece waiting on a card field (the
virtual deck's top card, or - a physical deck - it stops so that the table can
enter the card drawn, :func:`draw_card` then goes on); a card that needs a
choice sets ``PlayOut.pending`` and the engine waits for a ``Choose`` (or, for a
card that offers a co-player a deal, an ``Offer`` by the drawer and then the
co-player's ``Choose`` or ``Decline``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.games.napij.engine.deck import IMMUNITY_ROUNDS, MOVING_EFFECTS, Card, Effect
from companion.games.napij.engine.events import (
    AtJunction,
    CardChainStopped,
    CardDrawn,
    CardNoEffect,
    ChoiceNeeded,
    DrawDue,
    How,
    ImmunityGranted,
    Moved,
    Offered,
    OfferNeeded,
    ReturnedToPub,
    Swapped,
)
from companion.games.napij.engine.playout import PlayOut, shorter_heading
from companion.games.napij.engine.reasons import CardWhy, Why
from companion.games.napij.engine.state import CHAIN_CAP, DrinkReason, Pending


@dataclass(frozen=True, slots=True)
class Drawn:
    """The card a piece drew and where the piece stands."""

    colour: int
    piece: int
    node: int
    card: Card


Handler = Callable[[PlayOut, Drawn], None]


def _no_effect(po: PlayOut, d: Drawn, why: CardWhy) -> None:
    po.events.append(CardNoEffect(d.colour, d.card.number, why))


def forward(po: PlayOut, d: Drawn) -> None:
    """n fields along the piece's own way home; it stays if that passes its home (D25)."""
    g = po.g
    c, node = d.colour, d.node
    exits = g.exits[c][node]
    end = po.walk(c, exits[0], d.card.n) if exits else Why.OVERSHOOTS_HOME
    if isinstance(end, Why) or (g.home_rank[end] >= 0 and po.holder(end) >= 0):
        # more fields than are left up to the home: the piece stays where it is
        _no_effect(po, d, CardWhy.OVERSHOOT)
    elif po.target_problem(c, end):
        _no_effect(po, d, CardWhy.BLOCKED)
    else:
        po.card_move(c, d.piece, end)


def back(po: PlayOut, d: Drawn) -> None:
    """n fields back along the main track (D26)."""
    end = d.node
    for _ in range(d.card.n):
        end = po.g.main_prev[end]
    if po.target_problem(d.colour, end):
        _no_effect(po, d, CardWhy.BLOCKED)
    else:
        po.card_move(d.colour, d.piece, end)


def pub(po: PlayOut, d: Drawn) -> None:
    """Back to the pub (and drink), unless immune."""
    c, p = d.colour, d.piece
    if po.immune[c][p]:
        _no_effect(po, d, CardWhy.IMMUNE)
        return
    po.to_pub(c, p)
    po.events.append(ReturnedToPub(c, p, d.node, "card"))
    po.drink(c, 1, DrinkReason.PUB)


def targets(po: PlayOut, colour: int, effect: Effect) -> tuple[tuple[int, int], ...]:
    """The opponent pieces a card of ``effect`` drawn by ``colour`` may act on: on the main
    track, and for a knock-out not immune (D24, D29)."""
    g = po.g
    out = []
    for oc in po.colours:
        if oc == colour:
            continue
        for op, n in enumerate(po.pieces[oc]):
            if n >= 0 and g.on_main[n]:
                if effect is Effect.KNOCK_OUT and po.immune[oc][op]:
                    continue
                out.append((oc, op))
    return tuple(out)


def chosen(po: PlayOut, pending: Pending, oc: int, op: int) -> None:
    """Carry out a choice card on the opponent piece ``(oc, op)``: the piece the drawer chose,
    or the piece with which the offered co-player takes the offer."""
    c, p = pending.colour, pending.piece
    effect = po.rules.deck.card(pending.card).effect
    if effect is Effect.KNOCK_OUT:
        po.knock_out(oc, op, c, How.CARD)
    elif effect is Effect.OFFER_KNOCK_OUT:
        # the co-player's piece jumps onto the drawer's field and knocks the drawer out
        node = po.pieces[c][p]
        po.arrive(oc, op, node, Moved(oc, op, po.pieces[oc][op], node, ()))
    else:
        swap(po, c, p, oc, op)


def swap(po: PlayOut, c: int, p: int, oc: int, op: int) -> None:
    """Two pieces change places; each draws if it now stands on a card field."""
    g = po.g
    a = po.pieces[c][p]
    b = po.pieces[oc][op]
    po.lift(c, p)
    po.lift(oc, op)
    po.put(c, p, b)
    po.put(oc, op, a)
    po.events.append(Swapped(c, p, oc, op))
    for who, piece, node in ((c, p, b), (oc, op, a)):
        if g.kind[node] == "card":
            po.queue.append((who, piece, node))
        elif g.kind[node] == "junction":
            po.events.append(AtJunction(who, piece, node))


def choose_target(po: PlayOut, d: Drawn) -> None:
    """Knock-out and swap: the drawer chooses; with one candidate it is automatic (D29)."""
    options = targets(po, d.colour, d.card.effect)
    if not options:
        _no_effect(po, d, CardWhy.NO_TARGET)
    elif len(options) == 1:
        chosen(po, Pending(d.card.number, d.colour, d.piece), *options[0])
    else:
        po.events.append(ChoiceNeeded(d.colour, d.card.number, options))
        po.pending = Pending(d.card.number, d.colour, d.piece)


def offer_colours(po: PlayOut, colour: int) -> tuple[int, ...]:
    """The co-players an offering card's deal may go to: those with a piece on the main
    track (D40)."""
    g = po.g
    return tuple(oc for oc in po.colours if oc != colour
                 and any(n >= 0 and g.on_main[n] for n in po.pieces[oc]))


def offered_pieces(po: PlayOut, colour: int) -> tuple[int, ...]:
    """The pieces with which the offered co-player may take the deal (main track, D40)."""
    g = po.g
    return tuple(op for op, n in enumerate(po.pieces[colour]) if n >= 0 and g.on_main[n])


def offer(po: PlayOut, d: Drawn) -> None:
    """Offer a co-player to knock the drawer out, or to swap places with it (D40, D41): the
    drawer picks the co-player (automatic when only one can take it), who answers."""
    if d.card.effect is Effect.OFFER_KNOCK_OUT and po.immune[d.colour][d.piece]:
        _no_effect(po, d, CardWhy.IMMUNE)
        return
    colours = offer_colours(po, d.colour)
    pending = Pending(d.card.number, d.colour, d.piece)
    if not colours:
        _no_effect(po, d, CardWhy.NO_TARGET)
    elif len(colours) == 1:
        offer_to(po, pending, colours[0])
    else:
        po.events.append(OfferNeeded(d.colour, d.card.number, colours))
        po.pending = pending


def offer_to(po: PlayOut, pending: Pending, colour: int) -> None:
    """The deal goes to ``colour``; the engine waits for its answer."""
    po.events.append(Offered(pending.colour, pending.card, colour))
    po.pending = replace(pending, offered=colour)


def decline(po: PlayOut, pending: Pending) -> None:
    """The offered co-player turns the deal down: the card does nothing."""
    po.events.append(CardNoEffect(pending.colour, pending.card, CardWhy.DECLINED))


def line_up(po: PlayOut, d: Drawn) -> None:
    """«Zařazování»: forward along the main track onto the field right behind the nearest
    opponent piece ahead, whoever it is; nobody is knocked out (D39)."""
    g = po.g
    c = d.colour
    n = d.node
    behind = n
    for _ in range(len(g.board.main) - 1):
        nxt = g.main_next[n]
        o = po.holder(nxt)
        if o >= 0 and o >> 2 != c:
            behind = n
            break
        n = nxt
    else:
        _no_effect(po, d, CardWhy.NO_TARGET)
        return
    if behind == d.node:
        _no_effect(po, d, CardWhy.IN_LINE)
    elif po.target_problem(c, behind):
        _no_effect(po, d, CardWhy.BLOCKED)
    else:
        po.card_move(c, d.piece, behind)


def catch_up(po: PlayOut, d: Drawn) -> None:
    """Forward along the main track to the nearest opponent that is not immune, knocking it
    out (D28)."""
    g = po.g
    c = d.colour
    n = d.node
    target = -1
    for _ in range(len(g.board.main) - 1):
        n = g.main_next[n]
        o = po.holder(n)
        if o >= 0 and o >> 2 != c and not po.is_immune(o):
            target = n
            break
    if target < 0:
        _no_effect(po, d, CardWhy.NO_TARGET)
    else:
        po.card_move(c, d.piece, target)


def immunity(po: PlayOut, d: Drawn) -> None:
    """Four rounds of protection (D30)."""
    po.immune[d.colour][d.piece] = IMMUNITY_ROUNDS
    po.events.append(ImmunityGranted(d.colour, d.piece, IMMUNITY_ROUNDS))


def zachytka(po: PlayOut, d: Drawn) -> None:
    """Into the záchytka, heading the shorter way home (D12)."""
    g = po.g
    h = shorter_heading(g, d.colour)
    end = g.zachytka[0 if h > 0 else 1]
    if po.target_problem(d.colour, end):
        _no_effect(po, d, CardWhy.BLOCKED)
    else:
        po.card_move(d.colour, d.piece, end)


def drink(po: PlayOut, d: Drawn) -> None:
    po.drink(d.colour, d.card.n, DrinkReason.CARD)


def glass(po: PlayOut, d: Drawn) -> None:
    """Empty the glass: a debt of its own kind (D31)."""
    po.drink(d.colour, 1, DrinkReason.GLASS)


def everybody(po: PlayOut, d: Drawn) -> None:
    """Every player drinks, the drawer too (D32)."""
    for x in po.colours:
        po.drink(x, 1, DrinkReason.EVERYBODY)


def blank(po: PlayOut, d: Drawn) -> None:
    """The family's own card: the table decides (D33)."""
    _no_effect(po, d, CardWhy.BLANK)


HANDLERS: dict[Effect, Handler] = {
    Effect.FORWARD: forward,
    Effect.BACK: back,
    Effect.PUB: pub,
    Effect.KNOCK_OUT: choose_target,
    Effect.SWAP: choose_target,
    Effect.CATCH_UP: catch_up,
    Effect.LINE_UP: line_up,
    Effect.OFFER_KNOCK_OUT: offer,
    Effect.OFFER_SWAP: offer,
    Effect.IMMUNITY: immunity,
    Effect.ZACHYTKA: zachytka,
    Effect.DRINK: drink,
    Effect.GLASS: glass,
    Effect.EVERYBODY: everybody,
    Effect.BLANK: blank,
}
"""One handler per effect (a test checks that every effect has one)."""


def draw_card(po: PlayOut, colour: int, piece: int, number: int) -> None:
    """The piece draws card ``number``: the event, then the card's effect."""
    po.chain += 1
    po.card = number
    po.events.append(CardDrawn(colour, piece, number, colour != po.st.turn))
    card = po.rules.deck.card(number)
    node = po.pieces[colour][piece]
    if card.effect in MOVING_EFFECTS and (node < 0 or not po.g.on_main[node]):
        po.events.append(CardNoEffect(colour, number, CardWhy.OFF_MAIN))
        return
    HANDLERS[card.effect](po, Drawn(colour, piece, node, card))
    if po.pending is None:
        po.check_winner()


def resolve(po: PlayOut) -> None:
    """Draw for every piece waiting on a card field, in stopping order (D23); stop at a
    choice, or - a physical deck - before each draw (the queue's first piece must draw)."""
    g = po.g
    queue = po.queue
    while queue and po.winner is None and po.pending is None:
        c, p, node = queue[0]
        if po.pieces[c][p] != node or not g.is_card[node]:
            queue.pop(0)  # knocked off its card field before its turn to draw
            continue
        if po.chain >= CHAIN_CAP:
            po.events.append(CardChainStopped(po.chain))
            queue.clear()
            break
        if po.st.physical:
            po.events.append(DrawDue(c, p, c != po.st.turn))
            return
        queue.pop(0)
        number = po.deck.pop(0)
        po.deck.append(number)
        draw_card(po, c, p, number)
    if po.winner is not None:
        queue.clear()
