"""The Pixels adapter: a die on a GATT port turned into the dice events the service knows.

:class:`PixelsDice` finds the die (by its name, or the first one it sees), connects, asks
who it is, listens to its roll states and battery, and calls ``on_event`` with the events of
:mod:`companion.dice.reader` - :class:`~companion.dice.reader.DiceRoll` (exactly once per
throw, :mod:`.tracker`), :class:`~companion.dice.reader.DiceConnected`,
:class:`~companion.dice.reader.DiceDisconnected` - and two of its own:
:class:`DiceCrooked` (a throw landed tilted: throw again) and :class:`DiceLowBattery` (once,
until the die is charged).  A Pixels die reports no fall, so it never makes a
:class:`~companion.dice.reader.DiceDrop`.

When the link goes (the die fell asleep or left the radio's range) it says so and looks for
the die again, with a bounded back-off between tries (``backoff`` doubling up to
``backoff_max`` seconds); while it looks, the die's advertisements still feed the roll
tracker, so a throw that landed while the link was down is not lost when the die is heard.

``on_event`` runs on the port's event loop thread, one event at a time, in order; it should
be quick.  Receipts: the die cannot send a roll again, so a roll the table could not keep is
lost, and the table says so (the die blinks red).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.dice.pixels.messages import (
    BatteryLevel,
    BatteryState,
    Blink,
    IAmADie,
    PixelsError,
    RollState,
    RollStateMessage,
    WhoAreYou,
    corrected_state,
    face_index,
    face_value,
    parse,
)
from companion.dice.pixels.port import GattLink, GattPort, PortError, Seen
from companion.dice.pixels.tracker import Crooked, Landed, RollTracker
from companion.dice.reader import DiceConnected, DiceDisconnected, DiceRoll

log = logging.getLogger(__name__)

AWAY = "asleep or out of range"
"""The reason given when the link to the die goes."""


@dataclass(frozen=True)
class DiceCrooked:
    """A throw landed crooked (against something, not flat): throw again."""

    face_index: int


@dataclass(frozen=True)
class DiceLowBattery:
    """The die's battery is low (said once, until it was charged)."""

    percent: int


PixelsEvent = DiceRoll | DiceConnected | DiceDisconnected | DiceCrooked | DiceLowBattery

SEAT_RGB = (0xFF0000, 0x0000FF, 0x00C000, 0xFFB000)
"""The blink colours of the seats red, blue, green, yellow (``companion.engines.colours``)."""
NOT_COUNTED_RGB = 0xFF0000
ALL_FACES = 0xFFFFFFFF  # ANIM_FACEMASK_ALL_LEDS in the die firmware


def roll_blink(face: int, counted: bool, colour: int | None) -> Blink:
    """The die's answer to a roll: the landed face (index ``face``) twice, slowly, in the
    colour of the seat that rolled (white when the table has no seats); a roll that does not
    count blinks every face three times, quickly, in red - so a red seat's counted roll and a
    refused one look different."""
    if not counted:
        return Blink(count=3, duration_ms=900, colour=NOT_COUNTED_RGB, face_mask=ALL_FACES,
                     fade=0)
    rgb = SEAT_RGB[colour % len(SEAT_RGB)] if colour is not None else 0xFFFFFF
    return Blink(count=2, duration_ms=1600, colour=rgb, face_mask=1 << face, fade=160)


@dataclass
class PixelsStats:
    """What the adapter saw."""

    rolls: int = 0
    crooked: int = 0
    duplicates: int = 0
    connections: int = 0
    lost: int = 0
    failed_tries: int = 0
    unreadable: int = 0
    adverts: int = 0
    faces: list[int] = field(default_factory=list)


class PixelsDice:
    """See the module docstring.  ``name``: the die to use ("" = the first one seen)."""

    def __init__(self, port: GattPort, on_event: Callable[[PixelsEvent], object], *,
                 name: str = "", backoff: float = 0.5, backoff_max: float = 8.0,
                 scan_window: float = 3.0, answer_timeout: float = 3.0,
                 low_battery: int = 15) -> None:
        if backoff <= 0 or backoff_max < backoff or scan_window <= 0 or answer_timeout <= 0:
            raise ValueError("back-off, scan window and answer time must be positive")
        self.port = port
        self.on_event = on_event
        self.name = name
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.scan_window = scan_window
        self.answer_timeout = answer_timeout
        self.low_battery = low_battery
        self.tracker = RollTracker()
        self.stats = PixelsStats()
        self.die: IAmADie | None = None
        self.address = ""
        self.delays: list[float] = []
        """Every back-off wait, in order (the tests check they are bounded)."""
        self._seen: Seen | None = None
        self._link: GattLink | None = None
        self._lost: asyncio.Event | None = None
        self._answer: asyncio.Future[IAmADie] | None = None
        self._early: list[bytes] = []
        self._last_advert: tuple[RollState, int] | None = None
        self._low_said = False
        self._last_face = 0
        self._future: concurrent.futures.Future[None] | None = None
        self._stopping = False

    # --- life ----------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.die is not None and self._link is not None

    def start(self) -> None:
        """Look for the die and keep it connected, on the port's loop."""
        if self._future is None:
            self._future = self.port.loop.submit(self._run())

    def stop(self) -> None:
        """Disconnect and stop looking (waits up to a few seconds)."""
        self._stopping = True
        future = self._future
        if future is not None:
            self.port.loop.call(future.cancel)

            async def close() -> None:
                link, self._link = self._link, None
                if link is not None:
                    await link.close()
            try:
                self.port.loop.run(close(), timeout=5)
            except Exception:
                log.debug("the die's link did not close cleanly", exc_info=True)

    # --- the loop ------------------------------------------------------------------------

    async def _run(self) -> None:
        delay = self.backoff
        while not self._stopping:
            try:
                seen = await self._find()
                if seen is not None:
                    await self._session(seen)  # returns once a connected link went
                    delay = self.backoff
                    continue
            except PortError as exc:
                self.stats.failed_tries += 1
                log.info("the Pixels die could not be reached: %s", exc)
            self.delays.append(delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_max)

    def _matches(self, seen: Seen) -> bool:
        if self.address:
            return seen.address == self.address
        return not self.name or seen.advert.name == self.name

    async def _find(self) -> Seen | None:
        """Scan until the die is seen (its advertisements feed the tracker)."""
        found: list[Seen] = []
        first = True

        def on_seen(seen: Seen) -> None:
            nonlocal first
            if not self._matches(seen):
                return
            self.stats.adverts += 1
            self._seen = seen
            a = seen.advert
            if not found:
                found.append(seen)
            state = corrected_state(a.roll_state, a.led_count, a.build_timestamp)
            if first:  # possibly a platform's cached one: a baseline, never a throw
                first = False
                self._last_advert = (state, a.face_index)
                return
            if (state, a.face_index) != self._last_advert:
                self._last_advert = (state, a.face_index)
                self._track(state, a.face_index)

        await self.port.scan(self.scan_window, on_seen, stop=lambda: bool(found))
        return found[0] if found else None

    async def _session(self, seen: Seen) -> None:
        loop = asyncio.get_running_loop()
        self._lost = asyncio.Event()
        self._answer = loop.create_future()
        self._early = []
        self.die = None
        lost = self._lost

        def on_lost(reason: str) -> None:
            log.info("the Pixels die's link went: %s", reason)
            lost.set()

        link = await self.port.connect(seen.address, self._message, on_lost)
        self._link = link
        try:
            await link.write(bytes(WhoAreYou()))
            try:
                answer = await asyncio.wait_for(asyncio.shield(self._answer),
                                                self.answer_timeout)
            except TimeoutError:
                raise PortError("The die did not say who it is.") from None
        except BaseException:
            self._link = None
            await link.close()
            raise
        self.die = answer
        self.address = seen.address
        self.name = self.name or answer.name or seen.advert.name
        self.stats.connections += 1
        self._last_advert = None
        built = time.strftime("%Y-%m-%d", time.gmtime(answer.build_timestamp))
        self.on_event(DiceConnected(self.name or seen.advert.name, f"pixels {built}"))
        self._track(self._corrected(answer.roll_state), answer.face_index)
        for data in self._early:
            self._message(data)
        self._early = []
        self._battery(answer.battery_level, answer.battery_state)
        await lost.wait()
        self._link = None
        self.die = None
        self.stats.lost += 1
        if not self._stopping:
            self.on_event(DiceDisconnected(AWAY))

    # --- what the die says -------------------------------------------------------------------

    def _corrected(self, state: RollState) -> RollState:
        die = self.die
        if die is not None:
            return corrected_state(state, die.led_count, die.build_timestamp)
        a = self._seen.advert if self._seen is not None else None
        return corrected_state(state, a.led_count, a.build_timestamp) if a else state

    def _value(self, index: int) -> int:
        die = self.die
        if die is not None:
            return face_value(index, die.kind, die.build_timestamp)
        a = self._seen.advert if self._seen is not None else None
        return face_value(index, a.kind, a.build_timestamp) if a else index + 1

    def _message(self, data: bytes) -> None:
        try:
            message = parse(data)
        except PixelsError as exc:
            self.stats.unreadable += 1
            log.warning("an unreadable message from the die: %s", exc)
            return
        if isinstance(message, IAmADie):
            if self._answer is not None and not self._answer.done():
                self._answer.set_result(message)
            return
        if self.die is None:  # before it said who it is: kept for after that
            self._early.append(data)
            return
        if isinstance(message, RollStateMessage):
            self._track(self._corrected(message.state), message.face_index)
        elif isinstance(message, BatteryLevel):
            self._battery(message.level, message.state)

    def _track(self, state: RollState, index: int) -> None:
        outcome = self.tracker.seen(state, index)
        self.stats.duplicates = self.tracker.duplicates
        if isinstance(outcome, Landed):
            self.stats.rolls += 1
            value = self._value(outcome.face_index)
            self._last_face = outcome.face_index
            self.stats.faces.append(value)
            self.on_event(DiceRoll(value, outcome.seq))
        elif isinstance(outcome, Crooked):
            self.stats.crooked += 1
            self.on_event(DiceCrooked(outcome.face_index))

    def _battery(self, level: int, state: BatteryState) -> None:
        charging = state in (BatteryState.CHARGING, BatteryState.DONE)
        low = not charging and (state is BatteryState.LOW or level <= self.low_battery)
        if low and not self._low_said:
            self._low_said = True
            self.on_event(DiceLowBattery(level))
        elif self._low_said and (charging or level > self.low_battery + 10):
            self._low_said = False

    # --- what the companion tells the die ------------------------------------------------------

    def blink_roll(self, value: int, counted: bool, colour: int | None) -> None:
        """Show the table's verdict on the roll of ``value`` on the die (thread-safe)."""
        die = self.die
        index = self._last_face
        if die is not None and face_value(index, die.kind, die.build_timestamp) != value:
            index = face_index(value, die.kind, die.build_timestamp)
        self.send(roll_blink(index, counted, colour))

    def send(self, message: Blink) -> None:
        """Write ``message`` to the die when connected (thread-safe, does not wait)."""
        async def write() -> None:
            link = self._link
            if link is None:
                return
            try:
                await link.write(bytes(message))
            except PortError as exc:
                log.info("the die did not take %r: %s", message, exc)
        self.port.loop.call(lambda: asyncio.ensure_future(write()))


def scan(port: GattPort, seconds: float) -> list[Seen]:
    """Every Pixels die heard within ``seconds`` (the last advertisement of each), by name."""
    found: dict[str, Seen] = {}

    def on_seen(seen: Seen) -> None:
        found[seen.address] = seen

    port.loop.run(port.scan(seconds, on_seen), timeout=seconds + 10)
    return sorted(found.values(), key=lambda s: (s.advert.name, s.address))
