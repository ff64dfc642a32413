"""tableshims: MicroPython's const and wrapping ticks, on either interpreter."""

import tableshims as shims


def test_const_is_the_value():
    assert shims.const(42) == 42


def test_ticks_wrap_at_the_period():
    top = shims.TICKS_PERIOD - 1
    assert shims.ticks_add(top, 1) == 0
    assert shims.ticks_add(top, 11) == 10
    assert shims.ticks_diff(10, top) == 11
    assert shims.ticks_diff(top, 10) == -11
    assert shims.ticks_diff(500, 200) == 300


def test_ticks_ms_moves_forward():
    start = shims.ticks_ms()
    shims.sleep_ms(5)
    assert 3 <= shims.ticks_diff(shims.ticks_ms(), start) < 5000


def test_ticks_us_moves_forward():
    start = shims.ticks_us()
    shims.sleep_ms(5)
    assert 3000 <= shims.ticks_diff(shims.ticks_us(), start) < 5_000_000
