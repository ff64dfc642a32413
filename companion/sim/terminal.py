"""``companion sim`` (``make run``): the table service with simulated hardware in a terminal.

Everything real is in the loop: gpiozero ``Button``s on mock pins (keys drive
the pins low and high), the dice reader on a pty spoken to by the simulated
dice, the controller, the journal (so a game resumes when you start again),
and the OLED frames drawn with block characters.  Works over SSH and in tmux.
With ``[pads] frontend = "hub"`` (``companion sim --pads hub``) the Gobbit pads
are a simulated pad hub on a second pty, running the hub firmware's logic.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import select
import sys
import termios
import threading
import time
import tty
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.devices.voice import Announcer
from companion.games import playable
from companion.service.app import build_app
from companion.service.config import Config
from companion.service.hosts.base import UsingPads
from companion.service.phone import Phone
from companion.ui.views import is_list

log = logging.getLogger(__name__)

HELP = "←/a ◀ →/d ▶ Enter/s ●  m nabídka  h držet ◀  r hod  f pád  u kostka  q konec"
HELP_PIXELS = ("←/a ◀ →/d ▶ Enter/s ●  m nabídka  h držet ◀  r hod  f nakřivo  u dosah  "
               "z spánek  q konec")
"""The keys with a Pixels die (``--dice pixels``): a throw, a crooked landing, out of the
radio's range and back, asleep and awake."""
SOUNDS = {"turn": "na tahu", "six": "šestka", "illegal": "nejde to", "win": "výhra",
          "drink-start": "přípitek", "drink-knocked-out": "vyhozen, pít",
          "drink-bottle": "láhev, pít", "drink-pub": "do hospody, pít",
          "drink-card": "karta, pít", "drink-glass": "do dna", "drink-everybody": "pijí všichni",
          "drink-home": "domeček, přípitek", "drink-winner": "vítěz, přípitek",
          "drink-dropped-dice": "kostka spadla, pít", "drink-delay": "zdržování, pít",
          "drink-cheating": "podvod, pít", "drink-upset": "rozčílení, pít",
          "void-throw": "neplatný hod", "debt": "dluh"}
"""The buzzer's patterns as the status line names them (the table's language)."""
HELP_GOBBIT = "← ◀  → ▶  Enter ●  Tab držet ◀  m nabídka  Ctrl-C konec"
HELP_BONNET = "joystick ←/a ◀ →/d ▶ Enter/s ●  tlačítko A: m nabídka  tlačítko B: b pravidla"
"""The keys of the OLED Bonnet's controls (``buttons.board = "bonnet"``): the joystick's
left, right and centre, button A (the menu) and button B (the rules)."""
BONNET_KEYS = {"m": ("press", "menu"), "b": ("press", "help")}
PADS_GOBBIT = "podložky (kupičky 1–{seats}, pak hřbitov):"
HOLD_RUNS = ("left", "right")
"""The buttons a held key holds down (they run through numbers); others are pressed again."""
QUIT_SAID = "Hra je uložená."
"""Said in the terminal when ``q`` (or Ctrl-C) ends ``make run``: the game goes on next time."""

KEYS = {
    "a": ("press", "left"), "\x1b[D": ("press", "left"),
    "d": ("press", "right"), "\x1b[C": ("press", "right"),
    "s": ("press", "select"), "\r": ("press", "select"), "\n": ("press", "select"),
    "m": ("long", "select"),
    "h": ("long", "left"), "\t": ("long", "left"),
    "r": ("roll", ""), " ": ("roll", ""),
    "f": ("drop", ""), "u": ("plug", ""), "z": ("sleep", ""),
    "q": ("quit", ""), "\x03": ("quit", ""),
    "\x1b[A": ("list", "left"), "\x1b[B": ("list", "right"),
}
"""Keys and what they do; ↑ ↓ (``list``) act as ◀ ▶ where a list is shown (set-up, menu,
settings, the rules' topics, a game's lists: "Kdo se napije?", "Za co?", "Dluhy", a card's
choice), and do nothing elsewhere.  ``h`` and Tab hold ◀ down as long
as a long press takes: in the voice mode that reads the whole situation aloud; on a game's
screen with hints on it shows the move hint ("Nápověda"); elsewhere ◀ runs as a held ◀ does.  Tab works at a Gobbit table too, where ``h`` may be a pad.  (A held
arrow key arrives again and again and holds the button as well, but a script's
``tmux send-keys`` cannot hold a key.)"""


def gobbit_footer(keys: dict[str, Any], status: str) -> str:
    """The status lines at a Gobbit table: the buttons' keys with ``status``, then every
    seat's pad keys in one line (``H1: 1 2 3 4 5``, H for hráč as on the referee's
    screens), one column per pile and the
    graveyard last.  Two lines at 130 columns; a narrower terminal wraps them."""
    by_seat: dict[int, list[str]] = {}
    for key, pad in sorted(keys.items(), key=lambda kv: (kv[1].seat, kv[1].target == "g",
                                                         str(kv[1].target))):
        by_seat.setdefault(pad.seat, []).append(key)
    seats = "   ".join(f"H{seat}: " + " ".join(v) for seat, v in sorted(by_seat.items()))
    return (f"Gobbit   {HELP_GOBBIT}{status}\n"
            f"{PADS_GOBBIT.format(seats=len(by_seat))}  {seats}")


@functools.cache
def _keymap(seats: int) -> dict[str, Any]:
    """The pad keys of a ``seats``-seat table (read once: every key press asks)."""
    from companion.sim.padkeys import load_keymap

    return load_keymap(seats)


class PinPresser:
    """Presses a button the way a finger does: the pin goes low, then high again.

    :meth:`press` presses now (and returns when the finger is lifted); :meth:`submit`
    queues a press behind the ones typed before it, so that keys typed quickly (``m d d
    Enter``) are pressed one after another, as a person would, and none cuts another short.
    :meth:`hold` keeps a button down while its key repeats (a terminal has no key release:
    a key held down arrives again and again, some 30 times a second), so that a held ◀ ▶
    runs through the numbers as the real button does.
    """

    GAP = 0.03  # seconds between two queued presses
    HOLD_GAP = 0.15
    """A key that arrives again within this many seconds is being held down."""

    def __init__(self, factory: Any, pins: dict[str, int], long_press: float) -> None:
        self.factory = factory
        self.pins = pins
        self.long_press = long_press
        self._queue: queue.Queue[tuple[str, str]] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self._held_until: dict[str, float] = {}

    def press(self, name: str, long: bool = False) -> None:
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        time.sleep(self.long_press + 0.15 if long else 0.05)
        pin.drive_high()

    def submit(self, name: str, long: bool = False) -> None:
        self._put(name, "long" if long else "tap")

    def hold(self, name: str) -> None:
        """Keep ``name`` down until its key has not come again for :attr:`HOLD_GAP`."""
        with self._lock:
            holding = name in self._held_until
            self._held_until[name] = time.monotonic() + self.HOLD_GAP
        if not holding:
            self._put(name, "hold")

    def _put(self, name: str, how: str) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="presser", daemon=True)
            self._worker.start()
        self._queue.put((name, how))

    def idle(self) -> bool:
        """No press is waiting or being made."""
        return self._queue.unfinished_tasks == 0

    def _held(self, name: str) -> None:
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        while True:
            with self._lock:
                left = self._held_until[name] - time.monotonic()
                if left <= 0:
                    del self._held_until[name]
                    break
            time.sleep(min(left, 0.02))
        pin.drive_high()

    def _work(self) -> None:
        while True:
            name, how = self._queue.get()
            try:
                if how == "hold":
                    self._held(name)
                else:
                    self.press(name, how == "long")
                time.sleep(self.GAP)
            finally:
                self._queue.task_done()


class Simulator:
    def __init__(self, cfg: Config, *, seed: int | None = None, stream: Any = None,
                 phone: Phone | None = None, announcer: Announcer | None = None) -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.dice.sim import SimulatedDice

        self.dice = SimulatedDice(seed=seed, device_id="sim-dice")
        self.hub: Any = None
        if cfg.pads.frontend == "hub":
            from companion.devices.pads.hub_sim import SimulatedHub

            self.hub = SimulatedHub(seed=seed)
        self.i2c: Any = None
        if cfg.pads.frontend == "mpr121":
            from companion.devices.pads.mpr121_sim import SimulatedMpr121Bus

            self.i2c = SimulatedMpr121Bus(seed=seed or 0, realtime=True)
        self.factory = MockFactory()
        from companion.sim.pixels import SimPixels

        self.pixels = SimPixels(seed, step_s=0.12)  # made when the table asks for Bluetooth
        self.app = build_app(cfg, games=playable(), pin_factory=self.factory, dice_port=self.dice.path,
                             stream=stream, hub_port=self.hub.path if self.hub is not None else None,
                             phone=phone, pixels_port=self.pixels.port, announcer=announcer,
                             i2c_bus=self.i2c, on_sound=self._sound)
        self.app.start_hardware()
        self.bonnet = cfg.buttons.bonnet
        self.presser = PinPresser(self.factory, cfg.button_pins(), cfg.buttons.long_press)
        self.stream = stream if stream is not None else sys.stdout
        self.quit_asked = False
        self._arrived: dict[str, float] = {}
        self.last_sound = ""
        self._sound_game = ""
        """The game whose table made the last sound (the status line names only its own)."""
        self._footer = ""
        self.app.service.on_view.append(lambda view: self._update_footer())
        self._update_footer()

    def pad_keys(self) -> dict[str, Any]:
        """Key -> pad while the game at the table has claimed the (mock) pads (its host says
        so: :class:`~companion.service.hosts.base.UsingPads`)."""
        host = self.app.controller.host
        if not isinstance(host, UsingPads) or not host.uses_pads() or self.app.hardware.pads is None:
            return {}
        return _keymap(len({p.seat for p in self.app.hardware.pads.pads}))

    def _sound(self, name: str) -> None:
        self.last_sound = name
        self._sound_game = self.app.controller.game
        self._update_footer()

    def _update_footer(self) -> None:
        device = self.app.screen.device
        if not hasattr(device, "set_footer"):
            return
        if self.last_sound and self._sound_game != self.app.controller.game:
            self.last_sound = ""  # another game is on the table: its sounds are not ours
        sound = f"   ♪ {SOUNDS.get(self.last_sound, self.last_sound)}" if self.last_sound else ""
        phone = self.app.phone
        if phone is not None and phone.url is not None:
            sound = f"   telefon: {phone.url}{sound}"  # where a phone opens the table's view
        keys = self.pad_keys()
        if keys:
            text = gobbit_footer(keys, sound)
        elif self.app.dice.kind == "pixels":
            help_line = (HELP_BONNET + "  h držet ◀  r hod  f nakřivo  u dosah  z spánek  q konec"
                         if self.bonnet else HELP_PIXELS)
            text = f"kostka Pixels: {self.pixels.status()}{sound}\n{help_line}"
        else:
            dice = "připojena" if self.dice.plugged else "ODPOJENA"
            help_line = (HELP_BONNET + "  h držet ◀  r hod  f pád  u kostka  q konec"
                         if self.bonnet else HELP)
            text = f"kostka: {dice}{sound}\n{help_line}"
        if text != self._footer:
            self._footer = text
            device.set_footer(text)

    def key(self, key: str, burst: bool = False) -> bool:
        """Act on one key; False means quit.  ``burst``: it came in one read with the key
        before it (pasted or sent by a script: a separate press, never a held key)."""
        pads = self.pad_keys()
        if key in pads:
            threading.Thread(target=self._tap, args=(pads[key],), daemon=True).start()
            return True
        if pads and key == "q":
            return True  # q is a pad key at a Gobbit table: quit with Ctrl-C
        action, arg = (BONNET_KEYS.get(key) if self.bonnet else None) or KEYS.get(key, ("", ""))
        now = time.monotonic()
        again = now - self._arrived.get(key, -1.0) < PinPresser.HOLD_GAP and not burst
        self._arrived[key] = now
        if action == "press" and arg in HOLD_RUNS and again:
            self.presser.hold(arg)  # the key repeats: it is held down
        elif action == "press":
            self.presser.submit(arg)
        elif action == "long":
            self.presser.submit(arg, long=True)
        elif action in ("roll", "drop", "plug", "sleep") and self.app.dice.kind == "pixels":
            pixels = {"roll": self.pixels.roll, "drop": self.pixels.crooked,
                      "plug": self.pixels.toggle_away, "sleep": self.pixels.toggle_sleep}
            threading.Thread(target=self._pixels, args=(pixels[action],), daemon=True).start()
        elif action == "roll":
            if self.dice.plugged:
                self.dice.roll()
        elif action == "drop":
            if self.dice.plugged:
                self.dice.drop()
        elif action == "plug":
            if self.dice.plugged:
                self.dice.unplug()
            else:
                self.dice.replug()
            self._update_footer()
        elif action == "list":
            if is_list(self.app.service.last_view):
                self.presser.submit(arg)
        elif action == "quit":
            return False
        return True

    def _pixels(self, act: Any) -> None:
        """Act on the virtual die (a throw takes its time) and show its state."""
        act()
        self._update_footer()

    def _tap(self, pad: Any) -> None:
        """A slap: the pad's mock pin goes high, then low again (TTP223 output)."""
        pads = self.app.hardware.pads
        if pads is None:
            return
        if self.hub is not None:
            self.hub.tap(pad)
            return
        if self.i2c is not None:
            from companion.devices.pads.mpr121 import Mpr121Pads

            if isinstance(pads, Mpr121Pads):
                self.i2c.tap(pads.where(pad))
            return
        from companion.devices.pads.gpio import SlapPads

        if not isinstance(pads, SlapPads):
            return
        pin = pads.device(pad).pin
        pin.drive_high()
        time.sleep(0.03)
        pin.drive_low()

    def run(self) -> int:
        """The table until ``q`` (Ctrl-C, a closed terminal); then says the game is kept."""
        stop = threading.Event()
        keys = threading.Thread(target=self._read_keys, args=(stop,), name="keys", daemon=True)
        keys.start()
        try:
            code = self.app.run()
        except KeyboardInterrupt:  # Ctrl-C at a Gobbit table (the pads took q)
            code, self.quit_asked = 0, True
        finally:
            stop.set()
            self.dice.close()
            self.pixels.close()
            if self.hub is not None:
                self.hub.close()
        if self.quit_asked:
            with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
                print(QUIT_SAID, file=self.stream, flush=True)
        return code

    def _read_keys(self, stop: threading.Event) -> None:
        fd = sys.stdin.fileno() if sys.stdin and sys.stdin.isatty() else None
        if fd is None:
            log.warning("stdin is not a terminal: keys are off (stop with Ctrl-C)")
            return
        old = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            buf = ""
            while not stop.is_set():
                ready, _, _ = select.select([fd], [], [], 0.1)
                if not ready:
                    continue
                try:
                    got = os.read(fd, 32)
                except OSError:  # EIO: the terminal went away
                    got = b""
                if not got:  # the terminal window was closed: quit (the game is saved)
                    log.info("the terminal is gone: quitting")
                    self.app.service.stop()
                    return
                buf += got.decode("utf-8", "replace")
                burst = False
                while buf:
                    if buf.startswith("\x1b["):
                        if len(buf) < 3:
                            break
                        key, buf = buf[:3], buf[3:]
                    else:
                        key, buf = buf[0], buf[1:]
                    if not self.key(key.lower() if len(key) == 1 else key, burst):
                        self.quit_asked = True
                        self.app.service.stop()
                        return
                    burst = True
        finally:
            with contextlib.suppress(OSError, termios.error):  # a closed terminal keeps nothing
                termios.tcsetattr(fd, termios.TCSADRAIN, old)


def sim_config(base: Config, data_dir: Path) -> Config:
    """``base`` with the simulated hardware: terminal display, mock pins, the dice on a pty.
    The phone view is the command line's (``--web``/``--no-web``), never the ``[web]``
    section's: a laptop's sim does not open the box's port to the network."""
    return replace(base,
                   display=replace(base.display, driver="terminal"),
                   service=replace(base.service, data_dir=str(data_dir), pin_factory="mock",
                                   shutdown_command=""),
                   web=replace(base.web, enabled=False))
