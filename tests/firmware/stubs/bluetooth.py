"""A stub of MicroPython's ``bluetooth`` module for the dice's main.py and its BLE stream.

``BLE()`` is a singleton (as on the board) that records what the firmware asked of
the radio: its name, the services it registered, its advertisements and every
notification; a test plays the central with ``connect``, ``write`` and ``disconnect``.
"""


class UUID:
    def __init__(self, text):
        self.text = str(text).lower()

    def __eq__(self, other):
        return isinstance(other, UUID) and other.text == self.text

    def __repr__(self):
        return "UUID(" + self.text + ")"


class _BLE:
    def __init__(self):
        self.reset()

    def reset(self):
        self.on = False
        self.name = None
        self.handler = None
        self.services = None
        self.handles = {}  # uuid text -> handle
        self.buffers = {}  # handle -> (size, append)
        self.values = {}  # handle -> bytes written by the central
        self.adverts = []  # (interval_us, adv_data, resp_data)
        self.notified = []  # (conn, handle, data)
        self.full = False  # gatts_notify raises, as when the stack's buffers are full

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = bool(on)
        return None

    def config(self, **kwargs):
        if "gap_name" in kwargs:
            self.name = kwargs["gap_name"]

    def irq(self, handler):
        self.handler = handler

    def gatts_register_services(self, services):
        self.services = services
        handles = []
        next_handle = 10
        for _uuid, characteristics in services:
            row = []
            for char_uuid, _flags in characteristics:
                self.handles[char_uuid.text] = next_handle
                row.append(next_handle)
                next_handle += 2
            handles.append(tuple(row))
        return tuple(handles)

    def gatts_set_buffer(self, handle, size, append=False):
        self.buffers[handle] = (size, append)

    def gatts_read(self, handle):
        data = self.values.get(handle, b"")
        self.values[handle] = b""
        return data

    def gatts_notify(self, conn, handle, data):
        if not self.on:
            raise OSError(19)
        if self.full:
            raise OSError(12)
        self.notified.append((conn, handle, bytes(data)))

    def gap_advertise(self, interval_us, adv_data=None, resp_data=None):
        self.adverts.append((interval_us, adv_data, resp_data))

    # -- the central, played by a test --------------------------------------------------
    def connect(self, conn=64):
        self.handler(1, (conn, 0, b"\x01\x02\x03\x04\x05\x06"))

    def exchange_mtu(self, mtu, conn=64):
        self.handler(21, (conn, mtu))

    def write(self, uuid_text, data, conn=64):
        handle = self.handles[uuid_text]
        self.values[handle] = self.values.get(handle, b"") + data
        self.handler(3, (conn, handle))

    def disconnect(self, conn=64):
        self.handler(2, (conn, 0, b"\x01\x02\x03\x04\x05\x06"))

    def received(self):
        """Everything notified so far, joined."""
        return b"".join(data for _c, _h, data in self.notified)


_radio = _BLE()


def BLE():  # noqa: N802 - MicroPython's name
    return _radio
