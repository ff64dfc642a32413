"""Every screen of every game, rendered and checked: no text cut by the panel's edge or by an
ellipsis, no text without room, no mark drawn over a text or a selection bar
(:func:`companion.ui.screens.problems`).

Every game of the registry (and the tiny game of ``tests/tinygame``, registered as a
contributor registers one) goes through one walk that names no game: through the shell as
people drive it, every set-up line and value, on each line with the dice and without it a
whole game with a computer seat played by what the host expects
(:class:`~companion.service.hosts.base.Expecting`), the dice lost and back, the shell's
every line to the game's screen, every menu row, setting and question, the hint, every page
of every rules topic, the winner.  Written by hand, beside it, only what that walk cannot
reach (the list above :func:`clovece_screens`): positions set directly, pad touches,
a family's files, the printed deck, the duties from the menu.

``COMPANION_SCREENS=DIR`` also writes every checked frame into DIR as a PNG (4x) to look at.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from companion.games import GamePlugin, playable
from companion.games.clovece.engine.game import State
from companion.games.clovece.engine.notation import parse_position
from companion.games.napij.engine import deck as deck_module
from companion.games.napij.engine.board import default_board_text
from companion.games.napij.engine.notation import parse_position as parse_napij
from companion.games.napij.engine.state import default_rules
from companion.games.napij.host import ASK_GRACE
from companion.games.napij.host import Mode as NapijMode
from companion.games.napij.screens import PAGE_SECONDS, schedule
from companion.games.napij.views import NapijView
from companion.inputs.events import ButtonPress, DiceLink, Dropped, PadEvent, Rolled
from companion.inputs.pads import PadReleased, PadStuck, PadTouch
from companion.service.hosts.base import DiceStatus, Expect, Expecting, HostContext
from companion.service.shell import Mode, Shell, tables
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.screens import layout, problems
from companion.ui.views import ListView, MessageView, View
from tests.conformance.games import NEWS, entries, ids, registered

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)


class Table:
    """A shell on a fresh journal, a fake clock, and every distinct screen it has shown."""

    def __init__(self, path: Path, game: str, *, dice: bool = True, want_pads=None,
                 data: Path | None = None, seed: int = 5, **defaults) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.ctx = HostContext(Journal(path / "g.journal"), Prefs(auto_delay=1.0),
                               rng=random.Random(seed), dice=DiceStatus(configured=dice),
                               want_pads=want_pads or (lambda seats: None), defaults=defaults,
                               data=data)
        self.shell = Shell(self.ctx, start_with=game, games=playable())
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
    for label in ("Zvuk", "Sám táhne", "PC potvrdí", "Jas", "Nápověda tahu"):
        t.goto(label)
        for _ in range(6):
            t.do(S, f"settings {label}")
    t.goto("Zpět")
    t.do(S, "settings back")
    if "Nápověda tahu" in t.shell.menu_labels():
        t.goto("Nápověda tahu")
        see_hint(t, S, "hint from the menu")
        t.do(LONG, "menu")
    for label in ("Vrátit", "Nová hra", "Vypnout"):
        t.goto(label)
        t.do(S, f"question {label}")
        t.do(L, "no")
        if t.shell.mode is not Mode.MENU:  # "Není co vrátit": ● goes back to the game
            t.do(S, "back")
            t.do(LONG, "menu")
    t.goto("Telefon")
    t.do(S, "telefon")  # without a phone view: how to turn it on
    assert t.shell.mode is Mode.PHONE
    t.do(S, "telefon back")
    t.do(LONG, "menu")
    t.goto("Pravidla")
    t.do(S, "rules")
    walk_rules(t)
    t.do(LONG, "back to the game")


def see_hint(t: Table, button: object, what: str) -> None:
    """Ask for the hint, see every page of it, and go back to the game."""
    t.do(button, what)
    assert t.shell.mode is Mode.HINT
    view = t.shell.view()
    assert isinstance(view, MessageView)
    pages = int(view.title.split("/")[1]) if "/" in view.title else 1  # "Nápověda 1/3"
    for _ in range(pages - 1):
        t.do(R, "the hint's next page")
    t.do(S, "back from the hint")
    assert t.shell.mode is Mode.PLAY


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


# --- every registered game, by what its host expects -------------------------------------

DEFAULTS = {"players": 2, "computer": ("g",)}
"""Two seats, the second one the computer's (for the games with colours)."""
MAX_STEPS = 20_000


def robot(t: Table, rng: random.Random, steps: int) -> Expect | None:
    """Do what the host says the table should do next (:class:`Expecting`), ``steps`` times
    or until the game ends; now and then a person on turn holds ◀ for the hint."""
    expect: Expect | None = None
    for _ in range(steps):
        host = t.shell.host
        if t.shell.mode is not Mode.PLAY or not isinstance(host, Expecting):
            return None
        expect = host.expects()
        if expect is None or expect is Expect.OVER:
            return expect
        if expect is Expect.ROLL:
            t.do(Rolled(rng.randint(1, 6)), "throw")
        elif expect is Expect.CONFIRM:
            t.do(S, "confirm")
        elif expect is Expect.WAIT:
            deadline = t.shell.next_deadline()
            t.tick(max(0.01, (deadline if deadline is not None else t.now + 1.0) - t.now + 0.01))
        else:
            if rng.random() < 0.1 and "Nápověda tahu" in t.shell.menu_labels():
                see_hint(t, ButtonPress("left", long=True), "◀ held: the hint")
            for _ in range(rng.randrange(4)):
                t.do(rng.choice((L, R)), "choose")
            t.do(S, "chosen")
    return expect


def registry_screens(tmp: Path, info: GamePlugin) -> Iterator[tuple[View, str]]:
    """Every line of ``info``'s set-up with every value; then on each line, with the dice and
    without it: a whole game with a computer seat, played by what the host expects, and
    half-way through the dice lost and back, a die dropped, the shell's every line to the
    game's screen (``notify``), the menu (every row, every
    setting, the hint, every question, the phone, every rules page), "Proč?"; the winner."""
    rng = random.Random(13)
    for n, line in enumerate(tables([info])):
        for dice in (True, False):
            t = Table(tmp / f"{n}-{dice}", info.name, dice=dice, **DEFAULTS)
            while (t.shell.table.info.name, t.shell.table.mode) != (info.name, line.mode):
                t.do(S, "the game's line")
            if dice:
                walk_set_up(t)
                t.do(DiceLink(True), "dice up")
            start(t)
            host = t.shell.host
            if not isinstance(host, Expecting) or host.expects() is None:
                for button in (R, L, S, R):  # the table plays, the companion follows
                    t.do(button, "a button")
                walk_menu(t)
                yield from t.seen.items()
                continue
            once = 0
            while robot(t, rng, 1) not in (Expect.OVER, None):
                once += 1
            half = max(1, once // 2)
            t = Table(tmp / f"{n}-{dice}-again", info.name, dice=dice, **DEFAULTS)
            while (t.shell.table.info.name, t.shell.table.mode) != (info.name, line.mode):
                t.do(S, "the game's line")
            if dice:
                t.do(DiceLink(True), "dice up")
            start(t)
            robot(t, rng, half)
            if dice:
                t.do(DiceLink(False, "unplugged"), "dice lost")
                robot(t, rng, 6)
                t.do(DiceLink(True), "dice back")
            t.do(Dropped(), "dice dropped")
            for news in NEWS:  # what the shell tells the game's screen
                t.shell.notify(news)
                t.note(f"news: {news}")
            if t.shell.mode is Mode.PLAY:
                walk_menu(t)
                t.do(ButtonPress("help"), "why")
                walk_rules(t)
                t.do(LONG, "back")
            assert robot(t, rng, MAX_STEPS) is Expect.OVER, f"{line.label}: no end"
            t.do(S, "after the end")
            yield from t.seen.items()


@pytest.mark.parametrize("info", entries(), ids=ids)
def test_every_screen_of_every_registered_game_shows_its_whole_text(info, tmp_path):
    """Every game of the registry (and the tiny one a test adds) by the same walk: nothing
    here names a game, so a new game's screens are checked the day it is registered."""
    with registered(info):
        check(registry_screens(tmp_path, info), info.name)


# --- what the walk above cannot reach: screens of a game's own, set up by hand -----------
#
# Člověče: the turn with the most moves and the longest words (positions set directly).
# Gobbit with real cards: the touch log, disputes, races and the card editor (pad touches
# the companion follows); with the virtual deck: touches, verdicts and their pages.
# napij se: a family's broken board and deck files, the lot, the printed deck's numbers,
# the turns with the most plays and the longest words, every card's choice and offer, every
# table duty from the menu, the ledger and "Účet", a void throw before a debt is drunk.


def clovece_screens(tmp: Path) -> Iterator[tuple[View, str]]:
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


# --- Člověče, napij se! ---------------------------------------------------------------------

NAPIJ_RULES = default_rules()
DUTY_WORDS = {
    "start": "přípitek na začátek", "knocked-out": "vyhození (červeným|modrým|zeleným|žlutým)",
    "bottle": "vyhození lahví|odsunutá láhev", "pub": "váleček", "card": "karta č. |Napij se",
    "glass": "sklenic", "everybody": "všichni \\| karta č.|Napijí se všichni",
    "home": "má figurku doma",
    "winner": "na počest", "dropped-dice": "spadlá kostka", "delay": "zdržování",
    "cheating": "švindl", "upset": "rozčilování"}
"""The words of a banner of every duty, or of the card screen that carries it (a regular
expression each)."""


def napij_step(t: Table, rng: random.Random) -> None:
    """One thing the table does, as people at it would: throw, pick, confirm, drink, wait; now
    and then the die falls off the table or a player thinks too long."""
    host = t.shell.host
    expect = host.expects()
    if expect is Expect.OVER or expect is None:
        return
    deadline = host.next_deadline()
    if expect is Expect.WAIT:
        t.tick(max(0.01, (deadline or t.now) - t.now + 0.01))
    elif expect is Expect.CONFIRM:
        if host.turn.shown is not None and host.turn.shown.later and rng.random() < 0.2:
            t.do(L, "later")  # a drink left for later
        else:
            t.do(S, "confirm")
    elif expect is Expect.ROLL:
        roll = rng.random()
        if roll < 0.02:
            t.do(Dropped(), "dice dropped")
        elif roll < 0.06:
            t.do(R, "the bottle, if it may")
            t.do(S, "the bottle: yes")
        else:
            t.do(Rolled(rng.randint(1, 6)), "throw")
    else:  # a person picks: a play, a card's choice, a throw or a card's number by buttons
        if rng.random() < 0.3:
            see_hint(t, ButtonPress("left", long=True), "◀ held: the hint")
        for _ in range(rng.randrange(5)):
            t.do(rng.choice((L, R)), "pick")
        t.do(S, "picked")


def napij_put(t: Table, position: str) -> None:
    """The game jumps to ``position`` (the journal is not rewritten: a screen, not a game)."""
    host = t.shell.host
    host.play.state = parse_napij(position, NAPIJ_RULES)
    host.turn.kinds = ["throw"]
    host.turn.mode = NapijMode.PLAY
    host.turn.shown = None
    host.turn.queue.clear()
    host.turn.arm(t.now)
    t.note(position)


def napij_play_out(t: Table, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if t.shell.mode is not Mode.PLAY or t.shell.host.turn.mode is NapijMode.OVER:
            return
        napij_step(t, rng)


def napij_menu_screens(t: Table) -> None:
    """The napij items of the menu: the ledger (a drink taken), every table duty for every
    player (each banner), "Účet"."""
    host = t.shell.host
    colours = host.turn.state.colours
    for k in range(len(colours)):
        for reason in range(5):  # four duties and "Zpět"
            t.do(LONG, "menu")
            t.goto("Povinnost")
            t.do(S, "duty: who")
            for _ in range(k):
                t.do(R, "duty: who")
            t.do(S, "duty: why")
            for _ in range(reason):
                t.do(R, "duty: why")
            t.do(S, "duty called")
            while host.turn.shown is not None:
                t.do(S, "banner seen")
            if host.turn.mode is not NapijMode.PLAY:  # "Zpět" went back to whom
                for _ in range(len(colours)):
                    t.do(R, "duty: who")
                t.do(S, "back")
    t.do(LONG, "menu")
    t.goto("Dluhy")
    t.do(S, "ledger")
    for _ in range(len(colours) + 1):
        t.do(S, "drank")
        t.do(R, "ledger rows")
    if host.turn.mode is NapijMode.LEDGER:
        t.do(S, "back")
    t.do(LONG, "menu")
    t.goto("Účet")
    t.do(S, "tally")
    t.do(S, "back")


def napij_screens(tmp: Path) -> Iterator[tuple[View, str]]:
    rng = random.Random(3)
    data = tmp / "data"
    (data / "boards").mkdir(parents=True)
    (data / "decks").mkdir()
    (data / "boards" / "babiččin.toml").write_text(default_board_text(), "utf-8")
    (data / "decks" / "naše karty.toml").write_text(
        (Path(deck_module.__file__).parent / "deck.toml").read_text("utf-8"), "utf-8")
    (data / "boards" / "rozbitý.toml").write_text(
        default_board_text().replace('next = "m5"', 'next = "m99"', 1), "utf-8")
    (data / "decks" / "rozbité.toml").write_text(
        "[deck]\nname = \"x\"\n[[card]]\nnumber = 1\ntext = \"Nic.\"\neffect = \"fly\"\n",
        "utf-8")
    # the set-up: every line, every value (the family's files among them)
    t = Table(tmp / "setup", "napij", data=data, players=4, computer=("b",))
    walk_set_up(t)
    yield from t.seen.items()
    # a board or a deck file that cannot be played with: the validator's sentence
    for key, bad in (("board", "rozbitý"), ("cards", "rozbité")):
        t = Table(tmp / f"bad-{key}", "napij", data=data, players=2)
        host = t.shell.host
        option = next(o for o in host.options() if o.key == key)
        host.set_option(key, option.values[[Path(str(v)).stem for v in option.values]
                                           .index(bad)])
        start(t)
        assert host.turn.mode is NapijMode.ERROR, host.turn.mode
        for _ in range(4):
            t.tick(PAGE_SECONDS)
        t.do(S, "back to the set-up")
        yield from t.seen.items()
    # the lot for who starts, then whole games: people and computer seats, the dice, the
    # buttons, the dice lost, the virtual and the printed deck, the thinking time
    games = (
        dict(players=4, computer=("b", "y"), first="lot", dice=True, deck="virtual", think=0),
        dict(players=3, computer=("g",), first="r", dice=False, deck="physical", think=30),
        dict(players=2, computer=(), first="r", dice=True, deck="physical", think=0),
        dict(players=4, computer=("r", "b", "g"), first="r", dice=True, deck="virtual",
             think=60),
    )
    for n, g in enumerate(games):
        t = Table(tmp / f"game{n}", "napij", dice=g["dice"], data=data, seed=n,
                  players=g["players"], computer=g["computer"], first=g["first"])
        host = t.shell.host
        host.set_option("deck", g["deck"])
        host.set_option("think", g["think"])
        if g["dice"]:
            t.do(DiceLink(True), "dice up")
        start(t)
        while host.turn.mode is NapijMode.LOT:
            t.tick(0.3)
        t.tick(3.0)
        napij_play_out(t, rng, 900)
        if g["dice"]:
            t.do(DiceLink(False, "unplugged"), "dice lost")
            napij_play_out(t, rng, 60)
            t.do(DiceLink(True), "dice back")
        if host.turn.mode is NapijMode.PLAY:
            napij_menu_screens(t)
            t.do(ButtonPress("help"), "why")
            walk_rules(t)
            t.do(LONG, "back")
            walk_menu(t)
        yield from t.seen.items()
    # the most plays and the longest words (four pieces out, three throws, junctions, the
    # Černá stezka, the traps), a card's choices and offers, a printed card drawn out of
    # turn: for people and for a computer seat
    for computer in ((), ("r", "b")):
        t = Table(tmp / f"long{len(computer)}", "napij", data=data, players=4,
                  computer=computer)
        host = t.shell.host
        start(t)
        for position in NAPIJ_LONG:
            napij_put(t, position)
            for _ in range(min(40, len(host.turn.plays()) + len(host.turn.card_choices()))):
                t.do(R, "every play")
            t.do(ButtonPress("help"), "why")
            walk_rules(t)
            t.do(LONG, "back")
        for position in NAPIJ_CARDS:
            napij_put(t, position)
            for _ in range(len(host.turn.card_choices()) + 1):
                t.do(R, "every choice")
            t.do(S, "chosen")
            napij_play_out(t, rng, 12)
        yield from t.seen.items()
    # a printed card: every number, its text confirmed, also a draw out of turn
    t = Table(tmp / "printed", "napij", data=data, players=4, computer=("y",))
    host = t.shell.host
    host.set_option("deck", "physical")
    start(t)
    napij_put(t, "r:m40,p,p,p b:m27,p,p,p g:m50,p,p,p y:m45,p,p,p bottle:m60 turn:b "
                 "deck:physical throws:1")
    t.tick(2.0)  # the only play: blue stops on a card
    for _ in NAPIJ_RULES.deck.numbers:
        t.do(S, "the card's number")
        t.do(L, "another number")
        t.do(R, "the next number")
    t.do(S, "the card's number")
    t.do(S, "the card's text confirmed")
    napij_play_out(t, rng, 30)
    yield from t.seen.items()
    # a throw before the debt was drunk; the winner, the toast, "Účet", a new game
    t = Table(tmp / "over", "napij", data=data, players=4, computer=("g",))
    host = t.shell.host
    start(t)
    napij_put(t, "r:m12,p,p,p b:m20,p,p,p g:m30,p,p,p y:m40,p,p,p bottle:m60 turn:r owe:r2,b1")
    t.tick(ASK_GRACE + 0.1)  # the debt was asked for
    t.do(Rolled(5), "a void throw")
    napij_put(t, "r:m2,rh4,rh3,rh2 b:m20,p,p,p g:m30,p,p,p y:m40,p,p,p bottle:m60 turn:r "
                 "throws:4 owe:g3 drunk:r14,b9,g21,y3")
    t.do(S, "the only play: the last piece home")
    while host.turn.shown is not None:
        t.do(S, "drunk")
    assert host.turn.mode is NapijMode.OVER, host.turn.mode
    walk_menu(t)
    t.do(S, "the tally")
    t.do(S, "a new game")
    assert t.shell.mode is Mode.SETUP
    yield from t.seen.items()


def _deck_with(card: int) -> str:
    """A virtual deck whose last drawn card was ``card`` (it lies at the bottom)."""
    return "deck:" + ",".join(str(n) for n in [*(k for k in range(1, 33) if k != card), card])


NAPIJ_LONG = (
    "r:m50,m53,m33,m13 b:m55,p,p,p g:m59,p,p,p y:m36,p,p,p bottle:m60 turn:r throws:6,6,4",
    "r:m12,m30,m10,m48 b:m20,m33,p,p g:m50,m44,p,p y:m64,m70,p,p bottle:m60 turn:r "
    "throws:6,6,3",
    "r:c6+,zp2+o,tp1-i,m10 b:m20,p,p,p g:m30,p,p,p y:m40,p,p,p bottle:m60 turn:r throws:6,3",
    "r:les-,bp1+o,c14-,sr3 b:m20,p,p,p g:m30,p,p,p y:m40,p,p,p bottle:m60 turn:r throws:6,2",
    "r:c5+,zach+,m13,m73 b:m20,p,p,p g:m30,p,p,p y:m40,p,p,p bottle:m60 turn:r throws:6,4",
    "r:m20,p,p,p b:m30,p,p,p g:m25,p,p,p y:m22,p,p,p bottle:m19 turn:r with:bottle throws:6,3",
)
"""Turns with many plays and long words (every play is selected in turn)."""
NAPIJ_CARDS = tuple(
    f"r:m40,m12,p,p b:m28,p,p,p g:m50,c5+,p,p y:m70,m2,p,p bottle:m60 turn:b {_deck_with(card)} "
    f"card:{card}@b1#1" for card in (10, 14, 27, 31))
"""A card waits for its drawer's choice: whom to knock out, whom to swap with, whom to offer
a knock-out or a swap (and the offered player's answer)."""


def check(screens: Iterator[tuple[View, str]], name: str) -> None:
    out = os.environ.get("COMPANION_SCREENS")
    failures: list[str] = []
    for n, (view, what) in enumerate(screens):
        # every page (a napij play's moves, a long text's pages), in both blink phases
        starts = schedule(view)[0] if isinstance(view, NapijView) else (0.0,)
        for t in (start + phase for start in starts for phase in (0.0, 0.6)):
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


def test_the_clovece_turns_with_the_most_moves_show_their_whole_text(tmp_path):
    check(clovece_screens(tmp_path), "clovece")


def test_every_gobbit_screen_shows_its_whole_text_and_nothing_drawn_over_another(tmp_path):
    check(gobbit_screens(tmp_path), "gobbit")


@pytest.fixture(scope="module")
def napij_views(tmp_path_factory) -> list[tuple[View, str]]:
    return list(napij_screens(tmp_path_factory.mktemp("napij")))


def test_every_napij_screen_shows_its_whole_text_and_nothing_drawn_over_another(napij_views):
    check(iter(napij_views), "napij")


def texts_of(view: View) -> list[str]:
    """Every text a screen shows (whole, as the view holds it)."""
    if isinstance(view, NapijView):
        out = [view.player, view.note, view.prompt, view.event]
        out += [r.text for r in view.rows] + [m.text for m in view.moves]
        if view.banner is not None:
            out += [view.banner.title, *view.banner.lines]
        return out
    if isinstance(view, ListView):
        return [view.title, *view.items, view.footer]
    if isinstance(view, MessageView):
        return [view.title, *view.lines, view.footer]
    return []


def test_the_napij_walk_reaches_every_kind_of_screen(napij_views):
    """The walk above is only worth its check if it shows what a napij evening shows."""
    views = [v for v, _ in napij_views if isinstance(v, NapijView)]
    texts = [" | ".join(texts_of(v)) for v in views]
    banners = {(v.banner.title, *v.banner.lines) for v in views if v.banner is not None}
    banners |= {(v.player, *(r.text for r in v.rows)) for v in views
                if v.player.startswith("Karta ") and "vypi" in v.prompt}  # a card's own drink
    said = " ".join(" | ".join(b) for b in banners)
    for why in DUTY_WORDS.values():  # a banner of every duty
        assert re.search(why, said), why
    for title in ("Na zdraví!", "Na vítěze!", "hod neplatí"):
        assert title in said, title
    for seen in ("Los: kdo začne", "Začíná ", "● vypili  ◀ později", "Plán nejde použít",
                 "Balíček nejde použít", "dluží 2:", "Počítač dluží", "Pokus 2 ze 3",
                 "Hod: ◀", "Lahví: ◀ ▶", "▶ = hrát tento tah lahví", "Tento tah hraje láhev",
                 "Hrát tento tah lahví?", "Koho karta zasáhne?", "Komu nabídneš kartu?",
                 "Vezmeš nabídku?", "odmítnout nabídku", "Vezmi vrchní kartu",
                 "● platí, ◀ jiné číslo", "mimo pořadí", "Karta 27 · ", "PC: tah 1 ze ",
                 "◀▶ tah ", "Jediný tah", "● vypito  ◀ později", "Nejdřív pít, pak házet!",
                 "Černé stezky", "ze záchytky", "zkratky", "Kdo se napije?", "Za co?",
                 "Dluhy", "Účet", "Konec hry", "Vyhrává červený!", "● nová hra"):
        assert any(seen in t for t in texts), seen
    assert any(len(v.moves) == 3 for v in views)  # a six-sequence split three ways
    assert any(m.strip is not None and any(c.branch for c in m.strip.cells)
               for v in views for m in v.moves)  # a junction on a strip map
    assert any(isinstance(v, MessageView) and v.title.startswith("Proč?")
               for v, _ in napij_views)
    assert any(isinstance(v, MessageView) and v.title.startswith("Pasti")
               for v, _ in napij_views)


def test_napij_screens_say_places_in_words_never_a_field_id(napij_views):
    """The standard: a player acts on the words at a printed board without numbers,
    so no screen names a field by the board file's id ("m12", "c5", "rh2")."""
    ids = {f.id for f in NAPIJ_RULES.board.fields} - {"les"}  # "les" is also the word
    found = set()
    for view, what in napij_views:
        if isinstance(view, NapijView) and view.player.endswith("nejde použít"):
            continue  # a broken board file: its line and field, for the one who edits it
        for text in texts_of(view):
            for token in re.findall(r"[\w+-]+", text):
                if token in ids:
                    found.add(f"{token!r} in {text!r} ({what})")
    assert not found, "\n".join(sorted(found)[:20])
