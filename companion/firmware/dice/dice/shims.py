"""Tiny MicroPython shims so the logic modules run unchanged under CPython.

* ``const``: MicroPython's compile-time constant marker (the identity elsewhere).
* ``ticks_ms``/``ticks_diff``/``ticks_add``: MicroPython's wrapping millisecond
  clock (period 2**30, as on the RP2040); CPython gets a faithful copy.
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
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _TICKS_MAX

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
