"""The OLED font: Terminus (bitmap, every Czech letter) with DejaVu as the fallback.

Terminus comes from Debian's ``fonts-terminus-otb`` as OpenType bitmap strikes
that FreeType renders pixel-exact at the strike sizes (12, 14, 16, ...).  The
6x12 strike gives 21 characters x 5 lines on 128x64.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

TERMINUS = (
    "/usr/share/fonts/opentype/terminus/terminus-normal.otb",
    "/usr/share/fonts/opentype/terminus/terminus-bold.otb",
)
DEJAVU = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
SMALL = 12
"""The body size: Terminus 6x12."""


class FontMissing(RuntimeError):
    pass


def font_path(prefer: str | None = None) -> Path:
    """The font file in use: ``$COMPANION_FONT``, then Terminus, then DejaVu."""
    candidates = [prefer or os.environ.get("COMPANION_FONT", ""), TERMINUS[0], *DEJAVU]
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    raise FontMissing(
        "No usable font: install fonts-terminus-otb (or fonts-dejavu-core).")


@lru_cache(maxsize=8)
def load_font(size: int = SMALL, bold: bool = False,
              prefer: str | None = None) -> ImageFont.FreeTypeFont:
    """The OLED font at ``size`` pixels (a Terminus strike size: 12, 14, 16, ...)."""
    path = font_path(prefer)
    if bold and str(path) == TERMINUS[0] and Path(TERMINUS[1]).is_file():
        path = Path(TERMINUS[1])
    return ImageFont.truetype(str(path), size)
