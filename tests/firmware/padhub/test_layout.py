"""padhub.layout: 42 pads on 56 channels (a multiplexer per island), and when each channel
is sampled."""

from padhub import layout


def test_every_pad_of_six_seats_has_its_own_channel():
    seen = {}
    for seat in range(1, 7):
        for target in (1, 2, 3, 4, 5, 6, "g"):
            ch = layout.channel(seat, target)
            assert 0 <= ch < layout.CHANNELS and ch not in seen
            seen[ch] = (seat, target)
            assert layout.pad(ch) == (seat, target)
    assert len(seen) == 42
    free = [ch for ch in range(layout.CHANNELS) if layout.pad(ch) is None]
    assert free == [m * 8 + s for m in range(7) for s in (6, 7)]


def test_every_pad_of_an_island_is_on_that_islands_multiplexer():
    for target in (1, 2, 3, 4, 5, 6, "g"):
        muxes = {layout.channel(seat, target) // layout.SLOTS for seat in range(1, 7)}
        assert len(muxes) == 1
    assert layout.channel(3, "g") // layout.SLOTS == layout.GRAVEYARD_MUX
    assert layout.channel(2, 5) == 4 * 8 + 1


def test_each_multiplexer_has_two_reference_channels_without_a_pad():
    ch = layout.channel(4, 3)
    refs = layout.references(ch)
    assert refs == (22, 23) and all(layout.pad(r) is None for r in refs)
    assert all(r // layout.SLOTS == ch // layout.SLOTS for r in refs)


def test_bad_pads_are_refused():
    for seat, target in ((0, 1), (7, 1), (1, 0), (1, 7)):
        try:
            layout.channel(seat, target)
        except ValueError:
            continue
        raise AssertionError((seat, target))


def test_one_scan_samples_every_channel_within_the_scan_period():
    assert layout.SCAN_US == 1 + layout.SLOTS * layout.SLOT_US <= 1000
    times = [layout.sample_us(0, ch) for ch in range(layout.CHANNELS)]
    assert 0 < min(times) and max(times) < layout.SCAN_US
    for ch in range(layout.CHANNELS):
        assert layout.sample_us(5, ch) - layout.sample_us(4, ch) == layout.SCAN_US


def test_the_same_slot_of_every_multiplexer_is_sampled_at_once_slots_7_to_0_in_order():
    for slot in range(layout.SLOTS):
        assert len({layout.sample_us(3, m * layout.SLOTS + slot) for m in range(layout.MUXES)}) == 1
    order = sorted(range(layout.SLOTS), key=lambda s: layout.sample_us(0, s))
    assert order == [7, 6, 5, 4, 3, 2, 1, 0]
