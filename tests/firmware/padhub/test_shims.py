"""padhub.shims: the hub's package hands on the boards' shared tableshims."""

import tableshims
from padhub import shims


def test_the_hub_takes_the_shared_shims():
    for name in ("const", "sleep_ms", "ticks_diff", "ticks_ms", "ticks_us"):
        assert getattr(shims, name) is getattr(tableshims, name), name
