"""firmware/dice/main.py, the board entry point, wired to a stub ``machine``."""

from dice import protocol

from tests.firmware import support
from tests.firmware.dice.support import ScriptedEntropy, decode_frames
from tests.firmware.support import importers


def load_main():
    from tests.firmware.dice import BOARD

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
    from tests.firmware.dice import BOARD

    assert importers(BOARD, "machine") == ["main.py"]
    assert importers(BOARD + "/dice", "machine") == []
    assert importers(BOARD, "bluetooth") == ["main.py"]  # the radio is passed in
    assert importers(BOARD + "/dice", "bluetooth") == []


def test_on_usb_the_board_names_its_port_for_udev():
    main = load_main()
    try:
        assert support.usb_strings(main) == {2: "Companion dice"}
        assert support.usb_strings(main, "ble") == {2: "Companion dice"}  # a Pico without a radio
        assert support.usb_strings(main, "uart") is None  # a UART board keeps its USB as it is
    finally:
        forget()


def load_wireless(cell_raw):
    """main.py with the stub ``machine`` and ``bluetooth``; the cell's ADC reads ``cell_raw``."""
    from tests.firmware.dice import BOARD

    main = support.load_main(BOARD, ("machine", "bluetooth"))
    import bluetooth
    import machine

    bluetooth.BLE().reset()
    machine._adc.clear()
    machine._adc[main.CELL_ADC] = cell_raw
    del machine._slept[:]
    return main, machine, bluetooth


def forget_wireless():
    support.forget(("main", "machine", "bluetooth"))


def test_a_pico_w_talks_over_its_own_radio_and_reads_its_cell_on_gp28():
    main, machine, bluetooth = load_wireless(39000)  # 3.93 V through the 1:2 divider
    try:
        dice = main.build(entropy=ScriptedEntropy([0xAB, 0xCD, 0x01, 0x23] + [0] * 8),
                          bluetooth=bluetooth)
        radio = bluetooth.BLE()
        assert radio.name == "Companion dice 3C4D"  # the board's id's last two bytes
        assert dice.guard is not None and dice.status_led.pin == main.STATUS_LED
        radio.connect()
        radio.write("6e400002-b5a3-f393-e0a9-e50e24dcca9e",
                    protocol.encode(protocol.COMPANION, "SYNC"))
        for now in range(0, 50, 10):
            dice.step(now)
        frames = decode_frames(protocol, radio.received())
        assert ("D1", "BEAT", ["ABCD0123", "3927"]) in frames
        assert frames[0][1] == "HELLO"
        assert machine._slept == []
    finally:
        forget_wireless()


def test_a_pico_w_with_a_flat_cell_does_not_start():
    main, machine, bluetooth = load_wireless(34000)  # 3.42 V: below the 3.5 V start level
    try:
        main.build(entropy=ScriptedEntropy([1, 2, 3, 4] + [0] * 8), bluetooth=bluetooth)
        assert machine._slept == [None]  # deep sleep until switched off and on
    finally:
        forget_wireless()


def test_an_empty_cell_puts_the_board_to_deep_sleep():
    main, machine, bluetooth = load_wireless(39000)
    try:
        dice = main.build(entropy=ScriptedEntropy([1, 2, 3, 4] + [0] * 8), bluetooth=bluetooth)
        dice.step(0)
        machine._adc[main.CELL_ADC] = 32000  # 3.22 V under load
        for now in range(10, 10000, 10):
            dice.step(now)
        assert machine._slept == [None]
        assert [led.level for led in dice.leds] == [0] * 7
        assert not bluetooth.BLE().active()
    finally:
        forget_wireless()


def test_a_die_without_a_cell_is_not_guarded():
    main, machine, bluetooth = load_wireless(0)  # nothing on GP28
    try:
        dice = main.build(entropy=ScriptedEntropy([1, 2, 3, 4] + [0] * 8), bluetooth=bluetooth,
                          has_cell=False)
        assert dice.guard is None and machine._slept == []
    finally:
        forget_wireless()
