"""companion.dice.reader: the pure ReaderCore (and its fuzz), then DiceReader on loop:// and ptys."""

from __future__ import annotations

import os
import random
import threading
import time
import zlib
from collections.abc import Iterator

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice.protocol import Ack, Beat, Hello, Roll, Sync, decode, encode
from companion.dice.reader import (
    DiceBattery,
    DiceConnected,
    DiceDisconnected,
    DiceDrop,
    DiceEvent,
    DiceReader,
    DiceRoll,
    ReaderCore,
)
from companion.dice.sim import SimulatedDice
from tests.dice.support import Collector, wait_for

BOOT = "3F2A9C01"
OTHER = "0BADCAFE"


def hello(first: int = 1, boot: str = BOOT) -> bytes:
    return encode(Hello("pico-1", "1.0.0", boot, first))


def roll(seq: int, value: int, boot: str = BOOT) -> bytes:
    return encode(Roll(boot, seq, value))


def acks(out: list[bytes]) -> list[int]:
    return [m.seq for m in (decode(f[1:-2]) for f in out) if isinstance(m, Ack)]


def syncs(out: list[bytes]) -> int:
    return sum(isinstance(decode(f[1:-2]), Sync) for f in out)


# -- ReaderCore ---------------------------------------------------------------------


def test_hello_connects_and_rolls_are_delivered_in_order_and_acked() -> None:
    core = ReaderCore()
    assert syncs(core.opened(0.0)) == 1
    events, out = core.feed(hello() + roll(1, 4) + roll(2, 6), 0.1)
    assert events == [DiceConnected("pico-1", "1.0.0"), DiceRoll(4, 1), DiceRoll(6, 2)]
    assert acks(out) == [2]  # one cumulative ack per read
    assert core.connected and core.stats.rolls == 2 and core.stats.frames_ok == 3


def test_held_acknowledgements_wait_for_the_consumer_and_a_refusal_is_delivered_again() -> None:
    core = ReaderCore()
    core.hold_acks = True
    core.opened(0.0)
    events, out = core.feed(hello() + roll(1, 4) + roll(2, 6), 0.1)
    assert events[1:] == [DiceRoll(4, 1), DiceRoll(6, 2)] and acks(out) == []  # not yet
    core.refused(2)  # the second could not be kept: only the first is acknowledged
    ack = core.take_ack()
    assert ack is not None and acks([ack]) == [1] and core.take_ack() is None
    events, out = core.feed(roll(2, 6), 0.5)  # the dice sends it again: it counts again
    assert events == [DiceRoll(6, 2)] and core.stats.refused == 1
    ack = core.take_ack()
    assert ack is not None and acks([ack]) == [2]


def test_events_before_hello_wait_for_it() -> None:
    core = ReaderCore(sync_interval=1.0)
    core.opened(0.0)
    events, out = core.feed(roll(1, 3), 1.5)
    assert events == [] and core.stats.before_hello == 1
    assert syncs(out) == 1  # ask the dice to introduce itself
    events, _ = core.feed(hello() + roll(1, 3), 1.6)
    assert events[1:] == [DiceRoll(3, 1)]


def test_replayed_and_resent_events_are_counted_once() -> None:
    core = ReaderCore()
    core.opened(0.0)
    core.feed(hello() + roll(1, 2) + roll(2, 5), 0.0)
    events, out = core.feed(roll(1, 2) + roll(2, 5) + roll(2, 5), 0.1)
    assert events == [] and core.stats.replayed == 3
    assert acks(out) == [2]  # re-acknowledged so the dice stops re-sending


def test_a_gap_waits_for_the_resend_and_asks_for_it() -> None:
    core = ReaderCore(sync_interval=0.5)
    core.opened(0.0)
    core.feed(hello() + roll(1, 1), 0.0)
    events, out = core.feed(roll(3, 3), 1.0)  # seq 2 was lost on the line
    assert events == [] and core.stats.out_of_order == 1
    assert acks(out) == [1] and syncs(out) == 1
    events, _ = core.feed(hello(first=2) + roll(2, 2) + roll(3, 3), 1.1)
    assert events == [DiceRoll(2, 2), DiceRoll(3, 3)]


def test_events_the_dice_gave_up_on_are_skipped_and_counted() -> None:
    core = ReaderCore()
    core.opened(0.0)
    core.feed(hello() + roll(1, 1), 0.0)
    events, _ = core.feed(hello(first=5) + roll(5, 6), 1.0)
    assert events == [DiceRoll(6, 5)]
    assert core.stats.lost_events == 3


def test_a_restarted_dice_starts_a_new_sequence() -> None:
    core = ReaderCore()
    core.opened(0.0)
    core.feed(hello() + roll(1, 1) + roll(2, 2), 0.0)
    events, out = core.feed(hello(boot=OTHER) + roll(1, 5, boot=OTHER), 1.0)
    assert events == [DiceDisconnected("the dice restarted"), DiceConnected("pico-1", "1.0.0"), DiceRoll(5, 1)]
    assert acks(out) == [1]


def test_events_of_another_boot_are_refused() -> None:
    core = ReaderCore()
    core.opened(0.0)
    core.feed(hello(), 0.0)
    events, _ = core.feed(roll(1, 6, boot=OTHER), 5.0)
    assert events == [] and core.stats.wrong_boot == 1


def test_damage_is_counted_by_kind() -> None:
    core = ReaderCore()
    core.opened(0.0)
    core.feed(hello(), 0.0)
    good = roll(1, 4)
    junk = (
        b"\x00\xffnoise"  # 7 garbage bytes
        + good.replace(b",4*", b",5*")  # checksum
        + b"$D1,ROLL,3F2A"  # truncated by the next frame
        + encode(Ack(BOOT, 0))  # our own frame, echoed
        + b"$" + b"x" * 90 + b"\n"  # too long
        + good
    )
    events, _ = core.feed(junk, 0.1)
    assert events == [DiceRoll(4, 1)]
    stats = core.stats
    assert stats.bad_checksum == 1 and stats.truncated == 1 and stats.wrong_direction == 1
    assert stats.too_long == 1 and stats.garbage_bytes == 7 + 10  # 9 bytes past the limit and the "\n"
    assert stats.garbage_lines == 3


def test_battery_is_reported_on_connect_and_when_it_moves() -> None:
    core = ReaderCore(battery_step_mv=20)
    core.opened(0.0)
    beats = [3900, 3895, 3885, 3879, None, None, 3700]
    seen: list[DiceEvent] = []
    events, _ = core.feed(hello(), 0.0)
    for mv in beats:
        events, _ = core.feed(encode(Beat(BOOT, mv)), 0.0)
        seen += events
    assert seen == [DiceBattery(3900), DiceBattery(3879), DiceBattery(None), DiceBattery(3700)]


def test_silence_past_the_heartbeat_timeout_disconnects() -> None:
    core = ReaderCore(heartbeat_timeout=3.0)
    core.opened(0.0)
    core.feed(hello(), 1.0)
    assert core.tick(3.9) == ([], None)
    core.feed(encode(Beat(BOOT, None)), 3.9)
    out, reason = core.tick(7.0)
    assert reason is not None and "heartbeat" in reason
    assert core.closed(reason) == [DiceDisconnected(reason)]
    assert core.closed("again") == []  # only once


def test_waiting_for_hello_resends_sync_then_gives_up_on_the_port() -> None:
    core = ReaderCore(heartbeat_timeout=3.0, sync_interval=1.0)
    core.opened(0.0)
    assert core.tick(0.5) == ([], None)
    out, reason = core.tick(1.0)
    assert syncs(out) == 1 and reason is None
    _, reason = core.tick(3.5)
    assert reason == "no answer from the dice"
    assert core.closed(reason) == []  # it never connected: nothing to report


# -- the fuzz: 100,000 byte streams, never an exception, never a roll that was not sent ----

STREAMS_PER_EXAMPLE = 50
MUTATED_EXAMPLES = 1000  # x 50 = 50,000 mutated streams
RANDOM_EXAMPLES = 1000  # x 50 = 50,000 random streams
FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def frame(body: str) -> bytes:
    """A frame built the quick way (the fuzz makes a million of them); same bytes as encode()."""
    raw = body.encode()
    return b"$%s*%08X\r\n" % (raw, zlib.crc32(raw))


def genuine_session(rng: random.Random) -> tuple[bytes, dict[int, DiceEvent]]:
    """What a dice really sends: hello, numbered events (some re-sent), beats, echoes."""
    boot = f"{rng.getrandbits(32):08X}"
    sent: dict[int, DiceEvent] = {}
    frames = [frame(f"D1,HELLO,pico,1.0.0,{boot},1")]
    for seq in range(1, rng.randint(1, 10)):
        if rng.random() < 0.8:
            value = rng.randint(1, 6)
            sent[seq] = DiceRoll(value, seq)
            frames.append(frame(f"D1,ROLL,{boot},{seq},{value}"))
        else:
            ms = rng.randint(300, 900)
            sent[seq] = DiceDrop(seq, ms)
            frames.append(frame(f"D1,DROP,{boot},{seq},{ms}"))
        if rng.random() < 0.3:  # a re-send of something earlier
            frames.append(rng.choice(frames[1:]))
        if rng.random() < 0.2:
            frames.append(frame(f"D1,BEAT,{boot},{rng.choice(['-', '3870'])}"))
        if rng.random() < 0.1:  # another boot's roll (a stale frame): never ours
            frames.append(frame(f"D1,ROLL,{rng.getrandbits(32) ^ 1:08X},{seq},{rng.randint(1, 6)}"))
        if rng.random() < 0.1:
            frames.append(frame(f"C1,ACK,{boot},{seq}"))  # our own ack, echoed
    return b"".join(frames), sent


def test_quick_frames_are_the_protocol_frames() -> None:
    assert frame(f"D1,ROLL,{BOOT},7,5") == encode(Roll(BOOT, 7, 5))
    assert frame(f"D1,HELLO,pico,1.0.0,{BOOT},1") == encode(Hello("pico", "1.0.0", BOOT, 1))


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, int]:
    buf = bytearray(data)
    ops = rng.choice([0, 1, 1, 2, 3, 5, 8])
    for _ in range(ops):
        pos = rng.randrange(len(buf) + 1)
        op = rng.randrange(8)
        if op == 0 and pos < len(buf):
            buf[pos] ^= 1 << rng.randrange(8)  # a flipped bit
        elif op == 1 and pos < len(buf):
            buf[pos] = rng.randrange(256)  # a wrong byte
        elif op == 2:
            buf[pos:pos] = rng.randbytes(rng.randint(1, 12))  # inserted noise
        elif op == 3:
            del buf[pos : pos + rng.randint(1, 20)]  # lost bytes
        elif op == 4:
            end = min(len(buf), pos + rng.randint(1, 80))
            buf[end:end] = buf[pos:end]  # replayed stretch
        elif op == 5:
            del buf[pos:]  # cut off
        elif op == 6:
            buf[pos:pos] = rng.choice([b"$", b"\n", b"\r\n", b"*", b",", b"$D1,ROLL,"])
        else:
            other = rng.randrange(len(buf) + 1)
            end = min(len(buf), pos + rng.randint(1, 40))
            piece = bytes(buf[pos:end])
            del buf[pos:end]
            other = min(other, len(buf))
            buf[other:other] = piece  # a stretch moved elsewhere
    return bytes(buf), ops


def feed_in_chunks(rng: random.Random, core: ReaderCore, data: bytes) -> list[DiceEvent]:
    events: list[DiceEvent] = []
    pos = 0
    sizes = [1] if rng.random() < 0.05 else [2, 7, 40, 4096]
    while pos < len(data):
        size = rng.choice(sizes)
        got, _ = core.feed(data[pos : pos + size], 0.0)
        events += got
        pos += size
    return events


def check_delivery(events: list[DiceEvent], sent: dict[int, DiceEvent]) -> list[int]:
    delivered = [e for e in events if isinstance(e, DiceRoll | DiceDrop)]
    for event in delivered:
        assert sent.get(event.seq) == event, f"{event} was never sent"
    seqs = [e.seq for e in delivered]
    assert seqs == list(range(1, len(seqs) + 1)), f"not delivered once and in order: {seqs}"
    return seqs


@settings(FUZZ, max_examples=MUTATED_EXAMPLES)
@given(st.integers(0, 2**64 - 1))
def test_fuzz_mutated_streams_never_invent_or_double_a_roll(seed: int) -> None:
    rng = random.Random(seed)  # Hypothesis picks the seeds; each drives 50 streams quickly
    for _ in range(STREAMS_PER_EXAMPLE):
        data, sent = genuine_session(rng)
        damaged, ops = mutate(rng, data)
        core = ReaderCore()
        core.opened(0.0)
        seqs = check_delivery(feed_in_chunks(rng, core, damaged), sent)
        if ops == 0:  # undamaged: everything arrives
            assert seqs == sorted(sent)


@settings(FUZZ, max_examples=RANDOM_EXAMPLES)
@given(st.integers(0, 2**64 - 1))
def test_fuzz_random_streams_never_make_a_roll(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(STREAMS_PER_EXAMPLE):
        core = ReaderCore()
        core.opened(0.0)
        core.feed(HELLO, 0.0)  # connected, expecting seq 1
        parts = []
        for _ in range(rng.randint(0, 8)):
            kind = rng.randrange(4)
            if kind == 0:
                parts.append(rng.randbytes(rng.randint(0, 60)))
            elif kind == 1:
                parts.append(bytes(rng.choices(FRAME_BYTES, k=rng.randint(1, 40))))
            elif kind == 2:
                parts.append(b"$D1,ROLL," + BOOT.encode() + b"," + rng.randbytes(rng.randint(1, 12)) + b"\r\n")
            else:
                parts.append(b"$" + rng.randbytes(rng.randint(0, 90)) + b"\n")
        events = feed_in_chunks(rng, core, b"".join(parts))
        assert not [e for e in events if isinstance(e, DiceRoll | DiceDrop)]


FRAME_BYTES = b"$*,\r\n0123456789ABCDEFD1ROLL"
HELLO = encode(Hello("pico", "1.0.0", BOOT, 1))


def test_fuzz_would_catch_a_reader_that_forgets_dedup(monkeypatch: pytest.MonkeyPatch) -> None:
    # The fuzz property can fail: a core that delivers every frame gets caught.
    rng = random.Random(5)
    data, sent = genuine_session(rng)
    data += data  # the whole session replayed
    core = ReaderCore()
    core.opened(0.0)
    monkeypatch.setattr(core, "expected", 1)
    events, _ = core.feed(data, 0.0)
    core.expected = 1
    more, _ = core.feed(data, 0.0)  # forget what was delivered: doubles appear
    with pytest.raises(AssertionError):
        check_delivery(events + more, sent)


# -- DiceReader on loop:// ------------------------------------------------------------


def test_reader_on_a_pyserial_url() -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)
    got = Collector()
    reader = DiceReader("loop://", got, serial_factory=lambda: port)
    reader.start()
    try:
        port.write(hello() + b"garbage" + roll(1, 5) + roll(1, 5))
        assert wait_for(lambda: len(got.of(DiceRoll)) == 1)
        time.sleep(0.05)
        assert got.of(DiceRoll) == [DiceRoll(5, 1)]
        stats = reader.stats
        assert stats.replayed == 1 and stats.garbage_bytes == 7
        assert stats.wrong_direction >= 1  # loop:// echoes our SYNC and ACK back
        assert reader.connected
    finally:
        reader.stop()
        reader.stop()  # idempotent


def test_consumer_errors_are_counted_and_the_roll_still_acked() -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)

    def broken(event: DiceEvent) -> None:
        raise RuntimeError("the consumer broke")

    with DiceReader("loop://", broken, serial_factory=lambda: port) as reader:
        port.write(hello() + roll(1, 5))
        assert wait_for(lambda: reader.stats.consumer_errors == 2)  # connected + roll
        assert wait_for(lambda: reader.stats.acks_sent >= 1)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        DiceReader("/dev/null", print, reconnect_interval=0)


# -- DiceReader with the simulated dice on a pty ------------------------------------------


@pytest.fixture
def sim() -> Iterator[SimulatedDice]:
    dice = SimulatedDice(seed=7, battery_mv=3950, heartbeat_ms=200)
    yield dice
    dice.close()


def start_reader(sim: SimulatedDice, got: Collector) -> DiceReader:
    reader = DiceReader(sim.path, got, reconnect_interval=0.05)
    reader.start()
    assert wait_for(lambda: reader.connected)
    return reader


def test_rolls_arrive_once_each(sim: SimulatedDice) -> None:
    got = Collector()
    reader = start_reader(sim, got)
    try:
        faces = [sim.roll() for _ in range(20)]
        sim.drop(500)
        assert wait_for(lambda: len(got.of(DiceDrop)) == 1)
        assert got.of(DiceRoll) == [DiceRoll(face, seq) for seq, face in enumerate(faces, 1)]
        assert got.of(DiceDrop) == [DiceDrop(21, 500)]
        assert got.of(DiceConnected) == [DiceConnected("sim", "sim-1.0.0")]
        assert wait_for(lambda: sim.unacked == 0)
        assert got.of(DiceBattery)[0] == DiceBattery(3950)
    finally:
        reader.stop()


def test_unplug_and_replug_lose_and_double_nothing(sim: SimulatedDice) -> None:
    got = Collector()
    reader = start_reader(sim, got)
    try:
        before = [sim.roll() for _ in range(3)]
        assert wait_for(lambda: len(got.of(DiceRoll)) == 3)
        sim.unplug()
        assert not os.path.lexists(sim.path)
        assert wait_for(lambda: len(got.of(DiceDisconnected)) == 1)
        assert not reader.connected
        during = [sim.roll() for _ in range(2)]  # made while the link is down
        time.sleep(0.2)
        sim.replug()
        assert wait_for(lambda: len(got.of(DiceRoll)) == 5)
        after = [sim.roll()]
        assert wait_for(lambda: len(got.of(DiceRoll)) == 6)
        time.sleep(0.4)  # re-send timers run out: still no double
        faces = before + during + after
        assert got.of(DiceRoll) == [DiceRoll(face, seq) for seq, face in enumerate(faces, 1)]
        kinds = [type(e).__name__ for e in got.events if not isinstance(e, DiceBattery)]
        assert kinds == ["DiceConnected"] + ["DiceRoll"] * 3 + ["DiceDisconnected", "DiceConnected"] + ["DiceRoll"] * 3
        assert got.of(DiceDisconnected)[0].reason == "the dice port vanished"
    finally:
        reader.stop()


def test_lost_acks_make_resends_that_count_once(sim: SimulatedDice) -> None:
    got = Collector()
    reader = start_reader(sim, got)
    try:
        sim.ignore_acks = True
        faces = [sim.roll(), sim.roll()]
        assert wait_for(lambda: reader.stats.replayed >= 4)  # re-sent every 300 ms
        sim.ignore_acks = False
        assert wait_for(lambda: sim.unacked == 0)
        assert got.of(DiceRoll) == [DiceRoll(faces[0], 1), DiceRoll(faces[1], 2)]
    finally:
        reader.stop()


def test_line_noise_is_counted_and_ignored(sim: SimulatedDice) -> None:
    got = Collector()
    reader = start_reader(sim, got)
    try:
        sim.noise(b"\x00\xff\xfe garbage $D1,ROLL,1*\r\n" + b"$D1,ROLL," + sim.boot_id.encode() + b",1,6*00000000\r\n")
        face = sim.roll()
        assert wait_for(lambda: len(got.of(DiceRoll)) == 1)
        stats = reader.stats
        assert got.of(DiceRoll) == [DiceRoll(face, 1)]
        assert stats.garbage_bytes >= 12 and stats.bad_checksum == 1 and stats.bad_syntax == 1
    finally:
        reader.stop()


def test_a_silent_dice_is_reported_and_the_port_reopened() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    got = Collector()
    reader = DiceReader(path, got, heartbeat_timeout=0.3, reconnect_interval=0.05)
    reader.start()
    try:
        assert wait_for(lambda: os.read(master, 100).startswith(b"$C1,SYNC"))  # it asks for hello
        os.write(master, hello())
        assert wait_for(lambda: reader.connected)
        assert wait_for(lambda: len(got.of(DiceDisconnected)) == 1, timeout=3)
        assert "no heartbeat" in got.of(DiceDisconnected)[0].reason
        # the reopened port is heard again (keep saying hello: bytes written while the
        # port was closed are flushed when it reopens)
        assert wait_for(lambda: os.write(master, hello()) > 0 and reader.connected, timeout=3)
    finally:
        reader.stop()
        os.close(master)
        os.close(slave)


def test_the_reader_waits_for_a_dice_that_is_not_there_yet(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "dice")
    got = Collector()
    reader = DiceReader(path, got, reconnect_interval=0.05)
    reader.start()
    try:
        time.sleep(0.2)
        assert not reader.connected and got.events == []
        with SimulatedDice(seed=1, link_path=path) as dice:
            assert wait_for(lambda: reader.connected)
            face = dice.roll()
            assert wait_for(lambda: got.of(DiceRoll) == [DiceRoll(face, 1)])
    finally:
        reader.stop()


def test_stop_returns_promptly_even_while_waiting() -> None:
    reader = DiceReader("/nonexistent/companion-dice", print, reconnect_interval=5.0)
    reader.start()
    time.sleep(0.05)
    started = time.monotonic()
    stopper = threading.Thread(target=reader.stop)
    stopper.start()
    stopper.join(2.0)
    assert not stopper.is_alive() and time.monotonic() - started < 2.0


def test_with_receipts_a_roll_is_acknowledged_only_once_it_was_taken(sim: SimulatedDice) -> None:
    from companion.inputs.events import Receipt

    verdicts = [False, True]  # the first delivery is refused (the disk was full), then taken
    seen: list[DiceRoll] = []

    def consumer(event: DiceEvent) -> Receipt | None:
        if not isinstance(event, DiceRoll):
            return None
        seen.append(event)
        receipt = Receipt()
        if not verdicts.pop(0):
            receipt.refuse()
        receipt.settle()
        return receipt

    reader = DiceReader(sim.path, consumer, confirm=True)
    reader.start()
    try:
        assert wait_for(lambda: reader.connected)
        sim.roll(5)
        assert wait_for(lambda: len(seen) == 2, timeout=5)  # offered again after the refusal
        assert wait_for(lambda: sim.unacked == 0, timeout=5)
        assert [e.value for e in seen] == [5, 5] and reader.stats.refused == 1
    finally:
        reader.stop()
