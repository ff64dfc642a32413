from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from companion.hardware.header import BCM_TO_PHYSICAL, POWER_AND_GROUND, RESERVED
from companion.hardware.pinmap import (
    LAYOUTS,
    Pad,
    PinMapError,
    check_layout,
    from_dict,
    load_default,
    markdown,
)

ROOT = Path(__file__).resolve().parents[2]


def default_data() -> dict:
    text = resources.files("companion.hardware").joinpath("pinmap.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_header_has_forty_pins_each_once():
    physical = set(BCM_TO_PHYSICAL.values()) | set(POWER_AND_GROUND)
    assert physical == set(range(1, 41))
    assert set(BCM_TO_PHYSICAL) == set(range(28))


@pytest.mark.parametrize("title,opts", LAYOUTS)
def test_every_supported_layout_fits_the_header(title, opts):
    used = load_default().layout(**opts)
    check_layout(used)
    assert not set(used.values()) & set(RESERVED)
    assert len(set(used.values())) == len(used)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_seat_has_a_pad_on_every_pile_and_the_graveyard(seats):
    pads = load_default().pads[seats]
    assert len(pads) == seats * (seats + 1)
    for s in range(1, seats + 1):
        for t in [*range(1, seats + 1), "g"]:
            assert Pad(s, t) in pads


def test_a_pin_used_twice_is_refused_naming_both():
    used = load_default().layout(seats=2)
    used["pads.2.1>1"] = used["buttons.left"]
    with pytest.raises(PinMapError, match="buttons.left") as err:
        check_layout(used)
    assert "GPIO5" in str(err.value)


def test_a_reserved_pin_is_refused():
    used = load_default().layout()
    used["buzzer"] = 0
    with pytest.raises(PinMapError, match="reserved"):
        check_layout(used)


def test_a_pin_that_is_not_on_the_header_is_refused():
    used = load_default().layout()
    used["buzzer"] = 28
    with pytest.raises(PinMapError, match="not a GPIO"):
        check_layout(used)


def test_four_seats_do_not_fit_with_the_dice_uart():
    with pytest.raises(PinMapError):
        check_layout(load_default().layout(seats=4, dice_uart=True))


def test_missing_pad_is_named():
    data = default_data()
    del data["pads"]["3"]["2>g"]
    with pytest.raises(PinMapError, match="2>g"):
        from_dict(data)


def test_bad_pin_value_names_the_key():
    data = default_data()
    data["buttons"]["left"] = "five"
    with pytest.raises(PinMapError, match="buttons.left"):
        from_dict(data)


def test_hardware_docs_are_generated_from_the_pin_map():
    assert (ROOT / "hardware" / "pins.md").read_text("utf-8") == markdown(load_default())
