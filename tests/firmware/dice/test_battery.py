"""dice.battery: VSYS/3 on the ADC, in millivolts; nothing while on USB power."""

from dice import battery

from tests.firmware.dice.support import FakePin


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


def test_a_divider_of_two_reads_the_cell_directly():
    assert battery.to_millivolts(39000, 2) == 3927
    cell = battery.Battery(FakeADC([39000] * 8), FakePin(0), 2)
    assert cell.millivolts() == 3927


def test_the_thresholds_sit_above_the_cells_own_cut_out():
    assert battery.CELL_EMPTY_MV < battery.CUTOFF_MV < battery.LOW_MV < battery.CLEAR_MV
    assert battery.CUTOFF_MV - battery.CELL_EMPTY_MV >= 200  # a reserve for the sleeping die


def feed(guard, readings):
    return [guard.update(mv) for mv in readings]


def test_low_warns_once_and_clears_only_above_the_clearing_level():
    guard = battery.Guard()
    changes = feed(guard, [3900, 3490, 3520, 3480, 3590, 3450])
    assert changes == [None, battery.LOW, None, None, None, None]
    assert feed(guard, [3600]) == [battery.OK]
    assert feed(guard, [3499]) == [battery.LOW]


def test_usb_power_clears_the_warning():
    guard = battery.Guard()
    assert feed(guard, [3400, None]) == [battery.LOW, battery.OK]


def test_the_cut_off_needs_readings_in_a_row_under_it():
    guard = battery.Guard()
    dips = [3250] * (battery.CONFIRM - 1) + [3350]  # a load peak, then back up
    assert feed(guard, dips) == [battery.LOW] + [None] * (battery.CONFIRM - 1)
    assert guard.state == battery.LOW
    changes = feed(guard, [3290] * battery.CONFIRM)
    assert changes[-1] == battery.EMPTY and changes[:-1] == [None] * (battery.CONFIRM - 1)


def test_empty_is_final():
    guard = battery.Guard(confirm=1)
    assert feed(guard, [3200, 4100, None]) == [battery.EMPTY, None, None]
    assert guard.state == battery.EMPTY


def test_a_die_starts_only_on_a_cell_above_the_warning():
    assert battery.may_start(None)
    assert battery.may_start(battery.LOW_MV)
    assert not battery.may_start(battery.LOW_MV - 1)
    assert not battery.may_start(3420)  # a cell cut off at 3.3 V under load, recovered at rest


def test_thresholds_in_the_wrong_order_are_refused():
    from tests.firmware.dice.support import raises

    raises(ValueError, battery.Guard, 3500, 3400, 3300)
