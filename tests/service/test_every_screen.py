"""Every screen of every game, rendered and checked: no text cut by the panel's edge or by an
ellipsis, no text without room, no mark drawn over a text or a selection bar
(:func:`companion.ui.screens.problems`).

The table is driven through the shell as people drive it: every set-up line and value,
whole games (people and computer seats, with the dice, without it, the dice lost), the
positions with the most moves and the longest words, every menu, settings and question,
every page of every rules topic, the winner, and in Gobbit the touch log, disputes, races,
the card editor and a whole virtual-deck game with its verdicts.

``COMPANION_SCREENS=DIR`` also writes every checked frame into DIR as a PNG (4x) to look at.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image

from companion.engines.clovece.game import State
from companion.engines.clovece.notation import parse_position
from companion.inputs.events import ButtonPress, DiceLink, Dropped, PadEvent, Rolled
from companion.inputs.pads import PadReleased, PadStuck, PadTouch
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.journal import Journal
from companion.service.prefs import Prefs
from companion.service.shell import Mode, Shell
from companion.ui.screens import layout, problems
from companion.ui.views import ListView, View, WinView

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)


class Table:
    """A shell on a fresh journal, a fake clock, and every distinct screen it has shown."""

    def __init__(self, path: Path, game: str, *, dice: bool = True, want_pads=None,
                 **defaults) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.ctx = HostContext(Journal(path / "g.journal"), Prefs(auto_delay=1.0),
                               rng=random.Random(5), dice=DiceStatus(configured=dice),
                               want_pads=want_pads or (lambda seats: None), defaults=defaults)
        self.shell = Shell(self.ctx, start_with=game)
        self.now = 100.0
        self.shell.begin(self.now)
        self.seen: dict[View, str] = {}
        self.note("start")

    def note(self, what: str) -> None:
        view = self.shell.view()
        self.seen.setdefault(view, what)

    def do(self, event, what: str = "", dt: float = 0.01) -> None:
        self.now += dt
        self.shell.handle(event, self.now)
        self.note(what or repr(event))

    def tick(self, dt: float) -> None:
        self.now += dt
        self.shell.tick(self.now)
        self.note(f"tick {dt}")

    def goto(self, label: str) -> None:
        view = self.shell.view()
        assert isinstance(view, ListView), view
        for _ in range(len(view.items)):
            now = self.shell.view()
            assert isinstance(now, ListView)
            if now.items[now.selected].startswith(label):
                return
            self.do(R, f"to {label}")
        raise AssertionError(f"{label!r} is not in {view.items}")

    def every_list_row(self, what: str) -> None:
        view = self.shell.view()
        assert isinstance(view, ListView)
        for _ in range(len(view.items)):
            self.do(R, what)


def walk_set_up(t: Table) -> None:
    """Every line of the set-up selected, every option through all its values."""
    t.every_list_row("set-up rows")
    view = t.shell.view()
    assert isinstance(view, ListView)
    keys = [k for k, _ in t.shell._setup_lines()]
    for key in keys:
        if key in ("game", "start"):
            continue
        t.shell.setup_index = [k for k, _ in t.shell._setup_lines()].index(key)
        option = next(o for o in t.shell.host.options() if o.key == key)
        for _ in option.values:
            t.do(S, f"set-up {key}")
            t.every_list_row("set-up rows after a change")


def start(t: Table) -> None:
    t.shell.setup_index = len(t.shell._setup_lines()) - 1
    t.do(S, "start")
    assert t.shell.mode is Mode.PLAY


def walk_menu(t: Table) -> None:
    """Every menu row, the settings with every value, the questions (answered no), the rules."""
    t.do(LONG, "menu")
    t.every_list_row("menu rows")
    t.goto("Nastavení")
    t.do(S, "settings")
    for label in ("Zvuk", "Sám táhne", "PC potvrdí", "Jas"):
        t.goto(label)
        for _ in range(6):
            t.do(S, f"settings {label}")
    t.goto("Zpět")
    t.do(S, "settings back")
    for label in ("Vrátit", "Nová hra", "Vypnout"):
        t.goto(label)
        t.do(S, f"question {label}")
        t.do(L, "no")
        if t.shell.mode is not Mode.MENU:  # "Není co vrátit": ● goes back to the game
            t.do(S, "back")
            t.do(LONG, "menu")
    t.goto("Pravidla")
    t.do(S, "rules")
    walk_rules(t)
    t.do(LONG, "back to the game")


def walk_rules(t: Table) -> None:
    """Every topic of the rules browser, every page of each."""
    topics = t.shell.view()
    assert isinstance(topics, ListView)
    for i in range(len(topics.items)):
        assert t.shell.browser is not None
        t.shell.browser.index, t.shell.browser.reading = i, False
        t.note("rules topic")
        t.do(S, "open a topic")
        pages = 0
        while t.shell.browser.reading and t.shell.browser.index == i and pages < 30:
            t.do(R, "next page")
            pages += 1


def play(t: Table, rng: random.Random, steps: int, choose: Callable[[Table], None]) -> None:
    for _ in range(steps):
        if t.shell.mode is not Mode.PLAY or t.shell.host.mode == "win":
            return
        choose(t)


def clovece_step(t: Table, rng: random.Random) -> None:
    host = t.shell.host
    s = host.state
    if s.roll is None:
        if host._manual_allowed():
            for _ in range(rng.randrange(3)):
                t.do(rng.choice((L, R)), "manual roll")
            t.do(S, "manual roll entered")
        elif host.deadline is not None:
            t.tick(2.0)
        else:
            t.do(Rolled(rng.randint(1, 6)), "dice roll")
        return
    if host.deadline is not None and (len(host.moves()) == 1 or rng.random() < 0.5):
        t.tick(host.deadline - t.now + 0.01)
        return
    if not host.computer_turn:
        for _ in range(rng.randrange(4)):
            t.do(R, "choose a move")
    t.do(S, "confirm the move")


def clovece_screens(tmp: Path) -> Iterator[tuple[View, str]]:
    rng = random.Random(11)
    # the set-up of a four-player table, a computer seat among them
    t = Table(tmp / "setup", "clovece", players=4, computer=("b",))
    walk_set_up(t)
    yield from t.seen.items()
    # whole games: with the dice, computer seats throwing themselves; then by buttons
    for n, (dice, extra) in enumerate(((True, {"computer": ("b", "y")}),
                                       (False, {"computer": ("g",), "players": 2}),
                                       (True, {"computer": ("r",), "computer_dice": True,
                                               "players": 3}))):
        t = Table(tmp / f"game{n}", "clovece", dice=dice, **extra)
        if dice:
            t.do(DiceLink(True), "dice up")
        start(t)
        play(t, rng, 250, lambda t: clovece_step(t, rng))
        if dice:
            t.do(DiceLink(False, "unplugged"), "dice lost")
            play(t, rng, 30, lambda t: clovece_step(t, rng))
            t.do(DiceLink(True), "dice back")
        t.do(Dropped(), "dice dropped")
        walk_menu(t)
        yield from t.seen.items()
    # the most moves and the longest words: four pieces out, three captures
    for computer in ((), ("r",)):
        t = Table(tmp / f"long{len(computer)}", "clovece", players=4, computer=computer)
        start(t)
        t.shell.host.play.state = State(parse_position(
            "r:0,12,25,33 b:15,h,h,h g:28,h,h,h y:36,h,h,h turn:r"), 3)
        t.shell.host.arm(t.now)
        t.note("four moves")
        for _ in range(4):
            t.do(R, "four moves")
        t.do(ButtonPress("help"), "why")
        walk_rules(t)
        t.do(LONG, "back")
        yield from t.seen.items()
    # the winner
    t = Table(tmp / "win", "clovece", players=4)
    start(t)
    t.shell.host.play.state = State(parse_position(
        "r:38,f2,f3,f4 b:h,h,h,h g:h,h,h,h y:h,h,h,h turn:r"))
    t.shell.host.arm(t.now)
    t.do(Rolled(2), "the last roll")
    t.tick(2.0)
    assert isinstance(t.shell.view(), WinView)
    t.do(S, "new game")
    yield from t.seen.items()


def gobbit_screens(tmp: Path) -> Iterator[tuple[View, str]]:
    rng = random.Random(7)
    for n, seats in enumerate((2, 4)):
        t = Table(tmp / f"cards{n}", "gobbit", seats=seats)
        walk_set_up(t)
        start(t)
        for i in range(12):
            seat, target = rng.randint(1, seats), rng.choice([*range(1, seats + 1), "g"])
            ms = 1000.0 + i * rng.choice((3.0, 40.0, 900.0))
            t.do(PadEvent(PadTouch(seat, target, ms, ms)), "touch")
        t.do(PadEvent(PadStuck(1, "g")), "stuck")
        t.do(PadEvent(PadStuck(2, 1)), "stuck")
        for _ in range(2):
            t.do(S, "dispute")
            for _ in range(12):
                t.do(R, "dispute pages")
            t.do(S, "cards")
            model = t.shell.host.cards
            for _ in model.fields():
                for _ in range(14):
                    t.do(R, "card values")
                t.do(S, "next field")
            t.do(R, "race")
            for _ in range(6):
                t.do(R, "race pages")
            t.do(L, "log")
        t.do(PadEvent(PadReleased(1, "g")), "released")
        walk_menu(t)
        yield from t.seen.items()
    for n, seats in enumerate((2, 4)):
        t = Table(tmp / f"virtual{n}", "gobbit", seats=seats)
        t.do(S, "to the virtual deck")
        start(t)
        for _ in range(400):
            model = t.shell.host.virtual
            if model is None or model.state.over:
                break
            roll = rng.random()
            if roll < 0.5:
                t.do(S, "flip")
            elif roll < 0.9:
                for i in range(rng.randint(1, 3)):
                    seat = rng.randint(1, seats)
                    target = rng.choice([*range(1, seats + 1), "g"])
                    ms = t.now * 1000 + i * 7
                    t.do(PadEvent(PadTouch(seat, target, ms, ms)), "touch")
                t.tick(2.0)
                for _ in range(3):
                    t.do(R, "verdict pages")
            else:
                t.do(L, "table")
        walk_menu(t)
        yield from t.seen.items()

    def refuse(seats):
        raise RuntimeError("GPIO busy")

    t = Table(tmp / "nopads", "gobbit", want_pads=refuse)
    start(t)
    yield from t.seen.items()


def check(screens: Iterator[tuple[View, str]], name: str) -> None:
    out = os.environ.get("COMPANION_SCREENS")
    failures: list[str] = []
    for n, (view, what) in enumerate(screens):
        for t in (0.0, 0.6):  # both blink phases
            image, inks = layout(view, t)
            for problem in problems(inks):
                failures.append(f"{name} ({what}): {problem}")
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            big = image.convert("L").resize((512, 256), Image.NEAREST)
            label = "".join(ch if ch.isalnum() else "-" for ch in what)[:40]
            big.save(Path(out) / f"{name}-{n:04d}-{label}.png")
    unique = list(dict.fromkeys(failures))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:40])


def test_every_clovece_screen_shows_its_whole_text_and_nothing_drawn_over_another(tmp_path):
    check(clovece_screens(tmp_path), "clovece")


def test_every_gobbit_screen_shows_its_whole_text_and_nothing_drawn_over_another(tmp_path):
    check(gobbit_screens(tmp_path), "gobbit")
