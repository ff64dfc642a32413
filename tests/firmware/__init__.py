"""Tests of the boards' firmware (firmware/<board>/), one folder per board.

They run twice in ``make test``: under CPython (pytest) and under real
MicroPython (the WebAssembly port, ``node tests/firmware/run_tests.mjs``).  So they
are plain functions with ``assert``, use only what MicroPython has, and import
helpers relatively.  A module whose first line is ``# cpython-only`` is left
out of the MicroPython run.  Each board's test package puts that board's
folder (its flash image: ``main.py`` and its logic package) first on
``sys.path``, as the board's own root.  What every board's tests use - the
stubs of ``machine`` and ``rp2`` (``stubs/``), a scripted link stream, loading
a board's ``main.py`` - is ``support.py``; a board's own helpers are its
``support.py``.
"""

_HERE = __file__.replace("\\", "/").rsplit("/", 1)[0]  # .../tests/firmware
ROOT = _HERE.rsplit("/", 2)[0]
FIRMWARE = ROOT + "/firmware"
"""The boards' firmware, shipped inside the package: one folder per board."""
TOOLS = ROOT + "/tests/firmware"
"""This folder is also the checks' tooling: the MicroPython test runner (``run_tests.mjs``),
its Node lock (``package.json``, ``package-lock.json``) and the protocol vectors."""
