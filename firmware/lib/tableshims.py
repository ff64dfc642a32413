"""Tiny MicroPython shims so the boards' logic modules run unchanged under CPython.

Shared by the boards around the table (copied to the board's ``:lib/``); each
board's ``shims`` module hands these on to its package.

* ``const``: MicroPython's compile-time constant marker (the identity elsewhere).
* ``ticks_ms``/``ticks_us``/``ticks_diff``/``ticks_add``: MicroPython's wrapping
  clocks (period 2**30, as on the RP2040); CPython gets faithful copies.
* ``sleep_ms``: a millisecond sleep.
* ``urandom``: hardware entropy (``os.urandom``; on the RP2040 it is fed by the
  ring oscillator), or ``None`` where the port has none (the WebAssembly port).
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


TICKS_PERIOD = const(1 << 30)
_TICKS_MAX = const((1 << 30) - 1)
_TICKS_HALF = const(1 << 29)

try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _TICKS_MAX

    def ticks_us():
        return int(_time.monotonic() * 1000000) & _TICKS_MAX

    def ticks_add(ticks, delta):
        return (ticks + delta) & _TICKS_MAX

    def ticks_diff(end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


try:
    from time import sleep_ms
except ImportError:  # CPython
    import time as _time

    def sleep_ms(ms):
        _time.sleep(ms / 1000)


try:
    from os import urandom
except ImportError:  # a port without hardware entropy
    urandom = None
