"""padhub.pio on a stub rp2: the programs fit the PIO, the sequencer's timing is the layout's,
and the scanner assembles what the sense machines push."""

import sys

from padhub import layout

from tests.firmware.padhub.support import Table, forget
from tests.firmware.support import STUBS


def load_pio():
    sys.path.insert(0, STUBS)
    try:
        forget()
        import rp2
        from padhub import pio

        rp2.MACHINES.clear()
        return pio, rp2
    finally:
        sys.path.remove(STUBS)


def run_sequencer(program, cycles):
    """Interpret the sequencer (set, mov pins, jmp x--/y--, side-set, delays) cycle by cycle:
    the (strobe, address) it drives in each of ``cycles`` cycles."""
    x = y = pins = 0
    pc = 0
    out = []
    ins = program.instructions
    while len(out) < cycles:
        i = ins[pc]
        side = i.side_value
        nxt = pc + 1
        if i.op == "set":
            if i.args[0] == 1:
                x = i.args[1]
            else:
                y = i.args[1]
        elif i.op == "mov":
            pins = y
        elif i.op == "jmp":
            cond, target = i.args
            if cond == 2:  # x_dec
                if x:
                    nxt = program.labels[target]
                x = (x - 1) & 0xFFFFFFFF
            elif cond == 4:  # y_dec
                if y:
                    nxt = program.labels[target]
                y = (y - 1) & 0xFFFFFFFF
        if pc == program.wrap and nxt == pc + 1:
            nxt = program.wrap_target
        for _ in range(1 + i.delay):
            out.append((side, pins))
        pc = nxt
    return out[:cycles]


def test_the_programs_fit_the_two_pio_blocks():
    pio, _ = load_pio()
    seq, timer = pio.sequencer, pio.charge_timer
    assert len(seq.instructions) + len(timer.instructions) <= 32  # PIO0 holds both
    assert seq.side_bits == 1 and timer.side_bits == 0
    assert timer.kwargs["fifo_join"] == 2  # JOIN_RX: eight words, one scan per seat


def test_the_sequencer_keeps_the_layouts_time():
    pio, _ = load_pio()
    trace = run_sequencer(pio.sequencer, 3 * layout.SCAN_US)
    # The strobe rises once per slot, slots 7..0, 124 us apart, scans 993 us apart.
    rises = [t for t in range(1, len(trace)) if trace[t][0] == 1 and trace[t - 1][0] == 0]
    assert len(rises) == 24
    assert [trace[t][1] for t in rises[:8]] == [7, 6, 5, 4, 3, 2, 1, 0]
    assert [rises[k + 1] - rises[k] for k in range(7)] == [layout.SLOT_US] * 7
    assert rises[8] - rises[0] == layout.SCAN_US
    for k, t in enumerate(rises[:8]):
        slot = 7 - k
        assert t == layout.sample_us(0, slot) - 1  # the charge starts just after the rise
    # The address never changes while the strobe is up.
    for t in range(1, len(trace)):
        if trace[t][0] == 1 and trace[t - 1][0] == 1:
            assert trace[t][1] == trace[t - 1][1]
    width = next(t for t in range(rises[0], len(trace)) if trace[t][0] == 0) - rises[0]
    assert width == 113 and pio.COUNT_LIMIT * 2 / 125 < width  # 96 us of counting fit


def test_the_scanner_wires_all_eight_machines_and_reads_scans():
    pio, rp2 = load_pio()
    scanner = pio.PioScanner("strobe", "address", [f"s{i}" for i in range(7)])
    assert sorted(rp2.MACHINES) == [0, 1, 2, 3, 4, 5, 6, 7]
    seq = rp2.MACHINES[0]
    assert seq.freq == pio.SEQUENCER_HZ and seq.pins == {"out_base": "address",
                                                         "sideset_base": "strobe"}
    for i, sm in enumerate(scanner.timers):
        assert sm.tx == [pio.COUNT_LIMIT]
        assert sm.pins == {"set_base": f"s{i}", "jmp_pin": f"s{i}", "in_base": "strobe"}
    scanner.start()
    assert all(sm.active() for sm in rp2.MACHINES.values())
    table = Table()
    table.touch(9, 0)
    for scan in (0, 1):
        rows = table.words(scan)
        for m, sm in enumerate(scanner.timers):
            sm.rx.extend(rows[m])
    assert scanner.read() == (0, table.counts(0))
    index, counts = scanner.read()
    assert index == 1 and counts[9] == table.counts(1)[9]


def test_a_broken_scan_is_dropped_counted_and_followed_by_the_clock():
    pio, _ = load_pio()
    scanner = pio.PioScanner("strobe", "address", [f"s{i}" for i in range(7)])
    scanner.start()
    table = Table()
    rows = table.words(0)
    rows[1] = rows[1][2:] + rows[1][:2]  # two words of machine 1 lost, the order broken
    for m, sm in enumerate(scanner.timers):
        sm.rx.extend(rows[m])
    scanner.timers[1].rx.append(table.words(1)[1][0])  # a stray word left in the FIFO
    assert scanner.read() is None
    assert scanner.missed() == 1 and all(not sm.rx for sm in scanner.timers)
    rows = table.words(7)
    for m, sm in enumerate(scanner.timers):
        sm.rx.extend(rows[m])
    index, _ = scanner.read()
    assert index >= 0 and scanner.missed() == 1
