"""tablelink: a board's link with several fields per event (the pad hub's), acks, re-sends."""

import tablelink
import tablewire

from tests.firmware.support import FakeStream

BOOT = "0BADCAFE"


def make():
    stream = FakeStream()
    state = {"us": 0, "missed": 0}
    link = tablelink.Link(stream, tablewire.PADHUB, "hub-1", "1.0.0", BOOT, (48, 993),
                          lambda: (state["us"], state["missed"]))
    link.start(0)
    return link, stream, state


def test_hello_carries_the_extra_fields_and_the_beat_its_own():
    link, stream, state = make()
    assert stream.frames() == [("P1", "HELLO", ["hub-1", "1.0.0", BOOT, "1", "48", "993"]),
                               ("P1", "BEAT", [BOOT, "0", "0"])]
    state["us"], state["missed"] = 1000993, 2
    link.poll(tablelink.BEAT_MS)
    assert stream.frames() == [("P1", "BEAT", [BOOT, "1000993", "2"])]


def test_events_with_several_fields_wait_for_their_ack_and_are_resent():
    link, stream, _ = make()
    stream.frames()
    assert link.event("PAD", (3, 1500, 1), 10) == 1
    assert link.event("PAD", (3, 90500, 0), 20) == 2
    assert stream.frames() == [("P1", "PAD", [BOOT, "1", "3", "1500", "1"]),
                               ("P1", "PAD", [BOOT, "2", "3", "90500", "0"])]
    link.poll(10 + tablelink.RESEND_MS)
    assert [f[2][1] for f in stream.frames() if f[1] == "PAD"] == ["1", "2"]
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "ACK", (BOOT, 1)))
    link.poll(400)
    assert [seq for seq, _ in link.outbox] == [2] and link.first() == 2


def test_sync_brings_hello_and_everything_unacknowledged():
    link, stream, _ = make()
    link.event("PAD", (0, 5, 1), 0)
    stream.frames()
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "SYNC"))
    link.poll(1)
    kinds = [f[1] for f in stream.frames()]
    assert kinds == ["HELLO", "BEAT", "PAD"] and link.syncs == 1


def test_frames_of_another_board_are_refused():
    link, stream, _ = make()
    stream.incoming.extend(tablewire.encode(tablewire.DICE, "ROLL", (BOOT, 1, 4)))
    link.poll(1)
    assert link.rejected == 1
