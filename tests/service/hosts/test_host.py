"""The host base (companion.service.hosts.host): its defaults, undo from the journal, and the
contract for a write the journal refuses, held against every registered game's host."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.engines.game import Source
from companion.games import playable
from companion.inputs.events import ButtonPress, Input, Rolled
from companion.service.hosts.base import DiceStatus, GameHost, HostContext, Request
from companion.service.hosts.host import NOTHING_TO_UNDO, BaseHost, JournaledHost
from companion.service.hosts.outcome import NOTHING, Outcome
from companion.service.shell import Shell
from companion.storage.journal import Journal, JournalError
from companion.storage.prefs import Prefs
from tests.storage.journal_support import FaultyStorage
from tests.tinygame.engine import GAME as RACE
from tests.tinygame.host import RaceHost

S, L, R = ButtonPress("select"), ButtonPress("left"), ButtonPress("right")
TABLES = [(info.name, mode) for info in playable() for mode, _ in info.table_lines()]
WRITES = ("append", "note", "keep", "pop", "replace")


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setattr(logging.getLogger("companion.storage.journal"), "disabled", True)


def context(tmp_path, disk: FaultyStorage | None = None,
            beep: Callable[[str], None] = lambda name: None) -> HostContext:
    return HostContext(Journal(tmp_path / "g.journal", storage=disk), Prefs(), beep=beep,
                       rng=random.Random(7), dice=DiceStatus(configured=True, up=True),
                       defaults={"players": 2})


def watch(journal: Journal) -> list[JournalError]:
    """Every refusal the journal raises from now on, in order (its writing methods wrapped)."""
    refused: list[JournalError] = []
    for name in WRITES:
        method = getattr(journal, name)

        def spied(*args: Any, _method: Callable[..., Any] = method, **kwargs: Any) -> Any:
            try:
                return _method(*args, **kwargs)
            except JournalError as exc:
                refused.append(exc)
                raise

        setattr(journal, name, spied)
    return refused


def check_contract(host: GameHost, journal: Journal, disk: FaultyStorage, *,
                   steps: int = 240, seed: int = 1) -> int:
    """Drive ``host`` with seeded inputs, ticks, undos and new games while the disk takes
    writes and refuses them by turns.  Whenever the journal refused a write, the host must
    have let the :class:`JournalError` out (so the shell can say so) with nothing changed:
    the journal's records as before and, for a journaled game, its state as before.
    Returns how many refusals were seen."""
    refused = watch(journal)
    rng = random.Random(seed)
    now = 0.0
    host.start(now)
    for i in range(steps):
        disk.read_only = (i // 9) % 2 == 1
        records = journal.load()
        state = host.play.state if isinstance(host, JournaledHost) else None
        seen = len(refused)
        kind = rng.choice(("select", "select", "left", "right", "roll", "tick", "tick",
                           "undo", "new"))
        raised: JournalError | None = None
        try:
            if kind == "tick":
                now += rng.choice((0.5, 2.0, 6.0))
                host.tick(now)
            elif kind == "undo":
                host.undo(now)
            elif kind == "new":
                if i % 5 == 0:
                    host.start(now)
            else:
                event: Input = (Rolled(rng.randint(1, 6)) if kind == "roll"
                                else ButtonPress(kind))
                if host.handle(event, now).request is Request.SETUP:
                    host.start(now)
        except JournalError as exc:
            raised = exc
        what = f"step {i} ({kind}) of {type(host).__name__}"
        if len(refused) > seen:
            assert raised is not None, f"{what}: the journal refused a write, the host went on"
            assert journal.load() == records, f"{what}: a refused write changed the journal"
            if isinstance(host, JournaledHost):
                assert host.play.state == state, f"{what}: a refused action moved the game"
        else:
            assert raised is None, f"{what}: a refusal the journal never made"
    disk.read_only = False
    return len(refused)


@pytest.mark.parametrize(("game", "mode"), TABLES)
def test_every_host_lets_a_refused_write_reach_the_shell_with_nothing_changed(
        tmp_path, game, mode):
    info = next(i for i in playable() if i.name == game)
    disk = FaultyStorage()
    ctx = context(tmp_path, disk)
    host = info.host_factory()(ctx, mode)
    seats = [o for o in host.options() if o.key.startswith("seat:")]
    if seats:  # a computer seat, so that timers write too
        host.set_option(seats[-1].key, seats[-1].next_value())
    assert check_contract(host, ctx.journal, disk) > 0  # the walk met refusals


class Swallowing(RaceHost):
    """A host that catches the journal's refusal and goes on: it would lose the action."""

    def handle(self, event: Input, now: float) -> Outcome:
        try:
            return super().handle(event, now)
        except OSError:
            return NOTHING


def test_the_contract_check_catches_a_host_that_swallows_a_refused_write(tmp_path):
    disk = FaultyStorage()
    ctx = context(tmp_path, disk)
    assert check_contract(RaceHost(ctx), ctx.journal, disk) > 0  # the honest host passes
    ctx = context(tmp_path / "x", disk)
    with pytest.raises(AssertionError, match="the journal refused a write, the host went on"):
        check_contract(Swallowing(ctx), ctx.journal, disk)


def walk(shell: Shell, rng: random.Random, now: float, until: Callable[[], bool]) -> float:
    """Random buttons and throws through the shell, a second apart, until ``until()``."""
    for _ in range(300):
        if until():
            break
        now += 1.0
        shell.handle(rng.choice([S, S, L, R, Rolled(rng.randint(1, 6))]), now)
        shell.tick(now)
    return now


@pytest.mark.parametrize(("game", "mode"), TABLES)
def test_the_shell_says_why_and_nothing_is_done(tmp_path, game, mode):
    """What the player meets: the refusal beep, the action not done, and the sentence why -
    on the set-up's foot when a new game cannot be written, in the event line of a game that
    has one; a throw of the dice is refused (the dice sends it again)."""
    disk = FaultyStorage(read_only=True)
    beeps: list[str] = []
    ctx = context(tmp_path, disk, beeps.append)
    shell = Shell(ctx, start_with=game, games=playable())
    shell.begin(0.0)
    while shell.table.mode != mode:
        shell.handle(S, 0.0)  # the set-up's game line, to this table
    refused = watch(ctx.journal)
    shell.handle(L, 0.0)  # to ▶ Začít hru
    shell.handle(S, 0.0)
    assert refused and shell.mode == "setup" and beeps[-1] == "illegal"
    assert shell.view().footer == "Nelze uložit: disk je jen pro čtení."
    disk.read_only = False
    shell.handle(S, 0.0)
    assert shell.mode == "play"
    rng = random.Random(3)
    records = ctx.journal.load()
    now = walk(shell, rng, 0.0, lambda: len(ctx.journal.load()) > len(records) + 1)
    if len(ctx.journal.load()) == len(records):
        return  # this table journals only its set-up (the referee of real cards)
    disk.read_only, beeps[:], refused[:] = True, [], []
    records = ctx.journal.load()
    walk(shell, rng, now, lambda: bool(refused))
    assert refused and ctx.journal.load() == records and "illegal" in beeps
    host = shell.host
    if isinstance(host, BaseHost) and type(host).notify is BaseHost.notify:  # an event line
        assert refused[-1].message in host.lines.lines()


# --- the defaults and undo from the journal ---------------------------------------------------


class Bare(BaseHost):
    title = "Nic"


def test_a_bare_host_has_every_default_but_its_own_game():
    host = Bare(HostContext(Journal("/nonexistent/g.journal"), Prefs()))
    assert host.options() == () and host.set_option("x", 1) is None
    assert host.menu_items() == () and host.why() is None and host.undo_preview() is None
    assert host.next_deadline() is None and not host.animated()
    assert not host.undo(0.0) and host.event_line == NOTHING_TO_UNDO
    host.notify("Kostka připojena.")
    assert host.event_line == "Kostka připojena."
    assert host.lines.lines() == (NOTHING_TO_UNDO, "Kostka připojena.")
    for missing in (lambda: host.in_game, lambda: host.start(0.0), lambda: host.view(),
                    lambda: host.handle(S, 0.0), lambda: host.resume([], 0.0)):
        with pytest.raises(NotImplementedError):
            missing()


class Worded(RaceHost):
    """The race without its own undo question: the base's, in the game's words."""

    def undo_question(self, before, action, record):
        return JournaledHost.undo_question(self, before, action, record)


def test_undo_asks_in_the_games_words_and_takes_back_the_journals_last_action(tmp_path):
    ctx = context(tmp_path)
    host = Worded(ctx)
    assert host.undo_preview() is None  # no game
    host.start(0.0)
    assert host.undo_preview() is None  # only the header
    host.handle(Rolled(4), 0.0)
    assert host.undo_preview() == ("Vrátit?", "Vezme se zpět: Hráč 1 hodil 4.")
    state = host.play.state
    host.handle(S, 0.0)
    assert host.play.state != state
    assert host.undo(1.0) and host.play.state == state
    assert host.event_line == "Vráceno: poslední akce."
    assert ctx.journal.load()[-1] == RACE.encode(RACE.chance_action(state, 4))


def test_a_resume_of_another_games_journal_is_refused_and_logged(tmp_path, caplog):
    ctx = context(tmp_path)
    host = RaceHost(ctx)
    assert not host.resume([{"t": "game", "game": "clovece"}], 0.0)
    assert not host.in_game and "cannot be replayed" in caplog.text


def test_a_timer_that_cannot_save_tries_again_and_tells_the_shell(tmp_path):
    host = RaceHost(context(tmp_path))
    again: list[float] = []
    with pytest.raises(JournalError), host.retry_later(again.append, 13.0):
        raise JournalError(30, "Nelze uložit: disk je jen pro čtení.", "test")
    assert again == [13.0]
    with host.retry_later(again.append, 23.0):
        pass
    assert again == [13.0]


def test_the_protocol_carries_where_a_chance_outcome_came_from():
    state = RACE.new_game(RACE.default_setup())
    assert RACE.chance_action(state, 3, Source.COMPUTER) == RACE.chance_action(state, 3)
    assert {s.value for s in Source} == {"dice", "manual", "computer"}
