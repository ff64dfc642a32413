"""Helpers of the pad hub's firmware tests (CPython and MicroPython alike)."""

from padhub import layout
from padhub.scan import word

from tests.firmware import support


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
        """What the seven sense machines push for this scan: slots 7..0 each."""
        counts = self.counts(scan)
        return [[word(slot, counts[m * layout.SLOTS + slot], limit)
                 for slot in range(layout.SLOTS - 1, -1, -1)] for m in range(layout.MUXES)]

    def source(self):
        """A ``source()`` for :class:`padhub.app.Hub`: one scan per call, forever."""
        scan = self.scan
        self.scan += 1
        return scan, self.counts(scan)


def load_main():
    from tests.firmware.padhub import BOARD

    forget()
    return support.load_main(BOARD, ("machine", "rp2"))


def forget():
    import padhub

    support.forget(("main", "machine", "rp2", "padhub.pio"))
    if "pio" in padhub.__dict__:
        del padhub.pio  # else "from padhub import pio" finds the old module
