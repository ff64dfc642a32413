"""The die's Bluetooth LE link: a Nordic-UART-style GATT service carrying the line protocol.

The same frames the die writes on USB or a UART travel over the air: the
companion writes its frames (``SYNC``, ``ACK``) to the RX characteristic, the
die notifies its frames (``HELLO``, ``BEAT``, ``ROLL``, ``DROP``) on the TX
characteristic, cut into pieces that fit the connection's ATT MTU (the
companion's splitter joins them again).  :class:`BleStream` is a link stream
(``write(bytes)``, non-blocking ``read()``) for :class:`dice.link.Link`, so
sequence numbers, acks and re-sends work exactly as on a cable: what was sent
while no central was connected is re-sent when the companion connects and
asks with ``SYNC``.

``ble`` is MicroPython's ``bluetooth.BLE()`` (a fake in tests) and ``uuid``
its ``bluetooth.UUID``: only the board's ``main.py`` imports ``bluetooth``.
The die advertises the service's UUID, and its name in the scan response
(``NAME`` and four hex digits of the board's id: "Companion dice 3C4D");
the companion finds it by the UUID.  One central at a time; after it leaves,
the die advertises again.
"""

from .shims import const

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"  # the Nordic UART Service's UUIDs
RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # the companion writes here
TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # the die notifies here
NAME = "Companion dice"

# MicroPython's bluetooth constants (its docs, "bluetooth - low-level Bluetooth")
FLAG_READ = const(0x0002)
FLAG_WRITE_NO_RESPONSE = const(0x0004)
FLAG_WRITE = const(0x0008)
FLAG_NOTIFY = const(0x0010)
IRQ_CENTRAL_CONNECT = const(1)
IRQ_CENTRAL_DISCONNECT = const(2)
IRQ_GATTS_WRITE = const(3)
IRQ_MTU_EXCHANGED = const(21)

ADV_FLAGS = const(0x01)
ADV_UUID128_ALL = const(0x07)
ADV_NAME = const(0x09)
GENERAL_DISC_NO_BREDR = const(0x06)
ADV_INTERVAL_US = const(100000)  # 100 ms: found within a second or two
DEFAULT_MTU = const(23)
RX_BUFFER = const(256)
INBOX = const(512)  # bytes from the companion not read yet (more are dropped)


def uuid_bytes(text):
    """A 128-bit UUID as it goes into an advertisement (least significant byte first)."""
    digits = text.replace("-", "")
    return bytes(int(digits[i:i + 2], 16) for i in range(30, -2, -2))


def field(kind, data):
    return bytes((len(data) + 1, kind)) + data


def advertisement():
    """The advertising payload: flags and the service UUID (21 of 31 bytes)."""
    return field(ADV_FLAGS, bytes((GENERAL_DISC_NO_BREDR,))) + field(ADV_UUID128_ALL, uuid_bytes(SERVICE))


def scan_response(name):
    """The scan response: the die's name (at most 29 bytes)."""
    return field(ADV_NAME, name.encode()[:29])


class BleStream:
    def __init__(self, ble, uuid, name=NAME):
        self.ble = ble
        self.name = name
        self.conn = None  # the connected central's handle
        self.mtu = DEFAULT_MTU
        self.inbox = bytearray()
        self.dropped = 0  # bytes not sent (no central, a full buffer) or not kept (a full inbox)
        self.connects = 0
        ble.active(True)
        ble.config(gap_name=name)
        ble.irq(self._irq)
        service = (uuid(SERVICE), ((uuid(TX), FLAG_READ | FLAG_NOTIFY),
                                   (uuid(RX), FLAG_WRITE | FLAG_WRITE_NO_RESPONSE)))
        ((self.tx, self.rx),) = ble.gatts_register_services((service,))
        ble.gatts_set_buffer(self.rx, RX_BUFFER, True)  # append: writes between reads are kept
        self.advertise()

    @property
    def connected(self):
        return self.conn is not None

    def advertise(self):
        self.ble.gap_advertise(ADV_INTERVAL_US, adv_data=advertisement(),
                               resp_data=scan_response(self.name))

    def _irq(self, event, data):
        if event == IRQ_CENTRAL_CONNECT:
            self.conn = data[0]
            self.mtu = DEFAULT_MTU
            self.connects += 1
        elif event == IRQ_CENTRAL_DISCONNECT:
            if data[0] == self.conn:
                self.conn = None
            self.advertise()
        elif event == IRQ_GATTS_WRITE:
            if data[1] == self.rx:
                got = self.ble.gatts_read(self.rx)
                room = INBOX - len(self.inbox)
                self.inbox.extend(got[:room])
                self.dropped += max(0, len(got) - room)
        elif event == IRQ_MTU_EXCHANGED:
            if data[0] == self.conn:
                self.mtu = data[1]

    def write(self, data):
        if self.conn is None:
            self.dropped += len(data)
            return
        piece = self.mtu - 3  # a notification's payload: the ATT MTU less its 3-byte header
        for start in range(0, len(data), piece):
            try:
                self.ble.gatts_notify(self.conn, self.tx, data[start:start + piece])
            except OSError:  # the stack's buffers are full or the central just left
                self.dropped += len(data) - start
                return

    def read(self):
        if not self.inbox:
            return None
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data
