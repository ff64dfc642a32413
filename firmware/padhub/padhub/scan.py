"""Words from the sense state machines in, one scan of charge counts out.

Each multiplexer's sense machine (:mod:`padhub.pio`) pushes one 32-bit word per slot:
``(remaining << 4) | pins``, where ``remaining`` is what was left of its count
limit when the pad's line read high (the charge took ``limit - remaining``
counts; a line that never rose leaves nothing: ``limit + 1``), and ``pins`` the
four input pins from the strobe up, sampled right then: bit 0 the strobe (high
during a measurement), bits 1-3 the multiplexers' address, the slot.  The
slots come 7, 6, ... 0 in every scan.

:class:`ScanAssembler` checks that every machine's eight words of a scan are
exactly slots 7..0 under the strobe (a word lost to a full FIFO breaks that),
turns them into counts by channel and numbers the scans.  After a break it
counts an overrun and waits for :meth:`ScanAssembler.resync` (the board tells it
the scan number its clock says, so the time stamps stay true).
"""

from . import layout


class ScanAssembler:
    def __init__(self, machines=layout.MUXES, limit=layout.COUNT_LIMIT, slots=layout.SLOTS):
        self.machines = machines
        self.limit = limit
        self.slots = slots
        self.counts = [0] * (machines * slots)
        self.index = -1  # the number of the last scan assembled
        self.overruns = 0  # scans broken by lost words
        self.in_sync = True

    def take(self, words):
        """``words[m]``: machine ``m``'s eight words of one scan, in the order pushed.

        Returns True with :attr:`counts` and :attr:`index` of a new scan, False when
        the words do not make one (counted once; then :meth:`resync` is needed)."""
        slots, limit, counts = self.slots, self.limit, self.counts
        if not self.in_sync:
            return False
        for m in range(self.machines):
            row = words[m]
            if len(row) != slots:
                return self._broken()
            base = m * slots
            for k in range(slots):
                word = row[k]
                slot = (word >> 1) & 7
                if slot != slots - 1 - k or not word & 1:
                    return self._broken()
                remaining = word >> 4
                counts[base + slot] = limit - remaining if remaining <= limit else limit + 1
        self.index += 1
        return True

    def _broken(self):
        self.overruns += 1
        self.in_sync = False
        return False

    def resync(self, index):
        """Continue with scan number ``index`` next (the board's clock says so)."""
        if index <= self.index:
            index = self.index + 1
        self.index = index - 1
        self.in_sync = True


def word(slot, count, limit=6000):
    """The word a sense machine pushes for ``slot`` after a charge of ``count`` counts
    (``count > limit``: the line never rose).  For tests and the simulated hub."""
    remaining = limit - count if count <= limit else 0xFFFFFFF
    return (remaining << 4) | (slot << 1) | 1
