"""A virtual Pixels die: a bumble peripheral on an in-process :class:`~.bumble_port.Air`.

It advertises as a die does (name, Pixels service UUID, manufacturer data with its roll
state, face and battery, service data with its id and firmware date), and once connected it
answers as the protocol says: who-are-you with I-am-a-die (the newer chunked message, or the
legacy 22-byte one with ``legacy=True``, which also advertises the legacy ids), roll-state and
battery requests, and blinks (each kept in :attr:`VirtualPixel.blinks`, acknowledged).

What a family does to it (from any thread): :meth:`~VirtualPixel.roll` (a seeded fair face
or a given one: handling, rolling, rolled, each state notified and advertised),
:meth:`~VirtualPixel.crooked` (lands tilted), :meth:`~VirtualPixel.handle` (picked up and
put down, no throw); and what happens to it: :meth:`~VirtualPixel.sleep` /
:meth:`~VirtualPixel.wake`, :meth:`~VirtualPixel.away` / :meth:`~VirtualPixel.back` (out of
range: the link is lost, nothing is heard), :meth:`~VirtualPixel.set_battery`.  Faults for
the exactly-once tests: :attr:`~VirtualPixel.duplicate` (every notification twice) and
:meth:`~VirtualPixel.drop_link_at` (lose the link just before the k-th message of the next
throw, as a radio glitch in the middle of a roll would).

With a seed, the faces are the ones :class:`companion.dice.sim.SimulatedDice` rolls for the
same seed (the firmware's own fair roll on the same entropy), so a seeded demo shows the same
game with either die.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bumble import hci
from bumble.core import UUID, AdvertisingData
from bumble.device import Connection, Device
from bumble.gatt import Characteristic, CharacteristicValue, Service

from companion.dice.pixels.bumble_port import Air
from companion.dice.pixels.messages import (
    DIE_UUIDS,
    LEGACY_UUIDS,
    Advert,
    BatteryLevel,
    BatteryState,
    Blink,
    BlinkAck,
    Colorway,
    DieType,
    IAmADie,
    PixelsError,
    RequestBatteryLevel,
    RequestRollState,
    RollState,
    RollStateMessage,
    WhoAreYou,
    parse,
)

log = logging.getLogger(__name__)

BUILD_TIMESTAMP = 1_736_546_640
"""The firmware date the virtual die reports (2025-01-10, a current build: no corrections)."""
INFO_SERVICE_16 = 0x180A


def seeded_faces(seed: int | None) -> Iterator[int]:
    """Fair faces 1-6: with a seed, those of :class:`companion.dice.sim.SimulatedDice` for
    it (its firmware's ``roll_die`` on ``random.Random(seed).randbytes`` after the 4 bytes of
    its boot id); without one, from the system's entropy."""
    from companion.dice.sim import load_firmware

    fair: Any = load_firmware().fair
    if seed is None:
        rng = random.SystemRandom()
        while True:
            yield rng.randint(1, 6)
    entropy = random.Random(seed).randbytes
    entropy(4)  # SimulatedDice's boot id
    while True:
        yield int(fair.roll_die(entropy))


@dataclass(frozen=True)
class Step:
    """One step of a script: ``roll`` (``value`` a face or None), ``crooked``, ``handle``,
    ``sleep``, ``wake``, ``away``, ``back``, ``battery`` (``value`` percent), ``wait``
    (``value`` seconds)."""

    action: str
    value: float | None = None


SCRIPT_HELP = "roll, roll:1-6, crooked, handle, sleep, wake, away, back, battery:0-100, wait:S"


def parse_script(text: str) -> list[Step]:
    """``"roll,roll:6,crooked,wait:0.5"`` -> steps; ``ValueError`` (one sentence) when bad."""
    steps: list[Step] = []
    for raw in text.split(","):
        word = raw.strip().lower()
        if not word:
            continue
        name, _, arg = word.partition(":")
        if name == "roll" and not arg:
            steps.append(Step("roll"))
        elif name == "roll" and arg in ("1", "2", "3", "4", "5", "6"):
            steps.append(Step("roll", int(arg)))
        elif name in ("crooked", "handle", "sleep", "wake", "away", "back") and not arg:
            steps.append(Step(name))
        elif name == "battery" and arg.isdigit() and 0 <= int(arg) <= 100:
            steps.append(Step("battery", int(arg)))
        elif name == "wait":
            try:
                seconds = float(arg)
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 3600:
                raise ValueError(f"Bad wait '{raw.strip()}': give seconds, e.g. wait:0.5.")
            steps.append(Step("wait", seconds))
        else:
            raise ValueError(f"Unknown step '{raw.strip()}'; use {SCRIPT_HELP}.")
    if not steps:
        raise ValueError(f"The script is empty; use {SCRIPT_HELP}.")
    return steps


class VirtualPixel:
    """A Pixels d6 on ``air``; see the module docstring.  ``step_s``: seconds between the
    states of a throw (0: as fast as the link goes)."""

    LOW = 15
    """Percent at and below which the die reports its battery as low."""

    def __init__(self, air: Air, name: str = "Pixel", *, seed: int | None = None,
                 colorway: Colorway = Colorway.ONYX_BLACK, battery: int = 90,
                 legacy: bool = False, pixel_id: int | None = None, step_s: float = 0.0,
                 advertising_ms: float = 20.0) -> None:
        if not name or len(name.encode()) > 31:
            raise ValueError("A Pixels die's name has 1 to 31 bytes.")
        self.air = air
        self.name = name
        self.legacy = legacy
        self.colorway = colorway
        self.pixel_id = pixel_id if pixel_id is not None else 0x1000_0000 + (seed or 0) % 0xFFFF
        self.step_s = step_s
        self.advertising_ms = advertising_ms
        self.faces = seeded_faces(seed)
        self.state = RollState.ON_FACE
        self.face_index = 5
        self.battery = battery
        self.battery_state = BatteryState.LOW if battery <= self.LOW else BatteryState.OK
        self.asleep = False
        self.gone = False  # out of range
        self.duplicate = False
        self.blinks: list[Blink] = []
        self.sent: list[bytes] = []
        """Every notification that reached the link, in order."""
        self.rolls: list[int] = []
        """The faces of every throw that landed flat, in order."""
        self.landed_ns = 0
        """``time.perf_counter_ns()`` just before the last "rolled" notification went out."""
        self.connections = 0
        self._drop_at: int | None = None
        self._connection: Connection | None = None
        self._device: Device | None = None
        self._notify: Characteristic[bytes] | None = None
        self._lock: asyncio.Lock | None = None
        self._adv_lock: asyncio.Lock | None = None
        self.air.loop.run(self._start())

    # --- set-up ---------------------------------------------------------------------------

    @property
    def uuids(self) -> Any:
        return LEGACY_UUIDS if self.legacy else DIE_UUIDS

    async def _start(self) -> None:
        self._lock = asyncio.Lock()
        self._adv_lock = asyncio.Lock()
        uuids = self.uuids
        self._notify = Characteristic(uuids.notify, Characteristic.Properties.NOTIFY,
                                      Characteristic.READABLE, b"")
        write: Characteristic[bytes] = Characteristic(
            uuids.write,
            Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            Characteristic.WRITEABLE,
            CharacteristicValue(write=self._written))  # type: ignore[arg-type]
        device = await self.air.device(self.name)
        device.add_service(Service(uuids.service, [self._notify, write]))
        device.on("connection", self._connected)
        self._device = device
        await self._advertise()

    def advert(self) -> Advert:
        """What the die advertises now."""
        return Advert(self.name, self.pixel_id, 6, DieType.D6, self.colorway, self.state,
                      self.face_index, self.battery,
                      self.battery_state in (BatteryState.CHARGING, BatteryState.DONE),
                      BUILD_TIMESTAMP, self.legacy)

    def _advertising_data(self) -> bytes:
        a = self.advert()
        T = AdvertisingData.Type
        structures: list[tuple[int, bytes]] = [
            (T.FLAGS, bytes([0x06])),
            (T.COMPLETE_LOCAL_NAME, self.name.encode()),
            (T.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(self.uuids.service))),
            (T.MANUFACTURER_SPECIFIC_DATA,
             a.company_id().to_bytes(2, "little") + a.manufacturer_data()),
            (T.SERVICE_DATA_16_BIT_UUID,
             INFO_SERVICE_16.to_bytes(2, "little") + a.service_data()),
        ]
        return bytes(AdvertisingData(structures))

    async def _advertise(self) -> None:
        """Advertise the current state (when awake, in range and not connected)."""
        assert self._adv_lock is not None
        async with self._adv_lock:
            await self._advertise_now()

    async def _advertise_now(self) -> None:
        device = self._device
        if device is None:
            return
        if self.asleep or self.gone or self._connection is not None:
            if device.is_advertising:
                await device.stop_advertising()
            return
        data = self._advertising_data()
        adv_set = device.legacy_advertising_set
        if adv_set is not None and device.is_advertising:
            await adv_set.set_advertising_data(data)
            return
        await device.start_advertising(advertising_data=data,
                                       advertising_interval_min=self.advertising_ms,
                                       advertising_interval_max=self.advertising_ms)

    def _connected(self, connection: Connection) -> None:
        self._connection = connection
        self.connections += 1
        connection.on("disconnection", lambda reason: self._disconnected(connection))

    def _disconnected(self, connection: Connection) -> None:
        if self._connection is connection:
            self._connection = None
        asyncio.get_running_loop().create_task(self._advertise())

    # --- the link -------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connection is not None

    async def _send(self, message: bytes) -> None:
        connection, device, notify = self._connection, self._device, self._notify
        if connection is None or device is None or notify is None:
            return
        for _ in range(2 if self.duplicate else 1):
            try:
                await device.notify_subscriber(connection, notify, message)
            except Exception:
                log.debug("a notification was lost with the link", exc_info=True)
                return
            self.sent.append(message)

    def _written(self, connection: Connection, value: bytes) -> None:
        try:
            message = parse(bytes(value))
        except PixelsError as exc:
            log.warning("the virtual die got an unreadable message: %s", exc)
            return
        asyncio.get_running_loop().create_task(self._answer(message))

    async def _answer(self, message: object) -> None:
        if isinstance(message, WhoAreYou):
            await self._send(bytes(self.i_am()))
        elif isinstance(message, RequestRollState):
            await self._send(bytes(RollStateMessage(self.state, self.face_index)))
        elif isinstance(message, RequestBatteryLevel):
            await self._send(bytes(BatteryLevel(self.battery, self.battery_state)))
        elif isinstance(message, Blink):
            self.blinks.append(message)
            await self._send(bytes(BlinkAck()))

    def i_am(self) -> IAmADie:
        return IAmADie(6, self.colorway, DieType.D6, self.pixel_id, BUILD_TIMESTAMP,
                       self.state, self.face_index, self.battery, self.battery_state,
                       name="" if self.legacy else self.name, legacy=self.legacy,
                       firmware_version=0x0101, settings_version=0x0100, chip_model=1)

    async def _drop(self, reason: int = hci.HCI_CONNECTION_TIMEOUT_ERROR) -> None:
        connection = self._connection
        if connection is not None:
            try:
                await connection.disconnect(reason)
            except Exception:
                log.debug("the link was gone already", exc_info=True)
            self._connection = None

    # --- a throw -----------------------------------------------------------------------------

    async def _state(self, state: RollState, face_index: int, k: int = -1) -> None:
        if k >= 0 and self._drop_at == k:
            self._drop_at = None
            await self._drop()
        self.state, self.face_index = state, face_index
        if state is RollState.ROLLED:
            self.landed_ns = time.perf_counter_ns()
        await self._send(bytes(RollStateMessage(state, face_index)))
        await self._advertise()

    async def _pause(self) -> None:
        if self.step_s > 0:
            await asyncio.sleep(self.step_s)

    async def _throw(self, landing: RollState, value: int) -> None:
        assert self._lock is not None
        async with self._lock:
            if self.asleep:  # motion wakes a sleeping die
                self.asleep = False
                await self._advertise()
            index = value - 1
            path = [(RollState.HANDLING, self.face_index), (RollState.ROLLING, (index + 2) % 6),
                    (RollState.ROLLING, (index + 4) % 6), (landing, index)]
            for k, (state, face) in enumerate(path):
                if k:
                    await self._pause()
                await self._state(state, face, k)
            if self._drop_at == len(path):  # just after the landing went out
                self._drop_at = None
                await self._drop()
            if landing is RollState.ROLLED:
                self.rolls.append(value)

    def roll(self, value: int | None = None) -> int:
        """A throw: ``value`` 1-6, or the next fair (seeded) face; returns the face."""
        if value is not None and not 1 <= value <= 6:
            raise ValueError("A d6 shows 1 to 6.")
        face = next(self.faces) if value is None else value
        self.air.loop.run(self._throw(RollState.ROLLED, face))
        return face

    def crooked(self) -> None:
        """A throw that lands tilted against something."""
        self.air.loop.run(self._throw(RollState.CROOKED, self.face_index + 1))

    def handle(self) -> None:
        """Picked up and put down again: moved, not thrown."""
        async def go() -> None:
            await self._state(RollState.HANDLING, self.face_index)
            await self._pause()
            await self._state(RollState.ON_FACE, self.face_index)
        self.air.loop.run(go())

    def drop_link_at(self, k: int) -> None:
        """Lose the link just before the ``k``-th state (0: handling ... 3: the landing; 4:
        just after the landing) of the next throw; the die stays in range and advertises
        again at once."""
        self._drop_at = k

    # --- sleep, range, battery -------------------------------------------------------------------

    def sleep(self) -> None:
        """Fall asleep (as after minutes without motion): the link goes, nothing is sent."""
        async def go() -> None:
            self.asleep = True
            await self._drop(hci.HCI_REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_POWER_OFF_ERROR)
            await self._advertise()
        self.air.loop.run(go())

    def wake(self) -> None:
        async def go() -> None:
            self.asleep = False
            await self._advertise()
        self.air.loop.run(go())

    def away(self) -> None:
        """Out of range: the link times out and the advertisements are not heard."""
        async def go() -> None:
            self.gone = True
            await self._drop()
            await self._advertise()
        self.air.loop.run(go())

    def back(self) -> None:
        async def go() -> None:
            self.gone = False
            await self._advertise()
        self.air.loop.run(go())

    def set_battery(self, level: int, state: BatteryState | None = None) -> None:
        """A new battery level (percent); the state follows it unless given."""
        if not 0 <= level <= 100:
            raise ValueError("A battery level is 0 to 100 %.")

        async def go() -> None:
            self.battery = level
            self.battery_state = state if state is not None else (
                BatteryState.LOW if level <= self.LOW else BatteryState.OK)
            await self._send(bytes(BatteryLevel(level, self.battery_state)))
            await self._advertise()
        self.air.loop.run(go())

    def do(self, step: Step) -> str:
        """Run one script step; a line saying what happened."""
        actions: dict[str, Callable[[], None]] = {
            "crooked": self.crooked, "handle": self.handle, "sleep": self.sleep,
            "wake": self.wake, "away": self.away, "back": self.back}
        if step.action == "roll":
            face = self.roll(None if step.value is None else int(step.value))
            return f"roll {face}"
        if step.action == "battery":
            self.set_battery(int(step.value or 0))
            return f"battery {int(step.value or 0)} %"
        if step.action == "wait":
            time.sleep(step.value or 0.0)
            return f"wait {step.value:g} s"
        actions[step.action]()
        return step.action

    def close(self) -> None:
        """Switch the die off (the air stays)."""
        async def go() -> None:
            device, self._device = self._device, None
            if device is not None:
                await device.power_off()
        try:
            self.air.loop.run(go(), timeout=5)
        except Exception:
            log.debug("the virtual die did not switch off cleanly", exc_info=True)
