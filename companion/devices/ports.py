"""The shapes the hardware adapters rely on, as protocols (what gpiozero and luma provide).

A gpiozero pin factory (``MockFactory`` in tests, ``LGPIOFactory`` on the Pi) and a
luma device (``ssd1306``, ``sh1106``, ``dummy``, our terminal twin) are used only
through these members, so the type checker holds every adapter to them.
"""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image


class PinFactory(Protocol):
    """A gpiozero pin factory."""

    def pin(self, spec: Any) -> Any: ...
    def ticks(self) -> Any: ...
    def ticks_diff(self, later: Any, earlier: Any) -> float: ...
    def close(self) -> None: ...


class DisplayDevice(Protocol):
    """A luma device: a 128x64 one-bit canvas it shows, with contrast and clean-up."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def mode(self) -> str: ...

    def display(self, image: Image.Image) -> None: ...
    def contrast(self, level: int) -> None: ...
    def cleanup(self) -> None: ...
