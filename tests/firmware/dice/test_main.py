"""firmware/dice/main.py, the board entry point, wired to a stub ``machine``."""

from dice import protocol

from .. import support
from ..support import importers
from .support import ScriptedEntropy, decode_frames


def load_main():
    from . import BOARD

    return support.load_main(BOARD)


def forget():
    support.forget(("main", "machine"))


def test_board_builds_and_says_hello_on_the_uart():
    main = load_main()
    try:
        import machine

        dice = main.build(link="uart", entropy=ScriptedEntropy([0xAB, 0xCD, 0x01, 0x23] + [0] * 8))
        for now in range(0, 100, 10):
            dice.step(now)
        uart = machine._last_uart[-1]
        assert uart.baudrate == main.UART_BAUD
        frames = decode_frames(protocol, bytes(uart.written))
        assert frames[0] == ("D1", "HELLO", ["pico-1A2B3C4D", "1.0.0", "ABCD0123", "1"])
        assert frames[1] == ("D1", "BEAT", ["ABCD0123", "3927"])
        assert [led.pin for led in dice.leds] == list(main.LED_PINS)
        uart.incoming.extend(protocol.encode(protocol.COMPANION, "SYNC"))
        dice.step(100)
        assert decode_frames(protocol, bytes(uart.written))[-2][1] == "HELLO"
    finally:
        forget()


def test_only_the_entry_point_imports_machine():
    from . import BOARD

    assert importers(BOARD, "machine") == ["main.py"]
    assert importers(BOARD + "/dice", "machine") == []


def test_on_usb_the_board_names_its_port_for_udev():
    main = load_main()
    try:
        assert support.usb_strings(main) == {2: "Companion dice"}
        assert support.usb_strings(main, "uart") is None  # a UART board keeps its USB as it is
    finally:
        forget()
