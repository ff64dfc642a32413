"""The table's dice, whichever it is: our serial dice, a Pixels die, or none (buttons).

:class:`TableDice` starts the dice the configuration (``[dice] kind``) or the table's own
choice under "Kostka" asks for, turns its events into the service's inputs, switches
dice at run time, and lets the table's verdict on a roll show on a Pixels die.  The
table's choice is kept in the data folder (``dice.json``) and wins over the
configuration's kind once made.

Bluetooth is imported only when a Pixels die is used: with the serial dice the service
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

from .dice_menu import FoundDie
from .hosts.base import DiceStatus

if TYPE_CHECKING:
    from companion.dice.pixels.adapter import PixelsDice, PixelsEvent
    from companion.dice.pixels.port import GattPort, Seen
    from companion.dice.reader import DiceEvent, DiceReader

log = logging.getLogger(__name__)

KINDS = ("serial", "pixels", "none")
CHOICE_FILE = "dice.json"
CHOICE_LIMIT = 4096
"""Bytes of ``dice.json`` read at most (every file a user hands the companion is limited)."""

CROOKED = "Kostka dopadla nakřivo: hoď znovu."
AWAY = "Kostka spí / mimo dosah: hoď tlačítky."
LOW = "Kostce dochází baterie ({percent} %): nabij ji."
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


def translate_serial(event: DiceEvent) -> list[Input]:
    """The serial reader's events as inputs (batteries only logged); a roll or a drop carries
    a receipt the loop settles once it is journaled (or refused)."""
    from companion.dice.reader import DiceConnected, DiceDisconnected, DiceDrop, DiceRoll

    if isinstance(event, DiceRoll):
        return [Rolled(event.value, event.seq, Receipt(), boot=event.boot)]
    if isinstance(event, DiceDrop):
        return [Dropped(event.seq, Receipt(), boot=event.boot)]
    if isinstance(event, DiceConnected):
        return [DiceLink(True, f"{event.device_id} {event.firmware}")]
    if isinstance(event, DiceDisconnected):
        return [DiceLink(False, event.reason)]
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
                 pixels_options: dict[str, Any] | None = None) -> None:
        kept = load_choice(choice_path) if choice_path is not None else None
        self.choice = kept or choice
        self.serial_port = serial_port
        self.baudrate = baudrate
        self.post = post
        self.status = status
        self.choice_path = choice_path
        self.make_port = pixels_port
        self.pixels_options = pixels_options or {}
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
        return self.kind == "pixels" or (self.kind == "serial" and bool(self.serial_port))

    def port(self) -> GattPort:
        """The Bluetooth port, made once."""
        if self._port is None:
            if self.make_port is not None:
                self._port = self.make_port()
            else:
                from companion.dice.pixels.bleak_port import BleakPort

                self._port = BleakPort()
        return self._port

    def start(self) -> None:
        """Start reading the chosen dice."""
        if self.kind == "serial" and self.serial_port:
            from companion.dice.reader import DiceReader

            def on_dice(event: DiceEvent) -> Receipt | None:
                receipt = None
                for inp in translate_serial(event):
                    self.post(inp)
                    if isinstance(inp, Rolled | Dropped):
                        receipt = inp.receipt
                return receipt

            self.reader = DiceReader(self.serial_port, on_dice, confirm=True,
                                     baudrate=self.baudrate)
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
        if self.reader is not None:
            self.reader.stop()
            self.reader = None
        if self.pixels is not None:
            self.pixels.stop()
            self.pixels = None

    def close(self) -> None:
        self.scan_stop()
        self.stop()
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
