"""companion.dice.ble.bleak_port with stand-ins for bleak's scanner and client.

No BlueZ here: the stand-ins speak bleak's documented API
(``BleakScanner.find_device_by_filter``, ``AdvertisementData``, ``BleakClient(device,
disconnected_callback)``, ``services.get_service``, ``mtu_size``, ``start_notify``,
``write_gatt_char``), which mypy --strict checks the port's calls against.  Scanning and
connecting for real is BlueZ's, and is not tested here.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError

from companion.dice.ble import RX, SERVICE, TX, bleak_port
from companion.dice.ble.stream import BleError, BleSerial
from companion.dice.pixels.port import PortError


def advert(name: str, uuids: list[str]) -> AdvertisementData:
    return AdvertisementData(local_name=name, manufacturer_data={}, service_data={},
                             service_uuids=uuids, tx_power=None, rssi=-60, platform_data=())


HEARD = [
    (SimpleNamespace(address="11:11", name="Headphones"), advert("Headphones", ["0000180f-0000-1000-8000-00805f9b34fb"])),
    (SimpleNamespace(address="22:22", name=None), advert("Companion dice 2222", [SERVICE])),
    (SimpleNamespace(address="33:33", name=None), advert("Companion dice 3333", [SERVICE])),
]


class FakeScanner:
    fail = False

    @classmethod
    async def find_device_by_filter(cls, wanted: Any, timeout: float, **kw: Any) -> Any:
        if cls.fail:
            raise BleakError("org.bluez.Error.NotReady")
        assert kw["service_uuids"] == [SERVICE]
        return next((device for device, data in HEARD if wanted(device, data)), None)


class FakeClient:
    mtu = 23
    has_service = True
    last: FakeClient | None = None

    def __init__(self, device: Any, lost: Any, **kw: Any) -> None:
        self.device = device
        self.lost = lost
        self.written: list[bytes] = []
        self.callback: Any = None
        self.mtu_size = self.mtu
        service = SimpleNamespace() if self.has_service else None
        self.services = SimpleNamespace(get_service=lambda u: service if u == SERVICE else None)
        FakeClient.last = self

    async def connect(self) -> None:
        pass

    async def start_notify(self, char: Any, callback: Any) -> None:
        assert char == TX
        self.callback = callback

    async def write_gatt_char(self, char: Any, data: bytes, response: bool) -> None:
        assert char == RX and response is False
        self.written.append(bytes(data))

    async def disconnect(self) -> None:
        pass


@pytest.fixture
def port(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(bleak_port, "BleakScanner", FakeScanner)
    monkeypatch.setattr(bleak_port, "BleakClient", FakeClient)
    FakeScanner.fail, FakeClient.mtu, FakeClient.has_service = False, 23, True
    p = bleak_port.BleakNusPort()
    yield p
    p.loop.stop()


def test_the_first_die_with_the_service_is_found_or_the_one_named(port: Any) -> None:
    assert port.loop.run(port.find("", 1.0)) == "22:22"
    assert port.loop.run(port.find("Companion dice 3333", 1.0)) == "33:33"
    assert port.loop.run(port.find("33:33", 1.0)) == "33:33"
    assert port.loop.run(port.find("Companion dice 9999", 1.0)) is None


def test_bluetooth_that_cannot_scan_is_one_sentence(port: Any) -> None:
    FakeScanner.fail = True
    with pytest.raises(BleError, match=r"^Bluetooth cannot scan here \(org.bluez.Error.NotReady\)"):
        BleSerial.open(port)


def test_frames_are_written_in_pieces_of_the_mtu_and_notifications_read(port: Any) -> None:
    serial = BleSerial.open(port, "Companion dice 3333", timeout=0.01)
    client = FakeClient.last
    assert client is not None and client.device.address == "33:33"
    serial.write(b"x" * 45)
    assert [len(w) for w in client.written] == [20, 20, 5]
    client.mtu_size = 185
    serial.write(b"y" * 45)
    assert [len(w) for w in client.written[3:]] == [45]
    client.callback(TX, bytearray(b"$D1,BEAT"))
    client.callback(TX, bytearray(b",00C0FFEE,3900*1F\n"))
    assert serial.in_waiting == 26
    assert serial.read(100) == b"$D1,BEAT,00C0FFEE,3900*1F\n"
    assert serial.read(100) == b""  # nothing more within the timeout
    client.lost(client)
    with pytest.raises(BleError, match="the die's radio link went"):
        serial.read(1)
    with pytest.raises(BleError):
        serial.write(b"$C1,SYNC")
    serial.close()


def test_closing_is_not_reported_as_a_loss(port: Any) -> None:
    lost: list[str] = []
    link = port.loop.run(port.connect("22:22", lambda d: None, lost.append))
    client = FakeClient.last
    assert client is not None
    port.loop.run(link.close())
    client.lost(client)
    assert lost == []


def test_a_device_without_the_service_is_refused(port: Any) -> None:
    FakeClient.has_service = False
    with pytest.raises(PortError, match="the device at 22:22 is not a Companion dice"):
        port.loop.run(port.connect("22:22", lambda d: None, lambda r: None))
