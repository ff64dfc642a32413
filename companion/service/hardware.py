"""The table's GPIO and pad devices, claimed after the first frame.

:class:`TableHardware` holds what the service claims on the Pi's pins and buses: the
buzzer (or the speaker's beeps on the OLED Bonnet), the buttons, the dice's reader (started
with them) and the slap pads a game played with them asks for.  Nothing is claimed, and neither
gpiozero nor pyserial is imported, until :meth:`TableHardware.start`: a family sees the
first frame before that.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from companion.devices.ports import PinFactory
from companion.errors import UsageError
from companion.inputs.events import Input, PadEvent
from companion.inputs.pads import Pad, PadSignal
from companion.plugin import GamePlugin, starting_game
from companion.service.config import Config
from companion.service.dice import TableDice

if TYPE_CHECKING:
    from companion.devices.buttons import Buttons
    from companion.devices.buzzer import Buzzer
    from companion.devices.pads.gpio import SlapPads
    from companion.devices.pads.hub import PadHub
    from companion.devices.pads.mpr121 import Mpr121Pads
    from companion.devices.pads.timing import PadTiming, TimingBook
    from companion.devices.speaker_beeps import SpeakerBeeps

log = logging.getLogger(__name__)

T = TypeVar("T")


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


def _gpio(make: Callable[[], T]) -> T:
    """``make()``, with gpiozero's refusal on a machine without GPIO said as one sentence."""
    try:
        return make()
    except Exception as exc:
        if exc.__class__.__module__.startswith("gpiozero"):
            raise UsageError(
                "No GPIO pins can be used here: on a laptop run 'companion sim' "
                "or set service.pin_factory = \"mock\".") from None
        raise


class TableHardware:
    """The buzzer, buttons, dice reader and pads of one table.

    ``post`` hands an input to the service loop (from the devices' threads);
    ``long_when(name)`` tells the buttons whether a held button is one long press now;
    ``pad_timing`` gives the pads their offsets; ``on_sound`` hears every pattern played.
    ``pin_factory`` (``None``: the configuration's), ``hub_port`` (the pad hub's serial
    port), ``i2c_bus`` (the MPR121 pads' bus; ``None``: smbus2 on ``display.i2c_port``) and
    ``system_root`` (where the Pi's device tree is read; tests give a folder of fakes) are
    the simulator's and the tests' seams.
    """

    def __init__(self, cfg: Config, games: Sequence[GamePlugin], *, post: Callable[[Input], None], dice: TableDice,
                 long_when: Callable[[str], bool], pad_timing: TimingBook,
                 pin_factory: PinFactory | None = None, hub_port: str = "",
                 i2c_bus: Any = None, system_root: str = "/",
                 on_sound: Callable[[str], None] | None = None) -> None:
        self.cfg = cfg
        self.games = tuple(games)
        """The games the table offers (the one it starts with may claim the pads at once)."""
        self.post = post
        self.dice = dice
        self.long_when = long_when
        self.pad_timing = pad_timing
        self.pin_factory = pin_factory
        self.hub_port = hub_port
        self.i2c_bus = i2c_bus
        self.system_root = system_root
        self.on_sound = on_sound
        self.started = False
        self.buzzer: Buzzer | None = None
        self.beeps: SpeakerBeeps | None = None
        """The beeps on the speaker where there is no buzzer (the OLED Bonnet)."""
        self.buttons: Buttons | None = None
        self.pads: SlapPads | PadHub | Mpr121Pads | None = None
        self._taken: list[Any] | None = None

    def start(self) -> None:
        """Claim the GPIO (buzzer, buttons) and start the dice reader; once."""
        if self.started:
            return
        self.started = True
        from companion.service.wiring import start_seats

        cfg = self.cfg
        self._refuse_taken_pins(start_seats(cfg, starting_game(self.games, cfg.game.name)))
        if self.pin_factory is None:
            self.pin_factory = make_pin_factory(cfg.service.pin_factory)
        factory = self.pin_factory
        if cfg.service.buzzer:
            from companion.devices.buzzer import Buzzer

            self.buzzer = _gpio(lambda: Buzzer(cfg.pins.buzzer, factory, listener=self.on_sound,
                                               kind=cfg.pins.buzzer_kind))
        elif cfg.buttons.bonnet and cfg.voice.enabled:
            from companion.devices.speaker_beeps import SpeakerBeeps

            self.beeps = SpeakerBeeps(cfg.voice.device or None, listener=self.on_sound)
        from companion.devices.buttons import Buttons

        pins = cfg.button_pins()
        self.buttons = _gpio(lambda: Buttons(
            pins, self.post, long_press=cfg.buttons.long_press, bounce=cfg.buttons.bounce,
            pin_factory=factory, long_when=self.long_when))
        self.dice.start()  # the serial dice, a Pixels die (Bluetooth loaded only then), or none

    def _refuse_taken_pins(self, seats: int) -> None:
        """Before a GPIO is claimed: one sentence if the Pi's own interfaces (the device tree)
        have taken a pin the configuration wires (hardware/guide/build.md), else nothing."""
        from companion.devices.interfaces import claims
        from companion.service.wiring import pin_problems

        if self._taken is None:
            self._taken = claims(self.system_root)
        problems = pin_problems(self.cfg, self.system_root, seats=seats, taken=self._taken)
        if problems:
            raise UsageError(problems[0])

    def beep(self, name: str) -> None:
        if self.buzzer is not None:
            self.buzzer.play(name)
        elif self.beeps is not None:
            self.beeps.play(name)

    def want_pads(self, seats: int | None) -> None:
        """Claim the slap pads of a ``seats``-seat slap-pad table (``None``: release them):
        GPIO pads (the pin map) or the pad hub (``[pads] frontend``), the calibrated
        offsets subtracted by either."""
        from companion.devices.pads.gpio import SlapPads
        from companion.devices.pinmap import PinMapError, check_layout

        self.start()  # a resumed slap-pad game claims its pads before the first frame
        if self.pads is not None:
            self.pads.close()
            self.pads = None
        if seats is None:
            return
        cfg = self.cfg

        def on_pad(event: PadSignal) -> None:
            self.post(PadEvent(event))

        offsets = self.pad_timing.current().offsets_ms
        if cfg.pads.frontend == "hub":
            from companion.devices.pads.hub import PadHub

            check_layout(cfg.pins.layout(extra_buttons=cfg.buttons.layout == 5,
                                         padhub_uart=True, i2s_audio=cfg.voice.i2s))
            self.pads = PadHub.for_seats(seats, on_pad, self.hub_port,
                                         baudrate=cfg.pads.hub_baudrate, offsets=offsets)
            return
        if cfg.pads.frontend == "mpr121":
            self.pads = self._mpr121_pads(seats, on_pad, offsets)
            return
        check_layout(cfg.pins.layout(seats=seats, extra_buttons=cfg.buttons.layout == 5,
                                     i2s_audio=cfg.voice.i2s))
        try:
            self._refuse_taken_pins(seats)
        except UsageError as exc:
            raise PinMapError(str(exc)) from None
        self.pads = SlapPads.from_pinmap(cfg.pins, seats, on_pad, pin_factory=self.pin_factory,
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

    def retime(self, timing: PadTiming) -> None:
        """A calibration took effect: the pads subtract the new offsets from now on."""
        if self.pads is not None:
            self.pads.set_offsets(timing.offsets_ms)

    def poll(self) -> None:
        """Let the pads read their inputs (from the loop, when it is idle)."""
        if self.pads is not None:
            self.pads.poll()

    def close(self) -> None:
        for part in (self.buttons, self.buzzer, self.beeps, self.pads):
            if part is not None:
                part.close()

