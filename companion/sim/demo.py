"""``companion demo``: a whole headless game, every seat played by the computer.

The real service runs through its real adapters: gpiozero buttons on mock
pins, the dice reader on a pty with the simulated dice, the controller and
journal; a small robot stands in for the people at the table (it shakes the
dice when a roll is due and presses ● when the computer's move has been shown
or a drink has been announced).  Every OLED frame goes to an animated GIF
(luma.emulator's ``gifanim``); with ``wav``, every spoken announcement goes to
one WAV file, in order (the voice's WAV twin, espeak-ng's real audio).

The same seed gives the same GIF, byte for byte: the dice, the companion's own
throws and the computer's choices come from the seed; the robot acts once on
every new screen (never again on a timeout) and starts the game only once the
dice is connected; and the animation time of a frame (blinking, scrolling) is
counted in views, one GIF frame's time per new view, not read from the clock.
"""

from __future__ import annotations

import logging
import os
import random
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.devices.voice import Announcer, SilentAnnouncer, WavAnnouncer
from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS
from companion.engines.game import replay
from companion.errors import UsageError
from companion.games import find_game, playable
from companion.service.app import App, build_app
from companion.service.config import Config
from companion.service.hosts.base import Expect, Expecting
from companion.service.phone import Phone
from companion.service.shell import Mode
from companion.sim.terminal import PinPresser
from companion.ui.picture import AnyView as View
from companion.ui.views import ListView

log = logging.getLogger(__name__)

DEMO_KEYS = ("players", "computer", "computer_dice")
"""Set-up defaults the demo sets itself (every seat the computer's, its own dice)."""
VOICE_SPEED = 40.0
"""The WAV twin "plays" this many times faster than real time: the demo does not wait for the
speech in real time, and nothing is cut because the robot waits for the voice before acting."""


DEMO_PENDING = 64
"""The demo's voice keeps every announcement the computer seats' quick timers queue (the
table's own voice keeps a few and drops the stale ones)."""


class FrameTime:
    """The animation time of a frame counted in views: every new view moves it on by one
    GIF frame's time, the same view keeps it (so redraws add no frame)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.views = 0
        self.last: View | None = None

    def __call__(self, view: View, now: float) -> float:
        if view != self.last:
            self.last = view
            self.views += 1
        return self.views * self.step


class Robot:
    """Acts for the table on what the screen shows; one action per screen state.

    The host says what the table should do next (:class:`Expecting`); in the set-up the
    robot chooses the game's line ``table`` (a mode of :func:`playable_line`) and starts.
    It waits for the voice to finish before it acts, so that every announcement is heard
    whole and in order.
    """

    def __init__(self, app: App, dice: Any, presser: PinPresser, max_rolls: int,
                 announcer: Announcer | None = None, table: str = "") -> None:
        self.app = app
        self.table = table
        self.dice = dice
        self.presser = presser
        self.max_rolls = max_rolls
        self.announcer = announcer
        self.rolls = 0
        self.done = threading.Event()
        self.changed = threading.Event()
        self.view: View | None = None
        self.expect: Expect | None = None
        self.setup = False
        self.on_line = True
        self.thread = threading.Thread(target=self._run, name="demo-robot", daemon=True)
        app.service.on_view.append(self._seen)

    def _seen(self, view: View) -> None:
        """On the loop's thread, with every frame: what the screen and the host say now."""
        shell = self.app.controller
        self.setup = shell.mode is Mode.SETUP
        self.on_line = shell.table.mode == self.table
        host = shell.hosts.get(shell.game)
        expect = host.expects() if isinstance(host, Expecting) and shell.mode is Mode.PLAY \
            else None
        if view != self.view or expect != self.expect:
            self.view, self.expect = view, expect
            self.changed.set()

    def start(self) -> None:
        self.thread.start()

    def _act(self, what: Any) -> None:
        """Do one thing, then give the table a moment to show what followed."""
        self.changed.clear()
        if self.announcer is not None:
            self.announcer.wait(60)
        what()
        self.changed.wait(1.0)

    def _run(self) -> None:
        over_seen = 0.0
        acted: tuple[int, Expect | None] | None = None
        while not self.done.is_set():
            self.changed.wait(0.5)
            self.changed.clear()
            view, expect = self.view, self.expect
            over = expect is Expect.OVER
            if (id(view), expect) == acted and not over:
                continue  # one action per new screen: a slow machine never doubles one
            if isinstance(view, ListView) and self.setup and not self.app.ctx.dice.usable:
                continue  # the game starts once the dice is there (the same first screen)
            acted = (id(view), expect)
            if isinstance(view, ListView) and self.setup:
                if not self.on_line and view.selected == 0:
                    self.presser.press("select")  # the game line: on to the line to play
                elif view.selected != len(view.items) - 1:
                    self.presser.press("left")
                else:
                    self.presser.press("select")
            elif expect is not None:
                if expect is Expect.ROLL:
                    if self.rolls >= self.max_rolls:
                        self.done.set()
                        break
                    self.rolls += 1
                    self._act(self.dice.roll)
                elif expect in (Expect.CONFIRM, Expect.CHOOSE):
                    self._act(lambda: self.presser.press("select"))
                elif expect is Expect.OVER:
                    if not over_seen:
                        over_seen = time.monotonic()
                    elif time.monotonic() - over_seen > 1.5:
                        self.done.set()
                        break
        if self.announcer is not None:
            self.announcer.wait(60)
        self.app.service.stop()


def _demo_games(games: Mapping[str, Mapping[str, Any]], game: str) -> dict[str, dict[str, Any]]:
    """Each game's configured set-up defaults without the seats (the demo sets them), with the
    played game's demo set-up over its own."""
    out = {name: {k: v for k, v in values.items() if k not in DEMO_KEYS}
           for name, values in games.items()}
    out.setdefault(game, {}).update(find_game(game).demo)
    return out


def _winner(app: App, game: str) -> str | None:
    """The winners by the journal (the engine's ``winners`` of its replay), a comma between
    two: a colour's letter in a game of colours (its header counts ``players``), else the
    seat's number; ``None`` while nobody has won."""
    records = app.ctx.journal.load()
    if not records or records[0].get("game") != game:
        return None
    engine = find_game(game).engine()
    folded = replay(engine, records)
    winners: tuple[int, ...] = engine.winners(folded.state) if folded.state is not None else ()
    if not winners:
        return None
    return ",".join(COLOURS[w] if "players" in records[0] else str(w) for w in winners)


def playable_line(game: str, seed: int = 0) -> str:
    """The mode of the first set-up line of ``game`` that the computer can play alone: its
    host, started on a scratch journal, says what the table should do next (Gobbit with
    real cards only follows the table; its virtual deck can be played)."""
    from companion.service.hosts.base import DiceStatus, HostContext
    from companion.storage.journal import Journal
    from companion.storage.prefs import Prefs

    info = find_game(game)
    with tempfile.TemporaryDirectory(prefix="companion-demo-probe-") as scratch:
        for n, (mode, _) in enumerate(info.table_lines()):
            ctx = HostContext(Journal(Path(scratch) / f"{n}.journal"), Prefs(),
                              rng=random.Random(seed), dice=DiceStatus(True, True))
            host = info.host_factory()(ctx, mode)
            host.start(0.0)
            expects = host.expects() if isinstance(host, Expecting) else None
            host.stop()
            if expects is not None:
                return str(mode)
    raise UsageError(f"The demo cannot play {game!r}: the computer cannot play any of its "
                     "tables alone.")


def run_demo(cfg: Config, *, seed: int, gif: Path, players: int = 4, max_rolls: int = 10_000,
             frame_seconds: float = 0.2, game: str = "clovece",
             wav: Path | None = None, phone: Phone | None = None,
             dice: str = "serial") -> dict[str, Any]:
    """Play one seeded demo game; return what happened (winner, rolls, frames).

    ``wav``: every announcement the voice makes, in order, in one WAV file
    (espeak-ng's real audio), and their texts beside it (``.txt``); ``phone``: a started phone view to publish the game to
    (the caller closes it); ``dice``: "serial" (the simulated dice on a pty) or "pixels"
    (a virtual Pixels die over bumble; the same faces for the seed, so the same GIF)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    table = playable_line(game, seed)
    from gpiozero.pins.mock import MockFactory

    from companion.devices.display import create_device
    from companion.dice.sim import SimulatedDice

    computer = tuple(COLOURS[c] for c in SEATS_BY_PLAYERS[players])
    announcer: Announcer = WavAnnouncer(wav, speed=VOICE_SPEED, max_pending=DEMO_PENDING) \
        if wav is not None else SilentAnnouncer()
    if isinstance(announcer, WavAnnouncer):  # every sentence of the game kept, not the latest
        announcer.history = deque(maxlen=None)
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as data:
        demo_cfg = replace(
            cfg,
            game=replace(cfg.game, name=game, players=players, computer=computer,
                         auto_move_delay=0.05, computer_dice=True, computer_confirm_delay=0.0),
            games=_demo_games(cfg.games, game),  # the demo's seats, not a section's
            service=replace(cfg.service, data_dir=data, pin_factory="mock", buzzer=True,
                            shutdown_command=""),
            web=replace(cfg.web, enabled=False),  # only the phone view given (--web)
            dice=replace(cfg.dice, kind=dice),
        )
        device = create_device("gif", gif_file=str(gif), gif_seconds=frame_seconds)
        factory = MockFactory()
        from companion.sim.pixels import SimPixels

        pixels = SimPixels(seed, name="Kostka")
        try:
            with SimulatedDice(seed=seed, device_id="demo-dice") as serial:
                app = build_app(demo_cfg, games=playable(), pin_factory=factory, device=device,
                                dice_port=serial.path, rng=random.Random(seed),
                                announcer=announcer, phone=phone, pixels_port=pixels.port,
                                frame_time=FrameTime(frame_seconds))
                app.start_hardware()
                app.ctx.prefs.voice = True
                presser = PinPresser(factory, dict(demo_cfg.pins.buttons), 0.3)
                thrower: Any = pixels if dice == "pixels" else serial
                robot = Robot(app, thrower, presser, max_rolls, announcer, table)
                robot.start()
                app.run()  # closes the announcer: the WAV is complete
                robot.done.set()
        finally:
            pixels.close()
        winner = _winner(app, game)
    said = [a for a in getattr(announcer, "history", ()) if not a.dropped]
    if wav is not None:  # the sentences heard, beside the audio, to read what was said
        wav.with_suffix(".txt").write_text("".join(f"{a.text}\n" for a in said), "utf-8")
    return {"winner": winner, "rolls": robot.rolls,
            "frames": app.screen.frames, "gif": str(gif),
            "wav": str(wav) if wav is not None else None, "said": len(said)}
