"""A stub of MicroPython's ``machine`` module for the pad hub's main.py in tests."""

_last_uart = []
_freq = [0]


def unique_id():
    return b"\xe6\x61\x38\x52\x5e\x6f\x7a\x8b"


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz
    return None


def reset():
    raise SystemExit("machine.reset()")


class Pin:
    IN = 0
    OUT = 1

    def __init__(self, pin, mode=-1, value=None):
        self.pin = pin
        self.mode = mode
        self.level = value or 0

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None


class UART:
    def __init__(self, bus, baudrate=9600, tx=None, rx=None):
        self.bus = bus
        self.baudrate = baudrate
        self.tx = tx
        self.rx = rx
        self.written = bytearray()
        self.incoming = bytearray()
        _last_uart.append(self)

    def any(self):
        return len(self.incoming)

    def read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def write(self, data):
        self.written.extend(data)
