"""The table's dice, whichever it is: our dice (on a cable or over Bluetooth LE), a Pixels
die, or none (buttons).

:class:`TableDice` starts the dice the configuration (``[dice] kind``) or the table's own
choice under "Kostka" asks for, turns its events into the service's inputs, switches
dice at run time, and lets the table's verdict on a roll show on a Pixels die.  The
table's choice is kept in the data folder (``dice.json``) and wins over the
configuration's kind once made.

Our dice's heartbeats carry its cell's millivolts: below ``LOW_MV`` the table shows and
says once that it needs charging (:class:`BatteryWatch`), as for a Pixels die, and when
the die's last heartbeat is at its cut-off it says the die has switched itself off.

Bluetooth is imported only when a Bluetooth die is used: with the serial dice the service
starts exactly as before.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.inputs.events import DiceLink, DiceNotice, Dropped, Input, Receipt, Rolled
from companion.service.dice_menu import FoundDie
from companion.service.hosts.base import DiceStatus

if TYPE_CHECKING:
    from companion.dice.ble.stream import NusPort
    from companion.dice.pixels.adapter import PixelsDice, PixelsEvent
    from companion.dice.pixels.port import GattPort, Seen
    from companion.dice.reader import DiceEvent, DiceReader

log = logging.getLogger(__name__)

KINDS = ("serial", "ble", "pixels", "none")
CHOICE_FILE = "dice.json"
CHOICE_LIMIT = 4096
"""Bytes of ``dice.json`` read at most (every file a user hands the companion is limited)."""

CROOKED = "Kostka dopadla nakřivo: hoď znovu."
AWAY = "Kostka spí / mimo dosah: hoď tlačítky."
LOW = "Kostce dochází baterie ({percent} %): nabij ji."
LOW_VOLTS = "Kostce dochází baterie ({volts} V): nabij ji."
EMPTY = "Kostka má vybitou baterii a vypnula se: nabij ji."
LOW_MV = 3500
"""Our die warns below this (firmware/dice/dice/battery.py ``LOW_MV``)."""
CLEAR_MV = 3600
"""... and again only after it was above this (``CLEAR_MV``: charged)."""
CUTOFF_MV = 3300
"""At or below this the die switches itself off (``CUTOFF_MV``)."""
SCAN_SECONDS = 20.0


@dataclass(frozen=True)
class DiceChoice:
    """Which dice the table uses: ``kind`` (serial, pixels, none) and the Pixels die's name
    ("" = the first one heard)."""

    kind: str = "serial"
    pixels_name: str = ""


def load_choice(path: Path) -> DiceChoice | None:
    """The table's kept choice, ``None`` when there is none (or it cannot be read)."""
    try:
        with path.open("rb") as f:
            data = json.loads(f.read(CHOICE_LIMIT + 1)[:CHOICE_LIMIT])
        kind, name = data["kind"], data.get("pixels_name", "")
        if kind in KINDS and isinstance(name, str) and len(name.encode()) <= 31:
            return DiceChoice(kind, name)
        log.warning("%s names no dice this companion knows; using the configuration's", path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        log.warning("%s cannot be read; using the configuration's dice", path)
    return None


def save_choice(path: Path, choice: DiceChoice) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"kind": choice.kind, "pixels_name": choice.pixels_name}),
                   "utf-8")
    tmp.replace(path)


class BatteryWatch:
    """When our die's heartbeat voltage calls for a line to the table: once below ``LOW_MV``
    (again only after it rose to ``CLEAR_MV``), and once at the cut-off."""

    def __init__(self, low_mv: int = LOW_MV, clear_mv: int = CLEAR_MV,
                 cutoff_mv: int = CUTOFF_MV) -> None:
        self.low_mv = low_mv
        self.clear_mv = clear_mv
        self.cutoff_mv = cutoff_mv
        self.low_said = False
        self.empty_said = False

    def update(self, mv: int | None) -> str | None:
        """The line to show and say for a heartbeat of ``mv`` (None: on USB), or None."""
        if mv is None or mv >= self.clear_mv:
            self.low_said = self.empty_said = False
            return None
        if mv < self.cutoff_mv:
            if self.empty_said:
                return None
            self.empty_said = self.low_said = True
            return EMPTY
        if mv < self.low_mv and not self.low_said:
            self.low_said = True
            return LOW_VOLTS.format(volts=f"{mv / 1000:.2f}".replace(".", ","))
        return None


def translate_serial(event: DiceEvent, watch: BatteryWatch | None = None) -> list[Input]:
    """Our dice reader's events as inputs; a roll or a drop carries a receipt the loop
    settles once it is journaled (or refused); a low cell is a line for the table when a
    ``watch`` is given."""
    from companion.dice.reader import (
        DiceBattery,
        DiceConnected,
        DiceDisconnected,
        DiceDrop,
        DiceRoll,
    )

    if isinstance(event, DiceRoll):
        return [Rolled(event.value, event.seq, Receipt(), boot=event.boot)]
    if isinstance(event, DiceDrop):
        return [Dropped(event.seq, Receipt(), boot=event.boot)]
    if isinstance(event, DiceConnected):
        return [DiceLink(True, f"{event.device_id} {event.firmware}")]
    if isinstance(event, DiceDisconnected):
        return [DiceLink(False, event.reason)]
    if isinstance(event, DiceBattery):
        log.info("dice battery: %s mV", event.millivolts)
        line = watch.update(event.millivolts) if watch is not None else None
        return [DiceNotice(line)] if line is not None else []
    log.debug("dice: %r", event)
    return []


def translate_pixels(event: PixelsEvent) -> list[Input]:
    """A Pixels die's events as inputs: the same roll and link inputs as the serial dice's,
    and one line for the table when it lands crooked, goes away or runs low."""
    from companion.dice.pixels.adapter import DiceCrooked, DiceLowBattery
    from companion.dice.reader import DiceConnected, DiceDisconnected, DiceRoll

    if isinstance(event, DiceRoll):
        return [Rolled(event.value, event.seq, Receipt())]
    if isinstance(event, DiceConnected):
        return [DiceLink(True, f"{event.device_id} {event.firmware}")]
    if isinstance(event, DiceDisconnected):
        return [DiceLink(False, event.reason), DiceNotice(AWAY)]
    if isinstance(event, DiceCrooked):
        return [DiceNotice(CROOKED)]
    if isinstance(event, DiceLowBattery):
        return [DiceNotice(LOW.format(percent=event.percent))]
    return []


class TableDice:
    """See the module docstring.  ``post`` hands an input to the service loop (from any
    thread); ``pixels_port`` makes the Bluetooth port (default: bleak, the Pi's BlueZ)."""

    def __init__(self, choice: DiceChoice, *, serial_port: str, baudrate: int,
                 post: Callable[[Input], None], status: DiceStatus,
                 choice_path: Path | None = None,
                 pixels_port: Callable[[], GattPort] | None = None,
                 pixels_options: dict[str, Any] | None = None,
                 ble_name: str = "", ble_port: Callable[[], NusPort] | None = None) -> None:
        kept = load_choice(choice_path) if choice_path is not None else None
        self.choice = kept or choice
        self.serial_port = serial_port
        self.baudrate = baudrate
        self.post = post
        self.status = status
        self.choice_path = choice_path
        self.make_port = pixels_port
        self.pixels_options = pixels_options or {}
        self.ble_name = ble_name
        self.make_ble_port = ble_port
        self._ble_port: NusPort | None = None
        self._ble_cancel = threading.Event()
        self.battery = BatteryWatch()
        self.reader: DiceReader | None = None
        self.pixels: PixelsDice | None = None
        self._port: GattPort | None = None
        self._scan: Any = None
        self._stop_scan = False
        self._found: dict[str, FoundDie] = {}
        self._lock = threading.Lock()
        self.status.configured = self.configured

    # --- what the table uses ------------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.choice.kind

    @property
    def pixels_name(self) -> str:
        return self.choice.pixels_name

    @property
    def configured(self) -> bool:
        """A dice is meant to be there (the screens say "lost" rather than "missing")."""
        return self.kind in ("pixels", "ble") or (self.kind == "serial" and bool(self.serial_port))

    def port(self) -> GattPort:
        """The Bluetooth port, made once."""
        if self._port is None:
            if self.make_port is not None:
                self._port = self.make_port()
            else:
                from companion.dice.pixels.bleak_port import BleakPort

                self._port = BleakPort()
        return self._port

    def ble_port(self) -> NusPort:
        """Our Bluetooth die's port, made once."""
        if self._ble_port is None:
            if self.make_ble_port is not None:
                self._ble_port = self.make_ble_port()
            else:
                from companion.dice.ble.bleak_port import BleakNusPort

                self._ble_port = BleakNusPort()
        return self._ble_port

    def _on_dice(self, event: DiceEvent) -> Receipt | None:
        receipt = None
        for inp in translate_serial(event, self.battery):
            self.post(inp)
            if isinstance(inp, Rolled | Dropped):
                receipt = inp.receipt
        return receipt

    def start(self) -> None:
        """Start reading the chosen dice."""
        self.battery = BatteryWatch()
        if self.kind == "serial" and self.serial_port:
            from companion.dice.reader import DiceReader

            self.reader = DiceReader(self.serial_port, self._on_dice, confirm=True,
                                     baudrate=self.baudrate)
            self.reader.start()
        elif self.kind == "ble":
            from companion.dice.ble import URL
            from companion.dice.ble.stream import BleSerial
            from companion.dice.reader import DiceReader

            port, cancel = self.ble_port(), threading.Event()
            self._ble_cancel = cancel
            self.reader = DiceReader(URL + self.ble_name, self._on_dice, confirm=True,
                                     serial_factory=lambda: BleSerial.open(port, self.ble_name,
                                                                           cancel=cancel))
            self.reader.start()
        elif self.kind == "pixels":
            from companion.dice.pixels.adapter import PixelsDice

            def on_pixels(event: PixelsEvent) -> None:
                for inp in translate_pixels(event):
                    self.post(inp)

            self.pixels = PixelsDice(self.port(), on_pixels, name=self.pixels_name,
                                     **self.pixels_options)
            self.pixels.start()

    def stop(self) -> None:
        """Stop reading (the port stays for a later start)."""
        self._ble_cancel.set()  # a scan for our wireless die gives up at once
        if self.reader is not None:
            self.reader.stop()
            self.reader = None
        if self.pixels is not None:
            self.pixels.stop()
            self.pixels = None

    def close(self) -> None:
        self.scan_stop()
        self.stop()
        ble, self._ble_port = self._ble_port, None
        if ble is not None:
            try:
                ble.loop.run(ble.close(), timeout=5)
            except Exception:
                log.debug("our die's Bluetooth port did not close cleanly", exc_info=True)
            if getattr(ble, "owns_loop", False):
                ble.loop.stop()
        port, self._port = self._port, None
        if port is not None:
            try:
                port.loop.run(port.close(), timeout=5)
            except Exception:
                log.debug("the Bluetooth port did not close cleanly", exc_info=True)
            if getattr(port, "owns_loop", False):  # bleak's own loop; the air's is the air's
                port.loop.stop()

    def choose(self, kind: str, name: str = "") -> None:
        """Switch to ``kind`` (and keep it); the table goes on with the buttons until the
        new dice is there."""
        if kind not in KINDS:
            raise ValueError(f"unknown dice kind {kind!r}")
        self.stop()
        if self.status.up:
            self.post(DiceLink(False, "another dice was chosen"))
        self.choice = DiceChoice(kind, name if kind == "pixels" else self.pixels_name)
        self.status.configured = self.configured
        if self.choice_path is not None:
            try:
                save_choice(self.choice_path, self.choice)
            except OSError as exc:
                log.error("the dice choice could not be kept: %s", exc)
        self.start()

    def verdict(self, value: int, counted: bool, colour: int | None) -> None:
        """The table's verdict on the roll of ``value`` (counted for seat ``colour``, or not):
        a Pixels die blinks it."""
        if self.pixels is not None:
            self.pixels.blink_roll(value, counted, colour)

    # --- scanning for "Kostka" ----------------------------------------------------------------

    @property
    def scanning(self) -> bool:
        return self._scan is not None and not self._scan.done()

    def scan_start(self) -> None:
        with self._lock:
            self._found.clear()
        self._stop_scan = False
        try:
            port = self.port()
        except Exception as exc:  # no Bluetooth here: the list stays empty
            log.error("no Bluetooth for scanning: %s", exc)
            return

        def on_seen(seen: Seen) -> None:
            from companion.dice.pixels.messages import colour_word

            a = seen.advert
            with self._lock:
                self._found[seen.address] = FoundDie(seen.address, a.name,
                                                     colour_word(a.colorway),
                                                     a.battery_level, a.charging)

        self._scan = port.loop.submit(port.scan(SCAN_SECONDS, on_seen,
                                                stop=lambda: self._stop_scan))

    def scan_stop(self) -> None:
        self._stop_scan = True

    def scan_results(self) -> Sequence[FoundDie]:
        with self._lock:
            return sorted(self._found.values(), key=lambda f: (f.name, f.address))
