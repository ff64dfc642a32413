"""The home-built die over Bluetooth LE: its Nordic-UART-style service as the reader's stream.

The die (a Pico W, ``firmware/dice/dice/ble.py``) carries the same line protocol it
speaks on a USB cable over a GATT service: the companion writes to the RX
characteristic, the die notifies on TX.  :class:`~.stream.BleSerial` makes that look
like a serial port to :class:`companion.dice.reader.DiceReader`, which then does what it
does on a cable (hello, acks, re-sends, heartbeats, reconnecting when the link goes).
Two stacks speak :class:`~.stream.NusPort`: bleak on the Pi (:mod:`.bleak_port`) and
bumble on an in-process radio for tests (:mod:`.bumble_port`, with a virtual die that
runs the firmware's own link in :mod:`.virtual`).
"""

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
"""The characteristic the companion writes its frames to."""
TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
"""The characteristic the die notifies its frames on."""
NAME = "Companion dice"
"""The start of the die's advertised name ("Companion dice 3C4D")."""
URL = "ble://"
"""The reader's port for a die over Bluetooth: ``ble://`` (the first die heard) or
``ble://<name or address>``."""
