"""tablestreams: the boards' byte streams, opened as a board's LINK setting names them."""

import tablestreams

from tests.firmware.stubs import machine


class Poll:
    def __init__(self):
        self.registered = []

    def register(self, stream, events):
        self.registered.append(stream)


def test_a_uart_link_is_uart0_on_gp0_and_gp1():
    stream = tablestreams.open_stream("uart", machine, 115200)
    uart = stream.uart
    assert isinstance(stream, tablestreams.UartStream) and machine._last_uart[-1] is uart
    assert (uart.uart_id, uart.baudrate, uart.tx.pin, uart.rx.pin) == (0, 115200, 0, 1)
    assert stream.read() is None
    uart.incoming.extend(b"$C1,SYNC")
    assert stream.read() == b"$C1,SYNC"
    stream.write(b"x")
    assert bytes(uart.written) == b"x"


def test_name_usb_gives_the_builtin_serial_port_a_product_string():
    usbd = machine.USBDevice()
    usbd._state["configs"].clear()
    assert tablestreams.name_usb(machine, "Companion dice")
    desc_dev, desc_cfg, strings = usbd._state["configs"][-1]
    builtin = machine.USBDevice.BUILTIN_DEFAULT
    assert (desc_dev, desc_cfg) == (builtin.desc_dev, builtin.desc_cfg)
    assert strings == {2: "Companion dice"} and usbd.builtin_driver is builtin
    assert usbd.active()


def test_name_usb_without_runtime_usb_changes_nothing():
    class Bare:
        pass

    assert tablestreams.name_usb(Bare(), "Companion dice") is False
