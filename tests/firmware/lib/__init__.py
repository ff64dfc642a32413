"""Tests of the boards' shared modules (firmware/lib: ``:lib/`` on every board).

That folder goes first on ``sys.path``, as MicroPython's ``/lib`` on a board.
"""

import sys

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware/lib
ROOT = _HERE.rsplit("/", 3)[0]
LIB = ROOT + "/firmware/lib"
TOOLS = ROOT + "/tests/firmware"
if LIB not in sys.path:
    sys.path.insert(0, LIB)
