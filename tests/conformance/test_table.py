"""Every registered game at the table, through the shell as people use it: every set-up line
and value, a whole game played by a robot that does what the host says the table should do
next (:class:`~companion.service.hosts.base.Expecting`: throw, press ●, choose, wait) with a
computer seat among the people, an undo from the menu, a restart that resumes the journal's
game, the phone view's snapshot of a host that shows its game, and every distinct frame checked by the layout's :func:`~companion.ui.screens.problems`
(no text cut, none without room, nothing drawn over another).

Each line of the set-up's game choice is walked (Gobbit with real cards and with the virtual
deck); a line whose host has nothing to expect at the start of a game (a referee of real
cards: the companion follows the table) is walked through set-up, inputs, undo and resume,
and every game must be played to its end through at least one of its lines.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.games import GamePlugin, playable
from companion.inputs.events import ButtonPress, Rolled
from companion.service.hosts.base import (
    DiceStatus,
    Expect,
    Expecting,
    HostContext,
    Showing,
)
from companion.service.phone import snapshot_of
from companion.service.shell import Mode, Shell, Table, tables
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.screens import MESSAGE_PAGE_SECONDS, layout, moves, problems
from companion.ui.views import ListView
from tests.conformance.games import NEWS

S, L, R = ButtonPress("select"), ButtonPress("left"), ButtonPress("right")
LONG = ButtonPress("select", long=True)
DEFAULTS = {"players": 2, "computer": ("g",)}
"""The set-up's defaults: two seats, the second one the computer's (for games with colours)."""
MAX_STEPS = 20_000
"""A safety net: a game that has not ended after this many robot steps fails."""
@dataclass(frozen=True)
class Points:
    """Where a walk does its mid-game parts, as robot steps: chosen from the length of the
    same line's game played once without them, so a short game gets them as a long one."""

    news: int
    undo: int
    restart: int

    @classmethod
    def of(cls, steps: int) -> Points:
        """A quarter, a third and half-way through a game of ``steps`` robot steps."""
        undo = max(1, steps // 3)
        return cls(max(0, steps // 4), undo, max(undo + 1, steps // 2))


class Walk:
    """A shell on a journal, a fake clock, and the distinct frames it showed."""

    def __init__(self, path: Path, table: Table, seed: int) -> None:
        self.path, self.table, self.seed = path, table, seed
        self.rng = random.Random(seed)
        self.now = 1000.0
        self.frames: dict[object, str] = {}
        self.problems: list[str] = []
        self.shell = self.boot()

    def boot(self) -> Shell:
        ctx = HostContext(Journal(self.path / "g.journal"), Prefs(auto_delay=0.5),
                          rng=random.Random(self.seed), dice=DiceStatus(configured=True, up=True),
                          defaults=dict(DEFAULTS))
        shell = Shell(ctx, start_with=self.table.info.name, games=playable())
        shell.begin(self.now)
        self.shell = shell
        self.see("start")
        return shell

    def see(self, what: str) -> None:
        view = self.shell.view()
        if view in self.frames:
            return
        self.frames[view] = what
        times = (0.0, 0.6)  # both blink phases
        if moves(view):  # and a message's every page; it moves, so the panel is drawn again
            times += tuple(k * MESSAGE_PAGE_SECONDS + 0.1 for k in range(1, 6))
            if not self.shell.animated():
                self.problems.append(f"{self.table.label} ({what}): the screen moves, but "
                                     "the shell does not draw it again")
        for t in times:
            for problem in problems(layout(view, t)[1]):
                self.problems.append(f"{self.table.label} ({what}): {problem}")

    def do(self, event: object, what: str) -> None:
        self.now += 0.05
        self.shell.handle(event, self.now)  # type: ignore[arg-type]
        self.see(what)

    def wait(self) -> None:
        deadline = self.shell.next_deadline()
        self.now = max(self.now + 0.05, deadline if deadline is not None else self.now + 1.0)
        self.shell.tick(self.now)
        self.see("wait")

    def set_up(self) -> None:
        """To this table's line, then every set-up line and every value of each option (the
        option keeps the value it had: a whole round), then ▶ Začít hru."""
        while (self.shell.table.info.name, self.shell.table.mode) != \
                (self.table.info.name, self.table.mode):
            self.do(S, "game line")
        assert self.shell.mode is Mode.SETUP
        for option in list(self.shell.host.options()):
            lines = [k for k, _ in self.shell._setup_lines()]
            if option.key not in lines:
                continue  # a line another value hid (fewer seats)
            self.shell.setup_index = lines.index(option.key)
            for _ in option.values:
                self.do(S, f"set-up {option.key}")
        view = self.shell.view()
        assert isinstance(view, ListView)
        for _ in view.items:
            self.do(R, "set-up rows")
        self.shell.setup_index = len(self.shell._setup_lines()) - 1
        self.do(S, "start")
        assert self.shell.mode is Mode.PLAY

    def expects(self) -> Expect | None:
        host = self.shell.host
        assert isinstance(host, Expecting), f"{type(host).__name__} does not speak Expecting"
        return host.expects()

    def step(self) -> Expect | None:
        """Do what the table is expected to do; the expectation it acted on."""
        expect = self.expects()
        if expect is Expect.ROLL:
            self.do(Rolled(self.rng.randint(1, 6)), "roll")
        elif expect is Expect.CHOOSE:
            for _ in range(self.rng.randrange(3)):
                self.do(self.rng.choice((L, R)), "choose")
            self.do(S, "chosen")
        elif expect is Expect.CONFIRM:
            self.do(S, "confirm")
        elif expect is Expect.WAIT:
            self.wait()
        return expect

    def phone(self) -> None:
        """A host that shows its game to the phones (:class:`Showing`) gives values its own
        builder turns into a page snapshot, of this game and in JSON types."""
        host = self.shell.host
        if not isinstance(host, Showing):
            return
        facts = host.facts()
        assert facts is not None and facts == host.facts()  # a value, the same when asked again
        info = self.table.info
        snap = snapshot_of(info.name, self.table.label, facts, tuple(info.topics()))
        assert snap.game == info.name and snap.status
        json.dumps(snap.to_json())

    def news(self) -> None:
        """Every sentence the shell tells a game's screen, one after another, each seen."""
        for line in NEWS:
            self.shell.notify(line)
            self.see(f"news: {line}")

    def undo(self) -> None:
        """Menu, "Vrátit poslední akci", yes: one record fewer in the journal."""
        before = len(self.shell.ctx.journal.load())
        self.do(LONG, "menu")
        self.do(R, "menu: undo")
        assert self.shell.menu_index == 1
        self.do(S, "undo?")
        assert self.shell.mode is Mode.CONFIRM_UNDO
        self.do(S, "undone")
        assert self.shell.mode is Mode.PLAY
        assert len(self.shell.ctx.journal.load()) < before

    def restart(self) -> None:
        """The service starts again on the same journal: the same game goes on (what it expects
        may differ: an announcement on the screen is not journaled, napij's drink banner)."""
        records = self.shell.ctx.journal.load()
        following = self.expects() is None
        old = self.shell
        old.host.stop()
        self.boot()
        assert self.shell.mode is Mode.PLAY and self.shell.table == old.table
        assert self.shell.ctx.journal.load() == records
        assert (self.expects() is None) == following


def table_lines(info: GamePlugin) -> list[Table]:
    return tables([info])


def game_length(path: Path, table: Table, seed: int) -> int:
    """The robot steps a whole game of ``table`` takes with ``seed`` when nothing else
    happens (``None`` expected at the start: a table the companion follows, 0)."""
    walk = Walk(path, table, seed)
    walk.set_up()
    if walk.expects() is None:
        return 0
    for i in range(MAX_STEPS):
        if walk.step() is Expect.OVER:
            return i
    pytest.fail(f"{table.label}: no end after {MAX_STEPS} steps")


def test_every_table_line_is_set_up_played_undone_resumed_and_drawn_whole(entry, tmp_path):
    lines = table_lines(entry)
    assert lines, f"{entry.name} has no line in the set-up"
    ended = 0
    for n, table in enumerate(lines):
        points = Points.of(game_length(tmp_path / f"once{n}", table, seed=n + 1))
        walk = Walk(tmp_path / str(n), table, seed=n + 1)
        walk.set_up()
        walk.phone()
        if walk.expects() is None:  # the table plays, the companion follows: inputs only
            for button in (R, L, S, R):
                walk.do(button, "a button")
            walk.news()
            if len(walk.shell.ctx.journal.load()) > 1:
                walk.undo()
            walk.restart()
            assert not walk.problems, "\n".join(walk.problems[:20])
            continue
        reached: dict[str, int] = {}
        for i in range(MAX_STEPS):
            if i >= points.news and "news" not in reached:
                walk.news()
                reached["news"] = i
            if i >= points.undo and "undo" not in reached \
                    and len(walk.shell.ctx.journal.load()) > 1:
                walk.undo()
                reached["undo"] = i
            if i >= points.restart and "restart" not in reached:
                walk.restart()
                reached["restart"] = i
            expect = walk.step()
            if expect is Expect.OVER:
                break
            assert expect is not None, f"{table.label}: a game in play expects nothing"
        else:
            pytest.fail(f"{table.label}: no end after {MAX_STEPS} steps")
        # undo and resume happened mid-game (the game went on after them), for every game
        assert reached.keys() == {"news", "undo", "restart"}, (table.label, points, reached)
        assert reached["restart"] < i, (table.label, points, reached, i)
        walk.phone()
        walk.do(S, "after the end")
        ended += 1
        assert not walk.problems, "\n".join(walk.problems[:20])
    assert ended, f"{entry.name}: no line of the set-up plays a whole game"


def test_the_walks_points_fall_inside_a_game_of_any_length():
    for steps in (3, 4, 14, 30, 200, 5000):
        p = Points.of(steps)
        assert 0 <= p.news <= p.undo < p.restart < steps, (steps, p)


def test_the_dice_news_in_the_set_up_reaches_a_host_without_a_game_calmly(entry, tmp_path,
                                                                           caplog):
    """The shell passes the dice's inputs to the table's host in the set-up too (the link
    coming and going, a throw before anybody started): a host with no game takes them without
    an error (a seeded prasátko run found the tiny race raising here)."""
    import logging

    from companion.inputs.events import DiceLink

    for n, table in enumerate(table_lines(entry)):
        walk = Walk(tmp_path / str(n), table, seed=n + 1)
        with caplog.at_level(logging.ERROR):
            for event in (DiceLink(False), DiceLink(True), Rolled(4, seq=1)):
                walk.shell.handle(event, walk.now)
        assert walk.shell.mode is Mode.SETUP
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], table.label
