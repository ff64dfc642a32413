"""The GATT port: what the Pixels adapter needs from a Bluetooth LE stack.

Two implementations speak it: :mod:`.bleak_port` (BlueZ over D-Bus, the Pi) and
:mod:`.bumble_port` (Google's bumble on an in-process link, where :mod:`.virtual` is a
virtual die).  The adapter's code is the same over both.

Everything is asyncio: a port belongs to one event loop (:class:`LoopThread`), which the
adapter's coroutines run on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from companion.dice.pixels.messages import Advert, Uuids

T = TypeVar("T")


@dataclass(frozen=True)
class Seen:
    """One advertisement of a Pixels die: its platform address and what it told."""

    address: str
    advert: Advert
    rssi: int = 0


class PortError(Exception):
    """The Bluetooth stack could not do what was asked (one sentence)."""


class GattLink(Protocol):
    """A connection to one die: its notifications go to the ``on_message`` given to
    :meth:`GattPort.connect`, its loss to ``on_lost``."""

    @property
    def uuids(self) -> Uuids:
        """The id family the die turned out to speak."""
        ...

    async def write(self, data: bytes) -> None:
        """Write one message to the die's write characteristic (without response)."""
        ...

    async def close(self) -> None:
        """Disconnect (no ``on_lost`` call for it)."""
        ...


class GattPort(Protocol):
    """Scanning for dice and connecting to one."""

    loop: LoopThread
    """The event loop this port's coroutines run on."""

    async def scan(self, seconds: float, on_seen: Callable[[Seen], None],
                   stop: Callable[[], bool] = lambda: False) -> None:
        """Report every Pixels advertisement for ``seconds`` (or until ``stop()``)."""
        ...

    async def connect(self, address: str, on_message: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> GattLink:
        """Connect, find the die's service (either family), subscribe to its notifications.
        :class:`PortError` when it cannot."""
        ...

    async def close(self) -> None:
        """Release the stack."""
        ...


class LoopThread:
    """An asyncio event loop on its own daemon thread, for code on other threads."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._ready.set)
        self.loop.run_forever()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run ``coro`` on the loop; its future, to wait on from another thread."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the loop and wait for its result."""
        return self.submit(coro).result(timeout)

    def call(self, fn: Callable[[], object]) -> None:
        """Call ``fn`` on the loop's thread, soon."""
        self.loop.call_soon_threadsafe(fn)

    def stop(self) -> None:
        """Cancel what still runs and end the thread."""
        if not self.thread.is_alive():
            return

        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            self.run(cancel_all(), timeout=5)
        except (concurrent.futures.TimeoutError, RuntimeError):
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()


async def wait_for(awaitable: Awaitable[T], seconds: float, what: str) -> T:
    """``awaitable`` within ``seconds``, else :class:`PortError` naming ``what``."""
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        raise PortError(f"{what} did not finish within {seconds:g} s.") from None
