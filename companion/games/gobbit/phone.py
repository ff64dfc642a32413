"""Gobbit's page for the phone view (:mod:`companion.web.snapshot`): the virtual deck's game
and referee mode (real cards), with the touches of the pads and the judge's ruling."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from companion.engines.errors import RulesError
from companion.games.gobbit import svg as gobbit_svg
from companion.games.gobbit.engine.cards import Card
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
from companion.games.gobbit.engine.rules import State, condition, on_turn, winners
from companion.games.gobbit.facts import GobbitFacts, RefereeFacts
from companion.games.gobbit.referee.model import RefereeModel, delta_text, target_label
from companion.web.snapshot import Player, Snapshot, Topic, TouchInfo, TouchRow, tail

TITLE = "Gobbit"
REFEREE_TITLE = "Gobbit (rozhodčí)"
LOG_LINES = 12
"""How many touches of the referee's rolling log a snapshot keeps (the latest)."""


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


def _info(touches: Sequence[Touch], ruling: Ruling | None, tops: Mapping[int, Card | None],
          log: Sequence[Touch] = (), provisional: bool = False,
          uncertainty_ms: float = 0.0) -> tuple[TouchInfo, dict[Touch, Verdict]]:
    verdicts = {v.touch: v for v in ruling.verdicts} if ruling is not None else {}
    why: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    if ruling is not None:
        why = tuple(why_sentence(v, dict(tops)) for v in ruling.verdicts
                    if v.kind in (Kind.FOUL, Kind.MISTAKE))
        calls = calls_text(ruling)
    info = TouchInfo(_log_rows(log), _moment_rows(touches, verdicts),
                      tuple(ruling_sentences(ruling)) if ruling is not None else (), why,
                      provisional, calls, uncertainty_ms)
    return info, verdicts


def game(state: State, *, events: Iterable[str] = (), touches: Sequence[Touch] = (),
           ruling: Ruling | None = None, provisional: bool = False,
           log: Sequence[Touch] = (), rules: Sequence[Topic] = (),
           uncertainty_ms: float = 0.0, judged_tops: Mapping[int, Card | None] | None = None
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
    return Snapshot("gobbit", TITLE, status, gobbit_svg.render(table), turn,
                    events=tail(events), rules=tuple(rules), touches=info, over=state.over)


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
    return Snapshot("gobbit", REFEREE_TITLE, status, gobbit_svg.render(table),
                    events=tail(events), rules=tuple(rules), touches=info)



def from_facts(facts: GobbitFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    """The page of the virtual deck's facts (:meth:`GobbitFacts.snapshot`)."""
    return game(facts.state, events=facts.events, touches=facts.touches, ruling=facts.ruling,
                provisional=facts.provisional, rules=rules,  # its moment is the touches
                uncertainty_ms=facts.uncertainty_ms, judged_tops=dict(facts.judged_tops))


def from_referee_facts(facts: RefereeFacts, rules: Sequence[Topic] = ()) -> Snapshot:
    """The page of referee mode's facts (:meth:`RefereeFacts.snapshot`)."""
    return referee_values(facts.seats, facts.log, facts.moment, facts.situation,
                          graveyard=facts.graveyard, events=facts.events, rules=rules)
