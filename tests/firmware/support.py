"""Helpers of every board's firmware tests (CPython and MicroPython alike): the stubs of
MicroPython's hardware modules, a link stream to script, loading a board's ``main.py``."""

import os
import sys

from tests.firmware import ROOT

STUBS = ROOT + "/tests/firmware/stubs"
"""Stubs of ``machine`` and ``rp2`` (put first on ``sys.path`` only while a test needs them)."""


class FakeStream:
    """A link stream: ``written`` collects what the board sent, ``incoming`` what it will read."""

    def __init__(self):
        self.written = bytearray()
        self.incoming = bytearray()

    def write(self, data):
        self.written.extend(data)

    def read(self):
        if not self.incoming:
            return None
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def take(self):
        """The bytes written since the last take (or frames)."""
        data = bytes(self.written)
        self.written = bytearray()
        return data

    def frames(self):
        """The frames written since the last take (or frames), decoded by ``tablewire``."""
        import tablewire  # the boards' lib, on sys.path through the board's test package

        splitter = tablewire.Splitter()
        return [tablewire.decode(line) for line in splitter.feed(self.take())]


def forget(names):
    """Drop these modules from ``sys.modules`` (the next import loads them again)."""
    for name in names:
        if name in sys.modules:
            del sys.modules[name]


def load_main(board, stubs=("machine",)):
    """The ``main.py`` of the board at ``board``, imported anew on the stubs of ``stubs``
    (imported first, so that main finds the stubs)."""
    sys.path.insert(0, board)  # this board's main.py, whatever other boards' tests put first
    sys.path.insert(0, STUBS)
    try:
        forget(("main",) + tuple(stubs))
        for name in stubs:
            __import__(name)
        import main

        return main
    finally:
        sys.path.remove(STUBS)
        sys.path.remove(board)


def importers(folder, module):
    """The names of the .py files in ``folder`` that import ``module``."""
    found = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(folder + "/" + name) as handle:
                text = handle.read()
            if "import " + module in text or "from " + module in text:
                found.append(name)
    return found


def usb_strings(main, link="usb"):
    """The string descriptors ``main.make_stream(link)`` gave the board's USB (the stub
    ``machine`` records them; ``None``: the USB left as it is), the stream itself not opened."""
    import machine

    opened = []
    main.open_stream = lambda link, mod, baud: opened.append(link) or "stream"
    machine.USBDevice._state["configs"].clear()
    assert main.make_stream(link) == "stream" and opened == [link]
    configs = machine.USBDevice._state["configs"]
    return configs[-1][2] if configs else None
