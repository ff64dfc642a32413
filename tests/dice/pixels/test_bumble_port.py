"""companion.dice.pixels.bumble_port: advertisements read like bleak's, connecting, losing."""

from __future__ import annotations

import pytest
from bumble.core import AdvertisingData
from bumble.device import Advertisement
from bumble.hci import Address

from companion.dice.pixels.bumble_port import Air, fields
from companion.dice.pixels.messages import DIE_UUIDS, INFO_SERVICE
from companion.dice.pixels.port import PortError
from companion.dice.pixels.virtual import VirtualPixel
from tests.dice.pixels.support import until


def test_fields_are_in_bleak_s_shapes() -> None:
    T = AdvertisingData.Type
    data = bytes(AdvertisingData([
        (T.COMPLETE_LOCAL_NAME, b"Kostka"),
        (T.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, b"\x0a\x18"),
        (T.MANUFACTURER_SPECIFIC_DATA, b"\x39\x0d\x06\x21\x01\x05\x64"),
        (T.SERVICE_DATA_16_BIT_UUID, b"\x0a\x18" + bytes(8)),
    ]))
    adv = Advertisement(address=Address("F0:F0:F0:F0:F0:F0"), data_bytes=data)
    name, uuids, manuf, service = fields(adv)
    assert name == "Kostka" and uuids == [INFO_SERVICE]
    assert manuf == {0x0D39: bytes.fromhex("0621010564")} and service == {INFO_SERVICE: bytes(8)}


def test_a_lost_link_is_told_and_a_closed_one_is_not(air: Air) -> None:
    die = VirtualPixel(air, "Kostka")
    port = air.central()
    seen: list[object] = []
    air.loop.run(port.scan(0.1, seen.append))
    lost: list[str] = []
    link = air.loop.run(port.connect(seen[0].address, print, lost.append))  # type: ignore[attr-defined]
    assert link.uuids == DIE_UUIDS
    die.away()
    assert until(lambda: lost)
    die.back()
    link = air.loop.run(port.connect(seen[0].address, print, lost.append))  # type: ignore[attr-defined]
    air.loop.run(link.close())
    die.roll(2)
    assert len(lost) == 1
    die.close()


def test_nobody_at_an_address_is_a_port_error(air: Air) -> None:
    with pytest.raises(PortError):
        air.loop.run(air.central().connect("F9:F9:F9:F9:F9:F9", print, print), timeout=10)
