"""companion.dice.pixels.bleak_port with stand-ins for bleak's scanner and client.

No BlueZ here (no radio, no D-Bus daemon): the stand-ins speak bleak's documented API
(``BleakScanner(detection_callback, service_uuids, scanning_mode)``, ``AdvertisementData``,
``BleakClient(device, disconnected_callback)``, ``services.get_service``, ``start_notify``,
``write_gatt_char``), which mypy --strict checks the port's calls against.  What BlueZ itself
does (scanning, MTU, pairing-free connection) is not tested here; see hardware/guide/pixels.md.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError

from companion.dice.pixels import bleak_port
from companion.dice.pixels.messages import DIE_UUIDS, INFO_SERVICE, LEGACY_UUIDS, RollState
from companion.dice.pixels.port import PortError

ADV = AdvertisementData(
    local_name="Kostka", manufacturer_data={0x0D39: bytes.fromhex("0621010564")},
    service_data={INFO_SERVICE: bytes(8)}, service_uuids=[DIE_UUIDS.service], tx_power=None,
    rssi=-60, platform_data=())


class FakeScanner:
    fail = False

    def __init__(self, callback: Any, uuids: Any, mode: Any, **kw: Any) -> None:
        self.callback = callback
        assert DIE_UUIDS.service in uuids and LEGACY_UUIDS.service in uuids

    async def start(self) -> None:
        if self.fail:
            raise BleakError("org.bluez.Error.NotReady")
        device = SimpleNamespace(address="AA:BB", name="Kostka")
        self.callback(device, ADV)
        self.callback(device, ADV._replace(service_uuids=["0000180f-0000-1000-8000-00805f9b34fb"]))

    async def stop(self) -> None:
        pass


class FakeClient:
    legacy = False
    written: list[bytes] = []

    def __init__(self, device: Any, lost: Any, **kw: Any) -> None:
        self.lost = lost
        uuids = LEGACY_UUIDS if self.legacy else DIE_UUIDS
        chars = {uuids.notify: "notify", uuids.write: "write"}
        service = SimpleNamespace(get_characteristic=lambda u: chars.get(u))
        self.services = SimpleNamespace(
            get_service=lambda u: service if u == uuids.service else None)

    async def connect(self) -> None:
        pass

    async def start_notify(self, char: Any, callback: Any) -> None:
        self.callback = callback

    async def write_gatt_char(self, char: Any, data: bytes, response: bool) -> None:
        assert char == "write" and response is False
        FakeClient.written.append(bytes(data))
        self.callback(char, bytearray(b"\x03\x01\x02"))
        self.lost(self)

    async def disconnect(self) -> None:
        pass


@pytest.fixture
def port(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(bleak_port, "BleakScanner", FakeScanner)
    monkeypatch.setattr(bleak_port, "BleakClient", FakeClient)
    p = bleak_port.BleakPort()
    yield p
    p.loop.stop()


@pytest.mark.parametrize("legacy", [False, True])
def test_scan_connect_notify_write_and_loss(port: Any, legacy: bool,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakeClient, "legacy", legacy)
    seen: list[Any] = []
    port.loop.run(port.scan(0.05, seen.append))
    assert len(seen) == 1 and seen[0].advert.roll_state is RollState.ROLLED
    got: list[bytes] = []
    lost: list[str] = []
    link = port.loop.run(port.connect("AA:BB", got.append, lost.append))
    assert link.uuids == (LEGACY_UUIDS if legacy else DIE_UUIDS)
    port.loop.run(link.write(b"\x01"))
    assert got == [b"\x03\x01\x02"] and lost == ["the link went"]


def test_no_bluetooth_is_one_sentence(port: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakeScanner, "fail", True)
    with pytest.raises(PortError, match="Bluetooth cannot scan here .*BlueZ"):
        port.loop.run(port.scan(0.05, print))


def test_a_device_without_the_service_is_refused(port: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    class Stranger(FakeClient):
        def __init__(self, device: Any, lost: Any, **kw: Any) -> None:
            super().__init__(device, lost)
            self.services = SimpleNamespace(get_service=lambda u: None)

    monkeypatch.setattr(bleak_port, "BleakClient", Stranger)
    with pytest.raises(PortError, match="no Pixels service"):
        port.loop.run(port.connect("AA:BB", print, print))
