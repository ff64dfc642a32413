"""Helpers shared by the firmware tests (CPython and MicroPython alike)."""

import json
import math

from tests.firmware.dice import TOOLS

VECTORS = TOOLS + "/protocol_vectors.json"


def load_vectors():
    with open(VECTORS) as handle:
        return json.load(handle)


def data_of(vector):
    """The bytes of a vector entry ("text" is ASCII, "hex" anything)."""
    if "hex" in vector:
        return bytes.fromhex(vector["hex"])
    return vector["text"].encode()


def raises(kind, function, *args):
    """Call ``function(*args)``; return the exception of type ``kind`` it must raise."""
    try:
        function(*args)
    except kind as exc:
        return exc
    raise AssertionError("did not raise " + kind.__name__)


def chi_square(counts, expected):
    return sum((count - expected) ** 2 / expected for count in counts)


def chi2_sf_5(x):
    """P(X >= x) for a chi-square variable with 5 degrees of freedom (closed form for odd dof)."""
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


class Clock:
    def __init__(self, now=0):
        self.now = now

    def advance(self, ms):
        self.now += ms
        return self.now


class FakePin:
    def __init__(self, level=0):
        self.level = level

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None


def lit(leds):
    """The indexes of the LEDs that are on."""
    return tuple(index for index, led in enumerate(leds) if led.level)


class ScriptedEntropy:
    """``entropy(n)`` handing out the given byte values in order."""

    def __init__(self, values):
        self.values = list(values)
        self.taken = 0

    def __call__(self, count):
        out = bytes(self.values[self.taken : self.taken + count])
        if len(out) < count:
            raise AssertionError("scripted entropy ran out")
        self.taken += count
        return out


def decode_frames(firmware_protocol, data):
    """Every frame in ``data`` decoded with the firmware's own splitter and decoder."""
    splitter = firmware_protocol.Splitter()
    return [firmware_protocol.decode(line) for line in splitter.feed(data)]
