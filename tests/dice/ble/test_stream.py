"""companion.dice.ble.stream: the die's GATT link as the dice reader's serial port."""

from __future__ import annotations

import queue
import re
import time
from pathlib import Path

import pytest

from companion.dice import ble
from companion.dice.ble.bleak_port import matches
from companion.dice.ble.bumble_port import BumbleNusPort
from companion.dice.ble.stream import BleError, BleSerial
from companion.dice.ble.virtual import VirtualBleDie
from companion.dice.pixels.bumble_port import Air
from companion.dice.reader import (
    DiceBattery,
    DiceConnected,
    DiceDisconnected,
    DiceEvent,
    DiceReader,
    DiceRoll,
)

FIRMWARE_BLE = Path(__file__).parents[3] / "firmware" / "dice" / "dice" / "ble.py"


def test_the_uuids_and_name_are_the_firmwares():
    text = FIRMWARE_BLE.read_text()
    for name in ("SERVICE", "RX", "TX", "NAME"):
        found = re.search(rf'^{name} = "([^"]+)"', text, re.M)
        assert found is not None, name
        assert found.group(1) == getattr(ble, name)


@pytest.mark.parametrize(("wanted", "address", "local", "uuids", "expected"), [
    ("", "AA:BB", "Companion dice 3C4D", [ble.SERVICE], True),
    ("", "AA:BB", "Companion dice 3C4D", [ble.SERVICE.upper()], True),
    ("", "AA:BB", "Companion dice 3C4D", ["0000180f-0000-1000-8000-00805f9b34fb"], False),
    ("Companion dice 3C4D", "AA:BB", "Companion dice 3C4D", [ble.SERVICE], True),
    ("Companion dice 0000", "AA:BB", "Companion dice 3C4D", [ble.SERVICE], False),
    ("aa:bb", "AA:BB", "", [ble.SERVICE], True),
])
def test_a_die_is_recognised_by_its_service_and_then_its_name_or_address(
        wanted: str, address: str, local: str, uuids: list[str], expected: bool) -> None:
    assert matches(wanted, address, local, uuids) is expected


def test_no_die_on_the_air_is_one_sentence(air: Air) -> None:
    port = BumbleNusPort(air)
    with pytest.raises(BleError, match="no die is advertising within 0.3 s"):
        BleSerial.open(port, scan_s=0.3)


def test_a_die_of_another_name_is_not_taken(air: Air) -> None:
    die = VirtualBleDie(air, "Companion dice 1111")
    try:
        with pytest.raises(BleError, match="named 'Companion dice 2222'"):
            BleSerial.open(BumbleNusPort(air), "Companion dice 2222", scan_s=0.3)
    finally:
        die.close()


def wait_for(predicate, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def test_the_port_reads_the_dies_frames_and_writes_back(air: Air) -> None:
    die = VirtualBleDie(air, seed=0x1234ABCD)
    serial = BleSerial.open(BumbleNusPort(air), scan_s=2.0, timeout=0.05)
    try:
        serial.write(b"$C1,SYNC*00\n")  # a bad checksum: the die counts it and says nothing
        got = bytearray()
        end = time.monotonic() + 3
        while b"BEAT" not in got and time.monotonic() < end:
            got += serial.read(256)
        assert b"BEAT,1234ABCD,3900" in got  # the heartbeat, joined from 20-byte pieces
        assert die.link.rejected == 1
    finally:
        serial.close()
        die.close()


def test_the_reader_gets_rolls_over_the_air_acks_them_and_comes_back_after_a_drop(air: Air) -> None:
    die = VirtualBleDie(air, seed=0x00C0FFEE, battery_mv=3700)
    port = BumbleNusPort(air)
    events: queue.Queue[DiceEvent] = queue.Queue()
    reader = DiceReader(ble.URL, events.put, serial_factory=lambda: BleSerial.open(port, scan_s=2.0),
                        reconnect_interval=0.05)

    def next_of(kind: type) -> DiceEvent:  # type: ignore[type-arg]
        while True:
            event = events.get(timeout=10)
            if isinstance(event, kind):
                return event

    with reader:
        connected = next_of(DiceConnected)
        assert isinstance(connected, DiceConnected) and connected.device_id == "pico-virtual"
        battery = next_of(DiceBattery)
        assert isinstance(battery, DiceBattery) and battery.millivolts == 3700
        seq = die.roll(5)
        roll = next_of(DiceRoll)
        assert roll == DiceRoll(5, seq, "00C0FFEE")
        wait_for(lambda: die.acked == seq)  # the reader's ACK travelled back over RX
        die.disconnect()
        gone = next_of(DiceDisconnected)
        assert isinstance(gone, DiceDisconnected) and "radio link went" in gone.reason
        seq2 = die.roll(2)  # while nobody listens: kept in the die's outbox
        next_of(DiceConnected)  # the reader scanned and connected again
        again = next_of(DiceRoll)
        assert again == DiceRoll(2, seq2, "00C0FFEE")
        assert die.connections == 2
    assert reader.stats.rolls == 2 and reader.stats.replayed >= 0
    die.close()


def test_the_firmwares_advertisement_reads_as_the_service_in_a_bluetooth_stack() -> None:
    import importlib
    import sys

    from bumble.core import UUID, AdvertisingData

    root = Path(__file__).parents[3] / "firmware"
    sys.path[:0] = [str(root / "dice"), str(root / "lib")]
    try:
        fw_ble = importlib.import_module("dice.ble")
    finally:
        del sys.path[:2]
    T = AdvertisingData.Type
    expected = bytes(AdvertisingData([
        (T.FLAGS, bytes([0x06])),
        (T.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(ble.SERVICE))),
    ]))
    assert fw_ble.advertisement() == expected
    parsed = AdvertisingData.from_bytes(fw_ble.scan_response("Companion dice 3C4D"))
    assert parsed.get(T.COMPLETE_LOCAL_NAME) == "Companion dice 3C4D"


def test_a_scan_gives_up_when_it_is_cancelled(air: Air) -> None:
    import threading

    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    began = time.monotonic()
    with pytest.raises(BleError, match="the reader was stopped"):
        BleSerial.open(BumbleNusPort(air), scan_s=5.0, cancel=cancel)
    assert time.monotonic() - began < 1.0
