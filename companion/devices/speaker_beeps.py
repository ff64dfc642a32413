"""The buzzer's beeps played on the speaker, for a box without a buzzer (the OLED Bonnet).

:class:`SpeakerBeeps` has the buzzer's ``play(name)`` and ``listener``: each pattern of
:data:`companion.devices.buzzer.PATTERNS` becomes its tones (:func:`~companion.devices.buzzer.steps`:
the same rhythm and pitch as on a passive buzzer) as 16-bit PCM, a sine with 5 ms ramps so a
tone starts and stops without a click, fed to ``aplay`` on the voice's ALSA device.  A new
beep cuts the one still playing.  When ``aplay`` is missing or the card is busy the beep is
lost and logged once; the game goes on (the screen and the voice say the same).
"""

from __future__ import annotations

import logging
import math
import shutil
import subprocess
import threading
from array import array
from collections.abc import Callable
from typing import Any

from companion.devices.buzzer import PATTERNS, steps
from companion.devices.voice import APLAY

log = logging.getLogger(__name__)

RATE = 22050
RAMP_S = 0.005


def pcm(name: str, rate: int = RATE, volume: float = 0.4) -> bytes:
    """Pattern ``name`` as mono signed 16-bit little-endian samples at ``rate``."""
    if name not in PATTERNS:
        raise ValueError(f"unknown beep pattern {name!r}")
    out = array("h")
    peak = int(32767 * volume)
    ramp = max(1, int(RAMP_S * rate))
    for hz, seconds in steps(name):
        n = int(round(seconds * rate))
        if hz == 0:
            out.extend([0] * n)
            continue
        for i in range(n):
            gain = min(1.0, i / ramp, (n - 1 - i) / ramp)
            out.append(int(peak * gain * math.sin(2 * math.pi * hz * i / rate)))
    if out.itemsize == 2 and array("h", [1]).tobytes() != b"\x01\x00":  # pragma: no cover
        out.byteswap()  # big-endian hosts: ALSA gets little-endian as asked
    return out.tobytes()


class SpeakerBeeps:
    """Beeps on the speaker through ``aplay`` (``device``: ALSA's ``-D``, ``None``: default).

    ``command``: the player (default ``aplay``; ``None`` when it is not installed: every beep
    only reaches :attr:`listener`).  ``popen`` starts it (tests give a fake)."""

    def __init__(self, device: str | None = None, *, command: str | None = APLAY,
                 rate: int = RATE, popen: Callable[..., Any] = subprocess.Popen,
                 listener: Callable[[str], None] | None = None) -> None:
        self.device = device
        self.rate = rate
        self.command = shutil.which(command) if command is not None else None
        self._popen = popen
        self._proc: Any = None
        self._lock = threading.Lock()
        self._warned = False
        self.listener = listener
        """Called with every pattern played (the terminal simulator shows it)."""

    def argv(self) -> list[str]:
        assert self.command is not None
        device = ["-D", self.device] if self.device else []
        return [self.command, "-q", *device, "-t", "raw", "-f", "S16_LE", "-c", "1",
                "-r", str(self.rate), "-"]

    def play(self, name: str) -> None:
        data = pcm(name, self.rate)
        if self.command is not None:
            with self._lock:
                self._stop()
                try:
                    proc = self._popen(self.argv(), stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    proc.stdin.write(data)  # under a pipe's 64 KiB: never blocks
                    proc.stdin.close()
                    self._proc = proc
                except OSError as exc:
                    if not self._warned:
                        log.warning("the speaker's beeps cannot be played (%s)", exc)
                        self._warned = True
        if self.listener is not None:
            self.listener(name)

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def close(self) -> None:
        with self._lock:
            self._stop()
