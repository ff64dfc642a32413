"""The pad hub's adapter: the link's rules (pure core), pad events like the GPIO pads', and the
hub's stream through the real reader giving exact order one scan period apart."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.devices.pads.hub import (
    HubCore,
    HubDown,
    HubEdge,
    HubUp,
    PadHub,
    hub_channel,
    hub_pads,
)
from companion.devices.pads.hub_sim import SimulatedHub
from companion.dice.protocol import Ack, HubBeat, HubHello, HubRaw, PadEdge, Roll, Sync, encode
from companion.inputs.pads import (
    Pad,
    PadChannel,
    PadChannels,
    PadLink,
    PadReleased,
    PadStuck,
    PadTouch,
)
from tests.dice.support import wait_for

BOOT, BOOT2 = "3F2A9C01", "0BADCAFE"
HELLO = encode(HubHello("hub-1", "1.0.0", BOOT, 1, 56, 993))


def edge(seq: int, channel: int, us: int, touched: bool = True, boot: str = BOOT) -> bytes:
    return encode(PadEdge(boot, seq, channel, us, touched))


# --- channels ---------------------------------------------------------------------------------


def test_channels_follow_the_hubs_wiring_and_six_seats_make_42_pads():
    # a multiplexer under each pile (pile t: t - 1) and the graveyard (6); slot s - 1 for seat s
    assert hub_channel(Pad(1, 1)) == 0 and hub_channel(Pad(1, "g")) == 48
    assert hub_channel(Pad(2, 1)) == 1 and hub_channel(Pad(1, 2)) == 8
    assert hub_channel(Pad(6, 6)) == 45 and hub_channel(Pad(6, "g")) == 53
    pads = hub_pads(6)
    assert len(pads) == 42 and len(set(pads.values())) == 42
    assert len(hub_pads(4)) == 20 and len(hub_pads(5)) == 30
    for bad in (Pad(7, 1), Pad(1, 7)):
        with pytest.raises(ValueError):
            hub_channel(bad)
    with pytest.raises(ValueError, match="2 to 6"):
        hub_pads(7)


def test_the_channels_are_the_firmwares():
    from companion.devices.pads.hub_sim import load_firmware

    layout = load_firmware().layout
    for pad, ch in hub_pads(6).items():
        assert layout.channel(pad.seat, pad.target) == ch
        assert layout.pad(ch) == (pad.seat, pad.target)


# --- the core ---------------------------------------------------------------------------------


def test_a_hello_connects_and_edges_are_delivered_once_in_order_and_acknowledged():
    core = HubCore()
    assert core.opened(0.0) == [encode(Sync())]
    events, out = core.feed(HELLO + edge(1, 3, 1000) + edge(2, 3, 90000, False), 0.1)
    assert events == [HubUp("hub-1", "1.0.0", 56, 993), HubEdge(3, 1000, True, BOOT),
                      HubEdge(3, 90000, False, BOOT)]
    assert out == [encode(Ack(BOOT, 2))]
    events, out = core.feed(edge(1, 3, 1000) + edge(2, 3, 90000, False), 0.2)  # re-sent
    assert events == [] and core.stats.replayed == 2 and out == [encode(Ack(BOOT, 2))]
    assert core.scan_us == 993


def test_a_gap_waits_for_the_re_send_and_asks_for_it():
    core = HubCore()
    core.opened(0.0)
    core.feed(HELLO, 0.0)
    events, out = core.feed(edge(2, 5, 2000), 2.0)
    assert events == [] and core.stats.out_of_order == 1 and encode(Sync()) in out
    events, _ = core.feed(edge(1, 4, 1000) + edge(2, 5, 2000), 2.1)
    assert [e.channel for e in events if isinstance(e, HubEdge)] == [4, 5]


def test_edges_before_the_hello_or_of_another_boot_are_not_delivered():
    core = HubCore()
    core.opened(0.0)
    events, out = core.feed(edge(1, 3, 10), 0.0)
    assert events == [] and core.stats.before_hello == 1
    core.feed(HELLO, 0.0)
    events, _ = core.feed(edge(1, 3, 10, boot=BOOT2), 0.0)
    assert events == [] and core.stats.wrong_boot == 1


def test_a_restarted_hub_is_a_disconnect_and_a_connect():
    core = HubCore()
    core.opened(0.0)
    core.feed(HELLO, 0.0)
    events, _ = core.feed(encode(HubHello("hub-1", "1.0.0", BOOT2, 1, 56, 993)), 1.0)
    assert events == [HubDown("the pad hub restarted"), HubUp("hub-1", "1.0.0", 56, 993)]


def test_silence_closes_and_other_talkers_are_counted_not_delivered():
    core = HubCore(heartbeat_timeout=3.0)
    core.opened(0.0)
    core.feed(HELLO + encode(HubBeat(BOOT, 5000, 2)), 0.5)
    assert core.stats.missed_scans == 2
    events, _ = core.feed(encode(Roll(BOOT, 1, 4)) + encode(Ack(BOOT, 1)), 1.0)
    assert events == [] and core.stats.not_from_a_hub == 2
    assert core.tick(3.0) == ([], None)
    assert core.tick(4.1)[1] is not None
    assert core.closed("gone") == [HubDown("gone")] and core.closed("again") == []


def test_damaged_lines_are_counted_by_reason():
    core = HubCore()
    core.opened(0.0)
    bad = bytearray(edge(1, 3, 10))
    bad[10] ^= 1
    core.feed(bytes(bad) + b"noise\r\n", 0.0)
    assert core.stats.bad_checksum == 1 and core.stats.garbage_bytes == 7


# --- the adapter, fed by hand -----------------------------------------------------------------


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def adapter(**kwargs):
    got: list = []
    clock = Clock()
    hub = PadHub(hub_pads(4), got.append, "loop://", start=False, clock=clock, **kwargs)
    hub.feed(HELLO)
    return hub, got, clock


def test_edges_become_the_same_pad_events_as_the_gpio_pads():
    hub, got, _ = adapter()
    a, b = hub_channel(Pad(2, 3)), hub_channel(Pad(3, 3))
    hub.feed(edge(1, a, 5_000) + edge(2, b, 12_000) + edge(3, a, 80_000, False) + edge(4, 46, 1))
    assert got[0] == PadLink(True, "hub-1 1.0.0")
    assert got[1:] == [PadTouch(2, 3, 5_000, 0.0), PadTouch(3, 3, 12_000, 7.0)]


def test_offsets_are_subtracted_and_the_tick_is_the_hubs_time():
    hub, got, _ = adapter(offsets={Pad(3, 3): 2.5})
    hub.feed(edge(1, hub_channel(Pad(2, 3)), 5_000) + edge(2, hub_channel(Pad(3, 3)), 12_000))
    assert [(e.tick, e.ms) for e in got[1:]] == [(5_000, 0.0), (12_000, 4.5)]
    hub.set_offsets({})
    hub.feed(edge(3, hub_channel(Pad(1, 1)), 20_000))
    assert got[-1].ms == 15.0


def test_chatter_within_the_window_is_one_touch():
    hub, got, _ = adapter()
    ch = hub_channel(Pad(1, 1))
    hub.feed(edge(1, ch, 1_000) + edge(2, ch, 40_000, False) + edge(3, ch, 45_000)
             + edge(4, ch, 90_000, False) + edge(5, ch, 200_000))
    assert [e.tick for e in got if isinstance(e, PadTouch)] == [1_000, 200_000]
    assert hub.chatter_count == 1


def test_a_stuck_pad_is_reported_once_ignored_and_released():
    hub, got, clock = adapter(stuck_after_s=5.0)
    ch = hub_channel(Pad(1, "g"))
    hub.feed(edge(1, ch, 1_000))
    clock.now += 4.9
    hub.poll()
    assert not any(isinstance(e, PadStuck) for e in got)
    clock.now += 0.2
    hub.poll()
    hub.poll()
    assert [e for e in got if isinstance(e, PadStuck)] == [PadStuck(1, "g")]
    assert hub.stuck == {Pad(1, "g")}
    hub.feed(edge(2, ch, 9_000_000, False))
    assert got[-1] == PadReleased(1, "g") and hub.stuck == frozenset()


def test_a_restarted_hubs_times_continue_after_the_old_ones():
    hub, got, clock = adapter()
    hub.feed(edge(1, 0, 500_000))
    clock.now += 2.0
    hub.feed(encode(HubHello("hub-1", "1.0.0", BOOT2, 1, 56, 993)) + edge(1, 0, 3_000, boot=BOOT2))
    touches = [e for e in got if isinstance(e, PadTouch)]
    assert touches[0].ms == 0.0 and touches[1].ms == pytest.approx(2000.0)
    assert [e for e in got if isinstance(e, PadLink)] == [
        PadLink(True, "hub-1 1.0.0"), PadLink(False, "the pad hub restarted"),
        PadLink(True, "hub-1 1.0.0")]


def test_two_pads_may_not_share_a_channel():
    with pytest.raises(ValueError, match="share"):
        PadHub({Pad(1, 1): 0, Pad(1, 2): 0}, print, "loop://", start=False)


# --- through the real reader, from the hub's own firmware on a pty -------------------------------


@pytest.fixture
def line():
    hub = SimulatedHub(seed=3, realtime=False)
    got: list = []
    pads = PadHub(hub_pads(6), got.append, hub.path, reconnect_interval=0.05)
    assert wait_for(lambda: pads.connected)
    hub.run_until(100)  # the detector's baselines settle
    yield hub, pads, got
    pads.close()
    hub.close()


def test_touches_one_scan_period_apart_come_out_in_exact_order(line):
    hub, pads, got = line
    lay = hub.layout
    rng = random.Random(5)
    every = sorted(hub_pads(6), key=lambda p: (p.seat, str(p.target)))
    order = rng.sample(every, 30)
    start = 200
    for k, pad in enumerate(order):  # pad k is first seen in scan start + k
        ch = hub_channel(pad)
        hub.touch(ch, lay.sample_us(start + k, ch) - 1, lay.sample_us(start + 60, ch))
    hub.run_until(lay.sample_us(start + 80, 0) / 1000)
    assert wait_for(lambda: sum(isinstance(e, PadTouch) for e in got) == 30)
    touches = [e for e in got if isinstance(e, PadTouch)]
    assert sorted(touches, key=lambda e: e.ms) == touches  # arrival order is time order too
    assert [e.pad for e in touches] == order
    for k, e in enumerate(touches):  # and each is dated at its pad's own sample time
        assert e.tick == lay.sample_us(start + k, hub_channel(e.pad))
    gaps = [b.ms - a.ms for a, b in itertools.pairwise(touches)]
    assert min(gaps) > 0  # never simultaneous: one scan apart is always told apart
    assert pads.scan_us == 993


def test_an_unplugged_hub_resends_what_it_saw_meanwhile(line):
    hub, pads, got = line
    assert got[:2] == [PadLink(False, f"waiting for the pad hub on {hub.path}"),
                       PadLink(True, "sim-hub sim-1.0.0")]
    before = len(got)
    hub.unplug()
    assert wait_for(lambda: any(isinstance(e, PadLink) and not e.up for e in got[before:]))
    assert not pads.connected
    ch = hub_channel(Pad(2, "g"))
    hub.touch(ch, 300_000, 400_000)
    hub.run_until(450)
    assert hub.unacked >= 1
    hub.replug()
    assert wait_for(lambda: any(isinstance(e, PadTouch) for e in got))
    assert [e.pad for e in got if isinstance(e, PadTouch)] == [Pad(2, "g")]
    assert wait_for(lambda: hub.unacked == 0)


# --- raw counts ---------------------------------------------------------------------------------


def raw_report(counts: dict[int, int], boot: str = BOOT, channels: int = 56) -> bytes:
    """A whole report: every channel at 1500 counts (references 1200) unless ``counts`` says."""
    frames = b""
    for ch in range(channels):
        count = counts.get(ch, 1200 if ch % 8 >= 6 else 1500)
        frames += encode(HubRaw(boot, ch, 1490, count, 6000))
    return frames


def test_a_raw_report_names_the_pads_whose_channel_is_wrong():
    hub, got, _ = adapter()
    saturated, shorted, open_ = hub_channel(Pad(2, 3)), hub_channel(Pad(1, "g")), hub_channel(Pad(4, 4))
    hub.feed(raw_report({saturated: 6001, shorted: 0, open_: 1210}))
    reports = [e for e in got if isinstance(e, PadChannels)]
    assert reports == [PadChannels((PadChannel(Pad(2, 3), "saturated"), PadChannel(Pad(4, 4), "open"),
                                    PadChannel(Pad(1, "g"), "shorted")))]
    checks = {c.pad: c for c in hub.channel_checks()}
    assert checks[Pad(1, 1)].problem == "" and 15 < checks[Pad(1, 1)].pad_pf < 20
    assert "never charged" in checks[Pad(2, 3)].sentence
    assert "looks open" in checks[Pad(4, 4)].sentence and "Pad 4>4 (channel 27)" in checks[Pad(4, 4)].sentence


def test_raw_counts_of_another_boot_or_before_the_hello_are_not_kept():
    hub, got, _ = adapter()
    hub.feed(raw_report({}, boot=BOOT2))
    assert hub.raw_counts() == {} and not any(isinstance(e, PadChannels) for e in got)
    assert {c.problem for c in hub.channel_checks()} == {"silent"}
    hub.feed(raw_report({}))
    assert [e for e in got if isinstance(e, PadChannels)] == [PadChannels(())]


def test_the_simulated_hub_reports_raw_counts_with_no_problem():
    sim = SimulatedHub(seed=4, realtime=False)
    got: list = []
    hub = PadHub.for_seats(6, got.append, sim.path, reconnect_interval=0.05)
    try:
        wait_for(lambda: hub.connected)
        sim.run_until(200)
        wait_for(lambda: any(isinstance(e, PadChannels) for e in got))
        assert [e for e in got if isinstance(e, PadChannels)][-1] == PadChannels(())
        assert len(hub.raw_counts()) == 56
    finally:
        hub.close()
        sim.close()


def test_a_sector_torn_off_its_wire_reads_open_and_one_on_its_wire_does_not():
    from companion.devices.pads import raw

    assert raw.WIRE_PF == pytest.approx(7.5) and raw.WIRE_PF < raw.OPEN_PF
    assert raw.OPEN_PF < raw.WIRE_PF + raw.SECTOR_MIN_PF
    per_count = raw.picofarads(1)
    wire_only = round(raw.WIRE_PF / per_count)  # the counts the wire alone adds
    with_sector = round((raw.WIRE_PF + raw.SECTOR_MIN_PF) / per_count)
    torn, whole = hub_channel(Pad(3, 2)), hub_channel(Pad(3, 3))
    hub, got, _ = adapter()
    hub.feed(raw_report({torn: 1200 + wire_only, whole: 1200 + with_sector}))
    checks = {c.pad: c for c in hub.channel_checks()}
    assert checks[Pad(3, 2)].problem == "open"
    assert "the wire alone is 7.5 pF" in checks[Pad(3, 2)].sentence
    assert checks[Pad(3, 3)].problem == ""
