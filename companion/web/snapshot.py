"""Snapshots of a game for the phone view: pure builders from the engines' values.

A :class:`Snapshot` is everything the page shows at one moment: the game and its
Czech title, one Czech sentence on what happens now, whose turn it is (name,
colour and mark), the last throws, the last event lines, the board as SVG (two
layers, see :class:`~companion.web.svg.Drawing`), the drink ledger and "Účet"
(napij se), the touches and the last ruling (Gobbit), and the rules topics.
:meth:`Snapshot.to_json` makes it a JSON-able dict.

The builders read engine values only (states are immutable, so a builder may run
in another thread later: :meth:`companion.web.server.WebView.publish` accepts one
as a callable).  What the engines do not keep comes from the caller: the event
lines (Czech, already described), the throws of the last turn, the move to
highlight, the napij card drawn last, the drinks since the box was switched on,
and the rules topics (``companion.rules_text``).  The napij builder reads ``State``
fields only, never the engine's event classes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.engines.colours import COLOURS
from companion.engines.czech import MARK_NAME, PLAYER, PLAYER_LOWER
from companion.engines.errors import RulesError
from companion.games.clovece import svg as clovece_svg
from companion.games.clovece.engine.rules import Move, Position
from companion.games.gobbit import svg as gobbit_svg
from companion.games.gobbit.engine.describe import (
    CONDITION_SENTENCE,
    call_sentences,
    game_over_sentence,
    kind_word,
    ruling_sentences,
    why_sentence,
)
from companion.games.gobbit.engine.judge import (
    GRAVEYARD,
    Kind,
    Ruling,
    Situation,
    Touch,
    Verdict,
    judge,
)
from companion.games.gobbit.engine.rules import State as GobbitState
from companion.games.gobbit.engine.rules import condition, on_turn, winners
from companion.games.gobbit.referee.model import RefereeModel, delta_text, target_label
from companion.games.napij import svg as napij_svg
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.state import Phase, State
from companion.web.svg import Drawing

if TYPE_CHECKING:
    from companion.service.hosts.facts import CloveceFacts, GobbitFacts, NapijFacts, RefereeFacts

EVENT_LINES = 12
"""How many of the caller's event lines a snapshot keeps (the latest)."""
LOG_LINES = 12
"""How many touches of the referee's rolling log a snapshot keeps (the latest)."""

TITLES = {"clovece": "Člověče, nezlob se", "napij": "Člověče, napij se!", "gobbit": "Gobbit"}

Topic = tuple[str, str]


@dataclass(frozen=True)
class Player:
    """Who is on turn: a name, and for the colour games the colour letter and its mark."""

    name: str
    colour: str | None = None
    mark: str | None = None


@dataclass(frozen=True)
class LedgerRow:
    """One colour's line of the drink ledger (napij se)."""

    colour: str
    name: str
    mark: str
    owed: int
    """Drinks owed now."""
    glasses: int
    """Glasses to empty now."""
    drunk: int
    """Drinks drunk in this game."""
    tonight: int
    """Drinks drunk since the box was switched on ("Účet")."""
    why: str = ""
    """Each debt with its reason in words ("karta č. 23 a spadlá kostka")."""


@dataclass(frozen=True)
class TouchRow:
    """A touch as a line: ``n``-th, seat, what it touched, what it was, when."""

    n: int
    seat: int
    target: str
    kind: str
    """The judge's word (útok, obrana, faul, pozdě...) or ``""`` when not judged."""
    after: str
    """``0 ms``, ``+7 ms``: after the first touch of the moment (or the previous touch)."""
    tied: bool = False
    """Closer to the deciding touch than the pads can tell apart (D28): simultaneous."""


@dataclass(frozen=True)
class GobbitInfo:
    """The touch log, the latest moment with the judge's words, and the ruling."""

    log: tuple[TouchRow, ...] = ()
    moment: tuple[TouchRow, ...] = ()
    ruling: tuple[str, ...] = ()
    why: tuple[str, ...] = ()
    provisional: bool = False
    """The ruling of a moment still going on (the virtual deck applies it when it settles)."""
    calls: tuple[str, ...] = ()
    """How the first touch of each contested pile (or the race) was decided, honest about
    the pads' timing uncertainty (D28): a gap inside it is "simultaneous" and the rules'
    precedence decided; a clear gap is given with its margin."""
    uncertainty_ms: float = 0.0
    """The pads' timing uncertainty the moment is judged with (0: not known / exact)."""


@dataclass(frozen=True)
class Snapshot:
    game: str
    title: str
    status: str
    """One Czech sentence: whose turn it is and what is awaited, or who won."""
    board: Drawing
    turn: Player | None = None
    throws: tuple[int, ...] = ()
    events: tuple[str, ...] = ()
    rules: tuple[Topic, ...] = ()
    ledger: tuple[LedgerRow, ...] = ()
    card: str | None = None
    gobbit: GobbitInfo | None = None
    over: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Anything else a caller wants the page's JSON to carry (kept as given)."""

    def to_json(self) -> dict[str, Any]:
        """A dict of JSON types (lists for tuples); ``board`` holds both SVG layers.
        Written out by hand: ``dataclasses.asdict`` deep-copies and costs twice as much,
        and this runs on the server's thread for every action."""
        g = self.gobbit
        return {
            "game": self.game,
            "title": self.title,
            "status": self.status,
            "board": {"base": self.board.base, "top": self.board.top},
            "turn": None if self.turn is None else {
                "name": self.turn.name, "colour": self.turn.colour, "mark": self.turn.mark},
            "throws": list(self.throws),
            "events": list(self.events),
            "rules": [{"title": t, "text": x} for t, x in self.rules],
            "ledger": [{"colour": r.colour, "name": r.name, "mark": r.mark, "owed": r.owed,
                        "glasses": r.glasses, "drunk": r.drunk, "tonight": r.tonight,
                        "why": r.why}
                       for r in self.ledger],
            "card": self.card,
            "gobbit": None if g is None else {
                "log": [_row(r) for r in g.log], "moment": [_row(r) for r in g.moment],
                "ruling": list(g.ruling), "why": list(g.why), "provisional": g.provisional,
                "calls": list(g.calls), "uncertainty_ms": g.uncertainty_ms},
            "over": self.over,
            "extra": dict(self.extra),
        }


def _row(r: TouchRow) -> dict[str, Any]:
    return {"n": r.n, "seat": r.seat, "target": r.target, "kind": r.kind, "after": r.after,
            "tied": r.tied}


def _tail(lines: Iterable[str], n: int = EVENT_LINES) -> tuple[str, ...]:
    return tuple(lines)[-n:] if n else ()


def _colour_player(colour: int, names: Mapping[int, str] | None) -> Player:
    name = (names or {}).get(colour) or PLAYER[colour]
    return Player(name, COLOURS[colour], MARK_NAME[colour])


# --- Člověče, nezlob se ------------------------------------------------------------------


def clovece(pos: Position, *, events: Iterable[str] = (), throws: Sequence[int] = (),
            moved: Move | None = None, rules: Sequence[Topic] = (),
            names: Mapping[int, str] | None = None) -> Snapshot:
    """A Člověče position; ``throws`` the rolls of the turn so far or just played, ``moved``
    the last move (rung on the board), ``names`` colour -> a player's name."""
    if pos.winner is not None:
        status = f"Hra skončila, vyhrál {PLAYER_LOWER[pos.winner]}."
        turn = _colour_player(pos.winner, names)
    else:
        turn = _colour_player(pos.turn, names)
        status = f"Na tahu je {PLAYER_LOWER[pos.turn]}."
        if pos.tries:
            status = (f"Na tahu je {PLAYER_LOWER[pos.turn]}, hází o šestku "
                      f"už po {pos.tries + 1}. ze 3 pokusů.")
    return Snapshot("clovece", TITLES["clovece"], status, clovece_svg.render(pos, moved),
                    turn, tuple(throws), _tail(events), tuple(rules),
                    over=pos.winner is not None)


# --- Člověče, napij se! ------------------------------------------------------------------


def _napij_status(state: State) -> str:
    phase = state.phase
    if phase is Phase.OVER:
        assert state.winner is not None
        return f"Hra skončila, vyhrál {PLAYER_LOWER[state.winner]}."
    if phase is Phase.CHOOSE:
        assert state.pending is not None
        return f"{PLAYER[state.pending.colour]} vybírá, na čí figurku karta platí."
    who = PLAYER_LOWER[state.turn]
    if phase is Phase.PLAY:
        return f"Na tahu je {who} a táhne."
    if state.due(state.turn):
        return f"Na tahu je {who}, ale nejdřív musí vypít, co dluží."
    if state.debt(state.turn):  # incurred during this turn: drunk before the next one
        return f"Na tahu je {who} a hází kostkou; dluh vypije před svým příštím tahem."
    if state.with_bottle:
        return f"Na tahu je {who}, hází a hraje s láhví."
    return f"Na tahu je {who} a hází kostkou."


def napij(state: State, *, events: Iterable[str] = (), throws: Sequence[int] | None = None,
          moved: Iterable[str] = (), card: int | None = None,
          tonight: Sequence[int] | Mapping[int, int] | None = None,
          rules: Sequence[Topic] = (), names: Mapping[int, str] | None = None) -> Snapshot:
    """A napij se state; ``throws`` the values to show (default: the turn's so far),
    ``moved`` field names to ring, ``card`` the number of the card drawn last (a
    card waiting for a choice wins), ``tonight`` drinks per colour since the box was
    switched on (default: this game's)."""
    deck = state.rules.deck
    number = state.pending.card if state.pending is not None else card
    card_text = None
    if number is not None and number in deck.by_number:
        card_text = f"Karta {number}: {deck.card(number).text}"
    ledger = []
    for c in state.colours:
        since = state.drunk[c]
        if tonight is not None:
            since = tonight.get(c, since) if isinstance(tonight, Mapping) else tonight[c]
        ledger.append(LedgerRow(COLOURS[c], (names or {}).get(c) or PLAYER[c], MARK_NAME[c],
                                state.owed[c], state.glasses[c], state.drunk[c], since,
                                debts_text(state.debts_of(c))))
    if state.winner is not None:
        turn = _colour_player(state.winner, names)
    elif state.pending is not None:
        turn = _colour_player(state.pending.colour, names)
    else:
        turn = _colour_player(state.turn, names)
    return Snapshot("napij", TITLES["napij"], _napij_status(state),
                    napij_svg.render(state, moved), turn,
                    tuple(state.throws if throws is None else throws), _tail(events),
                    tuple(rules), tuple(ledger), card_text, over=state.winner is not None)


# --- Gobbit ---------------------------------------------------------------------------------


def _moment_rows(touches: Sequence[Touch], verdicts: Mapping[Touch, Verdict]) -> tuple[TouchRow, ...]:
    first = touches[0].ms if touches else 0.0
    rows = []
    for n, t in enumerate(touches, 1):
        v = verdicts.get(t)
        rows.append(TouchRow(n, t.seat, target_label(t.target), kind_word(v) if v else "",
                             "0 ms" if n == 1 else delta_text(t.ms - first),
                             v is not None and v.tied))
    return tuple(rows)


def _log_rows(log: Sequence[Touch]) -> tuple[TouchRow, ...]:
    """The rolling log: each touch with the time since the one before it."""
    rows = []
    start = max(0, len(log) - LOG_LINES)
    for i in range(start, len(log)):
        t = log[i]
        after = "" if i == 0 else delta_text(t.ms - log[i - 1].ms)
        rows.append(TouchRow(i + 1, t.seat, target_label(t.target), "", after))
    return tuple(rows)


def calls_text(ruling: Ruling) -> tuple[str, ...]:
    """Who touched each contested pile (or the graveyard) first, and how sure the pads are
    of it (D28), as the OLED's dispute says it; each call's first sentence names the pile."""
    out: list[str] = []
    for call in ruling.calls:
        sentences = call_sentences(ruling, call.target)
        if not sentences:
            continue
        where = "Hřbitov" if call.target == GRAVEYARD else f"Kupička hráče {call.target}"
        out.append(f"{where}: {sentences[0]}")
        out += sentences[1:]
    return tuple(out)


def _info(touches: Sequence[Touch], ruling: Ruling | None, tops: Mapping[int, Any],
          log: Sequence[Touch] = (), provisional: bool = False,
          uncertainty_ms: float = 0.0) -> tuple[GobbitInfo, dict[Touch, Verdict]]:
    verdicts = {v.touch: v for v in ruling.verdicts} if ruling is not None else {}
    why: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    if ruling is not None:
        why = tuple(why_sentence(v, dict(tops)) for v in ruling.verdicts
                    if v.kind in (Kind.FOUL, Kind.MISTAKE))
        calls = calls_text(ruling)
    info = GobbitInfo(_log_rows(log), _moment_rows(touches, verdicts),
                      tuple(ruling_sentences(ruling)) if ruling is not None else (), why,
                      provisional, calls, uncertainty_ms)
    return info, verdicts


def gobbit(state: GobbitState, *, events: Iterable[str] = (), touches: Sequence[Touch] = (),
           ruling: Ruling | None = None, provisional: bool = False,
           log: Sequence[Touch] = (), rules: Sequence[Topic] = (),
           uncertainty_ms: float = 0.0, judged_tops: Mapping[int, Any] | None = None
           ) -> Snapshot:
    """A Gobbit game dealt by the companion (the virtual deck): ``touches`` and ``ruling``
    are the latest moment and what the judge made of it (``provisional`` while the
    moment goes on), ``log`` the touches to list, ``uncertainty_ms`` the pads' timing
    uncertainty in force (D28; each call of the ruling says its own), ``judged_tops`` the
    top cards the ruling was judged with (a foul's reason names them; default: the state's)."""
    turn_seat = on_turn(state)
    tops = {s: state.top(s) for s in state.seats}
    info, verdicts = _info(touches, ruling, tops if not judged_tops else judged_tops, log,
                           provisional, uncertainty_ms)
    cond = condition(state)
    table = gobbit_svg.Table(
        gobbit_svg.seats_of(tops, len(state.seats), [len(p) for p in state.piles],
                            [len(d) for d in state.decks], state.ghosts, state.out),
        None if state.over else turn_seat, bool(state.graveyard), len(state.graveyard),
        cond, state.gorilla, tuple(touches), verdicts)
    if state.over:
        status = game_over_sentence(winners(state))
    elif state.gorilla is not None:
        status = f"Gorila! Hráč {state.gorilla} smí napadnout kteroukoli kupičku."
    elif turn_seat is None:
        status = "Nikdo už nemá balíček, hra se uzavírá."
    else:
        status = f"Kartu otáčí hráč {turn_seat}."
    if cond is not None and not state.over:
        status += " " + CONDITION_SENTENCE[cond]
    turn = Player(f"Hráč {turn_seat}") if turn_seat is not None and not state.over else None
    return Snapshot("gobbit", TITLES["gobbit"], status, gobbit_svg.render(table), turn,
                    events=_tail(events), rules=tuple(rules), gobbit=info, over=state.over)


def referee(model: RefereeModel, *, events: Iterable[str] = (),
            rules: Sequence[Topic] = ()) -> Snapshot:
    """Referee mode with real cards: the top cards the players entered, the touch log,
    the latest moment and the judge's ruling on it.  The model is mutable, so call
    this on the thread that owns it (or hand :func:`referee_values` a copy of its values)."""
    moment = tuple(model.latest_moment())
    return referee_values(model.seats, tuple(model.log), moment, model.situation(moment),
                          graveyard=model.cards.graveyard, events=events, rules=rules)


def referee_values(seats: int, log: Sequence[Touch], moment: Sequence[Touch],
                   situation: Situation, *, graveyard: bool = False,
                   events: Iterable[str] = (), rules: Sequence[Topic] = ()) -> Snapshot:
    """Referee mode from plain values: the touch log, the latest moment, and the situation
    the judge reads (the entered cards, the pads' timing uncertainty; its touches are the
    moment's), ``graveyard`` whether cards lie on the graveyard.  The ruling is made here."""
    ruling: Ruling | None
    try:
        ruling = judge(replace(situation, touches=tuple(moment))) if moment else None
    except RulesError:  # entered cards that make no sense: no ruling to show
        ruling = None
    sit = situation
    info, verdicts = _info(moment, ruling, sit.tops, log, uncertainty_ms=sit.uncertainty_ms)
    table = gobbit_svg.Table(
        gobbit_svg.seats_of(dict(sit.tops), seats, ghosts=sit.ghosts),
        None, graveyard or sit.expert is not None, None, sit.expert, sit.gorilla,
        tuple(moment), verdicts)
    if not log:
        status = "Rozhodčí čeká na první dotek."
    elif ruling is None:
        status = "Rozhodčí zapisuje doteky na podložkách."
    elif ruling.gobbit is not None:
        status = ruling_sentences(ruling)[0]  # the panel's words, a tie said as one
    else:
        status = "Rozhodčí rozsoudil poslední spor, verdikt je níže."
    return Snapshot("gobbit", "Gobbit (rozhodčí)", status, gobbit_svg.render(table),
                    events=_tail(events), rules=tuple(rules), gobbit=info)


# --- from the hosts' facts (companion.service.hosts.facts names these builders) -------------


def _computer(computer: frozenset[int],
              levels: tuple[tuple[int, str], ...] = ()) -> dict[int, str]:
    level = dict(levels)  # "Zelený – počítač, silný"; the page adds "(mark)"
    return {c: f"{PLAYER[c]} – počítač" + (f", {level[c]}" if c in level else "")
            for c in computer}


def clovece_facts(facts: CloveceFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    return clovece(facts.pos, events=facts.events, throws=facts.throws, moved=facts.moved,
                   rules=rules, names=_computer(facts.computer, facts.levels))


def napij_facts(facts: NapijFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    return napij(facts.state, events=facts.events, throws=facts.throws, moved=facts.moved,
                 card=facts.card, tonight=facts.tonight or None, rules=rules,
                 names=_computer(facts.computer, facts.levels))


def gobbit_facts(facts: GobbitFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    return gobbit(facts.state, events=facts.events, touches=facts.touches, ruling=facts.ruling,
                  provisional=facts.provisional, rules=rules,  # its moment is the touches
                  uncertainty_ms=facts.uncertainty_ms, judged_tops=dict(facts.judged_tops))


def referee_facts(facts: RefereeFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    return referee_values(facts.seats, facts.log, facts.moment, facts.situation,
                          graveyard=facts.graveyard, events=facts.events, rules=rules)


# --- no game in play -------------------------------------------------------------------------


def waiting(game: str, title: str, *, rules: Sequence[Topic] = ()) -> Snapshot:
    """The table is choosing or setting up a game (``title``): nothing to draw yet."""
    return Snapshot(game, title, f"U stolu se chystá nová hra: {title}.", Drawing("", ""),
                    rules=tuple(rules))
