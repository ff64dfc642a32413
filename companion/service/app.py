"""Wiring: build every part of the table service from the configuration, then run it.

:func:`build_app` is the one place where the parts meet: the screen, the dice, the
journal and preferences, the voice, the devices claimed after the first frame
(:class:`~companion.service.hardware.TableHardware`), the shell, the loop and the phone
view.  Each part is given what it needs when it is made; :class:`App` only holds them,
runs the loop and closes them.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from time import monotonic as time_now
from typing import TYPE_CHECKING, Any

from companion.devices.display import (
    HEIGHT,
    I2C_DRIVERS,
    WIDTH,
    DisplayError,
    Screen,
    device_opener,
)
from companion.devices.ports import DisplayDevice, PinFactory
from companion.devices.voice import ESPEAK, Announcer, EspeakAnnouncer, SilentAnnouncer
from companion.errors import UsageError
from companion.inputs.events import Button, Input, VoiceLink
from companion.plugin import GamePlugin
from companion.service.config import Config, DisplayConfig, shutdown_argv
from companion.service.datawatch import READ_ONLY_ERRNOS, DataWatch, probe
from companion.service.dice import CHOICE_FILE, DiceChoice, TableDice
from companion.service.dice_menu import DiceMenu
from companion.service.hardware import TableHardware, make_pin_factory
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.loop import Service
from companion.service.shell import Shell
from companion.service.shell_base import phone_off
from companion.storage.journal import Journal, Storage
from companion.storage.prefs import Prefs, load_prefs, save_prefs
from companion.ui.picture import AnyView

if TYPE_CHECKING:
    from companion.dice.pixels.port import GattPort
    from companion.service.phone import Phone

__all__ = ["App", "build_app", "make_pin_factory"]

log = logging.getLogger(__name__)

JOURNAL_NAME = "game.journal"
PREFS_NAME = "settings.json"


def build_app(cfg: Config, *, games: Sequence[GamePlugin], pin_factory: PinFactory | None = None,
              device: DisplayDevice | None = None, stream: Any = None,
              dice_port: str | None = None, hub_port: str | None = None,
              pixels_port: Callable[[], GattPort] | None = None, i2c_bus: Any = None,
              system_root: str = "/", journal_storage: Storage | None = None,
              data_probe: Callable[[Path], str] | None = None,
              rng: random.Random | None = None, announcer: Announcer | None = None,
              phone: Phone | None = None, on_sound: Callable[[str], None] | None = None,
              frame_time: Callable[[AnyView, float], float] | None = None) -> App:
    """The table service of ``cfg`` offering ``games`` (:func:`companion.games.playable`;
    the first is played when the configuration names none of them).  Every other keyword is a seam for the simulator, the demo and
    the tests: a pin factory, display ``device`` (or the terminal ``stream`` of the terminal
    display), ports of the dice, pad hub and Pixels die, the MPR121 ``i2c_bus``, the
    ``system_root`` whose device tree is read, the journal's storage, the data folder's
    probe, the random source, the voice, a started ``phone`` view (the caller's to close),
    ``on_sound`` (hears every beep pattern) and the demo's ``frame_time``."""
    shutdown = shutdown_argv(cfg.service.shutdown_command)
    if shutdown and shutil.which(shutdown[0]) is None:
        raise UsageError(f"service.shutdown_command names {shutdown[0]!r}, "
                         "which is not installed here.")
    data = data_folder(cfg.data_path)
    screen = open_screen(cfg.display, device, stream)
    inbox: queue.Queue[Input] = queue.Queue()
    dice = TableDice(DiceChoice(cfg.dice.kind, cfg.dice.pixels_name),
                     serial_port=cfg.dice.port if dice_port is None else dice_port,
                     baudrate=cfg.dice.baudrate, post=inbox.put, status=DiceStatus(),
                     choice_path=data / CHOICE_FILE, pixels_port=pixels_port,
                     ble_name=cfg.dice.ble_name)
    prefs_path = data / PREFS_NAME
    prefs = load_prefs(prefs_path, Prefs(contrast=cfg.display.contrast,
                                         auto_delay=cfg.game.auto_move_delay,
                                         computer_confirm=cfg.game.computer_confirm_delay))
    journal = open_journal(data / JOURNAL_NAME, journal_storage)
    from companion.devices.pads.timing import TIMING_FILE, TimingBook

    # Two parts answer to parts made after them: a new calibration goes to the pads that
    # ``hardware`` holds, and the buttons ask the shell whether a held ◀ is a long press.
    # The lambdas name them when called, once the service runs: both exist by then.
    pad_timing = TimingBook(cfg.pads.pad_type, path=data / TIMING_FILE,
                            overrides=cfg.pads.declared_ms(),
                            use_calibration=cfg.pads.use_calibration,
                            listeners=[lambda timing: hardware.retime(timing)])
    hardware = TableHardware(
        cfg, games, post=inbox.put, dice=dice, pad_timing=pad_timing, pin_factory=pin_factory,
        hub_port=cfg.pads.hub_port if hub_port is None else hub_port, i2c_bus=i2c_bus,
        system_root=system_root, on_sound=on_sound,
        long_when=lambda name: name == Button.LEFT and shell.held_left_is_long())
    folder_probe = probe if data_probe is None else data_probe
    data_watch = DataWatch(data, probe=lambda folder: folder_probe(folder) or journal.retry())
    voice = announcer if announcer is not None else _voice(cfg)
    ctx = HostContext(
        journal, prefs, beep=hardware.beep, rng=rng or random.SystemRandom(),
        dice=dice.status, want_pads=hardware.want_pads,
        defaults={**cfg.shared_defaults(), "max_seats": cfg.pads.max_seats},
        game_defaults={name: dict(values) for name, values in cfg.games.items()},
        announcer=voice, data=data, pad_timing=pad_timing,
        storage_notice=data_watch.check(time_now()))
    service: Service  # made last: the phone view waits while the loop is busy
    own_phone = phone is None and cfg.web.enabled
    if own_phone:
        from companion.service.phone import Phone

        phone = Phone.from_config(cfg.web, data, hold=lambda: service.busy)
    renewable = phone is not None and phone.keep is not None and not phone.token
    shell = Shell(ctx, games, start_with=cfg.game.name,
                  save_prefs=lambda p: save_prefs(prefs_path, p),
                  dice_menu=DiceMenu(dice), on_roll=[dice.verdict],
                  phone_screen=phone.screen if phone is not None else phone_off,
                  phone_renew=phone.renew if phone is not None and renewable else None)
    started: list[Callable[[], object]] = [hardware.start]
    idle = [_data_watcher(data_watch, journal, shell), hardware.poll]
    if own_phone and phone is not None:
        started.append(phone.try_start)  # after the first frame
    if phone is not None:
        idle.append(_phone_updater(phone, shell))
    service = Service(shell, screen, inbox=inbox, on_started=started, on_idle=idle,
                      on_view=[phone.changed] if phone is not None else [],
                      frame_time=frame_time)
    voice.on_status.append(lambda status: inbox.put(VoiceLink(status.available, status.reason)))
    if not voice.status.available:
        inbox.put(VoiceLink(False, voice.status.reason))
    elif cfg.voice.enabled and announcer is None and shutil.which(ESPEAK) is None:
        inbox.put(VoiceLink(False, "no-espeak"))  # said at once, not at the first drink
    return App(cfg, screen=screen, dice=dice, hardware=hardware, ctx=ctx, controller=shell,
               service=service, data_watch=data_watch, announcer=voice, phone=phone,
               own_phone=own_phone, shutdown=shutdown)


def data_folder(data: Path) -> Path:
    """The data folder, made if missing; one sentence when it cannot be used (a read-only
    one only logs: the table plays on without saving)."""
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno not in READ_ONLY_ERRNOS or not data.parent.is_dir():
            raise UsageError(f"service.data_dir {data} cannot be created "
                             f"({exc.strerror}).") from None
        log.error("the data folder %s cannot be created (%s): nothing can be saved", data, exc)
    if data.exists() and not data.is_dir():
        raise UsageError(f"service.data_dir {data} is not a folder.")
    return data


def open_screen(d: DisplayConfig, device: DisplayDevice | None, stream: Any) -> Screen:
    """The screen on ``device``, or on the configured driver's: a panel that does not answer
    at the start (a loose cable) is kept trying by the loop while the game goes on."""
    if device is not None:
        return Screen(device)
    opener = device_opener(d.driver, i2c_port=d.i2c_port, i2c_address=d.i2c_address,
                           rotate=d.rotate, gif_file=d.gif_file, stream=stream)
    reopen = opener if d.driver in I2C_DRIVERS else None
    try:
        return Screen(opener(), reopen=reopen)
    except DisplayError as exc:
        if reopen is None:
            raise UsageError(str(exc)) from None
        from luma.core.device import dummy

        screen = Screen(dummy(width=WIDTH, height=HEIGHT, mode="1"), reopen=reopen)
        screen.absent(exc)
        return screen


def open_journal(path: Path, storage: Storage | None) -> Journal:
    if path.exists() and (not path.is_file() or not os.access(path, os.R_OK)):
        raise UsageError(f"The game journal {path} is not a file this service can "
                         "read; move it away or fix its permissions.")
    return Journal(path, storage=storage)


def _voice(cfg: Config) -> Announcer:
    """The voice the configuration asks for: espeak-ng to ALSA, or silence."""
    if not cfg.voice.enabled:
        return SilentAnnouncer()
    return EspeakAnnouncer(voice=cfg.voice.voice, device=cfg.voice.device or None)


def _data_watcher(watch: DataWatch, journal: Journal, shell: Shell) -> Callable[[], None]:
    """Every few seconds while the data folder refuses writes: is it writable again?"""
    def poll() -> None:
        if not watch.refused and journal.waiting:
            watch.refused = journal.waiting  # probed until the journal heals
        changed = watch.poll(time_now())
        if changed is not None:
            shell.storage(changed)
    return poll


def _phone_updater(phone: Phone, shell: Shell) -> Callable[[], None]:
    return lambda: phone.update(shell)


class App:
    """The table service's parts (made by :func:`build_app`): runs the loop, then closes them."""

    def __init__(self, cfg: Config, *, screen: Screen, dice: TableDice, hardware: TableHardware,
                 ctx: HostContext, controller: Shell, service: Service, data_watch: DataWatch,
                 announcer: Announcer, phone: Phone | None, own_phone: bool,
                 shutdown: list[str]) -> None:
        self.cfg = cfg
        self.screen = screen
        self.dice = dice
        self.hardware = hardware
        self.ctx = ctx
        self.controller = controller
        self.service = service
        self.data_watch = data_watch
        """Whether the data folder takes writes; said on the screen when that changes."""
        self.announcer = announcer
        self.phone = phone
        """The phone view (``None``: off); one given to :func:`build_app` is the caller's to
        close."""
        self._own_phone = own_phone
        self.shutdown = shutdown

    def start_hardware(self) -> None:
        """Claim the GPIO (buzzer, buttons) and start the dice reader; once.

        The loop does it right after its first frame, so that a family sees the screen
        before gpiozero and pyserial are even imported; tests and the simulator call it
        themselves before they press anything.
        """
        self.hardware.start()

    def run(self) -> int:
        try:
            self.service.run()
        finally:
            if self.phone is not None:  # the last moment (a won game) reaches the phones too
                self.phone.changed()
                try:
                    self.phone.update(self.controller)
                except Exception:
                    log.exception("the phone view could not take the last moment")
            self.close()
        problem = self.screen.write_out()  # the GIF twin's animation: a refusal is a sentence
        if problem:
            raise UsageError(problem)
        if self.controller.shutdown_requested and self.shutdown:
            log.info("shutting down: %s", " ".join(self.shutdown))
            import subprocess

            try:
                done = subprocess.run(self.shutdown, check=False)
            except OSError as exc:
                log.error("the shutdown command could not run: %s", exc)
                return 1
            if done.returncode != 0:
                log.error("the shutdown command %r failed with exit status %d",
                          " ".join(self.shutdown), done.returncode)
                return 1
        return 0

    def close(self) -> None:
        self.dice.close()
        self.hardware.close()
        self.announcer.close()
        if self.phone is not None and self._own_phone:
            self.phone.close()
        self.screen.close()
