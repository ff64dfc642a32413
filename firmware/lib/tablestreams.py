"""Byte streams for a board's link (``tablelink.Link``): ``write(bytes)`` and non-blocking ``read()``.

Shared by the boards around the table (copied to the board's ``:lib/``).

``UartStream`` wraps a ``machine.UART`` (the Pi's UART).  ``open_stream`` opens the one a
board's ``LINK`` setting names.  ``UsbStream`` uses the USB CDC serial port, which
MicroPython exposes as ``sys.stdin``/``sys.stdout``: ``rx`` is
``sys.stdin.buffer``, ``tx`` is ``sys.stdout.buffer`` and ``poller`` a
``select.poll()`` with ``sys.stdin`` registered for reading.

``name_usb`` gives the board's USB serial port a product string of its own
(the dice and the pad hub both show MicroPython's vendor and product ids, so
the Pi's udev rule tells them apart by this string: scripts/99-companion-dice.rules).
"""

from tableshims import const

CHUNK = const(64)
USB_PRODUCT_STRING = const(2)  # iProduct of MicroPython's built-in USB device descriptor


class UartStream:
    def __init__(self, uart):
        self.uart = uart

    def write(self, data):
        self.uart.write(data)

    def read(self):
        if not self.uart.any():
            return None
        return self.uart.read()


class UsbStream:
    def __init__(self, rx, tx, poller):
        self.rx = rx
        self.tx = tx
        self.poller = poller

    def write(self, data):
        self.tx.write(data)

    def read(self):
        got = bytearray()
        while len(got) < CHUNK and self.poller.poll(0):
            byte = self.rx.read(1)
            if not byte:
                break
            got.extend(byte)
        return bytes(got) if got else None


def open_stream(link, machine, baudrate):
    """A board's link stream: ``"uart"`` for UART0 (GP0 = TX, GP1 = RX) at ``baudrate``,
    anything else USB CDC.  ``machine`` is MicroPython's module (only a board's
    ``main.py`` imports it)."""
    if link == "uart":
        return UartStream(machine.UART(0, baudrate=baudrate, tx=machine.Pin(0), rx=machine.Pin(1)))
    import select
    import sys

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    return UsbStream(sys.stdin.buffer, sys.stdout.buffer, poller)


def name_usb(machine, product):
    """Re-enumerate MicroPython's built-in USB serial port with ``product`` as its product
    string (``machine.USBDevice``, MicroPython 1.23 or later on the RP2040); the port
    disappears for a moment and comes back under the new name.  Returns False where the
    firmware has no runtime USB device (the port keeps MicroPython's own name)."""
    device_class = getattr(machine, "USBDevice", None)
    if device_class is None:
        return False
    usbd = device_class()
    builtin = usbd.BUILTIN_DEFAULT
    usbd.active(False)
    usbd.builtin_driver = builtin
    usbd.config(builtin.desc_dev, builtin.desc_cfg, {USB_PRODUCT_STRING: product})
    usbd.active(True)
    return True
