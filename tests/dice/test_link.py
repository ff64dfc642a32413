"""companion.dice.link: the session both boards' readers share (a board's core only names its
frames and events), and the reader thread on loop://."""

from __future__ import annotations

import serial

from companion.dice.link import LinkCore, LinkReader, LinkStats
from companion.dice.protocol import Ack, Beat, Drop, Hello, Message, Roll, Sync, decode, encode
from tests.dice.support import Collector, wait_for

BOOT, OTHER = "3F2A9C01", "0BADCAFE"


class RollsOnly(LinkCore[tuple[str, int], LinkStats]):
    """A board whose only events are rolls; drops, SYNC and ACK are not its frames."""

    board = "the test board"
    silence = "silent"
    hello_type = Hello
    beat_type = Beat
    event_types = (Roll,)
    foreign = "wrong_boot"  # any counter will do: the frames that are not the board's

    def __init__(self, **kwargs: float) -> None:
        super().__init__(LinkStats(), **kwargs)
        self.beats: list[Beat] = []

    def _decode(self, line: bytes) -> Message:
        return decode(line)

    def _up(self, hello: Hello) -> tuple[str, int]:
        return ("up", hello.first)

    def _down(self, reason: str) -> tuple[str, int]:
        return (reason, 0)

    def _event(self, message: Roll) -> tuple[str, int]:
        return ("roll", message.value)

    def _beat(self, beat: Beat, events: list[tuple[str, int]]) -> None:
        self.beats.append(beat)


def hello(first: int = 1, boot: str = BOOT) -> bytes:
    return encode(Hello("pico", "1.0.0", boot, first))


def roll(seq: int, value: int, boot: str = BOOT) -> bytes:
    return encode(Roll(boot, seq, value))


def test_opening_asks_for_a_hello_and_the_hello_connects_and_is_acknowledged() -> None:
    core = RollsOnly()
    assert core.opened(0.0) == [encode(Sync())] and core.stats.syncs_sent == 1
    events, out = core.feed(hello(first=3), 0.1)
    assert events == [("up", 3)] and out == [encode(Ack(BOOT, 2))]
    assert core.connected and core.expected == 3 and core.stats.hellos == core.stats.connects == 1


def test_the_next_event_is_delivered_once_and_a_gap_waits_for_the_re_send() -> None:
    core = RollsOnly(sync_interval=0.5)
    core.opened(0.0)
    core.feed(hello(), 0.0)
    events, out = core.feed(roll(1, 4) + roll(1, 4) + roll(3, 2), 1.0)
    assert events == [("roll", 4)] and encode(Sync()) in out and encode(Ack(BOOT, 1)) in out
    assert core.stats.replayed == 1 and core.stats.out_of_order == 1
    events, _ = core.feed(roll(2, 6) + roll(3, 2), 1.1)
    assert events == [("roll", 6), ("roll", 2)]


def test_frames_that_are_not_the_boards_are_counted_in_its_counter() -> None:
    core = RollsOnly()
    core.opened(0.0)
    core.feed(hello(), 0.0)
    events, out = core.feed(encode(Drop(BOOT, 1, 400)) + encode(Ack(BOOT, 1)) + encode(Sync()), 0.1)
    assert events == [] and out == [] and core.stats.wrong_boot == 3 and core.stats.frames_ok == 1


def test_beats_of_the_connected_boot_go_to_the_board_others_ask_for_a_hello() -> None:
    core = RollsOnly(sync_interval=0.0)
    core.opened(0.0)
    _, out = core.feed(encode(Beat(BOOT, None)), 0.1)
    assert out == [encode(Sync())] and core.beats == []
    core.feed(hello(), 0.2)
    core.feed(encode(Beat(BOOT, 3900)) + encode(Beat(OTHER, 3900)), 0.3)
    assert core.beats == [Beat(BOOT, 3900)] and core.stats.heartbeats == 3


def test_a_new_boot_is_a_restart_and_a_later_first_counts_lost_events() -> None:
    core = RollsOnly()
    core.opened(0.0)
    core.feed(hello() + roll(1, 1), 0.0)
    events, _ = core.feed(hello(first=4), 0.1)
    assert events == [] and core.stats.lost_events == 2 and core.expected == 4
    events, _ = core.feed(hello(boot=OTHER), 0.2)
    assert events == [("the test board restarted", 0), ("up", 1)]


def test_the_reasons_to_close_name_the_board() -> None:
    core = RollsOnly(heartbeat_timeout=1.0)
    core.opened(0.0)
    assert core.tick(2.0)[1] == "no answer from the test board"
    core.feed(hello(), 2.0)
    assert core.tick(2.5) == ([], None)
    assert core.tick(3.5)[1] == "silent for 1.5 s"
    assert core.closed("gone") == [("gone", 0)] and core.closed("again") == []


def test_garbage_lines_add_up_the_damaged_lines() -> None:
    stats = LinkStats(truncated=1, too_long=2, bad_checksum=3, bad_syntax=4, bad_version=5,
                      bad_kind=6, bad_field=7, garbage_bytes=100)
    assert stats.garbage_lines == 28


class Reader(LinkReader[tuple[str, int], LinkStats]):
    thread_name = "test-reader"
    port_name = "the test port"

    def __init__(self, port: serial.SerialBase, got: Collector) -> None:
        super().__init__("loop://", RollsOnly(), serial_factory=lambda: port)
        self.got = got

    def _deliver(self, events: list[tuple[str, int]]) -> None:
        for event in events:
            self.got(event)


def test_the_reader_thread_feeds_the_core_delivers_and_answers() -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)
    got = Collector()
    reader = Reader(port, got)
    reader.start()
    try:
        port.write(hello() + roll(1, 5) + roll(1, 5))
        assert wait_for(lambda: ("roll", 5) in got.events)
        assert got.events == [("up", 1), ("roll", 5)]
        assert wait_for(lambda: reader.stats.acks_sent >= 1) and reader.connected
        stats = reader.stats
        assert stats is not reader.stats and stats.replayed == 1  # a snapshot
    finally:
        reader.stop()
        reader.stop()  # idempotent


def test_a_port_that_cannot_be_opened_is_counted_and_tried_again() -> None:
    tries: list[int] = []

    def broken() -> serial.SerialBase:
        tries.append(1)
        raise serial.SerialException("no such port")

    class Failing(Reader):
        def __init__(self) -> None:
            LinkReader.__init__(self, "loop://", RollsOnly(), serial_factory=broken,
                                reconnect_interval=0.01)
            self.got = Collector()

    reader = Failing()
    reader.start()
    try:
        assert wait_for(lambda: len(tries) >= 3)
        assert reader.stats.open_failures >= 3 and not reader.connected
    finally:
        reader.stop()
