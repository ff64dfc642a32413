"""Virtual-deck mode: the companion deals, shows every seat's top card and rules as touches come.

The deck lives in the engine (:mod:`companion.games.gobbit.engine.rules`); the
shuffle comes in as a permutation of the deck (the caller owns the randomness:
:func:`shuffle_order` with a seeded ``random.Random``).  ● flips for the seat on
turn (or ends the game when nobody can flip).  The touches of one moment are
judged as they arrive (a provisional ruling on the screen) and applied once the
table has been quiet for ``settle_s`` seconds or at the next flip.  A verdict
longer than one screen has pages: ▶ turns them (past the last one, back to the
table), ◀ goes back to the table; on the table ◀ ▶ show the last verdict again.  ``now`` is
the host's monotonic clock in seconds; it only decides when a moment is over,
touch order always comes from the pad edge times.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence

from companion.games.gobbit.engine.cards import Card, standard_deck
from companion.games.gobbit.engine.describe import (
    CONDITION_LABEL,
    card_name,
    describe_event,
    game_over_sentence,
    ruling_sentences,
    why_sentence,
)
from companion.games.gobbit.engine.judge import Kind, Ruling, Touch, judge
from companion.games.gobbit.engine.rules import (
    Action,
    BecameGhost,
    ConditionChanged,
    Event,
    Finish,
    Flip,
    GameEnded,
    Judged,
    LeftGame,
    State,
    Touches,
    apply,
    condition,
    legal_actions,
    new_game,
    on_turn,
    replay,
    situation,
    winners,
)
from companion.games.gobbit.referee.model import touch_of
from companion.inputs.events import Button
from companion.inputs.pads import Pad, PadLink, PadReleased, PadSignal, PadStuck, PadTouch
from companion.ui.referee import BODY_LINES, WIDTH, Screen, paginate, row, wrap

SETTLE_S = 1.5
HISTORY = 12
"""Event lines kept in :attr:`VirtualDeckModel.history`."""
VERDICT_KEYS = "●otočit ▶více"
VERDICT_KEYS_ONE_PAGE = "●otočit ▶stůl"
"""The verdict's last line: ● settles it and the next card is flipped, ▶ the next page (after
the last: the table)."""


def shuffle_order(cards: int, rng: random.Random) -> list[int]:
    """A shuffle as data: a permutation of ``range(cards)`` drawn from ``rng``."""
    order = list(range(cards))
    rng.shuffle(order)
    return order


class VirtualDeckModel:
    """A Gobbit game dealt by the companion and refereed touch by touch."""

    def __init__(self, seats: int, order: Sequence[int] | None, *, first: int = 1,
                 rules: Iterable[str] = (), expert: bool = False, settle_s: float = SETTLE_S,
                 deck: Sequence[Card] | None = None, actions: Sequence[Action] = (),
                 record: Callable[[Action, State], None] | None = None,
                 uncertainty_ms: float = 0.0, start: State | None = None) -> None:
        rules = frozenset(rules)
        if start is None:
            cards = tuple(deck) if deck is not None else standard_deck(rules)
            if order is None or sorted(order) != list(range(len(cards))):
                raise ValueError(f"The shuffle must be a permutation of the {len(cards)} cards.")
            start = new_game(seats, [cards[i] for i in order], first, rules, expert)
        elif len(start.decks) != seats or start.rules != rules or start.expert != expert:
            raise ValueError("The saved state is not of this table's seats and rules.")
        self.start: State = start
        """The dealt table (or a journal's checkpoint: the state the game resumes from)."""
        self.state, done = replay(self.start, actions)  # a journaled game resumes where it was
        self.actions: list[Action] = list(actions)
        """Every action applied since ``start``, in order: ``replay(start, actions)`` gives
        ``state`` again."""
        self.record = record or (lambda action, after: None)
        """Called with each new action and the state after it, once the rules took it and
        before the state moves: the host journals it there (a failure raises and nothing
        changes)."""
        self.settle_s = settle_s
        self.uncertainty_ms = uncertainty_ms
        """The pads' timing uncertainty (D28) the next moments are judged with (each
        judged moment keeps its own in the journal)."""
        self.moment: list[Touch] = []
        self.provisional: Ruling | None = None
        self.last_lines: list[str] = []
        self.show_ruling = False
        self.page = 0
        self.stuck: set[Pad] = set()
        self.link_down = False
        self._last_arrival: float | None = None
        self.last_touches: tuple[Touch, ...] = ()
        """The touches of the last moment applied, and the judge's ruling on them."""
        self.last_ruling: Ruling | None = None
        self.judged_tops: dict[int, Card | None] = {}
        """The top cards :attr:`last_ruling` was judged with (its foul's reason names them)."""
        self.history: deque[str] = deque(maxlen=HISTORY)
        """The latest events in words (flips, rulings with why a touch was a foul, ghosts,
        the end): the phone's event list."""
        touched = [a for a in actions if isinstance(a, Touches)]
        judged = [e for e in done if isinstance(e, Judged)]
        if touched and judged:
            self.last_touches, self.last_ruling = touched[-1].touches, judged[-1].ruling

    # --- inputs ------------------------------------------------------------------

    def on_pad_event(self, event: PadSignal, now: float) -> None:
        if isinstance(event, PadStuck):
            self.stuck.add(event.pad)
            return
        if isinstance(event, PadReleased):
            self.stuck.discard(event.pad)
            return
        if isinstance(event, PadLink):
            self.link_down = not event.up
            if event.up:
                self.stuck.clear()
            return
        assert isinstance(event, PadTouch)
        if self.state.over:
            return
        self.moment.append(touch_of(event))
        self._last_arrival = now
        self.provisional = judge(situation(self.state, self.moment, self.uncertainty_ms))

    def on_button(self, button: Button, now: float) -> None:
        if button == Button.SELECT:
            self.flip()
        elif button == Button.RIGHT and self.show_ruling:
            self.page += 1
            if self.page >= len(self._verdict_pages()):
                self.show_ruling, self.page = False, 0
        elif button in (Button.LEFT, Button.RIGHT):
            self.show_ruling, self.page = not self.show_ruling, 0

    @property
    def settles_at(self) -> float | None:
        """When the pending moment will be applied by :meth:`poll` (``None``: nothing pending)."""
        if not self.moment or self._last_arrival is None:
            return None
        return self._last_arrival + self.settle_s

    def poll(self, now: float) -> None:
        """Apply the moment once no touch has come for ``settle_s`` seconds."""
        if self.moment and self._last_arrival is not None \
                and now - self._last_arrival >= self.settle_s:
            self.commit()

    # --- the game ------------------------------------------------------------------

    def _do(self, action: Action) -> list[Event]:
        after, events = apply(self.state, action)
        self.record(action, after)  # on disk before the state (and the screen) moves
        self.state = after
        self.actions.append(action)
        return events

    def commit(self) -> list[Event]:
        """Judge the pending touches and move the cards."""
        if not self.moment:
            return []
        tops = {seat: self.state.top(seat) for seat in self.state.seats}  # as judged
        self.judged_tops = tops
        events = self._do(Touches(tuple(self.moment), self.uncertainty_ms))
        self.last_touches = tuple(self.moment)
        self.moment, self.provisional, self._last_arrival = [], None, None
        lines: list[str] = []
        for e in events:
            if isinstance(e, Judged):
                told = ruling_sentences(e.ruling) + [
                    why_sentence(v, tops) for v in e.ruling.verdicts
                    if v.kind in (Kind.FOUL, Kind.MISTAKE)]  # a foul says why, as on the phone
                lines += told
                self.history.extend(told)
                self.last_ruling = e.ruling
            elif isinstance(e, BecameGhost | LeftGame | ConditionChanged | GameEnded):
                lines.append(describe_event(e))
                self.history.append(lines[-1])
        self.last_lines = lines
        self.show_ruling, self.page = True, 0
        return events

    def flip(self) -> list[Event]:
        """● : settle the moment, then the seat on turn flips (or the game ends)."""
        events = self.commit()
        if self.state.over:
            return events
        legal = legal_actions(self.state)
        action: Action = Finish() if legal == [Finish()] else Flip(on_turn(self.state) or 0)
        new = self._do(action)
        self.last_lines = [describe_event(e) for e in new]
        self.history.extend(self.last_lines)
        self.show_ruling, self.page = self.state.over, 0
        return events + new

    # --- the screen -------------------------------------------------------------------

    def _verdict_pages(self) -> list[Screen]:
        """The ruling's sentences, the last line of each page saying what the buttons do."""
        pages = paginate([("Verdikt", [wrap(s) for s in self.last_lines])], BODY_LINES - 1)
        keys = VERDICT_KEYS if len(pages) > 1 else VERDICT_KEYS_ONE_PAGE
        return [Screen(p.title, (*p.lines, keys)) for p in pages]

    def screen(self) -> Screen:
        if self.moment and self.provisional is not None:
            pages = paginate([("Verdikt (běží)",
                               [wrap(s) for s in ruling_sentences(self.provisional)])])
            return pages[0] if len(pages) == 1 else Screen(
                pages[0].title, (*pages[0].lines[:BODY_LINES - 1], "…"))
        if self.show_ruling and self.last_lines:
            pages = self._verdict_pages()
            return pages[min(self.page, len(pages) - 1)]
        return self._table()

    def _table(self) -> Screen:
        st = self.state
        turn = on_turn(st)
        if st.over:
            title = "Konec hry"
        elif st.gorilla is not None:
            title = f"Gorila! Útočí H{st.gorilla}"
        elif condition(st) is not None:
            cond = condition(st)
            assert cond is not None
            title = CONDITION_LABEL[cond]
        else:
            title = f"Na tahu: hráč {turn}" if turn else "Nikdo nemá balíček"
        lines = [self._seat_row(s, turn) for s in st.seats]
        spare = BODY_LINES - len(lines)
        if spare > 0:
            extra = game_over_sentence(winners(st)) if st.over else (
                self.last_lines[-1] if self.last_lines else "")
            words = wrap(extra) if extra else []
            lines += words if len(words) <= spare else ["◀▶ celá zpráva"]
        if self.link_down and len(lines) < BODY_LINES:
            lines.append("Podložky odpojené!")
        elif self.stuck and len(lines) < BODY_LINES:
            lines.append("Zaseknutá podložka!")
        return Screen(title, tuple(lines[:BODY_LINES + 4]))

    def _seat_row(self, seat: int, turn: int | None) -> str:
        st = self.state
        mark = "▶" if seat == turn and not st.over else " "
        count = str(len(st.deck(seat)) + (len(st.pile(seat)) if st.over else 0))
        if seat in st.ghosts:
            name = "duch"
        elif seat in st.out:
            name = "mimo hru"
        else:
            top = st.top(seat)
            name = card_name(top) if top is not None else "bez karty"
            if len(f"{mark}{seat} {name} {count}") > WIDTH and top is not None:
                name = card_name(top, short=True)
        return row(f"{mark}{seat} {name}", count)
