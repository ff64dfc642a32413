"""The die's Bluetooth port on bleak: BlueZ over D-Bus, the Raspberry Pi's Bluetooth.

bleak's scanner merges the scan response into the advertisement, so the die's name (sent
in its scan response) and its service UUID (in its advertisement) arrive together.
Imported only when the dice kind is ``ble``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bleak import BleakClient, BleakScanner
from bleak.args.bluez import BlueZClientArgs, BlueZScannerArgs
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError

from companion.dice.ble import NAME, RX, SERVICE, TX
from companion.dice.ble.stream import NusLink
from companion.dice.pixels.port import LoopThread, PortError, wait_for

log = logging.getLogger(__name__)

CONNECT_S = 15.0


def _sentence(exc: BaseException) -> str:
    return (str(exc).strip().rstrip(".") or exc.__class__.__name__)[:120]


def matches(name: str, address: str, local_name: str, uuids: list[str]) -> bool:
    """Whether an advertisement is the die asked for (``name``: its name, its address or
    "" for any die advertising the service)."""
    if SERVICE not in (u.lower() for u in uuids):
        return False
    if not name:
        return True
    return name.lower() == address.lower() or name == local_name


class BleakNusLink:
    def __init__(self, client: BleakClient) -> None:
        self.client = client
        self.closing = False

    async def write(self, data: bytes) -> None:
        piece = max(20, self.client.mtu_size - 3)
        try:
            for start in range(0, len(data), piece):
                await self.client.write_gatt_char(RX, data[start:start + piece], response=False)
        except (BleakError, OSError, EOFError) as exc:
            raise PortError(f"the die could not be written to ({_sentence(exc)})") from None

    async def close(self) -> None:
        self.closing = True
        try:
            await self.client.disconnect()
        except (BleakError, OSError, EOFError):
            log.debug("disconnecting a die that was gone already", exc_info=True)


class BleakNusPort:
    """``adapter``: the BlueZ adapter ("" = the default, hci0)."""

    def __init__(self, adapter: str = "", loop: LoopThread | None = None) -> None:
        self.adapter = adapter
        self.owns_loop = loop is None
        self.loop = loop or LoopThread("dice-ble")
        self._devices: dict[str, BLEDevice] = {}

    async def find(self, name: str, seconds: float) -> str | None:
        def wanted(device: BLEDevice, data: AdvertisementData) -> bool:
            local = data.local_name or device.name or ""
            return matches(name, device.address, local, data.service_uuids)

        args = BlueZScannerArgs(adapter=self.adapter) if self.adapter else BlueZScannerArgs()
        try:
            device = await BleakScanner.find_device_by_filter(wanted, timeout=seconds,
                                                              service_uuids=[SERVICE],
                                                              bluez=args)
        except (BleakError, OSError, EOFError) as exc:
            raise PortError(f"Bluetooth cannot scan here ({_sentence(exc)}); is BlueZ running "
                            "and the Pi's Bluetooth on?") from None
        if device is None:
            return None
        self._devices[device.address] = device
        return str(device.address)

    async def connect(self, address: str, on_data: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> NusLink:
        link: BleakNusLink | None = None

        def lost(_client: BleakClient) -> None:
            if link is not None and not link.closing:
                on_lost("the link went")

        args = BlueZClientArgs(adapter=self.adapter) if self.adapter else BlueZClientArgs()
        client = BleakClient(self._devices.get(address, address), lost, timeout=CONNECT_S,
                             bluez=args)
        try:
            await wait_for(client.connect(), CONNECT_S + 5, "Connecting to the die")
            if client.services.get_service(SERVICE) is None:
                raise PortError(f"the device at {address} is not a {NAME}")
            link = BleakNusLink(client)
            await client.start_notify(TX, lambda _c, data: on_data(bytes(data)))
            return link
        except (BleakError, OSError, EOFError) as exc:
            await _drop(client)
            raise PortError(f"the die at {address} did not connect ({_sentence(exc)})") from None
        except BaseException:
            await _drop(client)
            raise

    async def close(self) -> None:
        self._devices.clear()


async def _drop(client: BleakClient) -> None:
    try:
        await client.disconnect()
    except (BleakError, OSError, EOFError):
        log.debug("disconnecting after a failed set-up failed", exc_info=True)
