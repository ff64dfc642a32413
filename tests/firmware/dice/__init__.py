"""Tests of the dice's firmware (firmware/dice: ``main.py`` and the ``dice`` package).

The board's folder goes first on ``sys.path``, so ``from dice import link`` and
``import main`` find the files exactly as the Pico does, and the shared
``firmware/lib`` after it (the Pico's ``/lib``).
"""

import sys

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware/dice
ROOT = _HERE.rsplit("/", 3)[0]
BOARD = ROOT + "/firmware/dice"
LIB = ROOT + "/firmware/lib"  # the boards' shared modules, :lib/ on the board
TOOLS = ROOT + "/tests/firmware"
for _path in (LIB, BOARD):
    if _path not in sys.path:
        sys.path.insert(0, _path)
