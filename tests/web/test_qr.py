"""The address as a QR code: decoded back by a small independent reader, drawn for the OLED."""

from __future__ import annotations

import pytest

from companion.errors import UsageError
from companion.web import qr

URL = "http://192.168.100.200:65535/AbCdEfGhIjK/"

# --- a minimal QR reader (versions 1-3, byte mode), independent of segno ---------------------

DATA_CODEWORDS = {  # version -> error level -> (data codewords, blocks)
    1: {"L": (19, 1), "M": (16, 1), "Q": (13, 1), "H": (9, 1)},
    2: {"L": (34, 1), "M": (28, 1), "Q": (22, 1), "H": (16, 1)},
    3: {"L": (55, 1), "M": (44, 1), "Q": (34, 2), "H": (26, 2)},
}
LEVEL_BITS = {1: "L", 0: "M", 3: "Q", 2: "H"}
ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
)


def function_module(version: int, row: int, col: int) -> bool:
    size = 17 + 4 * version
    if (row < 9 and col < 9) or (row < 9 and col >= size - 8) or (row >= size - 8 and col < 9):
        return True  # finder patterns, separators, format information, the dark module
    if row == 6 or col == 6:
        return True  # timing patterns
    if version >= 2:
        c = size - 7
        if abs(row - c) <= 2 and abs(col - c) <= 2:
            return True  # the one alignment pattern of versions 2 and 3
    return False


def decode(matrix: list[list[bool]]) -> str:
    size = len(matrix)
    version = (size - 17) // 4
    assert 1 <= version <= 3 and size == 17 + 4 * version
    fmt = 0
    spots = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i)
                                                                      for i in range(9, 15)]
    for bit, (row, col) in enumerate(spots):
        fmt |= int(matrix[row][col]) << bit
    fmt ^= 0x5412
    level, mask = LEVEL_BITS[fmt >> 13], (fmt >> 10) & 7
    bits: list[int] = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            row = size - 1 - vert if upward else vert
            for j in range(2):
                col = right - j
                if not function_module(version, row, col):
                    bits.append(int(matrix[row][col] != MASKS[mask](row, col)))
        right -= 2
    codewords = [int("".join(map(str, bits[k:k + 8])), 2) for k in range(0, len(bits) - 7, 8)]
    count, blocks = DATA_CODEWORDS[version][level]
    per = count // blocks
    data = [codewords[k * blocks + b] for b in range(blocks) for k in range(per)]
    stream = "".join(f"{c:08b}" for c in data)
    if stream[:4] == "0010":  # alphanumeric: two characters in 11 bits, a last one in 6
        length, at, out = int(stream[4:13], 2), 13, []
        for _ in range(length // 2):
            pair = int(stream[at:at + 11], 2)
            out += [ALNUM[pair // 45], ALNUM[pair % 45]]
            at += 11
        if length % 2:
            out.append(ALNUM[int(stream[at:at + 6], 2)])
        return "".join(out)
    assert stream[:4] == "0100", "neither byte nor alphanumeric mode"
    length = int(stream[4:12], 2)
    return bytes(int(stream[12 + 8 * k:20 + 8 * k], 2) for k in range(length)).decode()


# --- the tests ---------------------------------------------------------------------------------

OWN = "http://192.168.100.200:65535/K7Q2M4XW3ZB6P/"
"""The longest LAN address with a token the box makes itself (13 letters and digits)."""


@pytest.mark.parametrize("url", [OWN, "http://127.0.0.1:8080/ABCDEFGH/",
                                 "http://companion.local:8080/AB3DEFGHJKLMN/"])
def test_the_boxs_own_address_reads_back_in_alphanumeric_mode(url):
    text, mode = qr.qr_text(url)
    assert mode == "alphanumeric" and text.lower() == url.lower()
    assert decode(qr.modules(url)) == text
    scheme, host = text.split("://")[0], text.split("/")[2]
    assert scheme == "HTTP" and host == host.upper()  # case-insensitive parts upper-cased
    assert text.split("/", 3)[3] == url.split("/", 3)[3]  # the path (the token) as it is


@pytest.mark.parametrize("url", [URL.replace("AbCdEfGhIjK", "abcdefgh").replace(
    "192.168.100.200:65535", "10.0.0.2:8080"), "http://[::1]:8080/x-_Y1234/"])
def test_other_addresses_are_carried_as_they_are(url):
    text, mode = qr.qr_text(url)
    assert (text, mode) == (url, "byte")
    assert decode(qr.modules(url)) == url


def test_the_boxs_tokens_are_64_random_bits_in_13_letters_and_digits():
    tokens = {qr.new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(t) == 13 and set(t) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for t in tokens)
    from companion.web.server import check_token

    assert all(check_token(t) == t for t in tokens)  # the server takes them


def test_every_address_of_the_boxs_kind_fits_the_code():
    for host in ("1.1.1.1", "192.168.100.200"):
        for port in (1024, 65535):
            url = f"http://{host}:{port}/{qr.new_token()}/"
            assert qr.qr_code(url).version <= qr.LAYOUT.max_version
            assert decode(qr.modules(url)) == qr.qr_text(url)[0]


def test_the_capacity_of_the_layout_in_use():
    assert (qr.MAX_BYTES, qr.MAX_ALPHANUMERIC) == (32, 47)
    assert qr.fits("x" * 32) and not qr.fits("x" * 33)
    assert qr.fits("HTTP://" + "X" * 40) and not qr.fits("HTTP://" + "X" * 41)


def test_too_long_an_address_is_one_sentence():
    url = "http://a-rather-long-host-name.example:8080/AbCdEfGhIjK/"
    with pytest.raises(qr.AddressTooLong) as err:
        qr.qr_code(url)
    assert isinstance(err.value, UsageError)
    text = str(err.value)
    assert "\n" not in text and url in text and "upper-case letters and digits" in text


def test_the_image_has_two_pixels_a_module_dark_modules_unlit():
    rows = qr.modules(OWN)
    img = qr.qr_image(OWN, size=64)
    assert img.mode == "1" and img.size == (64, 64)
    n = len(rows)
    off = (64 - 2 * n) // 2
    for y in range(n):
        for x in range(n):
            for dy in (0, 1):
                for dx in (0, 1):
                    lit = img.getpixel((off + 2 * x + dx, off + 2 * y + dy))
                    assert bool(lit) == (not rows[y][x])
    # the quiet zone round it is lit
    assert all(img.getpixel((i, 0)) for i in range(64))
    assert all(img.getpixel((0, i)) for i in range(64))


def test_the_image_read_back_module_by_module_decodes():
    img = qr.qr_image(OWN, size=64)
    n = len(qr.modules(OWN))
    off = (64 - 2 * n) // 2
    read = [[not img.getpixel((off + 2 * x, off + 2 * y)) for x in range(n)] for y in range(n)]
    assert decode(read) == qr.qr_text(OWN)[0]


def test_a_code_that_does_not_fit_the_square_is_refused():
    with pytest.raises(ValueError):
        qr.qr_image(OWN, size=40)


def test_the_oled_frame_has_the_code_in_its_quiet_zone_on_the_left_and_words_on_the_right():
    frame = qr.oled_frame(OWN)
    assert frame.mode == "1" and frame.size == (128, 64)
    w, h = qr.code_box(OWN)
    n = len(qr.modules(OWN)) * qr.LAYOUT.scale
    assert (w, h) == (n + 15, 64)  # beside it four modules and three and a half, above and
    # below three and a half (the panel's 64 rows; the words need the rest of the width)
    assert frame.crop((0, 0, w, h)).tobytes() == qr.qr_image(
        OWN, size=(w, h), layout=qr.LAYOUT).tobytes()
    right = frame.crop((w + 1, 0, 128, 64))
    assert right.getbbox() is not None  # some text is lit
    assert frame.crop((w, 0, w + 2, 64)).getbbox() is None  # a dark gap after the quiet zone


def test_terminal_text_has_half_blocks_and_the_right_width():
    text = qr.terminal_text(OWN)
    lines = text.splitlines()
    n = len(qr.modules(OWN)) + 4
    assert all(len(line) == n for line in lines)
    assert len(lines) == (n + 1) // 2
    assert set(text) <= set("█▀▄ \n")
