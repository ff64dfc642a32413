"""The phone view's address as a QR code (segno): for the 128x64 OLED and for a terminal.

The code is drawn dark on lit pixels (as a camera expects a printed code) in a lit
rectangle at the panel's left with a lit quiet zone round it; caption words on the right.
How big a code, how many pixels a module and how wide a quiet zone are a
:class:`Layout`; :data:`LAYOUTS` are the candidates, and :data:`LAYOUT` the one in use,
chosen by photographing the panel (``python -m tests.web.qrphoto``: its pixel grid, a
few degrees of rotation and tilt, blur, noise; 50 photos each, addresses of every
allowed length) and reading the photos with three decoders (OpenCV's, ZXing's and
zbar).  The numbers and the choice are in docs/dev/web.md.

An address whose path is upper-case letters and digits (the token the box makes for
itself, :func:`new_token`) is encoded in QR's alphanumeric mode with the scheme and
host upper-cased (``HTTP://192.168.1.20:8080/K7Q2.../``: both are case-insensitive),
which takes 5.5 bits a character instead of 8, so a longer address fits a smaller code
with bigger modules.  Any other address (a token set in the configuration, a host name
with lower-case letters in the path, IPv6) is encoded as it is, in byte mode.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

import segno
from PIL import Image, ImageDraw

from companion.errors import UsageError
from companion.ui.fonts import body_font, heading_font

OLED = (128, 64)
CAPTION = ("Načti kód", "fotoaparátem", "v telefonu.")
"""The OLED's words beside the code (our own)."""
CAPTION_WIDTH = 61
"""Pixels the words beside the code need ("fotoaparátem" in the 5x8 font, and a dark column
at the panel's edge)."""

ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
"""The characters of QR's alphanumeric mode."""
TOKEN_BYTES = 8
"""Random bytes in a token the box makes: 64 bits."""


@dataclass(frozen=True)
class Layout:
    """How the code is drawn on the OLED: ``max_version`` (the largest code allowed),
    ``error`` (the least error correction: segno raises it while the version stays),
    ``scale`` (panel pixels a module), ``quiet`` (modules of lit quiet zone wanted round
    the code; the panel's 64 rows may leave less above and below)."""

    max_version: int
    error: str
    scale: int
    quiet: int

    def side(self, version: int) -> int:
        return (17 + 4 * version) * self.scale


LAYOUTS: dict[str, Layout] = {
    "v3 M, 2 px, quiet 1.5 (before)": Layout(3, "m", 2, 1),
    "v3 M, 2 px, quiet 4 wide": Layout(3, "m", 2, 4),
    "v3 Q, 2 px, quiet 4 wide": Layout(3, "q", 2, 4),
    "v2 L, 2 px, quiet 3.5": Layout(2, "l", 2, 4),
    "v2 M, 2 px, quiet 3.5": Layout(2, "m", 2, 4),
    "v1 L, 3 px, quiet 0.2": Layout(1, "l", 3, 1),
    "v3 M, 1 px, quiet 17": Layout(3, "m", 1, 17),
}
"""The layouts compared (names as the measurement prints them)."""
LAYOUT = LAYOUTS["v2 L, 2 px, quiet 3.5"]
"""The layout in use: a version-2 code (25 modules) at two pixels a module with a quiet zone
of four modules on its left and three and a half round the rest (the panel's 64 rows).
Every two-pixel layout read alike in the photos (OpenCV 91-93 %, ZXing all but a few, zbar
a quarter: the panel's pixel grid crosses in the middle of every module, not the quiet
zone, is what fails); this one has the widest quiet zone and every LAN address with the
box's 64-bit token fits it.  One pixel a module reads worse with OpenCV and ZXing, three
leave no room for a quiet zone.  The numbers: docs/dev/web.md, "The QR code"."""


MIN_TOKEN, MAX_TOKEN = 8, 16
"""The token lengths the configuration allows (``web.token``)."""
MIN_BYTES = len("http://a:1024/") + MIN_TOKEN + 1
"""The shortest address the configuration allows."""


class AddressTooLong(UsageError):
    """The address does not fit a QR code the display can show."""


def new_token() -> str:
    """A token for the box's own address: 64 random bits in 13 upper-case letters and
    digits (RFC 4648 base32), so that the address fits the QR code's alphanumeric mode."""
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii").rstrip("=")


def qr_text(url: str) -> tuple[str, str]:
    """What the code carries for ``url`` and in which mode: the scheme and host upper-cased
    in alphanumeric mode when the rest allows it, else ``url`` in byte mode."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    text = f"{scheme.upper()}{sep}{host.upper()}{slash}{path}"
    if sep and set(text) <= ALPHANUMERIC:
        return text, "alphanumeric"
    return url, "byte"


def _code(text: str, mode: str, layout: Layout) -> segno.QRCode | None:
    """The code of ``text``, or ``None`` when it needs a bigger one than ``layout`` allows."""
    try:
        code = segno.make_qr(text, error=layout.error, mode=mode)
    except segno.DataOverflowError:
        return None
    if not isinstance(code.version, int) or code.version > layout.max_version:
        return None
    return code


def qr_code(url: str, layout: Layout | None = None) -> segno.QRCode:
    """The code of ``url`` for ``layout`` (default :data:`LAYOUT`); :class:`AddressTooLong`
    with one sentence when it needs a bigger one."""
    layout = layout or LAYOUT
    code = _code(*qr_text(url), layout)
    if code is None:
        raise AddressTooLong(
            f"The address {url} is too long for the QR code on the display "
            f"({len(url.encode())} characters; it holds {max_length(layout)}, or "
            f"{max_length(layout, 'alphanumeric')} when the token is upper-case letters and "
            "digits as the box makes it): use a shorter host name or token.")
    return code


def fits(url: str, layout: Layout | None = None) -> bool:
    """Whether ``url`` fits the display's code."""
    return _code(*qr_text(url), layout or LAYOUT) is not None


def max_length(layout: Layout | None = None, mode: str = "byte") -> int:
    """The longest address ``layout`` holds: in byte mode (any characters) or in
    alphanumeric mode (the box's own addresses, :func:`qr_text`)."""
    layout = layout or LAYOUT
    n = 1
    while _code(("X" if mode == "alphanumeric" else "x") * (n + 1), mode, layout) is not None:
        n += 1
    return n


MAX_BYTES = max_length(LAYOUT)
"""The longest address the display's code holds whatever its characters."""
MAX_ALPHANUMERIC = max_length(LAYOUT, "alphanumeric")
"""The longest address of the box's own kind (upper-case token) the display's code holds."""


def modules(url: str, layout: Layout | None = None) -> list[list[bool]]:
    """The code's modules row by row, ``True`` dark, without the quiet zone."""
    return [[bool(v) for v in row] for row in qr_code(url, layout).matrix]


def qr_image(url: str, scale: int = 2, size: int | tuple[int, int] | None = None,
             layout: Layout | None = None) -> Image.Image:
    """A 1-bit image of the code: dark modules 0 (unlit), light modules and the quiet
    zone 1 (lit); ``size`` the rectangle (a side, or width and height; default: the code
    and a two-module quiet zone), the code in its middle."""
    layout = layout or Layout(LAYOUT.max_version, LAYOUT.error, scale, 2)
    rows = modules(url, layout)
    n = len(rows) * layout.scale
    if size is None:
        size = n + 2 * layout.quiet * layout.scale
    w, h = (size, size) if isinstance(size, int) else size
    if w < n or h < n:
        raise ValueError(f"A {len(rows)}-module code needs {n} pixels, not {w}x{h}.")
    img = Image.new("1", (w, h), 1)
    ox, oy = (w - n) // 2, (h - n) // 2
    draw = ImageDraw.Draw(img)
    s = layout.scale
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = ox + x * s, oy + y * s
                draw.rectangle((x0, y0, x0 + s - 1, y0 + s - 1), fill=0)
    return img


def code_box(url: str, layout: Layout | None = None) -> tuple[int, int]:
    """The lit rectangle of the code on the OLED (width, height): the code and its quiet
    zone, at most the panel's height."""
    layout = layout or LAYOUT
    n = len(modules(url, layout)) * layout.scale
    quiet = layout.quiet * layout.scale
    return min(n + 2 * quiet, OLED[0] - CAPTION_WIDTH - 2), min(n + 2 * quiet, OLED[1])


def oled_frame(url: str, caption: tuple[str, ...] = CAPTION, title: str = "Telefon",
               layout: Layout | None = None) -> Image.Image:
    """A whole 128x64 frame: the code in a lit rectangle on the left, a heading and a few
    words on the right."""
    layout = layout or LAYOUT
    frame = Image.new("1", OLED, 0)
    box = code_box(url, layout)
    frame.paste(qr_image(url, size=box, layout=layout), (0, 0))
    draw = ImageDraw.Draw(frame)
    x = box[0] + 2
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
