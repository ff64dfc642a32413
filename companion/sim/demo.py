"""``companion demo``: a whole headless game, every seat played by the computer.

The real service runs through its real adapters: gpiozero buttons on mock
pins, the dice reader on a pty with the simulated dice, the controller and
journal; a small robot stands in for the people at the table (it shakes the
dice when the screen asks for a roll and presses ● when the computer's move
has been shown).  Every OLED frame goes to an animated GIF (luma.emulator's
``gifanim``).

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
from companion.service.app import App
from companion.service.config import Config
from companion.ui.views import ListView, TurnView, View, WinView

from .terminal import PinPresser

log = logging.getLogger(__name__)


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
    """Acts for the table on what the screen shows; one action per screen state."""

    def __init__(self, app: App, dice: Any, presser: PinPresser, max_rolls: int) -> None:
        self.app = app
        self.dice = dice
        self.presser = presser
        self.max_rolls = max_rolls
        self.rolls = 0
        self.done = threading.Event()
        self.changed = threading.Event()
        self.view: View | None = None
        self.thread = threading.Thread(target=self._run, name="demo-robot", daemon=True)
        app.service.on_view.append(self._seen)

    def _seen(self, view: View) -> None:
        if view != self.view:
            self.view = view
            self.changed.set()

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        win_seen = 0.0
        acted: View | None = None
        while not self.done.is_set():
            self.changed.wait(0.5)
            self.changed.clear()
            view = self.view
            if view is acted and not isinstance(view, WinView):
                continue  # one action per new screen: a slow machine never doubles one
            if isinstance(view, ListView) and view.title.startswith("Nová hra") \
                    and not self.app.ctx.dice.usable:
                continue  # the game starts once the dice is there (the same first screen)
            acted = view
            if isinstance(view, ListView) and view.title.startswith("Nová hra"):
                if view.selected != len(view.items) - 1:
                    self.presser.press("left")
                else:
                    self.presser.press("select")
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
                if not win_seen:
                    win_seen = time.monotonic()
                elif time.monotonic() - win_seen > 1.0:
                    self.done.set()
                    break
        self.app.service.stop()


def run_demo(cfg: Config, *, seed: int, gif: Path, players: int = 4, max_rolls: int = 10_000,
             frame_seconds: float = 0.2) -> dict[str, Any]:
    """Play one seeded demo game; return what happened (winner, rolls, frames)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from gpiozero.pins.mock import MockFactory

    from companion.dice.sim import SimulatedDice
    from companion.hardware.display import create_device

    computer = tuple(COLOURS[c] for c in SEATS_BY_PLAYERS[players])
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as data:
        demo_cfg = replace(
            cfg,
            game=replace(cfg.game, name="clovece", players=players, computer=computer,
                         first="red", auto_move_delay=0.05, computer_dice=True,
                         computer_confirm_delay=0.0),
            service=replace(cfg.service, data_dir=data, pin_factory="mock", buzzer=True,
                            shutdown_command=""),
        )
        device = create_device("gif", gif_file=str(gif), gif_seconds=frame_seconds)
        atexit.unregister(device.write_animation)  # written below, once, not again at exit
        factory = MockFactory()
        with SimulatedDice(seed=seed, device_id="demo-dice") as dice:
            app = App(demo_cfg, pin_factory=factory, device=device, dice_port=dice.path,
                      rng=random.Random(seed))
            app.service.frame_time = FrameTime(frame_seconds)
            presser = PinPresser(factory, dict(demo_cfg.pins.buttons), 0.3)
            robot = Robot(app, dice, presser, max_rolls)
            robot.start()
            app.run()
            robot.done.set()
        host: Any = app.controller.hosts.get("clovece")
        winner = host.state.pos.winner if host is not None and host.in_game else None
        gif.parent.mkdir(parents=True, exist_ok=True)
        device.write_animation()
    return {"winner": COLOURS[winner] if winner is not None else None, "rolls": robot.rolls,
            "frames": app.screen.frames, "gif": str(gif)}
