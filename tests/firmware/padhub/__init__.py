"""Tests of the pad hub's firmware (firmware/padhub: ``main.py`` and the ``padhub``
package), under CPython and MicroPython like the dice's.

The board's folder goes first on ``sys.path`` (the Pico's root), then the shared
``firmware/lib`` (the Pico's ``/lib``), so ``from padhub import sense``,
``import tablelink`` and ``import main`` find the files exactly as the Pico does.
"""

import sys

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware/padhub
ROOT = _HERE.rsplit("/", 3)[0]
BOARD = ROOT + "/firmware/padhub"
LIB = ROOT + "/firmware/lib"
TOOLS = ROOT + "/tests/firmware"
for _path in (LIB, BOARD):
    if _path in sys.path:
        sys.path.remove(_path)
    sys.path.insert(0, _path)
