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


class _TonePlayer:
    """Plays steps on a PWM output in a thread of its own; a new pattern cuts the old one."""

    def __init__(self, device: PWMOutputDevice) -> None:
        self.device = device
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def play(self, plan: list[tuple[int, float]]) -> None:
        self.stop()
        cancel = self._cancel = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(plan, cancel), name="buzzer",
                                        daemon=True)
        self._thread.start()

    def _run(self, plan: list[tuple[int, float]], cancel: threading.Event) -> None:
        try:
            for hz, seconds in plan:
                if hz:
                    self.device.frequency = hz
                    self.device.value = 0.5  # a square wave: the transducer sounds
                else:
                    self.device.value = 0
                if cancel.wait(seconds):
                    break
            self.device.value = 0
        except Exception:  # a closed device at shutdown: nothing to play on
            log.debug("the buzzer stopped", exc_info=True)

    def stop(self) -> None:
        self._cancel.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None


class Buzzer:
    def __init__(self, pin: int, pin_factory: PinFactory | None = None,
                 listener: Callable[[str], None] | None = None, kind: str = "passive") -> None:
        if kind not in KINDS:
            raise ValueError(f"a buzzer is passive or active, not {kind!r}")
        self.listener = listener
        self.played: list[str] = []
        self.kind = kind
        self.device: Any
        self._player: _TonePlayer | None = None
        if kind == "passive":
            try:
                self.device = PWMOutputDevice(pin, frequency=TONE_HZ, initial_value=0,
                                              pin_factory=pin_factory)
                self._player = _TonePlayer(self.device)
            except PinPWMUnsupported:
                log.warning("the pins here have no PWM: the passive buzzer only clicks its "
                            "patterns")
        if self._player is None:
            self.device = GpioBuzzer(pin, pin_factory=pin_factory)

    def play(self, name: str) -> None:
        plan = steps(name)
        self.played.append(name)
        if self._player is not None:
            self._player.play(plan)
        else:
            on, off, n = PATTERNS[name]
            self.device.beep(on_time=on, off_time=off, n=n, background=True)
        if self.listener:
            self.listener(name)

    def close(self) -> None:
        if self._player is not None:
            self._player.stop()
        self.device.close()
