"""The die's Bluetooth port on bumble: an in-process radio (the Pixels tests' :class:`Air`)
for tests and the simulator; :mod:`.virtual` puts a die on the same air."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bumble import hci
from bumble.core import UUID
from bumble.device import Advertisement, Connection, Device, Peer
from bumble.gatt_client import CharacteristicProxy

from companion.dice.ble import RX, SERVICE, TX
from companion.dice.ble.bleak_port import matches
from companion.dice.ble.stream import NusLink
from companion.dice.pixels.bumble_port import Air, fields
from companion.dice.pixels.port import PortError, wait_for

log = logging.getLogger(__name__)

PIECE = 20
"""Bytes per write: the default ATT MTU (23) less its header."""


class BumbleNusLink:
    def __init__(self, connection: Connection, rx: CharacteristicProxy[bytes]) -> None:
        self.connection = connection
        self.rx = rx
        self.closing = False

    async def write(self, data: bytes) -> None:
        try:
            for start in range(0, len(data), PIECE):
                await self.rx.write_value(data[start:start + PIECE], with_response=False)
        except Exception as exc:
            raise PortError(f"the die could not be written to ({exc.__class__.__name__})") \
                from None

    async def close(self) -> None:
        self.closing = True
        try:
            await self.connection.disconnect()
        except Exception:
            log.debug("disconnecting a die that was gone already", exc_info=True)


class BumbleNusPort:
    """The companion's central on an :class:`Air`."""

    def __init__(self, air: Air) -> None:
        self.air = air
        self.loop = air.loop
        self._device: Device | None = None
        self._addresses: dict[str, hci.Address] = {}

    async def _central(self) -> Device:
        if self._device is None:
            self._device = await self.air.device("companion")
        return self._device

    async def find(self, name: str, seconds: float) -> str | None:
        device = await self._central()
        found: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def seen(advertisement: Advertisement) -> None:
            local, uuids, _m, _s = fields(advertisement)
            address = str(advertisement.address)
            if not found.done() and matches(name, address, local, uuids):
                self._addresses[address] = advertisement.address
                found.set_result(address)

        device.on("advertisement", seen)
        try:
            await device.start_scanning(filter_duplicates=False)
            try:
                return await asyncio.wait_for(found, seconds)
            except TimeoutError:
                return None
        finally:
            device.remove_listener("advertisement", seen)
            if device.is_scanning:
                await device.stop_scanning()

    async def connect(self, address: str, on_data: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> NusLink:
        device = await self._central()
        peer_address = self._addresses.get(address) or hci.Address(address)
        try:
            connection = await wait_for(device.connect(peer_address), 5.0, "Connecting")
        except PortError:
            raise
        except Exception as exc:
            raise PortError(f"the die at {address} did not connect ({exc})") from None
        link: BumbleNusLink | None = None

        def lost(reason: int) -> None:
            if link is not None and not link.closing:
                on_lost(str(hci.HCI_Constant.error_name(reason)))  # type: ignore[no-untyped-call]

        connection.on("disconnection", lost)
        try:
            peer = Peer(connection)
            services = await wait_for(peer.discover_service(UUID(SERVICE)), 5.0,
                                      "Finding the die's service")
            if not services:
                raise PortError(f"the device at {address} has no dice service")
            await wait_for(services[0].discover_characteristics(), 5.0,
                           "Finding the die's characteristics")
            tx = services[0].get_characteristics_by_uuid(UUID(TX))
            rx = services[0].get_characteristics_by_uuid(UUID(RX))
            if not tx or not rx:
                raise PortError(f"the die at {address} lacks its characteristics")
            link = BumbleNusLink(connection, rx[0])
            await wait_for(tx[0].subscribe(lambda value: on_data(bytes(value))), 5.0,
                           "Subscribing to the die")
            return link
        except BaseException:
            try:
                await connection.disconnect()
            except Exception:
                log.debug("disconnecting a die that failed to set up", exc_info=True)
            raise

    async def close(self) -> None:
        if self._device is not None:
            try:
                await self._device.power_off()
            except Exception:
                log.debug("powering the central off failed", exc_info=True)
            self._device = None
