"""The OLED fonts: bitmap fonts from Debian with every Czech letter.

* body text: misc-fixed 5x8 (``xfonts-base``, ISO 10646 encoded PCF): 25
  characters x 8 lines on 128x64, legible, all Czech diacritics;
* headings: Terminus 6x12 (``fonts-terminus-otb``, OpenType bitmap strikes);
* fallback for both: DejaVu Sans Mono (``fonts-dejavu-core``), anti-aliasing
  off when drawn on the 1-bit canvas.

FreeType renders the bitmap fonts pixel-exact at their strike size.
``$COMPANION_FONT`` / ``$COMPANION_HEADING_FONT`` override the files.
"""

from __future__ import annotations

import gzip
import io
import os
import weakref
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

MISC_FIXED_5X8 = "/usr/share/fonts/X11/misc/5x8.pcf.gz"
TERMINUS = "/usr/share/fonts/opentype/terminus/terminus-normal.otb"
TERMINUS_BOLD = "/usr/share/fonts/opentype/terminus/terminus-bold.otb"
DEJAVU_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

BODY_SIZE = 8
HEADING_SIZE = 12


class FontMissing(RuntimeError):
    pass


_SOURCES: weakref.WeakKeyDictionary[ImageFont.FreeTypeFont, str] = weakref.WeakKeyDictionary()
"""The file each font was opened from (a font read from memory has no ``path`` of its own)."""


def _open(path: str, size: int) -> ImageFont.FreeTypeFont:
    """Load a font; a gzipped one (PCF) is unpacked into memory first: FreeType reads
    gzip streams by re-inflating from the start on every seek, ~30x slower per text."""
    if path.endswith(".gz"):
        with open(path, "rb") as f:
            font = ImageFont.truetype(io.BytesIO(gzip.decompress(f.read())), size)
    else:
        font = ImageFont.truetype(path, size)
    _SOURCES[font] = path
    return font


def _first(candidates: list[tuple[str, int]]) -> tuple[str, int]:
    for path, size in candidates:
        if path and Path(path).is_file():
            return path, size
    raise FontMissing(
        "No usable font: install xfonts-base and fonts-terminus-otb (or fonts-dejavu-core).")


@lru_cache(maxsize=4)
def body_font() -> ImageFont.FreeTypeFont:
    """The font of ordinary lines (misc-fixed 5x8)."""
    path, size = _first([(os.environ.get("COMPANION_FONT", ""), BODY_SIZE),
                         (MISC_FIXED_5X8, BODY_SIZE), (DEJAVU_MONO, 8)])
    return _open(path, size)


@lru_cache(maxsize=4)
def heading_font(bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font of titles (Terminus 6x12)."""
    term = TERMINUS_BOLD if bold and Path(TERMINUS_BOLD).is_file() else TERMINUS
    path, size = _first([(os.environ.get("COMPANION_HEADING_FONT", ""), HEADING_SIZE),
                         (term, HEADING_SIZE), (DEJAVU_MONO, 11)])
    return _open(path, size)


def load_font(size: int = HEADING_SIZE, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Compatibility: the heading font at 12 px, the body font otherwise."""
    return heading_font(bold) if size >= HEADING_SIZE else body_font()


def font_file(font: ImageFont.FreeTypeFont) -> str:
    """The file ``font`` was read from."""
    source = _SOURCES.get(font)
    return source if source is not None else str(font.path)


def _mask(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    im = Image.new("1", (32, 32))
    ImageDraw.Draw(im).text((4, 4), ch, font=font, fill=1)
    return im.tobytes()


def missing_glyphs(font: ImageFont.FreeTypeFont, text: str) -> set[str]:
    """Characters of ``text`` that ``font`` would draw as its missing-glyph box (or nothing)."""
    notdef = {_mask(font, "\ue000"), _mask(font, "\U0010fffd")}
    blank = _mask(font, " ")
    missing = set()
    for ch in set(text):
        if ch.isspace():
            continue
        m = _mask(font, ch)
        if m in notdef or m == blank:
            missing.add(ch)
    return missing
