"""The pad front ends the companion knows and the timing uncertainty their makers declare.

Plain data, apart from :mod:`.padtiming` (which keeps a table's timing budget and its
calibration), so the configuration reads the declared figures without loading the pads.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PadType:
    """A kind of pad front end and its timing uncertainty as declared by its maker."""

    name: str
    frontend: str
    """``"gpio"`` (one module per pad on the Pi's GPIO), ``"hub"`` (the RP2040 pad hub) or
    ``"mpr121"`` (MPR121 touch controllers on the Pi's I2C bus)."""
    uncertainty_ms: float
    """The declared spread of the touch-to-report delay between two pads."""
    floor_ms: float
    """The finest the front end can tell two touches apart (a calibration never goes below)."""
    source: str
    """Where the figure comes from (English, for the documentation and the CLI)."""
    config_key: str
    """The key of ``[pads]`` that declares this type's uncertainty."""


PAD_TYPES: dict[str, PadType] = {
    "ttp223-fast": PadType(
        "ttp223-fast", "gpio", 60.0, 0.0,
        "TTP223 datasheet (Tontek): response time at most about 60 ms in fast mode at 3 V; "
        "the shortest is not given, so two modules may differ by all of it",
        "ttp223_fast_ms"),
    "ttp223-low-power": PadType(
        "ttp223-low-power", "gpio", 220.0, 0.0,
        "TTP223 datasheet (Tontek): response time at most about 220 ms in low-power mode at 3 V",
        "ttp223_low_power_ms"),
    "padhub": PadType(
        "padhub", "hub", 1.0, 1.0,
        "the pad hub samples every pad once per scan (993 us, firmware/padhub): "
        "a touch is seen at most one scan period late",
        "hub_ms"),
    "mpr121": PadType(
        "mpr121", "mpr121", 8.0, 3.0,
        "MPR121 datasheet: a touch reaches the status register within its second filter's "
        "4 samples of 1 ms (ESI 1 ms, SFI 4, no debounce); the Pi reads it within 4 ms "
        "(a 2 ms poll or the IRQ line, companion/devices/pads/mpr121.py)",
        "mpr121_ms"),
}
"""Every pad type the companion knows; the declared figures are the defaults of ``[pads]``."""
