"""Text notation for Člověče, napij se! positions, plays and actions (docs/dev/napij-notation.md).

A position is one line of ``key:value`` tokens::

    r:m12*3,p,p,rh4 g:c5+,zach-,p,p bottle:m3 turn:g throws:6 owe:r1 drunk:g2

* ``C:L,L,L,L`` per playing colour (``C`` in ``r b g y``); ``L`` is ``p`` (in the
  pub) or a place on the board: a field name, plus ``+``/``-`` (the heading) on
  the Černá stezka and in a trap, plus ``i``/``o`` (going in / out) on a trap
  path; ``*N`` after it: N rounds of immunity left;
* ``bottle:F`` once the bottle is on the board; ``turn:C``;
* ``throws:6,6,3`` the counted throws of the turn, ``tries:N`` failed tries for a
  six, ``with:bottle`` the player on turn plays the bottle;
* ``deck:N,N,...`` the deck order, top first (left out when it is the deck file's
  order), ``deck:unshuffled`` a virtual deck waiting for its shuffle,
  ``deck:physical`` the family's own cards; ``card:N@CP#K`` a drawn card
  waiting for the choice of piece ``P`` (1-4) of colour ``C``, the K-th card
  of this action (``offer:C`` after it: the card's deal was offered to colour
  ``C``, who answers), ``draw:CP@L#K`` (a physical deck) the piece on card field
  ``L`` that must draw now, K cards already drawn in this action, and
  ``queue:CP@L,...`` the draws after either;
* ``owe:r1@start?,g2@card.14^,b1@knocked-out.r`` the debts, oldest first: colour,
  drinks (glasses for ``glass``), ``@`` the reason with ``.C`` the colour it is about
  and ``.N`` the card that gave it, ``?`` not answered at the table yet, ``^``
  incurred during its debtor's own turn (due only before their next turn);
  ``r2`` alone is a debt written by hand, reason unknown (``glass:g1``, the older
  form, is ``g1@glass``); ``drunk:r3`` drinks drunk so far (colours with 0 left
  out); ``throw:owing`` the player on turn chose to throw while owing;
  ``winner:C``.

The formatter writes the tokens in this order and ``format_position(parse_position(s))
== s`` for every canonical ``s``.  The parser refuses positions the engine
cannot reach (two pieces on a field, a throw phase with no legal play, ...)
with one clear sentence.

A play is written ``LOC[>EXIT]=VALUES`` per piece, steps separated by spaces
or commas: ``m12=6 m30=3`` (split), ``m12=6+3`` or ``m12=9`` (together), ``p=6``
(enter from the pub), ``m10>c1=4`` (from a junction onto the stezka),
``bottle`` (the declared bottle takes the turn).
"""

from __future__ import annotations

import re
from dataclasses import replace

from companion.engines.colours import COLOURS as COLOURS
from companion.engines.colours import colour_index as colour_index
from companion.engines.errors import IllegalMove
from companion.engines.errors import NotationError as NotationError
from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Later,
    Offer,
    Play,
    Shuffle,
    Step,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.deck import CHOICE_EFFECTS, OFFER_EFFECTS
from companion.games.napij.engine.reasons import Reason, Why
from companion.games.napij.engine.rules import (
    choices,
    has_piece_in_play,
    legal_plays,
    needs_six,
    problems,
    six_unusable,
)
from companion.games.napij.engine.state import (
    BOTTLE,
    CALLED_DUTIES,
    CHAIN_CAP,
    PIECES,
    PUB,
    SIX,
    Debt,
    DrinkReason,
    Pending,
    Phase,
    Rules,
    State,
    default_rules,
)


def place_text(rules: Rules, node: int) -> str:
    return "p" if node == PUB else rules.graph.text[node]


def parse_place(rules: Rules, text: str) -> int:
    """A place on the board (``p`` or a node text)."""
    if text == "p":
        return PUB
    g = rules.graph
    node = g.by_text.get(text)
    if node is not None:
        return node
    base = re.sub(r"[+\-]?[io]?$", "", text)
    if base in g.board.index:
        f = g.board.index[base]
        options = sorted(t for t, n in g.by_text.items() if g.field[n] == f)
        raise NotationError(f"The place {text!r} needs its heading: write one of "
                            f"{', '.join(options)}.")
    raise NotationError(f"Unknown place {text!r}: use p or a field of the board.")


def _ledger(text: str, key: str) -> tuple[int, ...]:
    out = [0, 0, 0, 0]
    for item in text.split(","):
        m = re.fullmatch(r"([rbgy])(\d{1,3})", item)
        if not m:
            raise NotationError(f"Bad {key} entry {item!r}: write a colour and a number, "
                                "e.g. r2.")
        c = COLOURS.index(m.group(1))
        if out[c]:
            raise NotationError(f"{key} names {m.group(1)} twice.")
        out[c] = int(m.group(2))
    return tuple(out)


_DEBT = re.compile(r"([rbgy])(\d{1,3})(?:@([a-z-]+)((?:\.(?:[rbgy]|\d{1,3}))*))?(\??)(\^?)")


def _debts(text: str, glass: bool = False) -> list[Debt]:
    """The entries of ``owe`` (``r1@card.23?``) or of the older ``glass`` token (``g1``)."""
    out = []
    for item in text.split(","):
        m = _DEBT.fullmatch(item)
        if not m or (glass and m.group(3)):
            raise NotationError(f"Bad {'glass' if glass else 'owe'} entry {item!r}: write a "
                                "colour and a number, then @ and the reason, e.g. r2@card.14.")
        reason: DrinkReason | None = DrinkReason.GLASS if glass else None
        if m.group(3):
            try:
                reason = DrinkReason(m.group(3))
            except ValueError:
                raise NotationError(f"Unknown reason {m.group(3)!r} in {item!r}.") from None
        about: int | None = None
        card: int | None = None
        for detail in m.group(4).split(".")[1:] if m.group(4) else ():
            if detail.isdigit():
                card = int(detail)
            else:
                about = COLOURS.index(detail)
        if int(m.group(2)) < 1:
            raise NotationError(f"A debt is at least one drink, not {item!r}.")
        out.append(Debt(COLOURS.index(m.group(1)), int(m.group(2)), reason, about, card,
                        not m.group(5), bool(m.group(6))))
    return out


def debt_text(d: Debt) -> str:
    """One entry of ``owe``: colour, drinks, ``@reason``, ``.colour``/``.card`` details, ``?``
    when not answered yet, ``^`` when incurred in its debtor's own turn."""
    text = f"{COLOURS[d.colour]}{d.drinks}"
    if d.reason is not None:
        text += f"@{d.reason.value}"
        if d.about is not None:
            text += f".{COLOURS[d.about]}"
        if d.card is not None:
            text += f".{d.card}"
    return text + ("" if d.answered else "?") + ("^" if d.own_turn else "")


def _piece_ref(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([rbgy])([1-4])", text)
    if not m:
        raise NotationError(f"Bad piece {text!r}: write a colour and a piece number 1 to 4, "
                            "e.g. r2.")
    return COLOURS.index(m.group(1)), int(m.group(2)) - 1


def parse_position(text: str, rules: Rules | None = None) -> State:
    """Read a position; raise :class:`NotationError` with one clear sentence if it is wrong."""
    rules = rules or default_rules()
    if not isinstance(text, str) or not text.strip():
        raise NotationError("The position is empty.")
    pieces: list[tuple[int, ...] | None] = [None] * 4
    immune: list[tuple[int, ...] | None] = [None] * 4
    turn: int | None = None
    bottle = -1
    throws: tuple[int, ...] = ()
    tries = 0
    with_bottle = False
    deck = rules.deck.numbers
    physical = False
    pending: Pending | None = None
    drawer: tuple[int, int, int] | None = None
    chain = 0
    queue: tuple[tuple[int, int, int], ...] = ()
    debts: list[Debt] = []
    drunk: tuple[int, ...] = (0, 0, 0, 0)
    winner: int | None = None
    anyway = False
    offered: int | None = None
    seen: set[str] = set()
    for token in text.split():
        key, sep, value = token.partition(":")
        if not sep or not value:
            raise NotationError(f"Bad token {token!r}: every token is key:value.")
        if key in seen:
            raise NotationError(f"The token {key!r} appears twice.")
        seen.add(key)
        if key in COLOURS:
            c = COLOURS.index(key)
            locs = value.split(",")
            if len(locs) != PIECES:
                raise NotationError(f"Colour {key} needs exactly 4 places, not {len(locs)}.")
            nodes, imm = [], []
            for loc in locs:
                place, star, rounds = loc.partition("*")
                if star and not (rounds.isdigit() and 1 <= int(rounds) <= 4):
                    raise NotationError(f"Bad immunity in {loc!r}: write *1 to *4.")
                nodes.append(parse_place(rules, place))
                imm.append(int(rounds) if star else 0)
            pieces[c] = tuple(nodes)
            immune[c] = tuple(imm)
        elif key == "turn":
            turn = colour_index(value)
        elif key == "bottle":
            bottle = parse_place(rules, value)
            if bottle < 0 or not rules.graph.on_main[bottle]:
                raise NotationError("The bottle stands only on the main track.")
        elif key == "throws":
            parts = value.split(",")
            if not all(p in ("1", "2", "3", "4", "5", "6") for p in parts):
                raise NotationError(f"Bad throws {value!r}: die values 1 to 6, comma-separated.")
            throws = tuple(int(p) for p in parts)
            if any(v != SIX for v in throws[:-1]):
                raise NotationError("Only a six throws again: every throw but the last must "
                                    "be a six.")
        elif key == "tries":
            if value not in ("1", "2"):
                raise NotationError(f"tries must be 1 or 2, not {value!r}.")
            tries = int(value)
        elif key == "with":
            if value != "bottle":
                raise NotationError(f"Bad token with:{value}: the only one is with:bottle.")
            with_bottle = True
        elif key == "deck" and value in ("unshuffled", "physical"):
            deck = ()
            physical = value == "physical"
        elif key == "deck":
            parts = value.split(",")
            if not all(p.isdigit() for p in parts):
                raise NotationError("deck lists card numbers, comma-separated.")
            deck = tuple(int(p) for p in parts)
            if sorted(deck) != sorted(rules.deck.numbers):
                raise NotationError("deck must name every card of the deck exactly once.")
        elif key == "card":
            m = re.fullmatch(r"(\d+)@([rbgy][1-4])#(\d+)", value)
            if not m:
                raise NotationError(f"Bad card token {value!r}: write NUMBER@CP#K, e.g. "
                                    "card:14@r2#1.")
            number = int(m.group(1))
            if number not in rules.deck.by_number:
                raise NotationError(f"The deck has no card {number}.")
            pc, pp = _piece_ref(m.group(2))
            pending = Pending(number, pc, pp)
            chain = int(m.group(3))
        elif key == "offer":
            offered = colour_index(value)
        elif key == "draw":
            m = re.fullmatch(r"([rbgy][1-4])@([^#]+)#(\d+)", value)
            if not m:
                raise NotationError(f"Bad draw token {value!r}: write CP@PLACE#K, e.g. "
                                    "draw:b1@m28#0.")
            dc, dp = _piece_ref(m.group(1))
            drawer = (dc, dp, parse_place(rules, m.group(2)))
            chain = int(m.group(3))
        elif key == "queue":
            items = []
            for item in value.split(","):
                ref, at, place = item.partition("@")
                if not at:
                    raise NotationError(f"Bad queue entry {item!r}: write CP@PLACE, e.g. "
                                        "g1@m40.")
                qc, qp = _piece_ref(ref)
                items.append((qc, qp, parse_place(rules, place)))
            queue = tuple(items)
        elif key in ("owe", "glass"):
            debts += _debts(value, glass=key == "glass")
        elif key == "drunk":
            drunk = _ledger(value, key)
        elif key == "throw":
            if value != "owing":
                raise NotationError(f"Bad token throw:{value}: the only one is throw:owing.")
            anyway = True
        elif key == "winner":
            winner = colour_index(value)
        else:
            raise NotationError(f"Unknown token {key!r}.")
    colours = [c for c in range(4) if pieces[c] is not None]
    if len(colours) < 2:
        raise NotationError("A position needs at least two colours.")
    if turn is None:
        raise NotationError("The position says nobody's turn: add turn:C.")
    if pieces[turn] is None:
        raise NotationError(f"turn:{COLOURS[turn]} names a colour that does not play.")
    for c in range(4):
        if pieces[c] is None and (drunk[c] or any(d.colour == c for d in debts)):
            raise NotationError(f"The ledger names {COLOURS[c]}, which does not play.")
    if offered is not None:
        if pending is None:
            raise NotationError("offer goes only with card.")
        pending = replace(pending, offered=offered)
    if drawer is not None and pending is not None:
        raise NotationError("A position waits either for a card's choice or for a draw, "
                            "not both.")
    if drawer is not None:
        queue = (drawer, *queue)
    state = State(rules, tuple(pieces), tuple(immune), bottle, turn, throws, tries, with_bottle,
                  deck, pending, queue, tuple(debts), drunk, winner, physical, chain, anyway)
    _check_possible(state)
    return state


def _check_possible(state: State) -> None:
    bad = problems(state)
    if bad:
        raise NotationError(f"Impossible position: {bad[0]}.")
    g = state.rules.graph
    c = state.turn
    if state.bottle < 0 and any(n >= 0 for own in state.pieces if own is not None for n in own):
        raise NotationError("Pieces have entered the board, so the bottle is on it too: add "
                            "bottle:F.")
    if state.winner is not None:
        if state.throws or state.tries or state.with_bottle or state.pending or state.queue:
            raise NotationError("After the game is over nobody throws, plays, chooses or "
                                "draws.")
        return
    if state.chain > CHAIN_CAP:
        raise NotationError(f"At most {CHAIN_CAP} cards are drawn in one go.")
    if not state.deck and not state.physical:
        if state.throws or state.tries or state.with_bottle or state.pending or state.queue \
                or state.bottle >= 0:
            raise NotationError("A deck that waits for its shuffle goes only with the start "
                                "of the game.")
        return
    if state.pending is not None:
        pc, pp = state.pending.colour, state.pending.piece
        own = state.pieces[pc]
        if own is None:
            raise NotationError("card names a colour that does not play.")
        if state.throws or state.tries or state.with_bottle:
            raise NotationError("While a card waits for a choice, nobody throws.")
        if own[pp] < 0 or not g.on_main[own[pp]]:
            raise NotationError("The drawer of a card that waits for a choice stands on the "
                                "main track.")
        effect = state.rules.deck.card(state.pending.card).effect
        offered = state.pending.offered
        if effect in OFFER_EFFECTS and offered is not None:
            if offered == pc or state.pieces[offered] is None or \
                    not any(isinstance(a, Choose) for a in choices(state)):
                raise NotationError("The card's deal is offered only to a co-player with a "
                                    "piece on the main track.")
        elif offered is not None:
            raise NotationError("offer goes only with a card that offers a deal.")
        elif (effect not in CHOICE_EFFECTS | OFFER_EFFECTS) or len(choices(state)) < 2:
            raise NotationError("That card does not wait for a choice here.")
        if state.chain < 1:
            raise NotationError("The card waiting for a choice is at least the first card "
                                "drawn.")
        _check_queue(state)
        return
    if state.queue and not state.physical:
        raise NotationError("queue goes only with card, or with draw and a physical deck.")
    if state.queue:
        if state.throws or state.tries or state.with_bottle:
            raise NotationError("While a card is drawn, nobody throws.")
        _check_queue(state)
        return
    if state.tries:
        if state.throws or not needs_six(state, c):
            raise NotationError(f"tries counts only while {COLOURS[c]} has no piece in play "
                                "and has not thrown a six.")
    if state.with_bottle and (state.bottle < 0 or not has_piece_in_play(state, c)):
        raise NotationError("Only a player with a piece in play may play the bottle.")
    if state.throws and state.throws[-1] == SIX and six_unusable(state, c):
        raise NotationError("No piece can use that six: the turn would already have passed.")
    if state.phase is Phase.PLAY and not legal_plays(state):
        raise NotationError("No play uses all those throws: the turn would already have "
                            "passed.")


def _check_queue(state: State) -> None:
    g = state.rules.graph
    for qc, qp, node in state.queue:
        qown = state.pieces[qc]
        if qown is None or qown[qp] != node or not g.is_card[node]:
            raise NotationError("Every queued draw names a piece standing on that card field.")


def format_position(state: State) -> str:
    """The canonical text of ``state``."""
    rules = state.rules
    parts = []
    for c, own in enumerate(state.pieces):
        if own is None:
            continue
        imm = state.immune[c] or (0,) * PIECES
        locs = [place_text(rules, n) + (f"*{imm[p]}" if imm[p] else "")
                for p, n in enumerate(own)]
        parts.append(f"{COLOURS[c]}:" + ",".join(locs))
    if state.bottle >= 0:
        parts.append(f"bottle:{place_text(rules, state.bottle)}")
    parts.append(f"turn:{COLOURS[state.turn]}")
    if state.throws:
        parts.append("throws:" + ",".join(map(str, state.throws)))
    if state.tries:
        parts.append(f"tries:{state.tries}")
    if state.with_bottle:
        parts.append("with:bottle")
    if state.physical:
        parts.append("deck:physical")
    elif not state.deck:
        parts.append("deck:unshuffled")
    elif state.deck != rules.deck.numbers:
        parts.append("deck:" + ",".join(map(str, state.deck)))
    queue = state.queue
    if state.pending is not None:
        pd = state.pending
        parts.append(f"card:{pd.card}@{COLOURS[pd.colour]}{pd.piece + 1}#{state.chain}")
        if pd.offered is not None:
            parts.append(f"offer:{COLOURS[pd.offered]}")
    elif queue:
        parts.append(f"draw:{_queued(rules, queue[0])}#{state.chain}")
        queue = queue[1:]
    if queue:
        parts.append("queue:" + ",".join(_queued(rules, q) for q in queue))
    if state.debts:
        parts.append("owe:" + ",".join(debt_text(d) for d in state.debts))
    drunk = [f"{COLOURS[c]}{state.drunk[c]}" for c in range(4) if state.drunk[c]]
    if drunk:
        parts.append("drunk:" + ",".join(drunk))
    if state.anyway:
        parts.append("throw:owing")
    if state.winner is not None:
        parts.append(f"winner:{COLOURS[state.winner]}")
    return " ".join(parts)


def _queued(rules: Rules, item: tuple[int, int, int]) -> str:
    c, p, n = item
    return f"{COLOURS[c]}{p + 1}@{place_text(rules, n)}"


# --- plays and actions ----------------------------------------------------------------------

def _field_text(rules: Rules, node: int) -> str:
    return rules.board.id_of(rules.graph.field[node])


def format_play(state: State, play: Play) -> str:
    """The play in the syntax :func:`parse_play` reads (canonical: together values with +)."""
    rules = state.rules
    own = state.pieces[state.turn] or ()
    out = []
    for s in play.steps:
        if s.piece == BOTTLE:
            out.append("bottle")
            continue
        n = own[s.piece]
        loc = "p" if n == PUB else _field_text(rules, n)
        ex = f">{_field_text(rules, s.exit)}" if s.exit is not None else ""
        out.append(f"{loc}{ex}=" + "+".join(map(str, s.values)))
    return " ".join(out)


def _piece_at(state: State, colour: int, fid: str, used: set[int]) -> int:
    own = state.pieces[colour]
    if own is None:
        raise NotationError(f"{COLOURS[colour]} does not play.")
    g = state.rules.graph
    if fid == "p":
        for p, n in enumerate(own):
            if n == PUB and p not in used:
                return p
        raise IllegalMove(f"No piece of {COLOURS[colour]} waits in the pub.",
                          Reason(Why.NO_PIECE, colour))
    if fid not in g.board.index:
        raise NotationError(f"Unknown field {fid!r}.")
    f = g.board.index[fid]
    for p, n in enumerate(own):
        if n >= 0 and g.field[n] == f:
            return p
    raise IllegalMove(f"No piece of {COLOURS[colour]} stands on {fid}.",
                      Reason(Why.NO_PIECE, colour))


def parse_play(state: State, text: str) -> Play:
    """Read a play for the player on turn (see the module docstring)."""
    items = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not items:
        raise NotationError("The play is empty: write e.g. m12=6 or p=6+2.")
    c = state.turn
    g = state.rules.graph
    steps: list[Step] = []
    used: set[int] = set()
    for item in items:
        m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*)(?:>([A-Za-z][A-Za-z0-9_]*))?"
                         r"(?:=(all|\d+(?:\+\d+)*))?", item)
        if not m:
            raise NotationError(f"Bad step {item!r}: write FIELD=VALUE, FIELD=6+3, "
                                "FIELD>EXIT=VALUE, p=6 or bottle.")
        loc, exit_text, vtext = m.group(1), m.group(2), m.group(3)
        if loc == "bottle":
            if exit_text:
                raise NotationError("The bottle never chooses a way.")
            steps.append(Step(BOTTLE, state.throws))
            continue
        if vtext is None:
            raise NotationError(f"Say which values {loc} uses: {loc}=6, {loc}=6+3 or {loc}=all.")
        if vtext == "all":
            values = state.throws
        else:
            values = tuple(int(v) for v in vtext.split("+"))
            if any(not 1 <= v for v in values):
                raise NotationError(f"Bad values {vtext!r}: die values are 1 to 6.")
            if len(values) == 1 and values[0] > SIX and len(state.throws) > 1 and \
                    values[0] == sum(state.throws):
                values = state.throws
        p = _piece_at(state, c, loc, used)
        used.add(p)
        exit_node: int | None = None
        if exit_text is not None:
            own = state.pieces[c]
            assert own is not None
            n = own[p]
            if exit_text not in g.board.index:
                raise NotationError(f"Unknown field {exit_text!r}.")
            found = [e for e in (g.exits[c][n] if n >= 0 else ())
                     if _field_text(state.rules, e) == exit_text]
            if not found:
                raise IllegalMove(f"No way leads from {loc} straight onto {exit_text}.",
                                  Reason(Why.BAD_EXIT, c, p))
            exit_node = found[0]
        steps.append(Step(p, values, exit_node))
    return Play(tuple(steps))


def format_choice(state: State, choice: Choose) -> str:
    own = state.pieces[choice.colour] or ()
    return f"choose {_field_text(state.rules, own[choice.piece])}"


def parse_choice(state: State, fid: str) -> Choose:
    """The opponent piece standing on field ``fid`` as the pending card's target."""
    g = state.rules.graph
    if fid not in g.board.index:
        raise NotationError(f"Unknown field {fid!r}.")
    f = g.board.index[fid]
    for c in state.colours:
        own = state.pieces[c]
        assert own is not None
        for p, n in enumerate(own):
            if n >= 0 and g.field[n] == f:
                return Choose(c, p)
    raise IllegalMove(f"No piece stands on {fid}.",
                      Reason(Why.BAD_CHOICE, state.pending.colour if state.pending else
                             state.turn))


DUTY_NAMES = {r.value: r for r in CALLED_DUTIES}


def _reason(text: str) -> DrinkReason:
    try:
        return DrinkReason(text)
    except ValueError:
        raise NotationError(f"Unknown reason {text!r}: known are "
                            f"{', '.join(r.value for r in DrinkReason)}.") from None


def parse_action(state: State, text: str) -> Action:
    """One action: ``throw N``, ``throw owing`` (the player on turn throws although a debt
    is due), ``bottle``, ``play SPEC``, ``choose FIELD``, ``drank C`` (C drank all it
    owed), ``drank C REASON`` / ``later C REASON`` (C drank / leaves for later the duty of
    REASON just announced), ``duty C REASON`` (REASON: dropped-dice, delay, cheating,
    upset), ``shuffle N,N,...`` (the virtual deck's order, top first), ``draw N`` (a card
    of a physical deck), ``offer C`` (the drawer offers a card's deal to C), ``decline C``
    (C turns it down)."""
    words = text.split()
    if not words:
        raise NotationError("The action is empty.")
    verb, args = words[0], words[1:]
    if verb == "throw" and args == ["owing"]:
        return ThrowOwing()
    if verb == "throw" and len(args) == 1:
        if args[0] not in ("1", "2", "3", "4", "5", "6"):
            raise NotationError(f"A throw is a number from 1 to 6, not {args[0]!r}.")
        return Throw(int(args[0]))
    if verb == "bottle" and not args:
        return DeclareBottle()
    if verb == "play" and args:
        return parse_play(state, " ".join(args))
    if verb == "choose" and len(args) == 1:
        return parse_choice(state, args[0])
    if verb == "shuffle" and len(args) == 1:
        parts = args[0].split(",")
        if not all(p.isdigit() for p in parts):
            raise NotationError("A shuffle lists card numbers, comma-separated, top first.")
        return Shuffle(tuple(int(p) for p in parts))
    if verb == "draw" and len(args) == 1:
        if not args[0].isdigit():
            raise NotationError(f"A drawn card is given by its number, not {args[0]!r}.")
        return Draw(int(args[0]))
    if verb == "offer" and len(args) == 1:
        return Offer(colour_index(args[0]))
    if verb == "decline" and len(args) == 1:
        return Decline(colour_index(args[0]))
    if verb == "drank" and len(args) in (1, 2):
        return Drank(colour_index(args[0]), _reason(args[1]) if len(args) == 2 else None)
    if verb == "later" and len(args) == 2:
        return Later(colour_index(args[0]), _reason(args[1]))
    if verb == "duty" and len(args) == 2:
        if args[1] not in DUTY_NAMES:
            raise NotationError(f"Unknown duty {args[1]!r}: known are "
                                f"{', '.join(DUTY_NAMES)}.")
        return Duty(colour_index(args[0]), DUTY_NAMES[args[1]])
    raise NotationError(f"Bad action {text!r}: use throw N, throw owing, bottle, play SPEC, "
                        "choose FIELD, offer C, decline C, drank C [REASON], later C REASON, "
                        "duty C REASON, shuffle N,N,... or draw N.")


def format_action(state: State, action: Action) -> str:
    if isinstance(action, Throw):
        return f"throw {action.value}"
    if isinstance(action, DeclareBottle):
        return "bottle"
    if isinstance(action, Play):
        return "play " + format_play(state, action)
    if isinstance(action, Choose):
        return format_choice(state, action)
    if isinstance(action, Offer):
        return f"offer {COLOURS[action.colour]}"
    if isinstance(action, Decline):
        return f"decline {COLOURS[action.colour]}"
    if isinstance(action, Drank):
        why = "" if action.reason is None else f" {action.reason.value}"
        return f"drank {COLOURS[action.colour]}{why}"
    if isinstance(action, Later):
        return f"later {COLOURS[action.colour]} {action.reason.value}"
    if isinstance(action, ThrowOwing):
        return "throw owing"
    if isinstance(action, Shuffle):
        return "shuffle " + ",".join(map(str, action.order))
    if isinstance(action, Draw):
        return f"draw {action.card}"
    return f"duty {COLOURS[action.colour]} {DrinkReason(action.reason).value}"


__all__ = [
    "DUTY_NAMES",
    "NotationError",
    "colour_index",
    "format_action",
    "format_choice",
    "format_play",
    "format_position",
    "parse_action",
    "parse_choice",
    "parse_place",
    "parse_play",
    "parse_position",
    "place_text",
]
