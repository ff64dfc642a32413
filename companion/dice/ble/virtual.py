"""A virtual home-built die on bumble's in-process air, running the firmware's own link.

It serves the die's Nordic-UART-style service (the UUIDs and the advertisement the
firmware's ``dice/ble.py`` makes: the service UUID in the advertisement, and the name),
and behind it the dice firmware's ``Link`` (``firmware/dice/dice/link.py``, loaded as the
pty simulator loads it): what the companion writes to RX goes to the link, what the link
writes goes out as notifications of at most 20 bytes.  :meth:`roll`, :meth:`drop`,
:meth:`disconnect` and :meth:`battery_mv` are what a test (or a player) does.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from bumble.core import UUID, AdvertisingData
from bumble.device import Connection, Device
from bumble.gatt import Characteristic, CharacteristicValue, Service

from companion.dice.ble import NAME, RX, SERVICE, TX
from companion.dice.ble.bumble_port import PIECE
from companion.dice.pixels.bumble_port import Air
from companion.dice.sim import load_firmware

log = logging.getLogger(__name__)


class _Stream:
    """The firmware link's stream: notifications out (in order), RX writes in."""

    def __init__(self, die: VirtualBleDie) -> None:
        self.die = die
        self.inbox = bytearray()

    def write(self, data: bytes) -> None:
        self.die._outgoing.put_nowait(bytes(data))

    def read(self) -> bytes | None:
        if not self.inbox:
            return None
        data = bytes(self.inbox)
        self.inbox.clear()
        return data


class VirtualBleDie:
    def __init__(self, air: Air, name: str = NAME + " 0001", *, battery_mv: int | None = 3900,
                 device_id: str = "pico-virtual", seed: int = 0) -> None:
        self.air = air
        self.name = name
        self.battery_mv = battery_mv
        self.device_id = device_id
        self.connections = 0
        self.notified: list[bytes] = []
        fw: Any = load_firmware()
        self._shims = fw.shims
        self._stream = _Stream(self)
        boot = os.urandom(4).hex().upper() if seed == 0 else f"{seed:08X}"
        self.link: Any = fw.link.Link(self._stream, device_id, "virtual-" + str(fw.VERSION), boot,
                                      battery=lambda: self.battery_mv)
        self.boot_id = boot
        self._connection: Connection | None = None
        self._device: Device | None = None
        self._tx: Characteristic[bytes] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outgoing: asyncio.Queue[bytes] = asyncio.Queue()
        air.loop.run(self._start())

    async def _start(self) -> None:
        self._outgoing = asyncio.Queue()
        self._tx = Characteristic(TX, Characteristic.Properties.NOTIFY | Characteristic.Properties.READ,
                                  Characteristic.READABLE, b"")
        rx: Characteristic[bytes] = Characteristic(
            RX, Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            Characteristic.WRITEABLE, CharacteristicValue(write=self._written))  # type: ignore[arg-type]
        device = await self.air.device(self.name)
        device.add_service(Service(SERVICE, [self._tx, rx]))
        device.on("connection", self._connected)
        self._device = device
        self.link.start(self._shims.ticks_ms())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._poll()), loop.create_task(self._send())]
        await self._advertise()

    def advertising_data(self) -> bytes:
        T = AdvertisingData.Type
        return bytes(AdvertisingData([
            (T.FLAGS, bytes([0x06])),
            (T.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
            (T.COMPLETE_LOCAL_NAME, self.name.encode()),
        ]))

    async def _advertise(self) -> None:
        device = self._device
        if device is not None and self._connection is None and not device.is_advertising:
            await device.start_advertising(advertising_data=self.advertising_data(),
                                           advertising_interval_min=20.0,
                                           advertising_interval_max=20.0)

    def _connected(self, connection: Connection) -> None:
        self._connection = connection
        self.connections += 1
        connection.on("disconnection", lambda _reason: self._disconnected(connection))

    def _disconnected(self, connection: Connection) -> None:
        if self._connection is connection:
            self._connection = None
        asyncio.get_running_loop().create_task(self._advertise())

    def _written(self, _connection: Connection, value: bytes) -> None:
        self._stream.inbox += bytes(value)

    async def _poll(self) -> None:
        while True:
            self.link.poll(self._shims.ticks_ms())
            await asyncio.sleep(0.01)

    async def _send(self) -> None:
        while True:
            data = await self._outgoing.get()
            connection, device, tx = self._connection, self._device, self._tx
            if connection is None or device is None or tx is None:
                continue  # nobody listens: lost on the air (the link re-sends events)
            for start in range(0, len(data), PIECE):
                try:
                    await device.notify_subscriber(connection, tx, data[start:start + PIECE])
                except Exception:
                    log.debug("a notification was lost with the link", exc_info=True)
                    break
                self.notified.append(data[start:start + PIECE])

    # --- what a player or a test does ------------------------------------------------------

    def _call(self, fn: Any) -> Any:
        async def run() -> Any:
            return fn()

        return self.air.loop.run(run(), timeout=5)

    def roll(self, face: int) -> int:
        """Roll ``face``; the sequence number it was sent with."""
        return int(self._call(lambda: self.link.event("ROLL", face, self._shims.ticks_ms())))

    def drop(self, fall_ms: int = 420) -> int:
        return int(self._call(lambda: self.link.event("DROP", fall_ms, self._shims.ticks_ms())))

    @property
    def acked(self) -> int:
        return int(self._call(lambda: self.link.acked))

    @property
    def connected(self) -> bool:
        return self._connection is not None

    def disconnect(self) -> None:
        """The die leaves the link (it comes back by advertising again)."""
        async def go() -> None:
            if self._connection is not None:
                await self._connection.disconnect()

        self.air.loop.run(go(), timeout=5)

    def close(self) -> None:
        async def go() -> None:
            for task in self._tasks:
                task.cancel()
            if self._device is not None:
                await self._device.power_off()

        self.air.loop.run(go(), timeout=5)
