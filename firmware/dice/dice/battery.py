"""Battery voltage from the Pico's VSYS divider (VSYS/3 on GP29, ADC3).

``adc`` has ``read_u16()``; ``usb_power`` (GP24, VBUS sense) has ``value()``
and is 1 while the dice runs from USB, when there is no battery reading.
"""

from .shims import const

VREF_MV = const(3300)
DIVIDER = const(3)
SAMPLES = const(8)


def to_millivolts(raw_u16):
    """VSYS in millivolts from a 16-bit ADC reading of VSYS/3."""
    return raw_u16 * VREF_MV * DIVIDER // 65535


class Battery:
    def __init__(self, adc, usb_power=None):
        self.adc = adc
        self.usb_power = usb_power

    def millivolts(self):
        """The averaged battery voltage in mV, or None while on USB power."""
        if self.usb_power is not None and self.usb_power.value():
            return None
        total = 0
        for _ in range(SAMPLES):
            total += self.adc.read_u16()
        return to_millivolts(total // SAMPLES)
