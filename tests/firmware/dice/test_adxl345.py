"""dice.adxl345: set-up registers and milli-g conversion, on a fake I2C bus."""

import struct

from dice import adxl345

from tests.firmware.dice.support import raises


class FakeI2C:
    def __init__(self, ident=0xE5):
        self.regs = bytearray(64)
        self.regs[0] = ident
        self.writes = []

    def readfrom_mem(self, addr, reg, count):
        assert addr == adxl345.ADDRESS
        return bytes(self.regs[reg : reg + count])

    def writeto_mem(self, addr, reg, data):
        assert addr == adxl345.ADDRESS
        self.writes.append((reg, bytes(data)))
        for offset, byte in enumerate(data):
            self.regs[reg + offset] = byte


def test_setup_selects_100hz_full_resolution_and_measurement():
    bus = FakeI2C()
    adxl345.ADXL345(bus)
    assert bus.writes == [(0x2C, b"\x0a"), (0x31, b"\x0b"), (0x2D, b"\x08")]


def test_a_missing_chip_is_reported():
    error = raises(OSError, adxl345.ADXL345, FakeI2C(ident=0x00))
    assert "ADXL345" in str(error)


def test_samples_are_converted_to_milli_g():
    bus = FakeI2C()
    sensor = adxl345.ADXL345(bus)
    bus.regs[0x32:0x38] = struct.pack("<hhh", 256, -256, 0)
    assert sensor.read_mg() == (998, -999, 0)
    bus.regs[0x32:0x38] = struct.pack("<hhh", 4095, -4096, 1)
    assert sensor.read_mg() == (15970, -15975, 3)
