"""Helpers of the pad hub's firmware tests (CPython and MicroPython alike)."""

import tablewire
from padhub import layout
from padhub.scan import word

from . import STUBS


class FakeStream:
    """A link stream: ``written`` collects what the hub sent, ``incoming`` what it will read."""

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

    def frames(self):
        splitter = tablewire.Splitter()
        out = [tablewire.decode(line) for line in splitter.feed(bytes(self.written))]
        self.written = bytearray()
        return out


class Table:
    """Charge counts of every channel, scan by scan: a baseline per channel, plus
    ``lift`` counts while a hand is on a pad (from ``since`` us on, sampled per slot)."""

    def __init__(self, base=2000, lift=400, noise=None):
        self.base = [base + 7 * ch for ch in range(layout.CHANNELS)]
        self.lift = lift
        self.noise = noise  # a function (scan, channel) -> counts, or None
        self.hands = {}  # channel -> [(from_us, to_us)]
        self.scan = 0

    def touch(self, ch, from_us, to_us=10 ** 12):
        self.hands.setdefault(ch, []).append((from_us, to_us))

    def counts(self, scan):
        out = []
        for ch in range(layout.CHANNELS):
            c = self.base[ch]
            t = layout.sample_us(scan, ch)
            for start, end in self.hands.get(ch, ()):
                if start <= t < end:
                    c += self.lift
            if self.noise is not None:
                c += self.noise(scan, ch)
            out.append(c)
        return out

    def words(self, scan, limit=6000):
        """What the six sense machines push for this scan: slots 7..0 each."""
        counts = self.counts(scan)
        return [[word(slot, counts[m * layout.SLOTS + slot], limit)
                 for slot in range(layout.SLOTS - 1, -1, -1)] for m in range(layout.SEATS)]

    def source(self):
        """A ``source()`` for :class:`padhub.app.Hub`: one scan per call, forever."""
        scan = self.scan
        self.scan += 1
        return scan, self.counts(scan)


def load_main():
    import sys

    from . import BOARD

    sys.path.insert(0, BOARD)  # this board's main.py, whatever other boards' tests put first
    sys.path.insert(0, STUBS)
    try:
        forget()
        import machine  # noqa: F401 - the stubs, before main imports them
        import main
        import rp2  # noqa: F401

        return main
    finally:
        sys.path.remove(STUBS)
        sys.path.remove(BOARD)


def forget():
    import sys

    import padhub

    for name in ("main", "machine", "rp2", "padhub.pio"):
        if name in sys.modules:
            del sys.modules[name]
    if "pio" in padhub.__dict__:
        del padhub.pio  # else "from padhub import pio" finds the old module
