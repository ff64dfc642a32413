"""The dice's byte streams: the table's shared ``tablestreams`` (``:lib/`` on the board).

``UartStream`` wraps a ``machine.UART`` (the Pi's UART or a Bluetooth SPP module such
as an HC-05); ``UsbStream`` uses the USB CDC serial port; ``open_stream`` opens either.
"""

from tablestreams import CHUNK, UartStream, UsbStream, open_stream  # noqa: F401 - the dice's streams
