"""dice.link: sequence numbers, outbox, acks, re-sends, SYNC, heartbeats."""

from dice import link, protocol

from tests.firmware.dice.support import Clock, decode_frames
from tests.firmware.support import FakeStream

BOOT = "0BADCAFE"


def make(outbox_size=32, battery=None):
    stream = FakeStream()
    clock = Clock(1000)
    dice = link.Link(stream, "pico-1", "1.0.0", BOOT, battery=battery, outbox_size=outbox_size)
    dice.start(clock.now)
    return dice, stream, clock


def frames(stream):
    return decode_frames(protocol, stream.take())


def ack(seq, boot=BOOT):
    return protocol.encode(protocol.COMPANION, "ACK", (boot, seq))


def test_start_says_hello_and_beats():
    _, stream, _ = make(battery=lambda: 3870)
    assert frames(stream) == [
        ("D1", "HELLO", ["pico-1", "1.0.0", BOOT, "1"]),
        ("D1", "BEAT", [BOOT, "3870"]),
    ]


def test_unknown_battery_is_a_dash():
    _, stream, _ = make()
    assert frames(stream)[1] == ("D1", "BEAT", [BOOT, "-"])


def test_events_are_numbered_and_sent_at_once():
    dice, stream, clock = make()
    stream.take()
    assert dice.event("ROLL", 4, clock.now) == 1
    assert dice.event("DROP", 420, clock.now) == 2
    assert dice.event("ROLL", 6, clock.now) == 3
    assert frames(stream) == [
        ("D1", "ROLL", [BOOT, "1", "4"]),
        ("D1", "DROP", [BOOT, "2", "420"]),
        ("D1", "ROLL", [BOOT, "3", "6"]),
    ]
    assert [seq for seq, _ in dice.outbox] == [1, 2, 3]


def test_cumulative_ack_clears_the_outbox():
    dice, stream, clock = make()
    for face in (1, 2, 3):
        dice.event("ROLL", face, clock.now)
    stream.incoming.extend(ack(2))
    dice.poll(clock.now)
    assert [seq for seq, _ in dice.outbox] == [3]
    assert dice.acked == 2 and dice.first() == 3
    stream.incoming.extend(ack(3))
    dice.poll(clock.now)
    assert dice.outbox == [] and dice.first() == 4


def test_unacked_events_are_resent_in_order_until_acked():
    dice, stream, clock = make()
    dice.event("ROLL", 5, clock.now)
    dice.event("ROLL", 2, clock.now)
    stream.take()
    dice.poll(clock.advance(link.RESEND_MS - 1))
    assert frames(stream) == []
    dice.poll(clock.advance(1))
    assert [f[2][1] for f in frames(stream)] == ["1", "2"]
    stream.incoming.extend(ack(2))
    dice.poll(clock.advance(link.RESEND_MS))
    assert [f for f in frames(stream) if f[1] == "ROLL"] == []


def test_sync_gets_hello_with_first_unacked_and_a_resend():
    dice, stream, clock = make()
    for face in (3, 4, 5):
        dice.event("ROLL", face, clock.now)
    stream.incoming.extend(ack(1))
    dice.poll(clock.now)
    stream.take()
    stream.incoming.extend(protocol.encode(protocol.COMPANION, "SYNC"))
    dice.poll(clock.advance(10))
    got = frames(stream)
    assert got[0] == ("D1", "HELLO", ["pico-1", "1.0.0", BOOT, "2"])
    assert got[1][1] == "BEAT"
    assert got[2:] == [("D1", "ROLL", [BOOT, "2", "4"]), ("D1", "ROLL", [BOOT, "3", "5"])]


def test_acks_for_another_boot_or_the_future_are_ignored():
    dice, stream, clock = make()
    dice.event("ROLL", 1, clock.now)
    stream.incoming.extend(ack(1, boot="12345678"))
    stream.incoming.extend(ack(9))
    dice.poll(clock.now)
    assert len(dice.outbox) == 1
    assert dice.rejected == 2


def test_garbage_and_echoed_frames_are_ignored():
    dice, stream, clock = make()
    stream.take()
    dice.event("ROLL", 1, clock.now)
    echo = stream.take()
    stream.incoming.extend(b"\x00\xffATZ\r\n$C1,ACK,0BADCAFE,1*00000000\r\n" + echo + echo)
    dice.poll(clock.now)
    assert len(dice.outbox) == 1
    assert dice.rejected == 3  # a bad checksum and the dice's own frame echoed twice


def test_outbox_overflow_drops_the_oldest_and_hello_says_so():
    dice, stream, clock = make(outbox_size=3)
    for face in (1, 2, 3, 4, 5):
        dice.event("ROLL", face, clock.now)
    assert [seq for seq, _ in dice.outbox] == [3, 4, 5]
    assert dice.lost == 2
    assert dice.first() == 3
    stream.take()
    stream.incoming.extend(protocol.encode(protocol.COMPANION, "SYNC"))
    dice.poll(clock.now)
    assert frames(stream)[0][2][3] == "3"


def test_heartbeat_every_second():
    dice, stream, clock = make(battery=lambda: 4012)
    stream.take()
    beats = 0
    for _ in range(300):  # three seconds in 10 ms ticks
        dice.poll(clock.advance(10))
        beats += len([f for f in frames(stream) if f[1] == "BEAT"])
    assert beats == 3


def test_lost_acks_mode_keeps_resending():
    dice, stream, clock = make()
    dice.ignore_acks = True
    dice.event("ROLL", 2, clock.now)
    stream.incoming.extend(ack(1))
    dice.poll(clock.now)
    assert len(dice.outbox) == 1
