"""Keys of the simulated slap pads (data in ``padkeys.toml``) for the terminal twin."""

from __future__ import annotations

import tomllib
from importlib import resources

from companion.devices.pinmap import PinMapError
from companion.inputs.pads import Pad, PadNameError


def load_keymap(seats: int, text: str | None = None) -> dict[str, Pad]:
    """Key -> pad for a ``seats``-seat table (``text``: a key file, default ``padkeys.toml``)."""
    if text is None:
        text = resources.files("companion.sim").joinpath("padkeys.toml").read_text("utf-8")
    data = tomllib.loads(text)
    table = data.get("keys", {}).get(str(seats))
    if not isinstance(table, dict):
        raise PinMapError(f"The pad key map has no keys for {seats} seats.")
    out: dict[str, Pad] = {}
    for name, key in table.items():
        try:
            pad = Pad.parse(name)
        except PadNameError as exc:
            raise PinMapError(str(exc)) from None
        if not isinstance(key, str) or len(key) != 1:
            raise PinMapError(f"keys.{seats}.{name} must be one character, not {key!r}.")
        if key in out:
            raise PinMapError(f"Key {key!r} is used by both {out[key].key} and {name}.")
        out[key] = pad
    return out
