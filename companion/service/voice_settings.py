"""The voice's lines of the settings: "Hlasový režim", the volume and the speed.

Shown under "Hlas: zapnutý" only while the voice is on (with it off there is nothing to
set); each ● takes the next value, kept with the preferences.
"""

from __future__ import annotations

from companion.engines.czech import PLAYER
from companion.storage.prefs import SPEECH_RATES, VOICE_MODES, VOLUMES, Prefs

VOICE_KEYS = ("voice_mode", "volume", "speech_rate")


def mode_text(mode: str) -> str:
    """The voice mode's value as the settings show it."""
    if not mode:
        return "ne"
    if mode == "table":
        return "stůl"
    return PLAYER[int(mode)]


def voice_settings(p: Prefs) -> list[tuple[str, str]]:
    return [("voice_mode", f"Hlasový režim: {mode_text(p.voice_mode)}"),
            ("volume", f"Hlasitost: {p.volume} %"),
            ("speech_rate", f"Rychlost řeči: {p.speech_rate}")]


def _after(values: tuple[object, ...], value: object) -> object:
    i = values.index(value) if value in values else -1
    return values[(i + 1) % len(values)]


def next_voice_setting(p: Prefs, key: str) -> None:
    """● on one of :data:`VOICE_KEYS`: its next value."""
    if key == "voice_mode":
        p.voice_mode = str(_after(VOICE_MODES, p.voice_mode))
    elif key == "volume":
        p.volume = int(str(_after(VOLUMES, p.volume)))
    elif key == "speech_rate":
        p.speech_rate = int(str(_after(SPEECH_RATES, p.speech_rate)))
