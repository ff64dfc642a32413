"""firmware/padhub/main.py, the board entry point, wired to stub machine and rp2."""

import tablewire

from tests.firmware.padhub.support import Table, forget, load_main
from tests.firmware.support import importers, usb_strings


class FakeScanner:
    def __init__(self):
        self.table = Table()

    def read(self):
        return self.table.source()

    def missed(self):
        return 0


def test_the_board_builds_and_says_hello_on_the_uart():
    main = load_main()
    try:
        import machine

        hub = main.build(link="uart", entropy=lambda n: b"\x5e\xed\x12\x34"[:n],
                         scanner=FakeScanner())
        assert machine.freq() == main.SYSTEM_HZ
        for now in range(0, 100):
            hub.step(now, budget=1)
        uart = machine._last_uart[-1]
        assert uart.baudrate == main.UART_BAUD
        splitter = tablewire.Splitter()
        frames = [tablewire.decode(line) for line in splitter.feed(bytes(uart.written))]
        assert frames[0] == ("P1", "HELLO", ["hub-1A2B3C4D", "1.0.0", "5EED1234", "1", "56", "993"])
        assert frames[1][1] == "BEAT"
    finally:
        forget()


def test_without_a_scanner_the_board_takes_its_pio():
    main = load_main()
    try:
        import rp2

        rp2.MACHINES.clear()
        hub = main.build(link="uart", entropy=lambda n: b"\x00" * n)
        assert len(rp2.MACHINES) == 8  # the sequencer and a charge timer per multiplexer
        assert [sm.pins["set_base"].pin for sm in hub.scanner.timers] == list(main.SENSE_PINS)
        assert rp2.MACHINES[0].pins["out_base"].pin == main.ADDRESS_PIN
        assert main.ADDRESS_PIN == main.STROBE_PIN + 1  # in_pins(4) reads strobe then A, B, C
    finally:
        forget()


def test_only_the_entry_point_imports_machine_and_only_pio_imports_rp2():
    from tests.firmware.padhub import BOARD

    assert importers(BOARD, "machine") == ["main.py"]
    assert importers(BOARD + "/padhub", "machine") == []
    assert importers(BOARD + "/padhub", "rp2") == ["pio.py"]


def test_on_usb_the_board_names_its_port_for_udev():
    main = load_main()
    try:
        assert usb_strings(main) == {2: "Companion pad hub"}
    finally:
        forget()
