"""The dice's byte streams: the table's shared ``tablestreams`` (``:lib/`` on the board).

``UartStream`` wraps a ``machine.UART`` (the Pi's UART or a Bluetooth SPP module such
as an HC-05); ``UsbStream`` uses the USB CDC serial port; ``open_stream`` opens either;
``name_usb`` gives the USB port the dice's own product string.
"""

from tablestreams import (  # noqa: F401 - the dice's streams
    CHUNK,
    UartStream,
    UsbStream,
    name_usb,
    open_stream,
)
