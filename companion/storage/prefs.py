"""Preferences kept across games (sound, the single-move pause, the computer's own confirmation,
brightness, the voice, whether a player may ask for a hint): not in the journal."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

from companion.files import SMALL_LIMIT, read_limited

log = logging.getLogger(__name__)

AUTO_DELAYS = (0.0, 1.0, 1.5, 2.0, 3.0)
CONFIRM_DELAYS = (0.0, 3.0, 5.0, 10.0)
BRIGHTNESS = (255, 128, 48)
VOICE_MODES = ("", "table", "0", "1", "2", "3")
""""Hlasový režim": off, for the whole table, or for one seat (its colour or number)."""
VOLUMES = (100, 150, 200, 50)
"""The voice's volume (espeak-ng's amplitude; 100 is its own)."""
SPEECH_RATES = (165, 190, 220, 140)
"""The voice's speed in words a minute."""


@dataclass
class Prefs:
    sound: bool = True
    auto_delay: float = 1.5
    """Seconds before a single legal move is taken by itself."""
    contrast: int = 255
    voice: bool = True
    computer_confirm: float = 0.0
    """Seconds after which a computer seat's shown move counts as made on the board without
    a press of ● (0: it waits for ●)."""
    hints: bool = True
    """Whether a player may ask for a hint ("Nápověda"; off for competitive evenings)."""
    voice_mode: str = ""
    """"Hlasový režim" (:data:`VOICE_MODES`): every screen read aloud for a player who cannot
    see the panel ("table"), or only while one seat ("0".."3") is on turn; "": off."""
    volume: int = VOLUMES[0]
    speech_rate: int = SPEECH_RATES[0]


def load_prefs(path: Path, defaults: Prefs) -> Prefs:
    try:
        data = json.loads(read_limited(path, SMALL_LIMIT, "settings file").decode("utf-8"))
        return Prefs(sound=bool(data.get("sound", defaults.sound)),
                     auto_delay=float(data.get("auto_delay", defaults.auto_delay)),
                     contrast=_level(data, "contrast", defaults.contrast),
                     voice=bool(data.get("voice", defaults.voice)),
                     computer_confirm=float(data.get("computer_confirm",
                                                     defaults.computer_confirm)),
                     hints=bool(data.get("hints", defaults.hints)),
                     voice_mode=_pick(data, "voice_mode", VOICE_MODES, defaults.voice_mode),
                     volume=_pick(data, "volume", VOLUMES, defaults.volume),
                     speech_rate=_pick(data, "speech_rate", SPEECH_RATES, defaults.speech_rate))
    except FileNotFoundError:
        return defaults
    except (ValueError, TypeError, AttributeError, OSError):
        log.warning("settings file %s is unreadable; using defaults", path)
        return defaults


T = TypeVar("T")


def _pick(data: dict[str, object], key: str, values: tuple[T, ...], default: T) -> T:
    """A setting that takes one of ``values`` (anything else in the file: the default)."""
    value = data.get(key, default)
    return next((v for v in values if v == value and type(v) is type(value)), default)


def _level(data: dict[str, object], key: str, default: int) -> int:
    """A panel level 0-255 (the panel takes no other; anything else in the file: the default)."""
    value = data.get(key, default)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255:
        return value
    log.warning("settings: %s = %r is not a level 0-255; using %d", key, value, default)
    return default


def save_prefs(path: Path, prefs: Prefs) -> None:
    """Keep ``prefs`` on disk; a folder that refuses the write (read-only) is logged: the
    preferences hold for this run."""
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(json.dumps(asdict(prefs)), "utf-8")
        tmp.replace(path)
    except OSError as exc:
        log.error("the settings cannot be saved to %s (%s); they hold until a restart", path, exc)
