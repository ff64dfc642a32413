"""The dice's byte streams: the table's shared ``tablestreams`` (``:lib/`` on the board).

``UartStream`` wraps a ``machine.UART`` (the Pi's UART); ``UsbStream`` uses the USB CDC
serial port; ``open_stream`` opens either; ``name_usb`` gives the USB port the dice's own
product string.  The radio's stream is ``dice.ble.BleStream``.
"""

from tablestreams import (  # noqa: F401 - the dice's streams
    CHUNK,
    UartStream,
    UsbStream,
    name_usb,
    open_stream,
)
