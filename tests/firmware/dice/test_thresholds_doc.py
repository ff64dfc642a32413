# cpython-only: reads hardware/guide/dice.md, which the MicroPython run does not copy
"""hardware/guide/dice.md writes every drop threshold down with its reason: the numbers it gives are
the tracker's defaults."""

import inspect
import re

from dice import motion

from tests.firmware.dice import ROOT


def test_the_documented_thresholds_are_the_defaults():
    text = " ".join(open(ROOT + "/hardware/guide/dice.md", encoding="utf-8").read().split())
    defaults = {name: p.default for name, p in
                inspect.signature(motion.MotionTracker.__init__).parameters.items()
                if name != "self"}
    found = re.findall(r"\*\*([\d.]+) (ms|g|%)\*\* \(`(\w+)`", text)
    assert {name for _v, _u, name in found} == {"lift_mg", "lift_pct", "lift_ms", "toss_ms",
                                                "flight_ms", "impact_mg", "bounce_gap_ms",
                                                "hop_ms"}
    for value, unit, name in found:
        number = float(value)
        if unit == "g":
            number *= 1000
        elif name == "lift_pct":
            number += 100
        assert defaults[name] == number, (name, value, unit)
    assert f"`bounce_pct = {defaults['bounce_pct']}`" in text
    assert f"**free-fall threshold is {defaults['fall_mg']} mg**" in text
    assert "held still for 10 s (`hand_still_ms`" in text and defaults["hand_still_ms"] == 10000
