"""tablestreams: the boards' byte streams, opened as a board's LINK setting names them."""

import tablestreams

from ..stubs import machine


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
