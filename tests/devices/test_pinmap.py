from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from companion.devices.header import BCM_TO_PHYSICAL, POWER_AND_GROUND, RESERVED
from companion.devices.pinmap import (
    I2S_PINS,
    LAYOUTS,
    Pad,
    PinMap,
    PinMapError,
    check_layout,
    from_dict,
    load_default,
    markdown,
    part_of,
    parts_in,
    series_of,
)

ROOT = Path(__file__).resolve().parents[2]


def default_data() -> dict:
    text = resources.files("companion.devices").joinpath("pinmap.toml").read_text("utf-8")
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
    assert (ROOT / "hardware" / "guide" / "pins.md").read_text("utf-8") == markdown(load_default())


# --- the I2S amplifier ------------------------------------------------------------------------


def test_i2s_takes_the_pcm_pins_and_moves_the_buzzer_and_the_menu_button():
    pm = load_default()
    plain = pm.layout(extra_buttons=True)
    i2s = pm.layout(extra_buttons=True, i2s_audio=True)
    assert (plain["buzzer"], plain["buttons_extra.menu"]) == (18, 19)  # where they collide
    assert {i2s[f"audio_i2s.{k}"] for k in ("bclk", "lrclk", "din")} == {18, 19, 21}
    assert i2s["buzzer"] not in (18, 19, 20, 21) and i2s["buttons_extra.menu"] not in (18, 19, 20, 21)
    check_layout(i2s)
    assert {k: v for k, v in i2s.items() if not k.startswith("audio_i2s.")}.keys() == plain.keys()


def test_without_the_moves_the_amplifier_collides_with_the_buzzer():
    data = default_data()
    del data["audio_i2s_moves"]
    used = from_dict(data).layout(extra_buttons=True, i2s_audio=True)
    with pytest.raises(PinMapError, match="GPIO18"):
        check_layout(used)


def test_three_or_four_seats_leave_no_room_for_the_amplifier():
    # Gobbit for 3 or 4 seats speaks through a USB speaker (hardware/guide/audio.md)
    for seats in (3, 4):
        with pytest.raises(PinMapError):
            check_layout(load_default().layout(seats=seats, extra_buttons=seats == 3,
                                               i2s_audio=True))


def test_the_pcm_pins_are_fixed():
    data = default_data()
    assert {k: data["audio_i2s"][k] for k in I2S_PINS} == I2S_PINS
    data["audio_i2s"]["din"] = 20
    with pytest.raises(PinMapError, match="fixed: bclk = 18, lrclk = 19, din = 21"):
        from_dict(data)


def test_only_parts_of_the_pin_map_can_move():
    data = default_data()
    data["audio_i2s_moves"]["buttons.jump"] = 8
    with pytest.raises(PinMapError, match="audio_i2s_moves.buttons.jump"):
        from_dict(data)


def test_a_pin_map_without_i2s_pins_says_so():
    data = default_data()
    del data["audio_i2s"]
    with pytest.raises(PinMapError, match="no I2S audio pins"):
        from_dict(data).layout(i2s_audio=True)


def test_a_pin_map_built_from_its_parts_keeps_the_shipped_i2s_layout():
    pm = load_default()
    rebuilt = PinMap(pm.display, pm.buttons, pm.buttons_extra, pm.buzzer, pm.dice_uart, pm.pads)
    assert rebuilt == pm  # as a configuration with pin overrides builds it
    rebuilt.audio_i2s_moves["buzzer"] = 8
    assert PinMap(pm.display, pm.buttons, pm.buttons_extra, pm.buzzer, pm.dice_uart,
                  pm.pads).audio_i2s_moves["buzzer"] == 12  # no table shared between maps


def test_the_pad_hub_takes_the_uart_and_leaves_the_five_buttons():
    pm = load_default()
    used = pm.layout(extra_buttons=True, padhub_uart=True)
    check_layout(used)
    assert used["padhub_uart.tx"] == 14 and used["padhub_uart.rx"] == 15
    assert {"buttons_extra.menu", "buttons_extra.help"} <= set(used)
    with pytest.raises(PinMapError):  # one UART: the dice's or the hub's
        check_layout(pm.layout(dice_uart=True, padhub_uart=True))


def test_a_pad_hub_uart_needs_tx_and_rx():
    data = default_data()
    data["padhub_uart"] = {"tx": 14}
    with pytest.raises(PinMapError, match="padhub_uart"):
        from_dict(data)
    data["padhub_uart"] = {}
    with pytest.raises(PinMapError, match="no UART pins"):
        from_dict(data).layout(padhub_uart=True)


# --- the buzzer's part, power and what sits on the lines ------------------------------------------


def test_the_buzzer_is_a_passive_transducer_and_its_kind_is_checked():
    assert load_default().buzzer_kind == "passive"
    data = default_data()
    data["buzzer"]["kind"] = "piezo"
    with pytest.raises(PinMapError, match="buzzer.kind"):
        from_dict(data)


@pytest.mark.parametrize("title,opts", LAYOUTS)
def test_every_part_of_every_layout_has_its_ground_and_power_pins(title, opts):
    pm = load_default()
    used = pm.layout(**opts)
    named = {part_of(name) for name in used}
    parts = dict(parts_in(pm, used))
    assert set(parts) == named
    for part in parts.values():
        assert POWER_AND_GROUND[part.gnd] == "GND"
        if part.vcc is not None:
            assert POWER_AND_GROUND[part.vcc] == part.supply
    assert parts["display"].supply == "3V3"  # a 5 V panel lifts SDA/SCL above the Pi's 3.3 V
    if "pads" in parts:
        assert parts["pads"].supply == "3V3" and parts["pads"].series == "1 kΩ"


def test_pad_and_uart_lines_have_a_series_resistor():
    pm = load_default()
    for name in list(pm.layout(seats=4)) + list(pm.layout(dice_uart=True)) + list(
            pm.layout(padhub_uart=True)):
        if name.startswith(("pads.", "dice_uart.", "padhub_uart.")):
            assert series_of(pm, name) == "1 kΩ", name


def test_a_power_pin_of_the_wrong_kind_is_refused():
    data = default_data()
    data["parts"]["display"]["vcc"] = 2  # 5 V
    with pytest.raises(PinMapError, match="parts.display.vcc = 2 is not a 3V3 pin"):
        from_dict(data)
    data = default_data()
    data["parts"]["pads"]["gnd"] = 17
    with pytest.raises(PinMapError, match="parts.pads.gnd"):
        from_dict(data)


def test_the_i2s_layout_leaves_pcm_in_free_and_moves_with_the_configuration():
    pm = load_default()
    used = pm.layout(extra_buttons=True, i2s_audio=True)
    assert used["audio_i2s.pcm_in"] == 20  # the overlay's pin group takes 18-21
    moved = pm.moved_for_i2s()
    assert (moved.buzzer, moved.buttons_extra["menu"]) == (12, 16)
    assert moved.layout(extra_buttons=True, i2s_audio=True) == used
    assert (pm.buzzer, pm.buttons_extra["menu"]) == (18, 19)  # the original is untouched


def test_the_bonnet_layouts_fit_the_header_and_clash_with_gpio_pads():
    from companion.devices.pinmap import BONNET_PINS

    pm = load_default()
    used = pm.layout(bonnet=True, mpr121_irq=True)
    check_layout(used)
    assert {k for k in used if k.startswith("bonnet.")} == {f"bonnet.{k}" for k in BONNET_PINS}
    assert "buzzer" not in used and used["mpr121.irq"] == 24
    assert (used["bonnet.up"], used["bonnet.down"]) == (17, 22)  # wired on the bonnet
    with pytest.raises(PinMapError, match="both use GPIO"):
        check_layout(pm.layout(bonnet=True, seats=2))


def test_a_bonnet_section_must_name_every_control():
    data = tomllib.loads(resources.files("companion.devices").joinpath("pinmap.toml")
                         .read_text("utf-8"))
    data["bonnet"] = {"left": 27}
    with pytest.raises(PinMapError, match=r"\[bonnet\] must hold exactly"):
        from_dict(data)
