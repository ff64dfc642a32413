"""A phone's photo of the OLED showing the "Telefon" QR code, and three decoders to read it.

The photo (:func:`photo`): the 128x64 frame the service draws (``companion.web.qr``) on a
panel of square pixels with dark gaps between them (:data:`FILL`), lit pixels slightly
blooming, in the panel's black glass and a grey box; seen by a camera aimed at the code
(a little off it) a few degrees rotated and tilted (perspective), from a distance that
puts three to six camera pixels on a panel pixel, then blurred (:data:`BLUR`, sometimes
a little motion) and noisy (sensor grain), with the exposure off by a bit.  Everything is
drawn from ``random.Random(seed)``.

The decoders: OpenCV's ``QRCodeDetector`` (opencv-python-headless), ZXing's C++ port
(zxing-cpp, the engine of many phone scanners) and, when the Debian library is installed,
zbar (pyzbar + libzbar0).  ``python -m tests.web.qrphoto`` prints how many of 50 photos
each decoder reads for the layouts :data:`companion.web.qr.LAYOUTS` offers, with the
addresses of every allowed length.
"""

from __future__ import annotations

import argparse
import math
import random
import string
from collections.abc import Callable, Sequence

import cv2
import numpy as np
from PIL import Image

from companion.web import qr

FILL = (0.84, 0.92)
"""How much of a pixel's pitch its lit square takes: 128x64 SSD1306 panels list a 0.154 mm
pixel on a 0.17 mm pitch (0.96 inch, 0.91) and SH1106 ones 0.21 on 0.23 mm (1.3 inch);
a little less, for the camera's angle and the panel's make."""
BLUR = (0.6, 1.4)
"""The camera's blur (a Gaussian's sigma) in camera pixels: a phone's lens and demosaicing
spread a point over about one pixel, whatever the distance; more when a little out of
focus."""
LONGEST_HOST = 32
"""The longest ``web.url_host`` the configuration takes."""
TRIALS = 50
"""Photos per layout (the issue's 50 seeded distortions)."""


def addresses(layout: qr.Layout | None = None, seed: int = 0) -> list[str]:
    """Addresses of every length ``layout`` allows, of both kinds: the box's own (a 13-letter
    upper-case token: alphanumeric mode), from the shortest host to the longest such
    address the code holds, and a family's configured token of any characters (byte
    mode, 8 to 16 of them), up to the longest the code holds.  Interleaved, so that any
    first 50 cover both kinds and many lengths; every length appears."""
    layout = layout or qr.LAYOUT
    rng = random.Random(seed)
    own_max = min(qr.max_length(layout, "alphanumeric"), LONGEST_HOST + 28)
    own = [address_of_length(n, rng, upper=True) for n in range(qr.MIN_BYTES, own_max + 1)]
    set_max = min(qr.max_length(layout), LONGEST_HOST + 15 + qr.MAX_TOKEN)
    set_ = [address_of_length(n, rng, upper=False) for n in range(qr.MIN_BYTES, set_max + 1)]
    out: list[str] = []
    for i in range(max(len(own), len(set_))):
        out += ([own[i]] if i < len(own) else []) + ([set_[i]] if i < len(set_) else [])
    return out


def address_of_length(length: int, rng: random.Random, upper: bool) -> str:
    """``http://HOST:PORT/TOKEN/`` of ``length`` characters: an IPv4 host (or a short host
    name), a port of 4 or 5 digits, a token of upper-case letters and digits (the box's)
    or of any URL-safe characters (``upper=False``: a configured one)."""
    alphabet = (string.ascii_uppercase + "234567") if upper else (
        string.ascii_letters + string.digits + "-_")
    port = str(rng.randint(1024, 9999) if length < 30 else rng.randint(10000, 65535))
    longest_token = 13 if upper else qr.MAX_TOKEN
    fixed = len("http://") + 1 + len(port) + 2
    token_len = max(qr.MIN_TOKEN, min(longest_token, length - fixed - 7))
    host_len = length - fixed - token_len
    if host_len > LONGEST_HOST:
        raise ValueError(f"no address of {length} characters")
    host = _host(host_len, rng)
    token = "".join(rng.choice(alphabet) for _ in range(token_len))
    url = f"http://{host}:{port}/{token}/"
    assert len(url) == length, (url, length)
    return url


def _host(length: int, rng: random.Random) -> str:
    """An IPv4 address of ``length`` characters (7 to 15), or a host name."""
    if length < 7 or length > 15:
        name = "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(length))
        return "a" + name[1:-1] + "z" if length > 1 else "a"
    digits = length - 3  # four numbers of 1 to 3 digits each, drawn to add up
    while True:
        widths = [rng.randint(1, 3) for _ in range(3)]
        last = digits - sum(widths)
        if 1 <= last <= 3:
            break
    low = {1: 0, 2: 10, 3: 100}
    high = {1: 9, 2: 99, 3: 255}
    return ".".join(str(rng.randint(low[w], high[w])) for w in (*widths, last))


# --- the photo ---------------------------------------------------------------------------


def panel_image(frame: Image.Image, px: int, rng: random.Random) -> np.ndarray:
    """The panel up close: each OLED pixel ``px`` x ``px`` image pixels, lit ones a square of
    :data:`FILL` of the pitch with a little bloom, in the panel's black glass with a grey
    box round it.  Floats 0..1."""
    mono = np.array(frame.convert("1"), dtype=np.float32)
    h, w = mono.shape
    fill = rng.uniform(*FILL)
    cell = np.zeros((px, px), np.float32)
    lit = max(1, round(px * fill))
    off = (px - lit) // 2
    cell[off:off + lit, off:off + lit] = 1.0
    big = np.kron(mono, cell)
    bloom = rng.uniform(0.0, 0.6) * px / 4
    if bloom > 0.2:
        big = np.maximum(big, cv2.GaussianBlur(big, (0, 0), bloom) * 0.8)
    level = rng.uniform(0.75, 1.0)  # brightness of a lit pixel after exposure
    glass = rng.uniform(0.02, 0.1)
    big = glass + (level - glass) * np.clip(big, 0, 1)
    border = 10 * px  # the glass round the active area
    box = 12 * px  # the box round the glass
    out = np.full((h * px + 2 * (border + box), w * px + 2 * (border + box)),
                  rng.uniform(0.35, 0.6), np.float32)
    out[box:-box, box:-box] = glass
    out[box + border:box + border + h * px, box + border:box + border + w * px] = big
    return out


def photo(frame: Image.Image, seed: int, size: tuple[int, int] = (640, 480),
          aim: tuple[float, float] | None = None) -> np.ndarray:
    """A seeded camera photo of ``frame`` on the panel: 8-bit grey, ``size`` pixels.  The
    camera is aimed at ``aim`` (panel pixels; default: the lit code's centre), a little off
    it, as a person frames the code."""
    rng = random.Random(seed)
    px = 8
    panel = panel_image(frame, px, rng)
    ph, pw = panel.shape
    cam_per_oled = rng.uniform(3.0, 6.0)  # camera pixels per panel pixel
    scale = cam_per_oled / px
    angle = math.radians(rng.uniform(-5.0, 5.0))
    if aim is None:
        aim = (frame.width / 2, frame.height / 2)
    margin = (pw - frame.width * px) / 2  # the glass and the box round the active area
    ax, ay = margin + aim[0] * px, margin + aim[1] * px
    cx = size[0] / 2 + rng.uniform(-0.1, 0.1) * size[0]
    cy = size[1] / 2 + rng.uniform(-0.1, 0.1) * size[1]
    corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    centred = (corners - [ax, ay]) * scale
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    placed = centred @ rot.T + [cx, cy]
    tilt = 0.04 * pw * scale  # perspective: each corner moved by up to 4 % of the width
    placed += np.array([[rng.uniform(-tilt, tilt), rng.uniform(-tilt, tilt)] for _ in range(4)])
    matrix = cv2.getPerspectiveTransform(corners, placed.astype(np.float32))
    shot = cv2.warpPerspective(panel, matrix, size, flags=cv2.INTER_AREA,
                               borderValue=float(panel[0, 0]))
    sigma = rng.uniform(*BLUR)  # the lens, the sensor's demosaicing, a little defocus
    shot = cv2.GaussianBlur(shot, (0, 0), sigma)
    if rng.random() < 0.5:  # a little motion
        length = rng.randint(2, 4)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotm = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rotm, (length, length))
        kernel /= max(kernel.sum(), 1e-6)
        shot = cv2.filter2D(shot, -1, kernel)
    gain, bias = rng.uniform(0.8, 1.2), rng.uniform(-0.05, 0.08)
    noise = np.random.default_rng(seed).normal(0.0, rng.uniform(0.02, 0.06), shot.shape)
    shot = np.clip((shot * gain + bias + noise) * 255.0, 0, 255).astype(np.uint8)
    return shot


# --- the decoders --------------------------------------------------------------------------


def read_opencv(img: np.ndarray) -> str:
    text, _points, _straight = cv2.QRCodeDetector().detectAndDecode(img)
    return str(text or "")


def read_zxing(img: np.ndarray) -> str:
    import zxingcpp

    found = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
    return found[0].text if found else ""


def zbar_reader() -> Callable[[np.ndarray], str] | None:
    """zbar, when pyzbar and Debian's libzbar0 are installed (``None`` otherwise)."""
    try:
        from pyzbar import pyzbar
    except ImportError:
        return None

    def read(img: np.ndarray) -> str:
        found = pyzbar.decode(img, symbols=[pyzbar.ZBarSymbol.QRCODE])
        return found[0].data.decode("utf-8", "replace") if found else ""

    return read


def readers() -> dict[str, Callable[[np.ndarray], str]]:
    out: dict[str, Callable[[np.ndarray], str]] = {"opencv": read_opencv, "zxing": read_zxing}
    zbar = zbar_reader()
    if zbar is not None:
        out["zbar"] = zbar
    return out


def opened(text: str) -> str:
    """The address a phone opens for a code's text: the scheme and host in lower case (they
    are case-insensitive; the box's own codes carry them upper-cased), the path as it is."""
    scheme, sep, rest = text.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}"


def count(layout: qr.Layout, trials: int = TRIALS, seed: int = 0,
          decoders: dict[str, Callable[[np.ndarray], str]] | None = None
          ) -> dict[str, int]:
    """How many of ``trials`` seeded photos each decoder reads back to the address; the
    addresses take every allowed length in turn."""
    decoders = decoders if decoders is not None else readers()
    urls = addresses(layout, seed)
    got = dict.fromkeys(decoders, 0)
    for i in range(trials):
        url = urls[i % len(urls)]
        w, h = qr.code_box(url, layout)  # the person aims at the code
        img = photo(qr.oled_frame(url, layout=layout), seed * 1000 + i, aim=(w / 2, h / 2))
        for name, read in decoders.items():
            got[name] += opened(read(img)) == url
    return got


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="QR codes on the OLED, photographed")
    parser.add_argument("--trials", type=int, default=TRIALS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", metavar="DIR", help="write the first photos as PNG here")
    args = parser.parse_args(argv)
    decoders = readers()
    print(f"{args.trials} photos each; addresses of every length each layout holds")
    print("layout".ljust(34) + "".join(n.rjust(8) for n in decoders))
    for name, layout in qr.LAYOUTS.items():
        got = count(layout, args.trials, args.seed, decoders)
        mark = "  (in use)" if layout == qr.LAYOUT else ""
        print(name.ljust(34) + "".join(str(got[n]).rjust(8) for n in decoders) + mark)
    if args.save:
        from pathlib import Path

        out = Path(args.save)
        out.mkdir(parents=True, exist_ok=True)
        urls = addresses(qr.LAYOUT, args.seed)
        for i in range(6):
            w, h = qr.code_box(urls[i])
            shot = photo(qr.oled_frame(urls[i]), args.seed * 1000 + i, aim=(w / 2, h / 2))
            Image.fromarray(shot).save(out / f"photo-{i}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
