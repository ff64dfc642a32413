"""A die's Bluetooth LE link as the serial port the dice reader reads.

:class:`BleSerial` finds the die (by its service UUID, and its name or address when one
is given), connects, subscribes to its notifications and then behaves as a pyserial port
for :class:`~companion.dice.link.LinkReader`: ``read`` waits up to the read timeout for
notified bytes, ``write`` sends frames to the die's RX characteristic, and once the link
is lost ``read`` raises :class:`OSError`, so the reader drops the session and opens a new
one (scanning again) as it does when a cable is pulled.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from companion.dice.pixels.port import LoopThread, PortError

T = TypeVar("T")


class BleError(OSError):
    """The die could not be found, reached or written to (one sentence)."""


def _wait(port: NusPort, coro: Coroutine[Any, Any, T], seconds: float,
          cancel: threading.Event | None) -> T:
    """``coro`` run on the port's loop, waited for at most ``seconds`` (or until ``cancel``)."""
    future = port.loop.submit(coro)
    end = time.monotonic() + seconds
    while True:
        try:
            return future.result(0.05)
        except concurrent.futures.TimeoutError:
            if cancel is not None and cancel.is_set():
                future.cancel()
                raise BleError("the reader was stopped") from None
            if time.monotonic() > end:
                future.cancel()
                raise


class NusLink(Protocol):
    """A connection to one die."""

    async def write(self, data: bytes) -> None:
        """Write ``data`` to the die's RX characteristic (cut to the link's MTU)."""
        ...

    async def close(self) -> None:
        """Disconnect (no ``on_lost`` call for it)."""
        ...


class NusPort(Protocol):
    """Finding a die and connecting to it."""

    loop: LoopThread

    async def find(self, name: str, seconds: float) -> str | None:
        """The address of a die advertising the service (named ``name``, or at address
        ``name``; "" = any), or None when none was heard within ``seconds``."""
        ...

    async def connect(self, address: str, on_data: Callable[[bytes], None],
                      on_lost: Callable[[str], None]) -> NusLink:
        """Connect and subscribe to the die's notifications (:class:`PortError` if not)."""
        ...

    async def close(self) -> None:
        """Release the stack."""
        ...


class BleSerial:
    """A connected die as a serial port (what :class:`~companion.dice.link.SerialPort` asks)."""

    def __init__(self, port: NusPort, *, timeout: float = 0.05) -> None:
        self.port = port
        self.link: NusLink | None = None
        self.timeout = timeout
        self._buffer = bytearray()
        self._lost: str | None = None
        self._ready = threading.Condition()

    @classmethod
    def open(cls, port: NusPort, name: str = "", *, scan_s: float = 5.0,
             timeout: float = 0.05, cancel: threading.Event | None = None) -> BleSerial:
        """Find the die and connect; :class:`BleError` in one sentence when it cannot.
        Setting ``cancel`` (from another thread) gives up at once."""
        try:
            address = _wait(port, port.find(name, scan_s), scan_s + 5, cancel)
        except (PortError, concurrent.futures.TimeoutError) as exc:
            raise BleError(str(exc) or "Bluetooth did not answer") from None
        if address is None:
            who = f"named {name!r} " if name else ""
            raise BleError(f"no die {who}is advertising within {scan_s:g} s")
        serial = cls(port, timeout=timeout)
        try:
            serial.link = _wait(port, port.connect(address, serial._arrived, serial._gone), 30,
                                cancel)
        except (PortError, concurrent.futures.TimeoutError) as exc:
            raise BleError(str(exc) or f"the die at {address} did not connect") from None
        return serial

    # -- from the Bluetooth loop ------------------------------------------------------------

    def _arrived(self, data: bytes) -> None:
        with self._ready:
            self._buffer += data
            self._ready.notify_all()

    def _gone(self, reason: str) -> None:
        with self._ready:
            self._lost = reason
            self._ready.notify_all()

    # -- the serial port ----------------------------------------------------------------------

    @property
    def in_waiting(self) -> int:
        with self._ready:
            return len(self._buffer)

    def read(self, size: int = 1) -> bytes:
        with self._ready:
            if not self._buffer and self._lost is None:
                self._ready.wait(self.timeout)
            if not self._buffer and self._lost is not None:
                raise BleError(f"the die's radio link went ({self._lost})")
            data = bytes(self._buffer[:size])
            del self._buffer[:size]
            return data

    def write(self, data: bytes, /) -> int:
        link = self.link
        if link is None or self._lost is not None:
            raise BleError("the die's radio link is closed")
        try:
            self.port.loop.run(link.write(data), timeout=5)
        except (PortError, concurrent.futures.TimeoutError) as exc:
            raise BleError(str(exc) or "the die could not be written to") from None
        return len(data)

    def reset_input_buffer(self) -> None:
        with self._ready:
            self._buffer.clear()

    def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            try:
                self.port.loop.run(link.close(), timeout=5)
            except Exception:  # noqa: BLE001 - closing a link that is gone may fail
                pass
        self._gone("closed")
