"""The phone view's address as a QR code (segno): for the 128x64 OLED and for a terminal.

The OLED fits a version-3 code (29 x 29 modules) at two pixels a module (58
pixels) with a lit quiet zone round it in a 64 x 64 square; the code is drawn
dark on lit pixels, as a camera expects a printed code.  The URL is encoded as
bytes at error correction level M (or higher when that fits in the same
version), so an address of up to 42 characters fits, which
``http://192.168.100.200:65535/<11-character token>/`` does.
"""

from __future__ import annotations

import segno
from PIL import Image, ImageDraw

from companion.errors import UsageError
from companion.ui.fonts import body_font, heading_font

MAX_VERSION = 3
"""The largest code that fits the OLED's 64 rows at two pixels a module."""
SCALE = 2
OLED = (128, 64)
CAPTION = ("Načti kód", "fotoaparátem", "v telefonu.")
"""The OLED's words beside the code (our own)."""


class AddressTooLong(UsageError):
    """The address does not fit a QR code the display can show."""


def qr_code(url: str) -> segno.QRCode:
    """The code of ``url`` (byte mode, level M or better, version 1 to 3);
    :class:`AddressTooLong` with one sentence when it needs a bigger one."""
    try:
        code = segno.make_qr(url, error="m", mode="byte")
    except segno.DataOverflowError:
        code = None
    if code is None or not isinstance(code.version, int) or code.version > MAX_VERSION:
        raise AddressTooLong(
            f"The address {url} is too long for the QR code on the display "
            f"({len(url.encode())} bytes, at most 42): use a shorter host name or token.")
    return code


def modules(url: str) -> list[list[bool]]:
    """The code's modules row by row, ``True`` dark, without the quiet zone."""
    return [[bool(v) for v in row] for row in qr_code(url).matrix]


def qr_image(url: str, scale: int = SCALE, size: int | None = None) -> Image.Image:
    """A 1-bit image of the code: dark modules 0 (unlit), light modules and the quiet
    zone 1 (lit); ``size`` the square's side (default: the code and a two-module
    quiet zone)."""
    rows = modules(url)
    n = len(rows) * scale
    side = size if size is not None else n + 4 * scale
    if side < n:
        raise ValueError(f"A {len(rows)}-module code needs {n} pixels, not {side}.")
    img = Image.new("1", (side, side), 1)
    off = (side - n) // 2
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = off + x * scale, off + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
    return img


def oled_frame(url: str, caption: tuple[str, ...] = CAPTION, title: str = "Telefon"
               ) -> Image.Image:
    """A whole 128x64 frame: the code in a lit 64x64 square on the left, a heading and
    a few words on the right."""
    frame = Image.new("1", OLED, 0)
    code = qr_image(url, SCALE, OLED[1])
    frame.paste(code, (0, 0))
    draw = ImageDraw.Draw(frame)
    x = OLED[1] + 3
    draw.text((x, 0), title, font=heading_font(), fill=1)
    body = body_font()
    for i, line in enumerate(caption[:5]):
        draw.text((x, 16 + 9 * i), line, font=body, fill=1)
    return frame


def terminal_text(url: str) -> str:
    """The code in half-block characters for a terminal with a dark background (light
    modules drawn, two rows a line, a two-module quiet zone)."""
    rows = modules(url)
    n = len(rows) + 4
    light = [[True] * n for _ in range(n)]
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            light[y + 2][x + 2] = not dark
    if n % 2:
        light.append([False] * n)
    chars = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    return "\n".join("".join(chars[(light[y][x], light[y + 1][x])] for x in range(n))
                     for y in range(0, len(light), 2))
