"""The buzzer: short patterns for the table, played in the background.

What the pin drives is the pin map's ``[buzzer] kind`` (hardware/guide/build.md, "The
buzzer"):

* ``"passive"`` (the reference part): a magnetic transducer without an oscillator of
  its own, through a transistor from 5 V.  It only clicks on a level change, so each
  beep is a square wave at the pattern's tone (gpiozero's ``PWMOutputDevice``, half
  duty): every pattern keeps its rhythm and has its pitch within the transducer's band.
* ``"active"``: a buzzer with its own oscillator (through the same transistor): on for
  each beep (gpiozero's ``Buzzer``); the patterns differ by rhythm alone.

A pin factory without PWM (gpiozero's plain mock pins) plays a passive buzzer's
patterns as on/off beeps and says so in the log.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import Buzzer as GpioBuzzer
from gpiozero import PWMOutputDevice
from gpiozero.exc import PinPWMUnsupported

from companion.devices.ports import PinFactory

log = logging.getLogger(__name__)

KINDS = ("passive", "active")

PATTERNS: dict[str, tuple[float, float, int]] = {
    "turn": (0.06, 0.06, 1),  # your turn: one short beep
    "six": (0.05, 0.07, 2),  # a six: two quick beeps
    "illegal": (0.45, 0.0, 1),  # not allowed: one long beep
    "win": (0.12, 0.08, 4),  # the winner: four beeps
    # a game of drinking duties: every duty has a pattern of its own (heard with the banner and voice)
    "drink-start": (0.15, 0.05, 3),
    "drink-knocked-out": (0.05, 0.05, 3),
    "drink-bottle": (0.1, 0.05, 2),
    "drink-pub": (0.05, 0.1, 3),
    "drink-card": (0.03, 0.03, 5),
    "drink-glass": (0.25, 0.05, 2),
    "drink-everybody": (0.08, 0.08, 4),
    "drink-home": (0.03, 0.05, 6),
    "drink-winner": (0.2, 0.05, 3),
    "drink-dropped-dice": (0.3, 0.05, 1),
    "drink-delay": (0.6, 0.0, 1),
    "drink-cheating": (0.05, 0.2, 2),
    "drink-upset": (0.02, 0.1, 4),
    "void-throw": (0.3, 0.1, 2),  # a throw made while owing: void, two more drinks
    "debt": (0.1, 0.1, 1),  # the player on turn owes: drink first
}
"""name -> (on seconds, off seconds, repeats): the rhythm, the same for both kinds."""

TONE_HZ = 2400
"""The reference transducer's rated frequency (CUI CD-1206: 2400 Hz; its band 2400 ± 400 Hz
in the CT-1205's datasheet)."""
HIGH_HZ, LOW_HZ = 2800, 2000
"""Tones within that band: the game's own sounds at the middle, warnings higher, drinks lower."""


def tone_of(name: str) -> int:
    """The pitch of pattern ``name`` on a passive buzzer."""
    if name in ("illegal", "void-throw", "debt"):
        return HIGH_HZ
    if name.startswith("drink-"):
        return LOW_HZ
    return TONE_HZ


def steps(name: str) -> list[tuple[int, float]]:
    """Pattern ``name`` as (hz, seconds) steps: a beep at its tone, then silence (hz 0)."""
    if name not in PATTERNS:
        raise ValueError(f"unknown buzzer pattern {name!r}")
    on, off, n = PATTERNS[name]
    hz = tone_of(name)
    out: list[tuple[int, float]] = []
    for _ in range(n):
        out.append((hz, on))
        if off:
            out.append((0, off))
    return out


class _Player:
    """Plays steps in one thread of its own, started with the first pattern; a new pattern
    cuts the old one.  ``sound(hz)`` drives the device (hz 0: silent).  The first step
    sounds at once on the caller's thread; the rest are timed on the player's, so that
    the service's loop only hands a pattern over (no thread is started or joined per beep).
    """

    def __init__(self, sound: Callable[[int], None]) -> None:
        self._sound = sound
        self._cond = threading.Condition()
        self._plan: list[tuple[int, float]] = []
        self._played = 0
        """Patterns handed over so far: a step of an older one is not played any more."""
        self._closed = False
        self._thread: threading.Thread | None = None

    def play(self, plan: list[tuple[int, float]]) -> None:
        with self._cond:
            if self._closed or not plan:
                return
            self._played += 1
            self._plan = plan
            self._safely(plan[0][0])
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _safely(self, hz: int) -> None:
        try:
            self._sound(hz)
        except Exception:  # a closed device at shutdown: nothing to play on
            log.debug("the buzzer stopped", exc_info=True)

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._plan:
                    self._cond.wait()
                    continue
                plan, played, self._plan = self._plan, self._played, []
                for i, (hz, seconds) in enumerate(plan):
                    if i:
                        self._safely(hz)
                    deadline = time.monotonic() + seconds
                    while played == self._played and not self._closed:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            break
                        self._cond.wait(left)
                    if played != self._played or self._closed:
                        break
                else:
                    self._safely(0)

    def stop(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._safely(0)


class Buzzer:
    def __init__(self, pin: int, pin_factory: PinFactory | None = None,
                 listener: Callable[[str], None] | None = None, kind: str = "passive") -> None:
        if kind not in KINDS:
            raise ValueError(f"a buzzer is passive or active, not {kind!r}")
        self.listener = listener
        self.played: list[str] = []
        self.kind = kind
        self.device: Any = None
        if kind == "passive":
            try:
                self.device = PWMOutputDevice(pin, frequency=TONE_HZ, initial_value=0,
                                              pin_factory=pin_factory)
            except PinPWMUnsupported:
                log.warning("the pins here have no PWM: the passive buzzer only clicks its "
                            "patterns")
        if self.device is None:
            self.device = GpioBuzzer(pin, pin_factory=pin_factory)
            self._player = _Player(self._switch)
        else:
            self._player = _Player(self._tone)

    def _tone(self, hz: int) -> None:
        if hz:
            self.device.frequency = hz
            self.device.value = 0.5  # a square wave: the transducer sounds
        else:
            self.device.value = 0

    def _switch(self, hz: int) -> None:
        """An active buzzer (or a passive one without PWM): on for each beep."""
        if hz:
            self.device.on()
        else:
            self.device.off()

    def play(self, name: str) -> None:
        plan = steps(name)
        self.played.append(name)
        self._player.play(plan)
        if self.listener:
            self.listener(name)

    def close(self) -> None:
        self._player.stop()
        self.device.close()
