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
    assert stream[:4] == "0100", "not byte mode"
    length = int(stream[4:12], 2)
    return bytes(int(stream[12 + 8 * k:20 + 8 * k], 2) for k in range(length)).decode()


# --- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [URL, "http://127.0.0.1:8080/abcdefgh/", "http://[::1]:80/x-_Y12345/",
                                 "http://companion.local:8080/AbCdEfGhIjK/"])
def test_the_code_reads_back_as_the_address(url):
    assert decode(qr.modules(url)) == url


def test_the_longest_lan_address_with_a_new_token_fits_version_3():
    from companion.web.server import new_token

    url = f"http://192.168.100.200:65535/{new_token()}/"
    assert qr.qr_code(url).version <= 3
    assert decode(qr.modules(url)) == url


def test_42_bytes_fit_and_43_do_not():
    assert qr.qr_code("x" * 42).version == 3
    with pytest.raises(qr.AddressTooLong):
        qr.qr_code("x" * 43)


def test_too_long_an_address_is_one_sentence():
    url = "http://a-rather-long-host-name.example:8080/AbCdEfGhIjK/"
    with pytest.raises(qr.AddressTooLong) as err:
        qr.qr_code(url)
    assert isinstance(err.value, UsageError)
    text = str(err.value)
    assert text.count(".") >= 1 and "\n" not in text and url in text


def test_the_image_has_two_pixels_a_module_dark_modules_unlit():
    rows = qr.modules(URL)
    img = qr.qr_image(URL, size=64)
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
    img = qr.qr_image(URL, size=64)
    n = len(qr.modules(URL))
    off = (64 - 2 * n) // 2
    read = [[not img.getpixel((off + 2 * x, off + 2 * y)) for x in range(n)] for y in range(n)]
    assert decode(read) == URL


def test_a_code_that_does_not_fit_the_square_is_refused():
    with pytest.raises(ValueError):
        qr.qr_image(URL, size=40)


def test_the_oled_frame_has_the_code_on_the_left_and_words_on_the_right():
    frame = qr.oled_frame(URL)
    assert frame.mode == "1" and frame.size == (128, 64)
    assert frame.crop((0, 0, 64, 64)).tobytes() == qr.qr_image(URL, size=64).tobytes()
    right = frame.crop((66, 0, 128, 64))
    assert right.getbbox() is not None  # some text is lit


def test_terminal_text_has_half_blocks_and_the_right_width():
    text = qr.terminal_text(URL)
    lines = text.splitlines()
    n = len(qr.modules(URL)) + 4
    assert all(len(line) == n for line in lines)
    assert len(lines) == (n + 1) // 2
    assert set(text) <= set("█▀▄ \n")
