"""Tests of the dice's firmware (companion/firmware/dice: ``main.py`` and the ``dice`` package).

The board's folder goes first on ``sys.path``, so ``from dice import link`` and
``import main`` find the files exactly as the Pico does.
"""

import sys

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware/dice
ROOT = _HERE.rsplit("/", 3)[0]
BOARD = ROOT + "/companion/firmware/dice"
TOOLS = ROOT + "/firmware"
if BOARD not in sys.path:
    sys.path.insert(0, BOARD)
