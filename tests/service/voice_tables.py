"""Whole seeded games played through the shell in the voice mode, for what the voice says.

Every seat is the computer's (Člověče, napij se) or the table flips and slaps at random
(Gobbit's virtual deck); a stand-in for the people answers what napij se asks (drinks,
throws).  :func:`play` returns everything the voice was asked to say, in order.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.devices.voice import SilentAnnouncer
from companion.games import playable
from companion.inputs.events import ButtonPress, Dropped, PadEvent, Rolled
from companion.inputs.pads import PadTouch
from companion.service.hosts.base import DiceStatus, Expect, Expecting, HostContext
from companion.service.shell import Mode, Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG_LEFT = ButtonPress("left", long=True)


class VoiceTable:
    def __init__(self, folder: Path, game: str, seed: int, *, voice_mode: str = "table",
                 players: int = 4, voice: object | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.voice = voice if voice is not None else SilentAnnouncer()
        self.rng = random.Random(seed)
        seats = ("r", "b", "g", "y")[:players] if players == 4 else ("r", "g")
        self.ctx = HostContext(
            Journal(folder / "g.journal"),
            Prefs(auto_delay=0.5, computer_confirm=0.5, voice_mode=voice_mode),
            rng=random.Random(seed), dice=DiceStatus(configured=True, up=True),
            defaults={"players": players, "computer": seats, "seats": players,
                      "first": "r" if game == "clovece" else "lot"},
            announcer=self.voice)  # type: ignore[arg-type]
        self.shell = Shell(self.ctx, start_with=game, games=playable())
        self.game = game
        self.now = 100.0
        self.shell.begin(self.now)

    def do(self, event, dt: float = 0.05) -> None:
        self.now += dt
        self.shell.handle(event, self.now)

    def tick(self, dt: float) -> None:
        self.now += dt
        self.shell.tick(self.now)

    def start(self, virtual: bool = False) -> None:
        if virtual:
            self.do(S)  # the game line: Gobbit (balíček)
        self.shell.setup_index = len(self.shell._setup_lines()) - 1
        self.do(S)
        assert self.shell.mode is Mode.PLAY

    def over(self) -> bool:
        host = self.shell.host
        if isinstance(host, Expecting) and host.expects() is Expect.OVER:
            return True
        state = getattr(host, "state", None)
        if self.game == "gobbit":
            if getattr(host, "cards", None) is not None:
                return False  # referee mode: the real cards' game ends at the table
            v = getattr(host, "virtual", None)
            return v is None or v.state.over
        pos = getattr(state, "pos", None)
        return pos is not None and pos.winner is not None

    def step(self) -> None:
        host = self.shell.host
        if self.game == "gobbit" and getattr(host, "cards", None) is not None:
            self.referee_step()
            return
        if self.game == "gobbit":
            self.gobbit_step()
            return
        expect = host.expects() if isinstance(host, Expecting) else None
        if expect is None or expect is Expect.WAIT:
            deadline = host.next_deadline()
            self.tick(max(0.05, (deadline or self.now) - self.now + 0.01))
        elif expect is Expect.CONFIRM:
            self.do(S)
        elif expect is Expect.ROLL:
            if self.rng.random() < 0.02:
                self.do(Dropped())
            else:
                self.do(Rolled(self.rng.randint(1, 6)))
        elif expect is Expect.CHOOSE:
            for _ in range(self.rng.randrange(3)):
                self.do(self.rng.choice((L, R)))
            self.do(S)

    def gobbit_step(self) -> None:
        seats = self.shell.host.seats
        roll = self.rng.random()
        if roll < 0.6:
            self.do(S)
        else:
            for i in range(self.rng.randint(1, 3)):
                seat = self.rng.randint(1, seats)
                target = self.rng.choice([*range(1, seats + 1), "g"])
                ms = self.now * 1000 + i * self.rng.choice((1, 4, 30, 80))
                self.do(PadEvent(PadTouch(seat, target, ms, ms)), 0.0)
            self.tick(2.0)
            self.do(R)

    def referee_step(self) -> None:
        """Referee mode (real cards): touches now and then, and the buttons at random, so
        disputes open, their questions are answered and rulings shown and confirmed."""
        seats = self.shell.host.seats
        if self.rng.random() < 0.25:
            for i in range(self.rng.randint(1, 3)):
                seat = self.rng.randint(1, seats)
                target = self.rng.choice([*range(1, seats + 1), "g"])
                ms = self.now * 1000 + i * self.rng.choice((1, 4, 30, 80))
                self.do(PadEvent(PadTouch(seat, target, ms, ms)), 0.0)
            self.tick(2.0)
        else:
            self.do(self.rng.choice((S, S, R, L)))

    def play_out(self, steps: int = 3000) -> None:
        for i in range(steps):
            if self.over():
                break
            self.step()
            if i % 40 == 0:
                self.do(LONG_LEFT)  # the whole situation, now and then


def play(folder: Path, game: str, seed: int, *, voice_mode: str = "table",
         steps: int = 3000) -> list[str]:
    """One seeded game in the voice mode; everything the voice was asked to say (Gobbit:
    the virtual deck; ``referee``: Gobbit with real cards, ``steps`` steps of it)."""
    t = VoiceTable(folder, "gobbit" if game == "referee" else game, seed, voice_mode=voice_mode)
    t.start(virtual=game == "gobbit")
    t.play_out(steps)
    t.do(ButtonPress("select", long=True))  # the menu, read
    for _ in range(3):
        t.do(R)
    assert isinstance(t.voice, SilentAnnouncer)
    return list(t.voice.spoken)
