"""padhub.scan: sense machine words -> one scan of counts, numbered; broken scans resync."""

from padhub import layout
from padhub.scan import ScanAssembler, word

from tests.firmware.padhub.support import Table


def test_words_become_counts_by_channel():
    a = ScanAssembler()
    table = Table()
    table.touch(10, 0)
    assert a.take(table.words(0))
    assert a.index == 0
    assert a.counts == table.counts(0)
    assert a.take(table.words(1)) and a.index == 1


def test_a_line_that_never_rose_counts_one_over_the_limit():
    assert (word(3, 7000) >> 1) & 7 == 3
    a = ScanAssembler(machines=1, limit=6000)
    row = [word(s, 7000 if s == 3 else 100) for s in range(7, -1, -1)]
    assert a.take([row]) and a.counts[3] == 6001 and a.counts[0] == 100


def test_a_lost_word_breaks_the_scan_until_resync():
    a = ScanAssembler()
    table = Table()
    words = table.words(0)
    words[2] = words[2][1:] + [table.words(1)[2][0]]  # machine 2 lost slot 7
    assert not a.take(words)
    assert a.overruns == 1 and not a.take(table.words(1)) and a.overruns == 1
    a.resync(5)
    assert a.take(table.words(5)) and a.index == 5


def test_a_word_without_the_strobe_is_refused():
    a = ScanAssembler(machines=1)
    row = [word(s, 100) for s in range(7, -1, -1)]
    row[4] &= ~1
    assert not a.take([row])


def test_resync_never_goes_back():
    a = ScanAssembler()
    table = Table()
    a.take(table.words(0))
    a.take(table.words(1))
    a._broken()
    a.resync(0)
    assert a.take(table.words(2)) and a.index == 2
    assert layout.MUXES == len(table.words(0))
