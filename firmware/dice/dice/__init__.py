"""The electronic dice's firmware logic (MicroPython, also runs under CPython).

Every module here is plain Python: pins, buses, streams and clocks are passed
in, MicroPython specifics sit in :mod:`dice.shims`, and only the board entry
point (``main.py`` beside this package) imports ``machine``.  Modules import each other
relatively, so the package can be loaded under any name (the companion's
simulated dice loads it as a private package).
"""

VERSION = "1.0.0"
