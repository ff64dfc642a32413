"""dice.shims: the dice's package hands on the boards' shared tableshims."""

import tableshims
from dice import shims


def test_the_dice_takes_the_shared_shims():
    for name in ("TICKS_PERIOD", "const", "sleep_ms", "ticks_add", "ticks_diff", "ticks_ms", "urandom"):
        assert getattr(shims, name) is getattr(tableshims, name), name
