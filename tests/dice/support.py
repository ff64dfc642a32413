"""Shared helpers of the companion's dice tests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS_PATH = ROOT / "tests" / "firmware" / "protocol_vectors.json"


def load_vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS_PATH.read_text())
    return data


def data_of(vector: dict[str, Any]) -> bytes:
    if "hex" in vector:
        return bytes.fromhex(vector["hex"])
    text: str = vector["text"]
    return text.encode()


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` passes; returns whether it held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


class Collector:
    """An ``on_event`` that records events thread-safely."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self._lock = threading.Lock()

    def __call__(self, event: Any) -> None:
        with self._lock:
            self.events.append(event)

    def of(self, kind: type) -> list[Any]:
        with self._lock:
            return [e for e in self.events if isinstance(e, kind)]
