"""Preferences kept across games (sound, the single-move pause, the computer's own confirmation,
brightness, the voice): not in the journal."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.files import SMALL_LIMIT, read_limited

log = logging.getLogger(__name__)

AUTO_DELAYS = (0.0, 1.0, 1.5, 2.0, 3.0)
CONFIRM_DELAYS = (0.0, 3.0, 5.0, 10.0)
BRIGHTNESS = (255, 128, 48)


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


def load_prefs(path: Path, defaults: Prefs) -> Prefs:
    try:
        data = json.loads(read_limited(path, SMALL_LIMIT, "settings file").decode("utf-8"))
        return Prefs(sound=bool(data.get("sound", defaults.sound)),
                     auto_delay=float(data.get("auto_delay", defaults.auto_delay)),
                     contrast=int(data.get("contrast", defaults.contrast)),
                     voice=bool(data.get("voice", defaults.voice)),
                     computer_confirm=float(data.get("computer_confirm",
                                                     defaults.computer_confirm)))
    except FileNotFoundError:
        return defaults
    except (ValueError, TypeError, AttributeError, OSError):
        log.warning("settings file %s is unreadable; using defaults", path)
        return defaults


def save_prefs(path: Path, prefs: Prefs) -> None:
    """Keep ``prefs`` on disk; a folder that refuses the write (read-only) is logged: the
    preferences hold for this run."""
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(json.dumps(asdict(prefs)), "utf-8")
        tmp.replace(path)
    except OSError as exc:
        log.error("the settings cannot be saved to %s (%s); they hold until a restart", path, exc)
