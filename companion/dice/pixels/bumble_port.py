"""The GATT port on Google's bumble: an in-process radio for tests and the simulator.

:class:`Air` is one bumble ``LocalLink`` (the air between emulated controllers) on one
event loop thread; :meth:`Air.central` is the companion's side (a :class:`BumblePort`,
speaking :class:`~.port.GattPort`), and :class:`~.virtual.VirtualPixel` puts a virtual die on
the same air.  bumble's emulated controllers talk over the link with real HCI, LL and ATT
packets, so the adapter above runs the code it runs on the Pi, only the stack below differs.

bumble's emulated link carries advertising PDUs but no scan responses, so the virtual die
puts everything a real die splits between its advertisement and its scan response into the
advertisement; the parsing is the same (:func:`~.messages.read_advert`, as for bleak, which
merges the two on the Pi).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable

from bumble import hci
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Advertisement, Connection, Device, Peer
from bumble.gatt_client import CharacteristicProxy
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

from companion.dice.pixels.messages import FAMILIES, PixelsError, Uuids, full_uuid, read_advert
from companion.dice.pixels.port import GattLink, LoopThread, PortError, Seen, wait_for

log = logging.getLogger(__name__)

MTU = 247
"""The ATT MTU the companion asks for: the newer IAmADie is 108 bytes, more than the
default 23-byte MTU carries."""


class Air:
    """One in-process radio: a bumble ``LocalLink`` and the event loop it runs on."""

    def __init__(self, loop: LoopThread | None = None) -> None:
        self.loop = loop or LoopThread("pixels-air")
        self.link = self.loop.run(self._make_link())
        self._numbers = itertools.count(1)

    @staticmethod
    async def _make_link() -> LocalLink:
        return LocalLink()  # type: ignore[no-untyped-call]

    def address(self) -> str:
        """A new public address on this air."""
        n = next(self._numbers)
        return f"F{n // 256 % 16:X}:{n % 256:02X}:00:00:00:{n % 256:02X}"

    async def device(self, name: str) -> Device:
        """A powered emulated device on this air (call on :attr:`loop`)."""
        address = self.address()
        controller = Controller(name, link=self.link, public_address=address)
        device = Device(name=name, address=hci.Address(address),
                        host=Host(controller, AsyncPipeSink(controller)))
        await device.power_on()
        return device

    def central(self) -> BumblePort:
        """The companion's side of the air."""
        return BumblePort(self)

    def close(self) -> None:
        self.loop.stop()


def fields(advertisement: Advertisement) -> tuple[str, list[str], dict[int, bytes],
                                                   dict[str, bytes]]:
    """An advertisement's name, service UUIDs, manufacturer data and service data, in the
    shapes bleak reports them."""
    name = ""
    uuids: list[str] = []
    manufacturer: dict[int, bytes] = {}
    service: dict[str, bytes] = {}
    T = AdvertisingData.Type
    for kind, data in advertisement.data.ad_structures:
        if kind in (T.COMPLETE_LOCAL_NAME, T.SHORTENED_LOCAL_NAME):
            name = data.decode("utf-8", "replace")
        elif kind in (T.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                      T.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS):
            uuids += [str(UUID.from_bytes(data[i:i + 16])).lower()
                      for i in range(0, len(data) - 15, 16)]
        elif kind in (T.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
                      T.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS):
            uuids += [full_uuid(int.from_bytes(data[i:i + 2], "little"))
                      for i in range(0, len(data) - 1, 2)]
        elif kind == T.MANUFACTURER_SPECIFIC_DATA and len(data) >= 2:
            manufacturer[int.from_bytes(data[:2], "little")] = bytes(data[2:])
        elif kind == T.SERVICE_DATA_16_BIT_UUID and len(data) >= 2:
            service[full_uuid(int.from_bytes(data[:2], "little"))] = bytes(data[2:])
    return name, uuids, manufacturer, service


class BumbleLink:
    """A connection to a die on the air (:class:`~.port.GattLink`)."""

    def __init__(self, connection: Connection, uuids: Uuids,
                 write_char: CharacteristicProxy[bytes]) -> None:
        self.connection = connection
        self._uuids = uuids
        self._write = write_char
        self.closing = False

    @property
    def uuids(self) -> Uuids:
        return self._uuids

    async def write(self, data: bytes) -> None:
        try:
            await self._write.write_value(data, with_response=False)
        except Exception as exc:  # the link went while writing: the adapter hears on_lost
            raise PortError(f"The die could not be written to ({exc.__class__.__name__}).") \
                from None

    async def close(self) -> None:
        self.closing = True
        try:
            await self.connection.disconnect()
        except Exception:
            log.debug("disconnecting a die that was gone already", exc_info=True)


class BumblePort:
    """The companion's central on an :class:`Air` (:class:`~.port.GattPort`)."""

    def __init__(self, air: Air) -> None:
        self.air = air
        self.loop = air.loop
        self._device: Device | None = None
        self._addresses: dict[str, hci.Address] = {}
        self._scanners: list[Callable[[Advertisement], None]] = []

    async def _central(self) -> Device:
        if self._device is None:
            self._device = await self.air.device("companion")
            self._device.on("advertisement", self._advertisement)
        return self._device

    def _advertisement(self, advertisement: Advertisement) -> None:
        for scanner in list(self._scanners):
            scanner(advertisement)

    async def scan(self, seconds: float, on_seen: Callable[[Seen], None],
                   stop: Callable[[], bool] = lambda: False) -> None:
        device = await self._central()

        def seen(advertisement: Advertisement) -> None:
            name, uuids, manufacturer, service = fields(advertisement)
            try:
                advert = read_advert(name, uuids, manufacturer, service)
            except PixelsError as exc:
                log.debug("an unreadable Pixels advertisement: %s", exc)
                return
            if advert is not None:
                address = str(advertisement.address)
                self._addresses[address] = advertisement.address
                on_seen(Seen(address, advert, advertisement.rssi))

        self._scanners.append(seen)
        try:
            if not device.is_scanning:
                await device.start_scanning(filter_duplicates=False)
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            while loop.time() < end and not stop():
                await asyncio.sleep(min(0.005, max(0.0, end - loop.time())))
        finally:
            self._scanners.remove(seen)
            if not self._scanners and device.is_scanning:
                await device.stop_scanning()

    async def connect(self, address: str, on_message: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> GattLink:
        device = await self._central()
        peer_address = self._addresses.get(address) or hci.Address(address)
        try:
            connection = await wait_for(device.connect(peer_address), 5.0, "Connecting")
        except PortError:
            raise
        except Exception as exc:
            raise PortError(f"The die at {address} did not connect ({exc}).") from None
        link: BumbleLink | None = None
        failed = False

        def lost(reason: int) -> None:
            if not failed and (link is None or not link.closing):
                on_lost(str(hci.HCI_Constant.error_name(reason)))  # type: ignore[no-untyped-call]

        connection.on("disconnection", lost)
        try:
            peer = Peer(connection)
            await wait_for(peer.request_mtu(MTU), 5.0, "Asking for the MTU")
            for uuids in FAMILIES:
                services = await wait_for(peer.discover_service(UUID(uuids.service)), 5.0,
                                          "Finding the die's service")
                if not services:
                    continue
                service = services[0]
                await wait_for(service.discover_characteristics(), 5.0,
                               "Finding the die's characteristics")
                notify = service.get_characteristics_by_uuid(UUID(uuids.notify))
                write = service.get_characteristics_by_uuid(UUID(uuids.write))
                if not notify or not write:
                    raise PortError(f"The die at {address} lacks the Pixels characteristics.")
                link = BumbleLink(connection, uuids, write[0])
                await wait_for(notify[0].subscribe(lambda value: on_message(bytes(value))),
                               5.0, "Subscribing to the die")
                return link
            raise PortError(f"The device at {address} has no Pixels service.")
        except BaseException:
            failed = True
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
