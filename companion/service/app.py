"""Wiring: build the adapters from the configuration and run the table service."""

from __future__ import annotations

import logging
import os
import random
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
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
from companion.devices.voice import (
    ESPEAK,
    Announcer,
    EspeakAnnouncer,
    SilentAnnouncer,
    VoiceStatus,
)
from companion.errors import UsageError
from companion.inputs.events import Button, PadEvent, VoiceLink
from companion.inputs.pads import Pad, PadSignal
from companion.plugin import GamePlugin, starting_game
from companion.service.config import Config, shutdown_argv
from companion.service.datawatch import READ_ONLY_ERRNOS, DataWatch, probe
from companion.service.dice import CHOICE_FILE, DiceChoice, TableDice
from companion.service.dice_menu import DiceMenu
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.loop import Service
from companion.service.shell import Shell
from companion.service.wiring import pin_problems, start_seats
from companion.storage.journal import Journal, Storage
from companion.storage.prefs import Prefs, load_prefs, save_prefs

if TYPE_CHECKING:
    from companion.devices.buttons import Buttons
    from companion.devices.buzzer import Buzzer
    from companion.devices.pads.gpio import SlapPads
    from companion.devices.pads.hub import PadHub
    from companion.devices.pads.mpr121 import Mpr121Pads
    from companion.devices.pads.timing import PadTiming
    from companion.devices.speaker_beeps import SpeakerBeeps
    from companion.dice.pixels.port import GattPort
    from companion.service.phone import Phone

log = logging.getLogger(__name__)

JOURNAL_NAME = "game.journal"
PREFS_NAME = "settings.json"


def make_pin_factory(name: str) -> PinFactory | None:
    """A gpiozero pin factory by name ("" = gpiozero's own choice)."""
    if not name:
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        factory: PinFactory = MockFactory()
        return factory
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            factory = LGPIOFactory()
            return factory
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            factory = RPiGPIOFactory()
            return factory
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            factory = NativeFactory()
            return factory
    except Exception as exc:
        raise UsageError(f"The GPIO pin factory {name!r} cannot start here ({exc}).") from None
    raise UsageError(f"service.pin_factory must be \"\", mock, lgpio, rpigpio or native, not {name!r}.")


class App:
    """The table service put together from a :class:`Config`."""

    def __init__(self, cfg: Config, *, games: Sequence[GamePlugin],
                 pin_factory: PinFactory | None = None,
                 device: DisplayDevice | None = None,
                 dice_port: str | None = None, rng: random.Random | None = None,
                 stream: Any = None, journal_storage: Storage | None = None,
                 announcer: Announcer | None = None, hub_port: str | None = None,
                 phone: Phone | None = None,
                 data_probe: Callable[[Path], str] | None = None,

                 pixels_port: Callable[[], GattPort] | None = None,
                 system_root: str = "/", i2c_bus: Any = None) -> None:
        self.cfg = cfg
        self.games = tuple(games)
        """The games the table offers (:func:`companion.games.playable`, handed in)."""
        self.i2c_bus = i2c_bus
        """The I2C bus of MPR121 pads (``None``: smbus2 on ``display.i2c_port`` when wanted;
        the simulator's chips)."""
        self.system_root = system_root
        """Where the Pi's device tree and /dev are read (tests: a folder of fakes)."""
        self._taken: list[Any] | None = None
        self.shutdown = shutdown_argv(cfg.service.shutdown_command)
        if self.shutdown and shutil.which(self.shutdown[0]) is None:
            raise UsageError(f"service.shutdown_command names {self.shutdown[0]!r}, "
                             "which is not installed here.")
        self.pin_factory = pin_factory
        data = cfg.data_path
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if exc.errno not in READ_ONLY_ERRNOS or not data.parent.is_dir():
                raise UsageError(f"service.data_dir {data} cannot be created "
                                 f"({exc.strerror}).") from None
            log.error("the data folder %s cannot be created (%s): nothing can be saved", data, exc)
        if data.exists() and not data.is_dir():
            raise UsageError(f"service.data_dir {data} is not a folder.")
        missing: DisplayError | None = None
        reopen = None
        if device is None:
            d = cfg.display
            opener = device_opener(d.driver, i2c_port=d.i2c_port, i2c_address=d.i2c_address,
                                   rotate=d.rotate, gif_file=d.gif_file, stream=stream)
            try:
                device = opener()
            except DisplayError as exc:
                if d.driver not in I2C_DRIVERS:
                    raise UsageError(str(exc)) from None
                # a panel that does not answer at the start (a loose cable): the game goes on
                # without it, and the loop keeps opening it until it answers
                from luma.core.device import dummy

                device, missing = dummy(width=WIDTH, height=HEIGHT, mode="1"), exc
            if d.driver in I2C_DRIVERS:
                reopen = opener
        self.screen = Screen(device, reopen=reopen)
        if missing is not None:
            self.screen.absent(missing)
        self.buzzer: Buzzer | None = None
        self.beeps: SpeakerBeeps | None = None
        """The beeps on the speaker where there is no buzzer (the OLED Bonnet)."""
        self.buttons: Buttons | None = None
        self.hardware_started = False
        port = cfg.dice.port if dice_port is None else dice_port
        self.dice_port = port
        self.dice = TableDice(DiceChoice(cfg.dice.kind, cfg.dice.pixels_name), serial_port=port,
                              baudrate=cfg.dice.baudrate, post=lambda inp: self.service.post(inp),
                              status=DiceStatus(), choice_path=data / CHOICE_FILE,
                              pixels_port=pixels_port, ble_name=cfg.dice.ble_name)
        prefs_path = data / PREFS_NAME
        prefs = load_prefs(prefs_path, Prefs(contrast=cfg.display.contrast,
                                             auto_delay=cfg.game.auto_move_delay,
                                             computer_confirm=cfg.game.computer_confirm_delay))
        journal_path = data / JOURNAL_NAME
        if journal_path.exists() and (not journal_path.is_file()
                                      or not os.access(journal_path, os.R_OK)):
            raise UsageError(f"The game journal {journal_path} is not a file this service can "
                             "read; move it away or fix its permissions.")
        journal = Journal(journal_path, storage=journal_storage)
        self.pads: SlapPads | PadHub | Mpr121Pads | None = None
        self.hub_port = cfg.pads.hub_port if hub_port is None else hub_port
        from companion.devices.pads.timing import TIMING_FILE, TimingBook

        p = cfg.pads
        self.pad_timing = TimingBook(p.pad_type, path=data / TIMING_FILE,
                                     overrides=p.declared_ms(), use_calibration=p.use_calibration)
        self.pad_timing.listeners.append(self._new_pad_timing)
        g = cfg.game
        self.announcer = announcer if announcer is not None else self._voice(cfg)
        self.ctx = HostContext(
            journal, prefs, beep=self._beep, rng=rng or random.SystemRandom(),
            dice=self.dice.status, want_pads=self.want_pads,
            defaults={**cfg.shared_defaults(), "max_seats": p.max_seats},
            game_defaults={name: dict(values) for name, values in cfg.games.items()},
            announcer=self.announcer, data=data, pad_timing=self.pad_timing)
        self.controller = Shell(self.ctx, self.games, start_with=g.name,
                                save_prefs=lambda p: save_prefs(prefs_path, p),
                                dice_menu=DiceMenu(self.dice), on_roll=[self.dice.verdict])
        self.service = Service(self.controller, self.screen)
        folder_probe = probe if data_probe is None else data_probe
        self.data_watch = DataWatch(data, probe=lambda f: folder_probe(f) or self.ctx.journal.retry())
        """Whether the data folder takes writes; said on the screen when that changes."""
        self.ctx.storage_notice = self.data_watch.check(time_now())
        self.service.on_idle.append(self._watch_data)
        self.announcer.on_status.append(self._voice_status)
        if not self.announcer.status.available:
            self._voice_status(self.announcer.status)
        elif cfg.voice.enabled and announcer is None and shutil.which(ESPEAK) is None:
            self.service.post(VoiceLink(False, "no-espeak"))  # said at once, not at the first drink
        self.service.on_idle.append(self._poll_pads)
        self.service.on_started.append(self.start_hardware)
        self.phone = phone
        """The phone view (``None``: off); one given by the caller is the caller's to close."""
        self._own_phone = False
        if phone is None and cfg.web.enabled:
            from companion.service.phone import Phone

            self.phone, self._own_phone = Phone.from_config(cfg.web, data), True
            self.service.on_started.append(self._start_phone)  # after the first frame
        if self.phone is not None:
            self.attach_phone(self.phone)

    def _watch_data(self) -> None:
        """Every few seconds while the data folder refuses writes: is it writable again?"""
        if not self.data_watch.refused and self.ctx.journal.waiting:
            self.data_watch.refused = self.ctx.journal.waiting  # probed until the journal heals
        changed = self.data_watch.poll(time_now())
        if changed is not None:
            self.controller.storage(changed)

    def _start_phone(self) -> None:
        if self.phone is not None:
            self.phone.try_start()  # a port in use is said under "Telefon"; the table plays on

    def attach_phone(self, phone: Phone) -> None:
        """Publish the table to ``phone`` and show its QR code under "Telefon"."""
        self.phone = phone
        self.controller.phone_screen = phone.screen
        if phone.keep is not None and not phone.token:  # the box's own address: renewable
            self.controller.phone_renew = phone.renew
        self.service.on_view.append(phone.changed)
        self.service.on_idle.append(lambda: phone.update(self.controller))
        phone.hold = lambda: self.service.busy  # the table first: the server waits meanwhile

    def start_hardware(self) -> None:
        """Claim the GPIO (buzzer, buttons) and start the dice reader; once.

        The service calls it right after its first frame, so that a family sees the screen
        before gpiozero and pyserial are even imported; tests and the simulator call it
        themselves before they press anything.
        """
        if self.hardware_started:
            return
        self.hardware_started = True
        cfg = self.cfg
        self._refuse_taken_pins(start_seats(cfg, starting_game(self.games, cfg.game.name)))
        if self.pin_factory is None:
            self.pin_factory = make_pin_factory(cfg.service.pin_factory)
        if cfg.service.buzzer:
            from companion.devices.buzzer import Buzzer

            self.buzzer = self._gpio(lambda: Buzzer(cfg.pins.buzzer, self.pin_factory,
                                                    kind=cfg.pins.buzzer_kind))
        elif cfg.buttons.bonnet and cfg.voice.enabled:
            from companion.devices.speaker_beeps import SpeakerBeeps

            self.beeps = SpeakerBeeps(cfg.voice.device or None)
        from companion.devices.buttons import Buttons

        pins = cfg.button_pins()
        self.buttons = self._gpio(lambda: Buttons(
            pins, self.service.post, long_press=cfg.buttons.long_press,
            bounce=cfg.buttons.bounce, pin_factory=self.pin_factory,
            long_when=lambda name: name == Button.LEFT and self.controller.held_left_is_long()))
        self.dice.start()  # the serial dice, a Pixels die (Bluetooth loaded only then), or none

    def _refuse_taken_pins(self, seats: int) -> None:
        """Before a GPIO is claimed: one sentence if the Pi's own interfaces (the device tree)
        have taken a pin the configuration wires (hardware/guide/build.md), else nothing."""
        from companion.devices.interfaces import claims

        if self._taken is None:
            self._taken = claims(self.system_root)
        problems = pin_problems(self.cfg, self.system_root, seats=seats, taken=self._taken)
        if problems:
            raise UsageError(problems[0])

    @staticmethod
    def _voice(cfg: Config) -> Announcer:
        """The voice the configuration asks for: espeak-ng to ALSA, or silence."""
        if not cfg.voice.enabled:
            return SilentAnnouncer()
        return EspeakAnnouncer(voice=cfg.voice.voice, device=cfg.voice.device or None)

    def _voice_status(self, status: VoiceStatus) -> None:
        """The voice went silent or came back (called on the voice's thread): tell the loop."""
        self.service.post(VoiceLink(status.available, status.reason))

    def _gpio(self, make: Any) -> Any:
        try:
            return make()
        except Exception as exc:
            if exc.__class__.__module__.startswith("gpiozero"):
                raise UsageError(
                    "No GPIO pins can be used here: on a laptop run 'companion sim' "
                    "or set service.pin_factory = \"mock\".") from None
            raise

    def want_pads(self, seats: int | None) -> None:
        """Claim the slap pads of a ``seats``-seat slap-pad table (``None``: release them):
        GPIO pads (the pin map) or the pad hub (``[pads] frontend``), the calibrated
        offsets subtracted by either."""
        from companion.devices.pads.gpio import SlapPads
        from companion.devices.pinmap import PinMapError, check_layout

        self.start_hardware()  # a resumed slap-pad game claims its pads before the first frame
        if self.pads is not None:
            self.pads.close()
            self.pads = None
        if seats is None:
            return

        def on_pad(event: PadSignal) -> None:
            self.service.post(PadEvent(event))

        offsets = self.pad_timing.current().offsets_ms
        if self.cfg.pads.frontend == "hub":
            from companion.devices.pads.hub import PadHub

            check_layout(self.cfg.pins.layout(extra_buttons=self.cfg.buttons.layout == 5,
                                              padhub_uart=True, i2s_audio=self.cfg.voice.i2s))
            self.pads = PadHub.for_seats(seats, on_pad, self.hub_port,
                                         baudrate=self.cfg.pads.hub_baudrate, offsets=offsets)
            return
        if self.cfg.pads.frontend == "mpr121":
            self.pads = self._mpr121_pads(seats, on_pad, offsets)
            return
        check_layout(self.cfg.pins.layout(seats=seats, extra_buttons=self.cfg.buttons.layout == 5,
                                          i2s_audio=self.cfg.voice.i2s))
        try:
            self._refuse_taken_pins(seats)
        except UsageError as exc:
            raise PinMapError(str(exc)) from None
        self.pads = SlapPads.from_pinmap(self.cfg.pins, seats, on_pad, pin_factory=self.pin_factory,
                                         offsets=offsets)

    def _mpr121_pads(self, seats: int, on_pad: Callable[[PadSignal], None],
                     offsets: Mapping[Pad, float]) -> Mpr121Pads:
        """The pads on MPR121 chips on the display's I2C bus, their IRQ line where wired."""
        from companion.devices.pads.mpr121 import Mpr121Pads, open_bus
        from companion.devices.pinmap import check_layout

        cfg = self.cfg
        check_layout(cfg.pins.layout(extra_buttons=cfg.buttons.layout == 5,
                                     bonnet=cfg.buttons.bonnet, i2s_audio=cfg.voice.i2s,
                                     mpr121_irq=cfg.pads.mpr121_irq))
        bus, own = self.i2c_bus, False
        if bus is None:
            try:
                bus, own = open_bus(cfg.display.i2c_port), True
            except OSError as exc:
                raise UsageError(f"The I2C bus /dev/i2c-{cfg.display.i2c_port} of the MPR121 "
                                 f"pads cannot be opened ({exc.__class__.__name__}).") from None
        irq = cfg.pins.mpr121["irq"] if cfg.pads.mpr121_irq else None
        try:
            return Mpr121Pads.for_seats(seats, on_pad, bus, irq_pin=irq,
                                        pin_factory=self.pin_factory if irq else None,
                                        offsets=offsets, close_bus=own)
        except OSError as exc:
            if own:
                bus.close()
            raise UsageError(str(exc)) from None

    def _new_pad_timing(self, timing: PadTiming) -> None:
        """A calibration took effect: the pads subtract the new offsets from now on."""
        if self.pads is not None:
            self.pads.set_offsets(timing.offsets_ms)

    def _poll_pads(self) -> None:
        if self.pads is not None:
            self.pads.poll()

    def _beep(self, name: str) -> None:
        if self.buzzer is not None:
            self.buzzer.play(name)
        elif self.beeps is not None:
            self.beeps.play(name)

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
        for part in (self.buttons, self.buzzer, self.beeps, self.pads):
            if part is not None:
                part.close()
        self.announcer.close()
        if self.phone is not None and self._own_phone:
            self.phone.close()
        self.screen.close()
