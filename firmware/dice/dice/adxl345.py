"""ADXL345 3-axis accelerometer on I2C: 100 Hz, full resolution, +-16 g.

``i2c`` is anything with MicroPython's ``readfrom_mem(addr, reg, n)`` and
``writeto_mem(addr, reg, buf)`` (``machine.I2C`` on the board, a fake in
tests).  Samples are returned in milli-g.  The chip's own free-fall
interrupt is not used: :mod:`dice.motion` applies the same rule in software,
so it is unit tested and works with any accelerometer.
"""

import struct

from .shims import const

ADDRESS = const(0x53)  # SDO/ALT ADDRESS tied to GND (0x1D when tied high)
DEVID = const(0x00)
DEVID_VALUE = const(0xE5)
BW_RATE = const(0x2C)
POWER_CTL = const(0x2D)
DATA_FORMAT = const(0x31)
DATAX0 = const(0x32)

RATE_100HZ = const(0x0A)
MEASURE = const(0x08)
FULL_RES_16G = const(0x0B)  # FULL_RES | range +-16 g: 3.9 mg per LSB at every range


class SensorError(OSError):
    pass


class ADXL345:
    def __init__(self, i2c, address=ADDRESS):
        self.i2c = i2c
        self.address = address
        ident = i2c.readfrom_mem(address, DEVID, 1)[0]
        if ident != DEVID_VALUE:
            raise SensorError(f"no ADXL345 at 0x{address:02X} (id 0x{ident:02X})")
        i2c.writeto_mem(address, BW_RATE, bytes((RATE_100HZ,)))
        i2c.writeto_mem(address, DATA_FORMAT, bytes((FULL_RES_16G,)))
        i2c.writeto_mem(address, POWER_CTL, bytes((MEASURE,)))

    def read_mg(self):
        """(x, y, z) in milli-g."""
        raw = self.i2c.readfrom_mem(self.address, DATAX0, 6)
        x, y, z = struct.unpack("<hhh", raw)
        return x * 39 // 10, y * 39 // 10, z * 39 // 10
