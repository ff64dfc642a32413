"""``companion doctor``: the box's parts checked one by one, one sentence each.

Run on the box with the service stopped (it claims the same pins): the Pi's own interfaces
against the pin map, the panel (a test picture: "do you see it?"), every button (press each),
the buzzer (a beep: "did you hear it?"), the dice's link, the pads (every pad reads untouched,
then touch each; the pad hub's raw counts) and the voice (a sentence: "did you hear it?").
The I2C bus is scanned by address: a panel at 0x3C/0x3D (the OLED Bonnet's is at 0x3C) and
MPR121 touch controllers at 0x5A-0x5D, and the doctor says which set-up fits what it found.
Each finding is one line: what works, or what is missing or miswired and where to look
(hardware/guide/build.md has the wiring tables it names).

Everything it talks to can be replaced (:class:`Doctor`'s arguments), so the tests run it
against the simulated twins with parts missing.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.devices.header import BCM_TO_PHYSICAL
from companion.errors import UsageError
from companion.games import find_game, playable

PARTS = ("pins", "i2c", "panel", "buttons", "buzzer", "dice", "pads", "voice")
BUTTON_NAMES = {"left": "◀", "select": "●", "right": "▶", "menu": "the menu button",
                "help": "the help button"}
TEST_SENTENCE = "Zkouška hlasu. Slyšíte mě?"


@dataclass(frozen=True)
class Finding:
    part: str
    ok: bool
    sentence: str

    def line(self) -> str:
        return f"{'ok ' if self.ok else 'FIX'} {self.part:<7} {self.sentence}"


Ask = Callable[[str], "bool | None"]
"""A yes/no question to the person at the box (None: nobody can answer)."""


def ask_terminal(question: str) -> bool | None:
    """Ask on the terminal; None when there is none (a pipe, systemd)."""
    if not sys.stdin.isatty():
        return None
    while True:
        try:
            answer = input(f"{question} [y/n] ").strip().lower()
        except EOFError:
            return None
        if answer in ("y", "yes", "a", "ano"):
            return True
        if answer in ("n", "no", "ne"):
            return False


def header(pin: int) -> str:
    """``GPIO13 (header pin 33)``."""
    return f"GPIO{pin} (header pin {BCM_TO_PHYSICAL[pin]})"


def where(pin: int) -> str:
    """``GPIO13, header pin 33`` (inside brackets)."""
    return f"GPIO{pin}, header pin {BCM_TO_PHYSICAL[pin]}"


class Doctor:
    """The checks of ``cfg``'s box.  ``prompted(part, name, pin)`` is called after each
    prompt to the person (tests press mock pins there); ``open_display``, ``announcer`` and
    ``pin_factory`` replace the real panel, voice and GPIO."""

    def __init__(self, cfg: Any, *, out: Callable[[str], None] = print, ask: Ask = ask_terminal,
                 pin_factory: Any = None, open_display: Callable[[], Any] | None = None,
                 announcer: Any = None, system_root: str = "/", seats: int | None = None,
                 press_timeout: float = 10.0, link_timeout: float = 4.0,
                 touch_timeout: float = 60.0,
                 prompted: Callable[[str, str, int | None], None] | None = None,
                 i2c_bus: Any = None,
                 ble_port: Callable[[], Any] | None = None) -> None:
        self.cfg = cfg
        self.make_ble_port = ble_port
        self.out = out
        self.ask = ask
        self.pin_factory = pin_factory
        self.open_display = open_display
        self.announcer = announcer
        self.root = system_root
        self.seats = seats or int(cfg.setup_defaults(find_game("gobbit"))["seats"])
        self.press_timeout = press_timeout
        self.link_timeout = link_timeout
        self.touch_timeout = touch_timeout
        self.prompted = prompted or (lambda part, name, pin: None)
        self.findings: list[Finding] = []
        self.i2c_bus = i2c_bus
        """The I2C bus (smbus2's ``write_quick`` and ``read_byte``; ``None``: smbus2 on
        ``display.i2c_port``); tests give a fake one."""

    def say(self, text: str) -> None:
        self.out(text)

    def _note(self, part: str, ok: bool, sentence: str) -> None:
        finding = Finding(part, ok, sentence)
        self.findings.append(finding)
        self.out(finding.line())

    def run(self, parts: Sequence[str] = PARTS) -> list[Finding]:
        for part in parts:
            try:
                getattr(self, f"check_{part}")()
            except Exception as exc:  # a part's check must not stop the others
                name = exc.__class__.__name__
                if name == "BadPinFactory":
                    self._note(part, False, "No GPIO driver answers here (not a Pi, or python3-"
                               "lgpio missing): its pins cannot be checked.")
                elif exc.__class__.__module__.startswith("gpiozero"):
                    self._note(part, False, "Its pins cannot be claimed: stop the service first "
                               f"(sudo systemctl stop companion) ({name}).")
                else:
                    self._note(part, False, f"The check failed: {exc}.")
        return self.findings

    # --- the pins -------------------------------------------------------------------------

    def check_pins(self) -> None:
        from companion.devices.interfaces import claims, model
        from companion.service.wiring import pin_problems

        if not model(self.root):
            self._note("pins", True, "No device tree here (not a Pi): no interface to check.")
            return
        taken = claims(self.root)
        seats = self.seats if self.cfg.pads.frontend == "gpio" else 0
        problems = pin_problems(self.cfg, self.root, seats=seats, taken=taken)
        for sentence in problems:
            self._note("pins", False, sentence)
        if not problems:
            self._note("pins", True, "No pin of this set-up is taken by the Pi's own interfaces.")
        if self.cfg.voice.i2s and not any(c.kind == "i2s" for c in taken):
            self._note("pins", False, "voice.i2s is on but I2S is not: add dtoverlay=max98357a,"
                       "no-sdmode to /boot/firmware/config.txt and reboot.")

    # --- the I2C bus ---------------------------------------------------------------------

    def _open_i2c(self) -> tuple[Any, bool]:
        """The bus and whether the doctor opened it (and closes it); ``None`` when it is off."""
        if self.i2c_bus is not None:
            return self.i2c_bus, False
        port = self.cfg.display.i2c_port
        if not (Path(self.root) / "dev" / f"i2c-{port}").exists():
            return None, False
        from companion.devices.pads.mpr121 import open_bus

        return open_bus(port), True

    def scan_i2c(self) -> list[int]:
        """The addresses that answer among the panel's and the MPR121s' (``[]``: bus off)."""
        from companion.devices.pads.mpr121 import ADDRESSES

        bus, own = self._open_i2c()
        if bus is None:
            return []
        found = []
        try:
            for address in (*PANEL_ADDRESSES, *ADDRESSES):
                try:
                    if address in PANEL_ADDRESSES:
                        bus.write_quick(address)  # an SSD1306 takes writes only
                    else:
                        bus.read_byte(address)
                except OSError:
                    continue
                found.append(address)
        finally:
            if own:
                bus.close()
        return found

    def check_i2c(self) -> None:
        from companion.devices.display import I2C_DRIVERS
        from companion.devices.pads.mpr121 import ADDRESSES, chips_for

        port = self.cfg.display.i2c_port
        if self.cfg.display.driver not in I2C_DRIVERS and self.cfg.pads.frontend != "mpr121":
            self._note("i2c", True, "Nothing of this configuration is on I2C (display.driver, "
                       "pads.frontend).")
            return
        bus, own = self._open_i2c()
        if bus is None:
            self._note("i2c", False, f"I2C bus {port} is off: turn it on (sudo raspi-config "
                       "nonint do_i2c 0) and reboot.")
            return
        if own:
            bus.close()
        found = self.scan_i2c()
        panels = [a for a in found if a in PANEL_ADDRESSES]
        chips = [a for a in found if a in ADDRESSES]
        seen = ", ".join(f"0x{a:02X}" for a in found) or "nothing"
        self._note("i2c", bool(panels), f"On I2C bus {port}: {seen}.")
        self._note("i2c", True, fitting_profile(panels, chips, self.cfg))
        cfg = self.cfg
        if cfg.pads.frontend == "mpr121":
            need = chips_for(self.seats)
            missing = [a for a in ADDRESSES[:need] if a not in chips]
            if missing:
                self._note("i2c", False, f"{self.seats} seats need {need} MPR121 chip"
                           f"{'s' if need > 1 else ''} at {', '.join(f'0x{a:02X}' for a in ADDRESSES[:need])}; "
                           f"{', '.join(f'0x{a:02X}' for a in missing)} does not answer: check "
                           "its STEMMA QT cable and its ADDR setting (hardware/no-solder.md).")

    # --- the panel -------------------------------------------------------------------------

    def check_panel(self) -> None:
        from companion.devices.display import I2C_DRIVERS, DisplayError, device_opener

        d = self.cfg.display
        opener = self.open_display
        where = f"0x{d.i2c_address:02X} on I2C bus {d.i2c_port}"
        if opener is None:
            if d.driver in I2C_DRIVERS and not (Path(self.root) / "dev" / f"i2c-{d.i2c_port}").exists():
                self._note("panel", False, f"I2C bus {d.i2c_port} is off: turn it on (sudo "
                           "raspi-config nonint do_i2c 0) and reboot.")
                return
            opener = device_opener(d.driver, i2c_port=d.i2c_port, i2c_address=d.i2c_address,
                                   rotate=d.rotate)
        try:
            device = opener()
        except DisplayError:
            self._note("panel", False, f"No panel answers at {where}: check VCC to 3.3 V (header "
                       "pin 1), GND (pin 9), SDA to pin 3, SCL to pin 5 (modules differ in pin "
                       "order); a panel at 0x3D needs display.i2c_address = 0x3D.")
            return
        self._test_picture(device)
        answer = self.ask("Do you see 'companion doctor' framed on the panel?")
        if answer is False:
            self._note("panel", False, f"The panel at {where} answers but shows nothing: try "
                       "display.driver = \"sh1106\" (or \"ssd1306\"), and check its 3.3 V.")
        else:
            self._note("panel", True, f"A panel answers at {where}.")
        try:
            device.cleanup()
        except Exception:  # noqa: BLE001 - a panel gone again
            pass

    @staticmethod
    def _test_picture(device: Any) -> None:
        from PIL import Image, ImageDraw

        image = Image.new("1", (device.width, device.height))
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, device.width - 1, device.height - 1), outline=1)
        draw.text((8, 24), "companion doctor", fill=1)
        device.display(image)

    # --- the buttons ----------------------------------------------------------------------

    def check_buttons(self) -> None:
        from gpiozero import Button

        pins = self.cfg.button_pins()
        ground = self.cfg.pins.parts["buttons"].gnd if "buttons" in self.cfg.pins.parts else 39
        for name, pin in pins.items():
            label = BUTTON_NAMES.get(name, name)
            button = Button(pin, pull_up=True, bounce_time=None, pin_factory=self.pin_factory)
            try:
                if button.is_pressed:
                    self._note("buttons", False, f"{label} ({where(pin)}) reads pressed before "
                               "anyone presses it: its wire touches ground, or it is a "
                               "normally-closed button.")
                    continue
                self.say(f"Press {label} ({where(pin)}) …")
                self.prompted("buttons", name, pin)
                if button.wait_for_press(self.press_timeout):
                    self._note("buttons", True, f"{label} works.")
                else:
                    self._note("buttons", False, f"{label} did not answer in "
                               f"{self.press_timeout:g} s: " + (
                                   "is the OLED Bonnet pressed all the way onto the header?"
                                   if self.cfg.buttons.bonnet else
                                   f"check its wire to {header(pin)} through its 1 kΩ and its "
                                   f"other leg to ground (header pin {ground})."))
            finally:
                button.close()

    # --- the buzzer ---------------------------------------------------------------------------

    def check_buzzer(self) -> None:
        from companion.devices.buzzer import Buzzer

        if not self.cfg.service.buzzer:
            self._note("buzzer", True, "The buzzer is off in the configuration (service.buzzer).")
            return
        pins = self.cfg.pins
        part = pins.parts.get("buzzer")
        buzzer = Buzzer(pins.buzzer, self.pin_factory, kind=pins.buzzer_kind)
        try:
            buzzer.play("win")
            self.prompted("buzzer", "buzzer", pins.buzzer)
            time.sleep(0.9)
            answer = self.ask("Did the buzzer beep four times?")
        finally:
            buzzer.close()
        if answer is None:
            self._note("buzzer", True, f"The buzzer played on {header(pins.buzzer)} (nobody here "
                       "to say whether it was heard).")
        elif answer:
            self._note("buzzer", True, "The buzzer beeps.")
        else:
            supply = f"5 V at header pin {part.vcc}, ground at pin {part.gnd}, " if part else ""
            self._note("buzzer", False, f"The buzzer is silent: check {supply}the BC337 "
                       f"(collector to the transducer, emitter to ground), the 470 Ω from "
                       f"{header(pins.buzzer)} to its base and the transducer's kind "
                       f"(pin map: {pins.buzzer_kind}).")

    # --- the dice ------------------------------------------------------------------------------

    def check_dice(self) -> None:
        from companion.devices.interfaces import serial_problems
        from companion.dice.reader import DiceBattery, DiceConnected, DiceReader

        port = self.cfg.dice.port
        if self.cfg.dice.kind == "ble":
            self.check_ble_dice()
            return
        if self.cfg.dice.kind == "pixels":
            self._note("dice", True, "The dice is a Pixels die over Bluetooth (dice.kind): "
                       "'companion dice-read --pixels' shows what it sends.")
            return
        if self.cfg.dice.kind == "none" or not port:
            self._note("dice", True, "No dice is configured (dice.kind = \"none\" or dice.port "
                       "empty): rolls are entered with the buttons.")
            return
        for sentence in serial_problems(port, "the dice", self.root):
            self._note("dice", False, sentence)
        if "://" not in port and not Path(port).exists():
            self._note("dice", False, f"Nothing is at {port}: plug the dice in (or switch it "
                       "on); on USB, scripts/99-companion-dice.rules names it by its product "
                       "string 'Companion dice'.")
            return
        events: queue.Queue[Any] = queue.Queue()
        reader = DiceReader(port, events.put, baudrate=self.cfg.dice.baudrate,
                            reconnect_interval=0.1)
        reader.start()
        hello = None
        battery = None
        try:
            deadline = time.monotonic() + self.link_timeout
            while time.monotonic() < deadline and (hello is None or battery is None):
                try:
                    event = events.get(timeout=0.05)
                except queue.Empty:
                    continue
                if isinstance(event, DiceConnected):
                    hello = event
                elif isinstance(event, DiceBattery):
                    battery = event
        finally:
            reader.stop()
        if hello is None:
            self._note("dice", False, f"{port} is there but no dice said hello in "
                       f"{self.link_timeout:g} s: is its firmware flashed (make flash-dice), or is "
                       "this the pad hub's port?")
            return
        volts = (f"; battery {battery.millivolts / 1000:.2f} V" if battery is not None
                 and battery.millivolts is not None else "")
        self._note("dice", True, f"The dice {hello.device_id} (firmware {hello.firmware}) "
                   f"answers on {port}{volts}.")

    def check_ble_dice(self) -> None:
        """Our wireless die: scan for its service, connect, wait for its hello."""
        from companion.dice.ble import URL
        from companion.dice.ble.stream import BleError, BleSerial
        from companion.dice.reader import DiceBattery, DiceConnected, DiceReader

        name = self.cfg.dice.ble_name
        port = self.ble_port()
        try:
            try:
                first = BleSerial.open(port, name, scan_s=self.link_timeout)
            except BleError as exc:
                which = f"named '{name}' " if name else ""
                self._note("dice", False, f"No wireless dice {which}was heard ({exc}): switch "
                           "it on (charge it if its pips stay dark), bring it within a few metres "
                           "of the Pi, and check that the Pi's Bluetooth is on "
                           "('bluetoothctl show' says Powered: yes).")
                return
            opened = [first]

            def factory() -> BleSerial:
                return opened.pop() if opened else BleSerial.open(port, name, scan_s=2.0)

            events: queue.Queue[Any] = queue.Queue()
            reader = DiceReader(URL + name, events.put, serial_factory=factory,
                                reconnect_interval=0.1)
            reader.start()
            hello = battery = None
            try:
                deadline = time.monotonic() + self.link_timeout
                while time.monotonic() < deadline and (hello is None or battery is None):
                    try:
                        event = events.get(timeout=0.05)
                    except queue.Empty:
                        continue
                    if isinstance(event, DiceConnected):
                        hello = event
                    elif isinstance(event, DiceBattery):
                        battery = event
            finally:
                reader.stop()
        finally:
            self._close_ble(port)
        if hello is None:
            self._note("dice", False, "A wireless dice answered the scan but said no hello in "
                       f"{self.link_timeout:g} s: flash its firmware again (make flash-dice).")
            return
        volts = (f"; battery {battery.millivolts / 1000:.2f} V" if battery is not None
                 and battery.millivolts is not None else "")
        self._note("dice", True, f"The wireless dice {hello.device_id} (firmware "
                   f"{hello.firmware}) answers over Bluetooth{volts}.")

    def ble_port(self) -> Any:
        if self.make_ble_port is not None:
            return self.make_ble_port()
        from companion.dice.ble.bleak_port import BleakNusPort

        return BleakNusPort()

    @staticmethod
    def _close_ble(port: Any) -> None:
        try:
            port.loop.run(port.close(), timeout=5)
        except Exception:  # noqa: BLE001 - the port is dropped anyway
            pass
        if getattr(port, "owns_loop", False):
            port.loop.stop()

    # --- the pads --------------------------------------------------------------------------------

    def check_pads(self) -> None:
        if self.cfg.pads.frontend == "hub":
            self._pads_hub()
        elif self.cfg.pads.frontend == "mpr121":
            self._pads_mpr121()
        else:
            self._pads_gpio()

    def _pads_mpr121(self) -> None:
        from companion.devices.pads.mpr121 import Mpr121Pads, mpr121_pads

        bus, own = self._open_i2c()
        if bus is None:
            self._note("pads", False, f"I2C bus {self.cfg.display.i2c_port} is off: the MPR121 "
                       "pads cannot be read.")
            return
        events: queue.Queue[Any] = queue.Queue()
        pads = mpr121_pads(self.seats)
        irq = self.cfg.pins.mpr121["irq"] if self.cfg.pads.mpr121_irq else None
        try:
            reader = Mpr121Pads(pads, events.put, bus, irq_pin=irq, pin_factory=self.pin_factory,
                                close_bus=own)
        except OSError as exc:
            if own:
                bus.close()
            self._note("pads", False, f"{exc} Check its STEMMA QT cable (hardware/no-solder.md).")
            return
        try:
            self._note("pads", True, f"{len(reader.addresses)} MPR121 chip"
                       f"{'s' if len(reader.addresses) > 1 else ''} sense "
                       f"{len(pads)} pads.")
            self._touch_each({pad: a * 16 + e for pad, (a, e) in pads.items()}, events, "pads")
        finally:
            reader.close()

    def _pads_gpio(self) -> None:
        from gpiozero import DigitalInputDevice

        from companion.devices.pads.gpio import SlapPads

        pads = self.cfg.pins.pads.get(self.seats, {})
        ok = True
        for pad, pin in pads.items():
            reading = DigitalInputDevice(pin, pull_up=False, pin_factory=self.pin_factory)
            try:
                if reading.value:
                    ok = False
                    self._note("pads", False, f"Pad {pad.key} ({where(pin)}) reads touched with "
                               "nobody touching: a module with jumper A closed (its output is "
                               "then active-low), or its OUT touching 3.3 V.")
            finally:
                reading.close()
        if not ok:
            return
        events: queue.Queue[Any] = queue.Queue()
        slap = SlapPads.from_pinmap(self.cfg.pins, self.seats, events.put,
                                    pin_factory=self.pin_factory)
        try:
            self._touch_each({pad: pin for pad, pin in pads.items()}, events, "pads")
        finally:
            slap.close()

    def _pads_hub(self) -> None:
        from companion.devices.interfaces import serial_problems
        from companion.devices.pads.hub import PadHub, hub_pads
        from companion.inputs.pads import PadChannels, PadLink

        port = self.cfg.pads.hub_port
        for sentence in serial_problems(port, "the pad hub", self.root):
            self._note("pads", False, sentence)
        events: queue.Queue[Any] = queue.Queue()
        hub = PadHub.for_seats(self.seats, events.put, port, baudrate=self.cfg.pads.hub_baudrate,
                               reconnect_interval=0.1)
        try:
            up, report = None, None
            deadline = time.monotonic() + self.link_timeout
            while time.monotonic() < deadline and report is None:
                try:
                    event = events.get(timeout=0.05)
                except queue.Empty:
                    continue
                if isinstance(event, PadLink) and event.up:
                    up = event
                elif isinstance(event, PadChannels):
                    report = event
            if up is None:
                self._note("pads", False, f"The pad hub does not answer on {port}: check its "
                           "5 V and ground, TX/RX crossed through 1 kΩ each, and its firmware "
                           "(make flash-padhub).")
                return
            checks = hub.channel_checks()
            wrong = [c for c in checks if c.problem]
            for c in wrong:
                self._note("pads", False, c.sentence)
            if not wrong:
                self._note("pads", True, f"The pad hub {up.detail} answers on {port}; all "
                           f"{len(checks)} pads' channels look right.")
            self._touch_each(hub_pads(self.seats), events, "pads")
        finally:
            hub.close()

    def _touch_each(self, pads: dict[Any, int], events: queue.Queue[Any], part: str) -> None:
        from companion.inputs.pads import PadTouch

        self.say(f"Touch every pad once, in any order ({self.touch_timeout:g} s) …")
        self.prompted(part, "touch", None)
        left = set(pads)
        deadline = time.monotonic() + self.touch_timeout
        while left and time.monotonic() < deadline:
            try:
                event = events.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, PadTouch):
                left.discard(event.pad)
        for pad in sorted(left, key=lambda p: pads[p]):
            frontend = self.cfg.pads.frontend
            if frontend == "mpr121":
                self._note(part, False, f"Pad {pad.key} never reported a touch: check the "
                           "crocodile clip from its copper tape to electrode "
                           f"{pads[pad] % 16} of the MPR121 at 0x{pads[pad] // 16:02X}.")
                continue
            where = (f"{header(pads[pad])} through its 1 kΩ" if frontend == "gpio"
                     else f"channel {pads[pad]} of the hub")
            self._note(part, False, f"Pad {pad.key} never reported a touch: check its wire to "
                       f"{where}, and its module's 3.3 V and ground.")
        if not left:
            self._note(part, True, f"All {len(pads)} pads report a touch.")

    # --- the voice --------------------------------------------------------------------------------

    def check_voice(self) -> None:
        from companion.devices.voice import EspeakAnnouncer

        v = self.cfg.voice
        if not v.enabled:
            self._note("voice", True, "The voice is off in the configuration (voice.enabled).")
            return
        announcer = self.announcer or EspeakAnnouncer(voice=v.voice, device=v.device or None)
        try:
            announcer.say(TEST_SENTENCE)
            announcer.wait(15.0)
            status = announcer.status
        finally:
            if self.announcer is None:
                announcer.close()
        if not status.available:
            self._note("voice", False, status.detail or "The voice cannot be heard.")
            return
        answer = self.ask(f"Did you hear '{TEST_SENTENCE}'?")
        if answer is False:
            card = f" (voice.device = {v.device!r})" if v.device else ""
            self._note("voice", False, "The voice played but was not heard: check the speaker "
                       f"and its sound card{card}; 'aplay -l' lists the cards "
                       "(hardware/guide/audio.md).")
        else:
            self._note("voice", True, "The voice speaks." if answer else
                       "The voice played (nobody here to say whether it was heard).")


PANEL_ADDRESSES = (0x3C, 0x3D)


def fitting_profile(panels: Sequence[int], chips: Sequence[int], cfg: Any) -> str:
    """One sentence: which set-up fits the panels and MPR121 chips found on the bus."""
    from companion.devices.pads.mpr121 import ELECTRODES
    from companion.inputs.pads import table_pads

    if not panels:
        return ("No panel answers at 0x3C or 0x3D: with the OLED Bonnet, press it fully onto "
                "the header; a wired panel: check its four wires.")
    seats = max((s for s in range(2, 7) if len(table_pads(s)) <= ELECTRODES * len(chips)),
                default=0)
    pads = (f" and {len(chips)} MPR121 touch controller{'s' if len(chips) > 1 else ''} "
            f"(Gobbit's pads for up to {seats} seats)" if chips else "")
    chosen = cfg.buttons.bonnet
    if chips:
        fits = "the no-solder box (profile bonnet)"
    else:
        fits = ("the no-solder box (profile bonnet) without Gobbit's pads, or a wired panel "
                "(profiles as wired)")
    now = (" The configuration is set up for it." if chosen else
           " Set it up with: sudo sh scripts/setup-pi.sh --profile bonnet." if chips else "")
    return f"A panel at 0x{panels[0]:02X}{pads}: this fits {fits}.{now}"


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.commandline import DEFAULT_CONFIG, load_config

    cfg = load_config(args, DEFAULT_CONFIG, games=playable())
    parts = PARTS
    if args.only is not None:
        parts = tuple(p.strip() for p in args.only.split(",") if p.strip())
        unknown = [p for p in parts if p not in PARTS]
        if unknown or not parts:
            which = repr(unknown[0][:40]) if unknown else "nothing"
            raise UsageError(f"--only takes {', '.join(PARTS)}, not {which}.")
    import warnings

    from companion.service.app import make_pin_factory

    with warnings.catch_warnings():  # gpiozero's fall-backs: the findings say it in one line
        warnings.simplefilter("ignore")
        doctor = Doctor(cfg, pin_factory=make_pin_factory(cfg.service.pin_factory),
                        seats=args.seats)
        findings = doctor.run(parts)
    wrong = [f for f in findings if not f.ok]
    print(f"{len(wrong)} thing{'s' if len(wrong) != 1 else ''} to fix." if wrong
          else "Everything checked works.")
    return 1 if wrong else 0
