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

import atexit
import logging
import os
import random
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.engines.clovece.rules import COLOURS, SEATS_BY_PLAYERS
from companion.hardware.voice import Announcer, SilentAnnouncer, WavAnnouncer
from companion.service.app import App
from companion.service.config import Config
from companion.service.hosts.base import Expect, Expecting
from companion.service.phone import Phone
from companion.service.shell import Mode
from companion.ui.picture import AnyView as View
from companion.ui.views import ListView, TurnView, WinView

from .terminal import PinPresser

log = logging.getLogger(__name__)

VOICE_SPEED = 40.0
"""The WAV twin "plays" this many times faster than real time: the demo does not wait for the
speech in real time, and nothing is cut because the robot waits for the voice before acting."""


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

    A host that can say what the table should do next (:class:`Expecting`, e.g.
    napij se) is asked; for the others the robot reads the screen (Člověče).  It
    waits for the voice to finish before it acts, so that every announcement is
    heard whole and in order.
    """

    def __init__(self, app: App, dice: Any, presser: PinPresser, max_rolls: int,
                 announcer: Announcer | None = None) -> None:
        self.app = app
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
        self.thread = threading.Thread(target=self._run, name="demo-robot", daemon=True)
        app.service.on_view.append(self._seen)

    def _seen(self, view: View) -> None:
        """On the loop's thread, with every frame: what the screen and the host say now."""
        shell = self.app.controller
        self.setup = shell.mode is Mode.SETUP
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
            over = isinstance(view, WinView) or expect is Expect.OVER
            if (id(view), expect) == acted and not over:
                continue  # one action per new screen: a slow machine never doubles one
            if isinstance(view, ListView) and self.setup and not self.app.ctx.dice.usable:
                continue  # the game starts once the dice is there (the same first screen)
            acted = (id(view), expect)
            if isinstance(view, ListView) and self.setup:
                if view.selected != len(view.items) - 1:
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
            elif isinstance(view, TurnView):
                if view.roll is None and view.prompt.startswith("Hoď"):
                    if self.rolls >= self.max_rolls:
                        self.done.set()
                        break
                    self.rolls += 1
                    self.dice.roll()
                elif view.roll is not None and len(view.choices) > 1:
                    self.presser.press("select")
            elif isinstance(view, WinView):
                if not over_seen:
                    over_seen = time.monotonic()
                elif time.monotonic() - over_seen > 1.0:
                    self.done.set()
                    break
        if self.announcer is not None:
            self.announcer.wait(60)
        self.app.service.stop()


def _winner(app: App, game: str) -> int | None:
    host: Any = app.controller.hosts.get(game)
    if host is None or not host.in_game:
        return None
    state = host.state
    winner = getattr(state, "winner", None)
    if winner is None and hasattr(state, "pos"):
        winner = state.pos.winner
    return winner if isinstance(winner, int) else None


def run_demo(cfg: Config, *, seed: int, gif: Path, players: int = 4, max_rolls: int = 10_000,
             frame_seconds: float = 0.2, game: str = "clovece",
             wav: Path | None = None, phone: Phone | None = None,
             dice: str = "serial") -> dict[str, Any]:
    """Play one seeded demo game; return what happened (winner, rolls, frames).

    ``wav``: every announcement the voice makes, in order, in one WAV file
    (espeak-ng's real audio); ``phone``: a started phone view to publish the game to
    (the caller closes it); ``dice``: "serial" (the simulated dice on a pty) or "pixels"
    (a virtual Pixels die over bumble; the same faces for the seed, so the same GIF)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from gpiozero.pins.mock import MockFactory

    from companion.dice.sim import SimulatedDice
    from companion.hardware.display import create_device

    computer = tuple(COLOURS[c] for c in SEATS_BY_PLAYERS[players])
    announcer: Announcer = WavAnnouncer(wav, speed=VOICE_SPEED) if wav is not None \
        else SilentAnnouncer()
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as data:
        demo_cfg = replace(
            cfg,
            game=replace(cfg.game, name=game, players=players, computer=computer,
                         first="red" if game == "clovece" else "lot", auto_move_delay=0.05,
                         computer_dice=True, computer_confirm_delay=0.0),
            service=replace(cfg.service, data_dir=data, pin_factory="mock", buzzer=True,
                            shutdown_command=""),
            web=replace(cfg.web, enabled=False),  # only the phone view given (--web)
            dice=replace(cfg.dice, kind=dice),
        )
        device = create_device("gif", gif_file=str(gif), gif_seconds=frame_seconds)
        atexit.unregister(device.write_animation)  # written below, once, not again at exit
        factory = MockFactory()
        from .pixels import SimPixels

        pixels = SimPixels(seed, name="Kostka")
        try:
            with SimulatedDice(seed=seed, device_id="demo-dice") as serial:
                app = App(demo_cfg, pin_factory=factory, device=device, dice_port=serial.path,
                          rng=random.Random(seed), announcer=announcer, phone=phone,
                          pixels_port=pixels.port)
                app.start_hardware()
                app.ctx.prefs.voice = True
                app.service.frame_time = FrameTime(frame_seconds)
                presser = PinPresser(factory, dict(demo_cfg.pins.buttons), 0.3)
                thrower: Any = pixels if dice == "pixels" else serial
                robot = Robot(app, thrower, presser, max_rolls, announcer)
                robot.start()
                app.run()  # closes the announcer: the WAV is complete
                robot.done.set()
        finally:
            pixels.close()
        winner = _winner(app, game)
        gif.parent.mkdir(parents=True, exist_ok=True)
        device.write_animation()
    said = [a for a in getattr(announcer, "history", ()) if not a.dropped]
    return {"winner": COLOURS[winner] if winner is not None else None, "rolls": robot.rolls,
            "frames": app.screen.frames, "gif": str(gif),
            "wav": str(wav) if wav is not None else None, "said": len(said)}
