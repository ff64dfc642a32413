"""The pads' timing budget: how far apart two pads' touch times may be for one slap.

A pad reports a touch some time after the hand lands, and that delay is not the
same for every pad: a TTP223 module samples its pad on its own oscillator and
answers within about 60 ms in its fast mode (220 ms in low-power mode), the pad
hub within one scan period.  The judge must not order two touches by a
difference smaller than what the delays can make up (decision D28 of
the slap-pad game's rules in docs/players/), so every front end has a **timing uncertainty**:

* declared per pad type (:data:`PAD_TYPES`, each with its source; the
  configuration's ``[pads]`` section may change the figure), or
* measured at the table by a calibration (:mod:`companion.devices.pads.calibration`):
  each pad's own offset (subtracted from every touch by the pad adapters) and the
  spread of the differences left after that, which becomes the uncertainty.

:class:`TimingBook` keeps the current budget of the table: the declared figure,
or the calibration stored in the data folder (``pad-timing.json``) when it was
made with the same pad type.  Listeners (the pad adapter, the referee) hear of
a new calibration at once.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.devices.pads.frontends import PAD_TYPES, PadType
from companion.files import SMALL_LIMIT, TooBig, read_text_limited
from companion.inputs.pads import Pad, PadNameError

log = logging.getLogger(__name__)

TIMING_FILE = "pad-timing.json"
"""The calibration's file in the data folder."""
FILE_VERSION = 1


class TimingFileError(ValueError):
    """A calibration file that cannot be used (one sentence)."""


@dataclass(frozen=True)
class PadTiming:
    """The timing budget in force: the uncertainty and each pad's offset (ms).

    ``calibrated``: the figures come from a calibration at this table (else the
    declared one, and no offsets).  ``slaps`` and ``measured`` describe that
    calibration.
    """

    pad_type: str
    uncertainty_ms: float
    offsets_ms: Mapping[Pad, float] = field(default_factory=dict)
    calibrated: bool = False
    slaps: int = 0
    measured: str = ""

    def offset(self, pad: Pad) -> float:
        return self.offsets_ms.get(pad, 0.0)


def declared(pad_type: str, overrides: Mapping[str, float] | None = None) -> PadTiming:
    """The declared budget of ``pad_type`` (``overrides``: type name -> ms from the config)."""
    kind = PAD_TYPES[pad_type]
    ms = (overrides or {}).get(pad_type, kind.uncertainty_ms)
    return PadTiming(pad_type, max(ms, kind.floor_ms))


def to_json(timing: PadTiming) -> dict[str, Any]:
    return {
        "version": FILE_VERSION,
        "pad_type": timing.pad_type,
        "uncertainty_ms": round(timing.uncertainty_ms, 4),
        "offsets_ms": {p.key: round(ms, 4) for p, ms in sorted(
            timing.offsets_ms.items(), key=lambda kv: (kv[0].seat, str(kv[0].target)))},
        "slaps": timing.slaps,
        "measured": timing.measured,
    }


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TimingFileError(f"The pad calibration's {what} is not a number.")
    return float(value)


def from_json(data: Any) -> PadTiming:
    """A stored calibration; :class:`TimingFileError` when it cannot be read."""
    if not isinstance(data, dict) or data.get("version") != FILE_VERSION:
        raise TimingFileError("The pad calibration file is not one this companion writes.")
    pad_type = data.get("pad_type")
    if pad_type not in PAD_TYPES:
        raise TimingFileError(f"The pad calibration names an unknown pad type {pad_type!r}.")
    offsets_raw = data.get("offsets_ms")
    if not isinstance(offsets_raw, dict):
        raise TimingFileError("The pad calibration has no offsets.")
    offsets: dict[Pad, float] = {}
    for key, value in offsets_raw.items():
        try:
            pad = Pad.parse(str(key))
        except PadNameError as exc:
            raise TimingFileError(str(exc)) from None
        offsets[pad] = _number(value, f"offset of pad {key}")
    within = _number(data.get("uncertainty_ms"), "uncertainty")
    if within < 0:
        raise TimingFileError("The pad calibration's uncertainty is negative.")
    slaps = data.get("slaps", 0)
    measured = data.get("measured", "")
    return PadTiming(str(pad_type), within, offsets, True,
                     int(slaps) if isinstance(slaps, int) else 0, str(measured))


class TimingBook:
    """The table's timing budget: declared, or calibrated and kept in ``path``.

    ``pad_type`` is the front end in use; a stored calibration of another type is
    ignored (logged), so switching front ends falls back to the declared figure.
    ``use_calibration=False`` ignores the file (and :meth:`store` still writes it).
    Thread-safe: the pad adapters read offsets on their own threads.
    """

    def __init__(self, pad_type: str, *, path: Path | None = None,
                 overrides: Mapping[str, float] | None = None,
                 use_calibration: bool = True,
                 listeners: Iterable[Callable[[PadTiming], None]] = ()) -> None:
        if pad_type not in PAD_TYPES:
            raise ValueError(f"unknown pad type {pad_type!r}")
        self.pad_type = pad_type
        self.path = path
        self.declared = declared(pad_type, overrides)
        self.use_calibration = use_calibration
        self._lock = threading.Lock()
        self._current = self.declared
        self.listeners: list[Callable[[PadTiming], None]] = list(listeners)
        """Called with the new budget after :meth:`store` (from the caller's thread)."""
        self.problem = ""
        """Why a stored calibration was not used (empty when it was, or there is none)."""
        if path is not None and use_calibration:
            self._load(path)

    @property
    def kind(self) -> PadType:
        return PAD_TYPES[self.pad_type]

    def current(self) -> PadTiming:
        with self._lock:
            return self._current

    def _load(self, path: Path) -> None:
        try:
            text = read_text_limited(path, SMALL_LIMIT, "pad calibration")
        except FileNotFoundError:
            return
        except TooBig as exc:
            self.problem = str(exc)
            log.warning("%s", self.problem)
            return
        except (OSError, UnicodeDecodeError) as exc:
            self.problem = f"The pad calibration {path} cannot be read ({exc.__class__.__name__})."
            log.warning("%s", self.problem)
            return
        try:
            stored = from_json(json.loads(text))
        except (json.JSONDecodeError, TimingFileError) as exc:
            self.problem = f"The pad calibration {path} is not usable: {exc}"
            log.warning("%s", self.problem)
            return
        if stored.pad_type != self.pad_type:
            self.problem = (f"The pad calibration {path} was made with {stored.pad_type} pads, "
                            f"not {self.pad_type}; the declared uncertainty applies.")
            log.warning("%s", self.problem)
            return
        floor = self.kind.floor_ms
        self._current = PadTiming(stored.pad_type, max(stored.uncertainty_ms, floor),
                                  stored.offsets_ms, True, stored.slaps, stored.measured)

    def store(self, offsets_ms: Mapping[Pad, float], spread_ms: float, slaps: int,
              measured: str = "") -> PadTiming:
        """A new calibration: ``offsets_ms`` are *added* to the offsets in force (the session
        measured touches that already had them subtracted); the spread becomes the
        uncertainty (never below the front end's floor).  Written to the file (atomically)
        before it takes effect; an ``OSError`` leaves everything as it was."""
        with self._lock:
            old = self._current.offsets_ms if self._current.calibrated else {}
            merged = dict(old)
            for pad, ms in offsets_ms.items():
                merged[pad] = merged.get(pad, 0.0) + ms
            new = PadTiming(self.pad_type, max(spread_ms, self.kind.floor_ms), merged, True,
                            slaps, measured)
            if self.path is not None:
                tmp = self.path.with_name(self.path.name + ".tmp")
                tmp.write_text(json.dumps(to_json(new), indent=1) + "\n", "utf-8")
                with open(tmp, "rb") as handle:
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            self._current = new
            self.problem = ""
        for listener in list(self.listeners):
            listener(new)
        return new
