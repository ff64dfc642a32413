"""The key map of the simulated pads agrees with the pin map."""

from __future__ import annotations

import pytest

from companion.devices.pinmap import PinMapError, load_default
from companion.inputs.pads import Pad
from companion.sim.padkeys import load_keymap


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_pad_of_the_pin_map_has_exactly_one_key(seats):
    keys = load_keymap(seats)
    assert sorted(p.key for p in keys.values()) == sorted(p.key for p in load_default().pads[seats])
    assert len(set(keys)) == len(keys)


def test_one_row_per_seat_one_column_per_target():
    keys = load_keymap(4)
    assert keys["1"] == Pad(1, 1) and keys["5"] == Pad(1, "g")
    assert keys["q"] == Pad(2, 1) and keys["b"] == Pad(4, "g")
    assert load_keymap(2)["3"] == Pad(1, "g")


@pytest.mark.parametrize("text,fragment", [
    ('[keys.2]\n"1>1" = "a"\n"1>2" = "a"', "used by both"),
    ('[keys.2]\n"1>1" = "ab"', "one character"),
    ('[keys.3]\n"1>1" = "a"', "no keys for 2 seats"),
    ('[keys.2]\n"1-1" = "a"', "Bad pad name"),
])
def test_bad_key_files_are_refused(text, fragment):
    with pytest.raises(PinMapError, match=fragment):
        load_keymap(2, text)


@pytest.mark.parametrize("seats", [5, 6])
def test_five_and_six_seats_have_keys_for_every_pad_of_the_hub(seats):
    from companion.devices.pads.hub import hub_pads

    keys = load_keymap(seats)
    assert sorted(p.key for p in keys.values()) == sorted(p.key for p in hub_pads(seats))
    assert "m" not in keys  # m stays the menu
