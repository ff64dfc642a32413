"""A whole table on a laptop for end-to-end tests: the real App on mock pins, a pty dice
and luma's dummy display, the service loop in a thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion.devices.display import create_device
from companion.dice.sim import SimulatedDice
from companion.games import playable
from companion.service.app import build_app
from companion.service.config import Config
from companion.ui.views import View

BUTTON_PINS = {"left": 5, "select": 6, "right": 13}


def rig_config(data: Path, *, players: int = 2, computer: tuple[str, ...] = (),
               auto_delay: float = 0.05, long_press: float = 0.25,
               game: str = "clovece", computer_dice: bool = False, web: bool = False,
               web_port: int = 0) -> Config:
    base = Config()
    return replace(
        base,
        display=replace(base.display, driver="dummy"),
        buttons=replace(base.buttons, long_press=long_press, bounce=0.0),
        game=replace(base.game, name=game, players=players, computer=computer,
                     auto_move_delay=auto_delay, computer_dice=computer_dice),
        service=replace(base.service, data_dir=str(data), pin_factory="mock", shutdown_command=""),
        voice=replace(base.voice, enabled=False),
        web=replace(base.web, enabled=web, address="127.0.0.1", port=web_port),
    )


class Rig:
    def __init__(self, data: Path, *, dice: bool = True, seed: int = 1,
                 storage: Any = None, announcer: Any = None, phone: Any = None,
                 data_probe: Any = None, **cfg: Any) -> None:
        self.cfg = rig_config(data, **cfg)
        self.factory = MockFactory()
        self.dice = SimulatedDice(seed=seed, device_id="rig") if dice else None
        self.device = create_device("dummy")
        self.app = build_app(self.cfg, games=playable(), pin_factory=self.factory, device=self.device,
                             dice_port=self.dice.path if self.dice else "", journal_storage=storage,
                             announcer=announcer, phone=phone, data_probe=data_probe)
        self.app.start_hardware()
        self.views: list[View] = []
        self.app.service.on_view.append(self.views.append)
        self.thread = threading.Thread(target=self.app.run, name="rig-service", daemon=True)
        self.thread.start()

    @property
    def view(self) -> View | None:
        return self.app.service.last_view

    def press(self, name: str, long: bool = False) -> None:
        pin = self.factory.pin(BUTTON_PINS[name])
        pin.drive_low()
        time.sleep(self.cfg.buttons.long_press + 0.1 if long else 0.01)
        pin.drive_high()
        time.sleep(0.02)

    def wait(self, pred: Callable[[View], bool], timeout: float = 5.0) -> View:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.view
            if v is not None and pred(v):
                return v
            time.sleep(0.01)
        raise AssertionError(f"timed out; the screen shows {self.view!r}")

    def stop(self) -> None:
        self.app.service.stop()
        self.thread.join(5)
        if self.dice:
            self.dice.close()
        self.factory.close()
