"""A night of napij se at one table, measured: is it fair to people who do what they are told?

A seeded evening through the real service - the App built from a configuration
(the shell, the napij host, the journal with fsync, "Účet" in the data folder,
the renderer on luma's dummy display, gpiozero mock pins) - with its loop's
steps taken here one after another on a virtual clock (an input, the timers,
a frame), so the evening takes seconds, not hours.  Four players: three people's
seats driven by a robot that presses what a careful player presses (it throws
when a throw is wanted, drinks and presses ● on every banner, moves the pieces
and confirms with ●, enters the printed card it took; now and then the die
falls off the table), and one computer seat.  Six games in a row with the
virtual deck, then two with a printed deck (the robot keeps the shuffled pile
and enters each card it draws), set up through the set-up screen.

Printed: the counts the evening must have -

* debts that arose only from reading a banner: a person asked to pay a debt
  before a throw although they never answered a banner with "◀ později";
* penalties (void throws) for a person who pressed ● on every banner;
* the drinks of the ledger (drunk + owed at each game's end) and the drinks
  the journal's own records give reasons for (every duty replayed from the
  journal: its reason and drinks); the two must be equal, and no debt may be
  without a reason;
* "Účet" (tonight, per colour, from the tally file) and the sum of the drinks
  drunk in the eight journals.

    .venv/bin/python benchmarks/napij_night.py [--seed 7] [--virtual 6] [--printed 2]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.games import playable

STEP = 0.25
"""Seconds of the virtual clock between the loop's steps (it ticks 4 times a second)."""
MAX_STEPS = 60_000
"""Per game: a safety net (a game of four takes a few thousand steps)."""


@dataclass
class Counts:
    games: int = 0
    steps: int = 0
    presses: int = 0
    rolls: int = 0
    drops: int = 0
    banners_answered: int = 0
    cards_entered: int = 0
    asked_to_pay: int = 0
    """A person asked for a debt before a throw (the robot never says "později")."""
    laters: int = 0
    """Journal records of "◀ později" (the robot never presses it)."""
    void_throws: int = 0
    ledger_drinks: int = 0
    reasoned_drinks: int = 0
    debts_without_reason: int = 0
    ucet: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    journal_drunk: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    winners: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Table:
    """The service of a table, its loop's steps taken one by one on a virtual clock."""

    def __init__(self, data: Path, seed: int, players: int = 4) -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.devices.display import create_device
        from companion.devices.voice import SilentAnnouncer
        from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS
        from companion.service.app import build_app
        from companion.service.config import Config

        base = Config()
        last = COLOURS[SEATS_BY_PLAYERS[players][-1]]  # the computer's seat
        cfg = replace(base, display=replace(base.display, driver="dummy"),
                      game=replace(base.game, name="napij", players=players, computer=(last,)),
                      service=replace(base.service, data_dir=str(data), pin_factory="mock",
                                      shutdown_command=""),
                      web=replace(base.web, enabled=False))
        self.app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                             dice_port="", rng=random.Random(seed), announcer=SilentAnnouncer())
        self.app.ctx.dice.configured = self.app.ctx.dice.up = True  # the dice is on the table
        self.now = 1000.0
        self.shell = self.app.controller
        self.shell.begin(self.now)
        self.app.service.draw(self.now)

    @property
    def host(self) -> Any:
        """The napij host of the table."""
        from companion.games.napij.host import NapijHost

        host = self.shell.host
        assert isinstance(host, NapijHost)
        return host

    def setup_list(self) -> tuple[tuple[str, ...], int]:
        """The set-up screen's lines and the one selected."""
        from companion.ui.views import ListView

        view = self.shell.view()
        assert isinstance(view, ListView)
        return view.items, view.selected

    def do(self, event: Any) -> None:
        """One input, then the timers and the frame, as the loop does."""
        self.shell.handle(event, self.now)
        self.step()

    def step(self, seconds: float = 0.0) -> None:
        self.now += seconds
        self.shell.tick(self.now)
        self.app.service.draw(self.now)

    def wait(self) -> None:
        """Let the virtual clock run to the next deadline (or a loop's tick)."""
        deadline = self.shell.next_deadline()
        self.step(max(0.01, (deadline - self.now + 0.01) if deadline is not None else STEP))


def set_up(t: Table, physical: bool) -> None:
    """From the set-up screen: the deck the night wants, then "Začít hru"."""
    from companion.inputs.events import ButtonPress

    want = "Karty: papírové" if physical else "Karty: na displeji"
    for _ in range(8):  # the set-up is a list: ▶ to a line, ● takes its next value
        items, _selected = t.setup_list()
        line = next(i for i, text in enumerate(items) if text.startswith("Karty: "))
        if items[line] == want:
            break
        while t.setup_list()[1] != line:
            t.do(ButtonPress("right"))
        t.do(ButtonPress("select"))
    while t.setup_list()[1] != len(t.setup_list()[0]) - 1:
        t.do(ButtonPress("right"))
    t.do(ButtonPress("select"))  # ▶ Začít hru
    assert t.host.in_game, "the game did not start"


def play_game(t: Table, rng: random.Random, counts: Counts) -> list[dict[str, Any]]:
    """One game, the robot at the table, until its winner's "Účet"; its journal records."""
    from companion.games.napij.engine.state import Phase
    from companion.games.napij.host import Mode
    from companion.inputs.events import ButtonPress, Dropped, Rolled
    from companion.service.hosts.base import Expect

    host = t.host
    press = {name: ButtonPress(name) for name in ("left", "right", "select")}
    pile: list[int] = []
    asked = None
    for _ in range(MAX_STEPS):
        counts.steps += 1
        expect = host.expects()
        if host.turn.mode is Mode.TALLY:
            break
        s = host.turn.state
        if host.turn.asked is not None and host.turn.asked != asked:
            asked = host.turn.asked
            if not host.turn.is_computer(asked[0]):
                counts.asked_to_pay += 1
        if expect is Expect.WAIT or expect is None:
            t.wait()
        elif expect is Expect.OVER:
            t.do(press["select"])  # the winner's screen: on to "Účet"
            counts.presses += 1
        elif expect is Expect.ROLL:
            if rng.random() < 0.01:
                t.do(Dropped())  # the die falls off the table
                counts.drops += 1
            else:
                t.do(Rolled(rng.randint(1, 6)))
                counts.rolls += 1
        elif expect is Expect.CONFIRM:
            if host.turn.shown is not None and host.turn.shown.drank:
                counts.banners_answered += 1
            t.do(press["select"])  # drunk / moved / read: ●
            counts.presses += 1
        elif s.phase is Phase.DRAW:  # a printed card: the top of the robot's pile
            if not pile:
                pile = list(s.rules.deck.numbers)
                rng.shuffle(pile)
            card = pile.pop(0)
            pile.append(card)
            numbers = s.rules.deck.numbers
            while numbers[host.turn.card_index] != card:
                t.do(press["right"])
                counts.presses += 1
            t.do(press["select"])  # the number
            t.do(press["select"])  # its text read: it counts
            counts.presses += 2
            counts.cards_entered += 1
        else:  # a person picks a play or a card's choice
            for _ in range(rng.randrange(3)):
                t.do(press["right"])
                counts.presses += 1
            t.do(press["select"])
            counts.presses += 1
    else:
        raise SystemExit("napij_night: a game did not end")
    from companion.storage.journal import Journal

    return Journal(t.app.ctx.journal.path).load()


def audit(records: list[dict[str, Any]], counts: Counts) -> None:
    """Replay one game's journal: every drink of the ledger has a journaled reason."""
    from companion.engines.game import replay
    from companion.games.napij.engine.events import MustDrink, VoidThrow
    from companion.games.napij.engine.game import GAME

    setup = GAME.setup_from_record(records[0])
    state = GAME.new_game(setup)
    reasoned = sum(d.drinks for d in state.debts)  # the opening toast
    computer = {"rbgy".index(c) for c in records[0].get("computer", ())}
    for record in records[1:]:
        action = GAME.decode(record, state)
        state, events = GAME.apply(state, action)
        reasoned += sum(e.drinks for e in events if isinstance(e, MustDrink))
        counts.void_throws += sum(1 for e in events
                                  if isinstance(e, VoidThrow) and e.colour not in computer)
        counts.laters += record.get("t") == "later"
    assert replay(GAME, records).state == state
    counts.ledger_drinks += sum(state.drunk) + sum(state.debt(c) for c in state.colours)
    counts.reasoned_drinks += reasoned
    counts.debts_without_reason += sum(1 for d in state.debts if d.reason is None)
    for c in state.colours:
        counts.journal_drunk[c] += state.drunk[c]
    counts.winners.append("rbgy"[state.winner] if state.winner is not None else "-")


def evening(seed: int, virtual: int = 6, printed: int = 2, players: int = 4) -> Counts:
    from companion.games.napij.drinks import TALLY_NAME
    from companion.inputs.events import ButtonPress

    counts = Counts()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="napij-night-") as tmp:
        data = Path(tmp)
        t = Table(data, seed, players)
        for game in range(virtual + printed):
            set_up(t, physical=game >= virtual)
            records = play_game(t, rng, counts)
            audit(records, counts)
            counts.games += 1
            t.do(ButtonPress("select"))  # "Účet": ● a new game's set-up
        tally = json.loads((data / TALLY_NAME).read_text("utf-8"))
        for value in tally["games"].values():
            for c in range(4):
                counts.ucet[c] += value[c]
        shutil.rmtree(data / "boards", ignore_errors=True)
    counts.seconds = time.perf_counter() - t0
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--virtual", type=int, default=6, help="games with the virtual deck")
    ap.add_argument("--printed", type=int, default=2, help="then games with a printed deck")
    args = ap.parse_args()
    c = evening(args.seed, args.virtual, args.printed)
    print(f"a night of napij se, seed {args.seed}: {c.games} games ({args.virtual} virtual "
          f"deck, {args.printed} printed deck), 3 people + 1 computer seat, winners "
          f"{' '.join(c.winners)}; {c.steps} loop steps in {c.seconds:.1f} s")
    print(f"  the robot: {c.rolls} throws, {c.drops} dropped dice, {c.presses} presses, "
          f"{c.banners_answered} drink banners answered with ●, {c.cards_entered} printed "
          "cards entered")
    print(f"  debts that arose only from reading a banner: {c.asked_to_pay} "
          f"(\"později\" records: {c.laters})")
    print(f"  penalties (void throws) for people who pressed ● on every banner: "
          f"{c.void_throws}")
    print(f"  drinks in the ledger: {c.ledger_drinks}; with a journaled reason: "
          f"{c.reasoned_drinks}; debts without a reason: {c.debts_without_reason}")
    print(f"  Účet (tonight, r b g y): {' '.join(map(str, c.ucet))}; the journals' drinks: "
          f"{' '.join(map(str, c.journal_drunk))}")
    fair = (c.asked_to_pay == 0 and c.void_throws == 0 and c.debts_without_reason == 0
            and c.ledger_drinks == c.reasoned_drinks and c.ucet == c.journal_drunk)
    print(f"  fair to a careful table: {'yes' if fair else 'NO'}")
    return 0 if fair else 1


if __name__ == "__main__":
    sys.exit(main())
