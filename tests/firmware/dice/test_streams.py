"""dice.streams: the UART and USB CDC streams read without blocking."""

from dice import streams


class FakeUart:
    def __init__(self):
        self.incoming = b""
        self.written = b""

    def any(self):
        return len(self.incoming)

    def read(self):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.written += data


class FakeFile:
    def __init__(self, data=b""):
        self.data = data
        self.written = b""

    def read(self, count):
        out, self.data = self.data[:count], self.data[count:]
        return out

    def write(self, data):
        self.written += data


class FakePoll:
    def __init__(self, source):
        self.source = source

    def poll(self, timeout):
        return [(self.source, 1)] if self.source.data else []


def test_uart_stream():
    uart = FakeUart()
    stream = streams.UartStream(uart)
    assert stream.read() is None
    uart.incoming = b"$C1,SYNC"
    assert stream.read() == b"$C1,SYNC"
    stream.write(b"hello")
    assert uart.written == b"hello"


def test_usb_stream_reads_what_is_there_and_never_blocks():
    rx = FakeFile(b"x" * 100)
    tx = FakeFile()
    stream = streams.UsbStream(rx, tx, FakePoll(rx))
    assert stream.read() == b"x" * streams.CHUNK
    assert stream.read() == b"x" * (100 - streams.CHUNK)
    assert stream.read() is None
    stream.write(b"frame")
    assert tx.written == b"frame"
