"""dice.battery: VSYS/3 on the ADC, in millivolts; nothing while on USB power."""

from dice import battery

from .support import FakePin


class FakeADC:
    def __init__(self, readings):
        self.readings = list(readings)

    def read_u16(self):
        return self.readings.pop(0)


def test_full_scale_is_three_times_the_reference():
    assert battery.to_millivolts(65535) == 9900
    assert battery.to_millivolts(0) == 0
    assert battery.to_millivolts(26000) == 3927


def test_readings_are_averaged():
    cell = battery.Battery(FakeADC([25000, 27000] * 4), FakePin(0))
    assert cell.millivolts() == battery.to_millivolts(26000)


def test_on_usb_power_there_is_no_battery_reading():
    assert battery.Battery(FakeADC([]), FakePin(1)).millivolts() is None


def test_without_vbus_sense_it_always_measures():
    assert battery.Battery(FakeADC([26000] * 8)).millivolts() == 3927
