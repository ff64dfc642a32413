"""companion.dice.pixels.port: the loop thread the ports run on."""

from __future__ import annotations

import asyncio
import threading

import pytest

from companion.dice.pixels.port import LoopThread, PortError, wait_for


def test_a_loop_thread_runs_coroutines_and_stops() -> None:
    loop = LoopThread("test-loop")

    async def where() -> str:
        return threading.current_thread().name

    assert loop.run(where()) == "test-loop"
    forever = loop.submit(asyncio.sleep(3600))
    loop.stop()
    assert forever.cancelled() and not loop.thread.is_alive()
    loop.stop()  # twice is harmless


def test_wait_for_says_what_took_too_long() -> None:
    loop = LoopThread("test-loop")
    with pytest.raises(PortError, match="Connecting did not finish within 0.01 s"):
        loop.run(wait_for(asyncio.sleep(1), 0.01, "Connecting"))
    loop.stop()
