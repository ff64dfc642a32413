"""dice.ble: the die's Nordic-UART-style GATT service carrying the line protocol."""

import sys

from dice import ble, link, protocol

from tests.firmware import support
from tests.firmware.dice.support import decode_frames

BOOT = "0BADF00D"


def radio():
    """The stub ``bluetooth`` module, its radio reset."""
    sys.path.insert(0, support.STUBS)
    try:
        support.forget(("bluetooth",))
        import bluetooth
    finally:
        sys.path.remove(support.STUBS)
    bluetooth.BLE().reset()
    return bluetooth


def make(name="Companion dice 3C4D"):
    bluetooth = radio()
    stream = ble.BleStream(bluetooth.BLE(), bluetooth.UUID, name)
    return stream, bluetooth.BLE()


def test_the_uuid_goes_into_the_advertisement_least_significant_byte_first():
    raw = ble.uuid_bytes(ble.SERVICE)
    assert len(raw) == 16
    assert raw[0] == 0x9E and raw[-1] == 0x6E
    assert ble.advertisement() == bytes((2, 1, 6, 17, 7)) + raw
    assert len(ble.advertisement()) <= 31


def test_it_registers_the_service_and_advertises_with_its_name():
    stream, radio_ = make()
    assert radio_.on and radio_.name == "Companion dice 3C4D"
    (service_uuid, chars), = radio_.services
    assert service_uuid.text == ble.SERVICE
    flags = {uuid.text: f for uuid, f in chars}
    assert flags[ble.TX] & ble.FLAG_NOTIFY
    assert flags[ble.RX] & ble.FLAG_WRITE_NO_RESPONSE and flags[ble.RX] & ble.FLAG_WRITE
    assert radio_.buffers[stream.rx] == (ble.RX_BUFFER, True)
    _interval, adv, resp = radio_.adverts[-1]
    assert adv == ble.advertisement()
    assert resp == bytes((20, 9)) + b"Companion dice 3C4D"  # length: the type byte and 19


def test_nothing_is_notified_without_a_central():
    stream, radio_ = make()
    stream.write(b"$D1,BEAT*00\n")
    assert radio_.notified == [] and stream.dropped == 12
    assert stream.read() is None


def test_frames_are_cut_to_the_mtu_and_arrive_whole():
    stream, radio_ = make()
    radio_.connect()
    frame = protocol.encode(protocol.DICE, "HELLO", ("pico-1A2B3C4D", "1.0.0", BOOT, 1))
    stream.write(frame)
    assert [len(d) for _c, _h, d in radio_.notified] == [20] * (len(frame) // 20) + (
        [len(frame) % 20] if len(frame) % 20 else [])
    assert radio_.received() == frame
    radio_.notified = []
    radio_.exchange_mtu(185)
    stream.write(frame)
    assert len(radio_.notified) == 1 and radio_.received() == frame


def test_what_the_central_writes_is_read_once_in_order():
    stream, radio_ = make()
    radio_.connect()
    radio_.write(ble.RX, b"$C1,SY")
    radio_.write(ble.RX, b"NC*..\n")
    assert stream.read() == b"$C1,SYNC*..\n"
    assert stream.read() is None


def test_a_full_inbox_drops_the_rest_and_counts_it():
    stream, radio_ = make()
    radio_.connect()
    radio_.write(ble.RX, b"x" * (ble.INBOX + 10))
    assert len(stream.read()) == ble.INBOX and stream.dropped == 10


def test_a_full_radio_buffer_drops_the_frame_without_raising():
    stream, radio_ = make()
    radio_.connect()
    radio_.full = True
    stream.write(b"y" * 45)
    assert stream.dropped == 45


def test_after_the_central_leaves_the_die_advertises_again():
    stream, radio_ = make()
    radio_.connect()
    before = len(radio_.adverts)
    radio_.disconnect()
    assert not stream.connected
    assert len(radio_.adverts) == before + 1


def test_the_link_over_the_air_resends_what_waited_while_nobody_listened():
    stream, radio_ = make()
    dice_link = link.Link(stream, "pico-9", "1.0.0", BOOT, lambda: 3900)
    dice_link.start(0)
    seq = dice_link.event("ROLL", 4, 10)  # nobody connected: lost on the air, kept in the outbox
    assert radio_.notified == []
    radio_.connect()
    radio_.write(ble.RX, protocol.encode(protocol.COMPANION, "SYNC"))
    dice_link.poll(20)
    frames = decode_frames(protocol, radio_.received())
    assert [f[1] for f in frames] == ["HELLO", "BEAT", "ROLL"]
    assert frames[1][2] == [BOOT, "3900"]
    assert frames[2][2] == [BOOT, str(seq), "4"]
    radio_.write(ble.RX, protocol.encode(protocol.COMPANION, "ACK", (BOOT, seq)))
    dice_link.poll(30)
    assert dice_link.outbox == []
