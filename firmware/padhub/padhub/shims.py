"""The pad hub's MicroPython shims: the table's shared ``tableshims`` (``:lib/`` on the board).

``const``, the wrapping ``ticks_ms``/``ticks_us``/``ticks_diff`` and ``sleep_ms``.
"""

from tableshims import const, sleep_ms, ticks_diff, ticks_ms, ticks_us  # noqa: F401 - the hub's shims
