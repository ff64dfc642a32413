"""The GATT port on bleak: BlueZ over D-Bus, the Raspberry Pi's Bluetooth.

bleak's scanner reports each advertisement with the scan response merged in (the die puts
its 128-bit service UUID and its service data there), as :class:`bleak.AdvertisementData`;
:func:`~.messages.read_advert` reads the same fields the bumble port hands it.  BlueZ
exchanges the ATT MTU by itself on connecting (the newer who-are-you answer is 108 bytes).

Imported only when the dice kind is ``pixels`` (``[dice] kind``) or ``companion dice-read
--pixels`` runs: a table with the serial dice never loads bleak or D-Bus.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bleak import BleakClient, BleakScanner
from bleak.args.bluez import BlueZClientArgs, BlueZScannerArgs
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError

from companion.dice.pixels.messages import FAMILIES, PixelsError, Uuids, read_advert
from companion.dice.pixels.port import GattLink, LoopThread, PortError, Seen, wait_for

log = logging.getLogger(__name__)

CONNECT_S = 15.0
"""Seconds a connection (with the service discovery BlueZ does) may take."""


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip().rstrip(".") or exc.__class__.__name__
    return text[:120]


class BleakLink:
    """A connection to a die through BlueZ (:class:`~.port.GattLink`)."""

    def __init__(self, client: BleakClient, uuids: Uuids, write: BleakGATTCharacteristic) -> None:
        self.client = client
        self._uuids = uuids
        self._write = write
        self.closing = False

    @property
    def uuids(self) -> Uuids:
        return self._uuids

    async def write(self, data: bytes) -> None:
        try:
            await self.client.write_gatt_char(self._write, data, response=False)
        except (BleakError, OSError, EOFError) as exc:
            raise PortError(f"The die could not be written to ({_sentence(exc)}).") from None

    async def close(self) -> None:
        self.closing = True
        try:
            await self.client.disconnect()
        except (BleakError, OSError, EOFError):
            log.debug("disconnecting a die that was gone already", exc_info=True)


class BleakPort:
    """Scanning and connecting through BlueZ (:class:`~.port.GattPort`); ``adapter``: the
    BlueZ adapter ("" = the default, hci0)."""

    def __init__(self, adapter: str = "", loop: LoopThread | None = None) -> None:
        self.adapter = adapter
        self.owns_loop = loop is None
        """The port made its event loop (its user stops it after :meth:`close`)."""
        self.loop = loop or LoopThread("pixels-bleak")
        self._devices: dict[str, BLEDevice] = {}

    def _scanner_args(self) -> BlueZScannerArgs:
        return BlueZScannerArgs(adapter=self.adapter) if self.adapter else BlueZScannerArgs()

    def _client_args(self) -> BlueZClientArgs:
        return BlueZClientArgs(adapter=self.adapter) if self.adapter else BlueZClientArgs()

    async def scan(self, seconds: float, on_seen: Callable[[Seen], None],
                   stop: Callable[[], bool] = lambda: False) -> None:
        def detected(device: BLEDevice, data: AdvertisementData) -> None:
            name = data.local_name or device.name or ""
            try:
                advert = read_advert(name, data.service_uuids, data.manufacturer_data,
                                     data.service_data)
            except PixelsError as exc:
                log.debug("an unreadable Pixels advertisement: %s", exc)
                return
            if advert is not None:
                self._devices[device.address] = device
                on_seen(Seen(device.address, advert, data.rssi))

        uuids = [family.service for family in FAMILIES]
        try:
            scanner = BleakScanner(detected, uuids, "active", bluez=self._scanner_args())
            await scanner.start()
        except (BleakError, OSError, EOFError) as exc:
            raise PortError(f"Bluetooth cannot scan here ({_sentence(exc)}); is BlueZ "
                            "running and the Pi's Bluetooth on?") from None
        try:
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            while loop.time() < end and not stop():
                await asyncio.sleep(min(0.05, max(0.0, end - loop.time())))
        finally:
            try:
                await scanner.stop()
            except (BleakError, OSError, EOFError):
                log.debug("stopping the scan failed", exc_info=True)

    async def connect(self, address: str, on_message: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> GattLink:
        link: BleakLink | None = None
        failed = False

        def lost(client: BleakClient) -> None:
            if not failed and (link is None or not link.closing):
                on_lost("the link went")

        client = BleakClient(self._devices.get(address, address), lost, timeout=CONNECT_S,
                             bluez=self._client_args())
        try:
            await wait_for(client.connect(), CONNECT_S + 5, "Connecting to the die")
            for uuids in FAMILIES:
                service = client.services.get_service(uuids.service)
                if service is None:
                    continue
                notify = service.get_characteristic(uuids.notify)
                write = service.get_characteristic(uuids.write)
                if notify is None or write is None:
                    raise PortError(f"The die at {address} lacks the Pixels characteristics.")
                link = BleakLink(client, uuids, write)
                await client.start_notify(notify, lambda _c, data: on_message(bytes(data)))
                return link
            raise PortError(f"The device at {address} has no Pixels service.")
        except (BleakError, OSError, EOFError) as exc:
            failed = True
            await self._drop(client)
            raise PortError(f"The die at {address} did not connect ({_sentence(exc)}).") \
                from None
        except BaseException:
            failed = True
            await self._drop(client)
            raise

    @staticmethod
    async def _drop(client: BleakClient) -> None:
        try:
            await client.disconnect()
        except (BleakError, OSError, EOFError):
            log.debug("disconnecting after a failed set-up failed", exc_info=True)

    async def close(self) -> None:
        self._devices.clear()
