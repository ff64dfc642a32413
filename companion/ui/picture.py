"""A screen that is a whole picture made elsewhere (the phone view's QR code), and the one
function that turns any screen into a frame.

Every other screen is a view drawn by :func:`companion.ui.screens.render`; a
:class:`Picture` already is its frame (128 x 64 one-bit pixels kept as bytes, so
it compares and hashes like the other views).  :func:`frame` draws either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from PIL import Image

from companion.ui.screens import HEIGHT, WIDTH, render
from companion.ui.views import View

if TYPE_CHECKING:
    from companion.ui.reading import Reading


@dataclass(frozen=True)
class Picture:
    """A whole frame: ``title`` says what it shows (tests, logs), ``bits`` the pixels of a
    mode-"1" 128x64 image (``Image.tobytes()``)."""

    title: str
    bits: bytes

    @classmethod
    def of(cls, title: str, image: Image.Image) -> Picture:
        if image.size != (WIDTH, HEIGHT):
            raise ValueError(f"A picture for the display is {WIDTH}x{HEIGHT}, not {image.size}.")
        return cls(title, image.convert("1").tobytes())

    def image(self) -> Image.Image:
        return Image.frombytes("1", (WIDTH, HEIGHT), self.bits)

    def reading(self) -> Reading:
        from companion.ui.reading import read_picture

        return read_picture(self)

    def whose(self) -> int | None:
        return None


AnyView: TypeAlias = "View | Picture"
"""Anything the display can show."""


def frame(view: AnyView, t: float = 0.0) -> Image.Image:
    """The frame of any screen at animation time ``t`` (a picture does not move)."""
    if isinstance(view, Picture):
        return view.image()
    return render(view, t)
