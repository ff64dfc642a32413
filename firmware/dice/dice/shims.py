"""The dice's MicroPython shims: the table's shared ``tableshims`` (``:lib/`` on the board).

``const``, the wrapping ``ticks_ms``/``ticks_diff``/``ticks_add``, ``sleep_ms`` and
``urandom`` (hardware entropy, or ``None`` where the port has none).
"""

from tableshims import (  # noqa: F401 - the dice's shims
    TICKS_PERIOD,
    const,
    sleep_ms,
    ticks_add,
    ticks_diff,
    ticks_ms,
    urandom,
)
