"""A stub of MicroPython's ``machine`` module: just enough for the boards' main.py in tests
(the dice's and the pad hub's; ``rp2.py`` beside it stubs the hub's PIO).

The I2C bus has an ADXL345 lying flat on it (1 g on z); the UART records what
is written and hands out what a test queued in ``incoming``; the ADC reads what a
test put in ``_adc`` for its channel; ``deepsleep`` is recorded in ``_slept``; ``freq`` keeps the
system clock a board set; ``USBDevice`` records how the board named its USB port.
"""

import struct

_last_uart = []
_freq = [0]
_adc = {}  # channel -> the raw reading a test wants (default: VSYS/3 of about 3.9 V)
_slept = []  # every deepsleep() call


def unique_id():
    return b"\xe6\x61\x38\x52\x1a\x2b\x3c\x4d"


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz
    return None


def reset():
    raise SystemExit("machine.reset()")


def deepsleep(ms=None):
    _slept.append(ms)


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


class I2C:
    def __init__(self, bus, sda=None, scl=None, freq=400000):
        self.bus = bus
        self.sda = sda
        self.scl = scl
        self.regs = bytearray(64)
        self.regs[0x00] = 0xE5  # ADXL345 device id
        self.regs[0x32:0x38] = struct.pack("<hhh", 0, 0, 256)  # 1 g on z (3.9 mg/LSB)

    def readfrom_mem(self, addr, reg, count):
        if addr != 0x53:
            raise OSError(19)  # ENODEV, as a real bus says
        return bytes(self.regs[reg : reg + count])

    def writeto_mem(self, addr, reg, data):
        if addr != 0x53:
            raise OSError(19)
        self.regs[reg : reg + len(data)] = data


class ADC:
    def __init__(self, channel):
        self.channel = channel

    def read_u16(self):
        return _adc.get(self.channel, 26000)  # VSYS/3 of about 3.9 V


class UART:
    def __init__(self, uart_id, baudrate=9600, tx=None, rx=None):
        self.uart_id = uart_id
        self.baudrate = baudrate
        self.tx = tx
        self.rx = rx
        self.written = bytearray()
        self.incoming = bytearray()
        _last_uart.append(self)

    def write(self, data):
        self.written.extend(data)
        return len(data)

    def any(self):
        return len(self.incoming)

    def read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data or None


class _Builtin:
    desc_dev = b"\x12\x01"
    desc_cfg = b"\x09\x02"
    str_max = 5


class USBDevice:
    """The singleton runtime USB device: ``configs`` lists every ``config`` call."""

    BUILTIN_NONE = None
    BUILTIN_DEFAULT = _Builtin()
    _state = {"active": True, "configs": [], "builtin": None}

    def active(self, value=None):
        if value is None:
            return self._state["active"]
        self._state["active"] = bool(value)
        return None

    @property
    def builtin_driver(self):
        return self._state["builtin"]

    @builtin_driver.setter
    def builtin_driver(self, value):
        if self._state["active"]:
            raise OSError(1)  # set only while inactive, as on the board
        self._state["builtin"] = value

    def config(self, desc_dev, desc_cfg, desc_strs=None):
        self._state["configs"].append((desc_dev, desc_cfg, desc_strs))
