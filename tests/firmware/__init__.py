"""Tests of the dice firmware's logic (firmware/dice).

They run twice in ``make test``: under CPython (pytest) and under real
MicroPython (the WebAssembly port, ``node firmware/run_tests.mjs``).  So they
are plain functions with ``assert``, use only what MicroPython has, and import
helpers relatively.  A module whose first line is ``# cpython-only`` is left
out of the MicroPython run.
"""

import sys

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware
ROOT = _HERE.rsplit("/", 2)[0]
FIRMWARE = ROOT + "/firmware"
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
