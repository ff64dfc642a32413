"""padhub.app: scans -> PAD frames with the sample times, heartbeats, acks."""

import tablelink
import tablewire
from padhub import layout
from padhub.app import Hub
from padhub.sense import Detector

from tests.firmware.padhub.support import Table
from tests.firmware.support import FakeStream

BOOT = "5EED1234"


def make(table):
    stream = FakeStream()
    hub = None

    def beat():
        return hub.beat_fields()

    link = tablelink.Link(stream, tablewire.PADHUB, "hub-1", "1.0.0", BOOT,
                          (layout.CHANNELS, layout.SCAN_US), beat)
    hub = Hub(table.source, link, Detector(settle=8), missed=lambda: 3)
    return hub, stream


def test_the_hub_says_hello_with_its_channels_and_scan_period():
    hub, stream = make(Table())
    hub.step(0, budget=1)
    frames = stream.frames()
    assert frames[0] == ("P1", "HELLO", ["hub-1", "1.0.0", BOOT, "1", "56", "993"])
    assert frames[1] == ("P1", "BEAT", [BOOT, "0", "3"])


def test_touches_become_pad_frames_with_their_sample_times():
    table = Table()
    hub, stream = make(table)
    a, b = layout.channel(1, 2), layout.channel(2, 2)
    table.touch(a, layout.sample_us(20, a) - 1, layout.sample_us(40, a) - 1)
    table.touch(b, layout.sample_us(21, b) - 1)
    hub.step(0, budget=50)
    pads = [f[2] for f in stream.frames() if f[1] == "PAD"]
    assert pads == [
        [BOOT, "1", str(a), str(layout.sample_us(20, a)), "1"],
        [BOOT, "2", str(b), str(layout.sample_us(21, b)), "1"],
        [BOOT, "3", str(a), str(layout.sample_us(40, a)), "0"],
    ]
    assert hub.events == 3 and hub.last_scan == 49
    assert hub.beat_fields() == (49 * layout.SCAN_US, 3)


def test_events_wait_for_the_ack_and_the_led_shows_it():
    class Led:
        level = 0

        def value(self, v):
            self.level = v

    table = Table()
    hub, stream = make(table)
    hub.status_led = Led()
    table.touch(0, layout.sample_us(10, 0) - 1)
    hub.step(0, budget=20)
    assert hub.status_led.level == 1 and len(hub.link.outbox) == 1
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "ACK", (BOOT, 1)))
    hub.step(5, budget=0)
    assert hub.status_led.level == 0 and not hub.link.outbox


def test_a_source_with_nothing_ready_still_keeps_the_link():
    stream = FakeStream()
    link = tablelink.Link(stream, tablewire.PADHUB, "hub-1", "1.0.0", BOOT, (56, 993),
                          lambda: (0, 0))
    hub = Hub(lambda: None, link)
    hub.step(0)
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "SYNC"))
    hub.step(1)
    assert [f[1] for f in stream.frames()] == ["HELLO", "BEAT", "HELLO", "BEAT"]  # no scan: no raw


def test_after_a_sync_the_hub_reports_every_channels_raw_counts():
    table = Table()
    hub, stream = make(table)
    hub.step(0, budget=20)  # settled (settle=8)
    stream.take()
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "SYNC"))
    hub.step(1, budget=1)
    frames = stream.frames()
    raw = [f[2] for f in frames if f[1] == "RAW"]
    assert [f[1] for f in frames][:2] == ["HELLO", "BEAT"]
    assert len(raw) == 8  # a few a step: the scans go on
    for step in range(2, 12):
        hub.step(step, budget=1)
    raw += [f[2] for f in stream.frames() if f[1] == "RAW"]
    assert [int(f[1]) for f in raw] == list(range(layout.CHANNELS))  # each channel once, in order
    counts = table.counts(hub.last_scan)
    for boot, ch, base, count, limit in raw[8:]:
        assert boot == BOOT and limit == "6000"
        assert int(base) == table.base[int(ch)] and abs(int(count) - counts[int(ch)]) == 0


def test_the_raw_report_waits_for_the_baselines_to_settle():
    table = Table()
    hub, stream = make(table)
    hub.step(0, budget=2)
    stream.incoming.extend(tablewire.encode(tablewire.COMPANION, "SYNC"))
    hub.step(1, budget=1)
    assert [f for f in stream.frames() if f[1] == "RAW"] == []
    hub.step(2, budget=10)  # settled (settle=8)
    raw = [f[2] for f in stream.frames() if f[1] == "RAW"]
    assert raw[0][1:3] == ["0", str(table.base[0])]


def test_the_raw_report_comes_again_every_ten_seconds():
    table = Table()
    hub, stream = make(table)
    hub.step(0, budget=10)
    for now in range(1, 12):
        hub.step(now, budget=1)
    assert [f for f in stream.frames() if f[1] == "RAW"] == []
    hub.step(10_000, budget=1)
    for now in range(10_001, 10_010):
        hub.step(now, budget=1)
    assert len([f for f in stream.frames() if f[1] == "RAW"]) == layout.CHANNELS
