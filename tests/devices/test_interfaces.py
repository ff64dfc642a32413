"""The Pi's interfaces read from a (fake) device tree: which header pins an enabled one has
taken, and the sentences that refuse a pad, a button or the buzzer on one."""

from __future__ import annotations

from companion.devices.interfaces import (
    claims,
    conflicts,
    interface_enabled,
    model,
    serial_problems,
)
from companion.devices.pinmap import load_default
from tests.devices.fake_pi import pi4, pi5


def taken(root) -> dict[int, str]:
    return {c.pin: c.kind for c in claims(root)}


def test_without_a_device_tree_nothing_is_taken(tmp_path):
    assert claims(tmp_path) == [] and model(tmp_path) == ""


def test_pi4_claims_follow_what_is_enabled(tmp_path):
    assert taken(pi4(tmp_path / "a")) == {2: "i2c", 3: "i2c"}  # the BT UART's 32/33: off the header
    assert taken(pi4(tmp_path / "b", uart=True, spi=True)) == {
        2: "i2c", 3: "i2c", 14: "uart", 15: "uart", 7: "spi", 8: "spi", 9: "spi", 10: "spi",
        11: "spi"}
    assert taken(pi4(tmp_path / "c", i2s=True)) == {2: "i2c", 3: "i2c", 18: "i2s", 19: "i2s",
                                                     20: "i2s", 21: "i2s"}
    assert taken(pi4(tmp_path / "d", i2s=True, sdmode=True))[4] == "i2s"  # the amplifier's SD_MODE


def test_a_pi5s_rp1_groups_are_read_too(tmp_path):
    assert taken(pi5(tmp_path / "a")) == {}
    assert taken(pi5(tmp_path / "b", uart0=True)) == {14: "uart", 15: "uart"}
    assert model(tmp_path / "b").startswith("Raspberry Pi 5")


def test_four_seats_of_pads_on_an_enabled_uart_are_refused_one_sentence_a_pad(tmp_path):
    root = pi4(tmp_path, uart=True)
    used = load_default().layout(seats=4)
    problems = conflicts(used, claims(root))
    assert len(problems) == 2  # GPIO14 and 15: pads 2>g and 3>1
    assert problems[0] == (
        "Pad 2>g is on GPIO14 (header pin 8), which the serial port (UART) has taken "
        "(/soc/serial@7e215040 in the device tree): turn the serial port off "
        "(sudo raspi-config nonint do_serial_hw 1) and reboot.")
    assert problems[1].startswith("Pad 3>1 is on GPIO15")


def test_spi_takes_the_chip_selects_as_gpios(tmp_path):
    used = load_default().layout(seats=4)
    problems = conflicts(used, claims(pi4(tmp_path, spi=True)))
    assert len(problems) == 5 and all("SPI has taken" in p for p in problems)
    assert any(p.startswith("Pad 2>4 is on GPIO7") for p in problems)  # a chip select: cs-gpios


def test_the_display_expects_i2c_and_a_uart_board_expects_the_uart(tmp_path):
    root = pi4(tmp_path, uart=True)
    pm = load_default()
    assert conflicts(pm.layout(extra_buttons=True, padhub_uart=True), claims(root)) == []
    assert conflicts(pm.layout(extra_buttons=True, dice_uart=True), claims(root)) == []


def test_the_i2s_overlay_refuses_the_buzzer_on_gpio18_unless_the_layout_is_i2s(tmp_path):
    root = pi4(tmp_path, i2s=True)
    pm = load_default()
    problems = conflicts(pm.layout(extra_buttons=True), claims(root))
    assert [p.split(" is on ")[0] for p in problems] == ["The buzzer", "The menu button"]
    assert "set voice.i2s = true" in problems[0]
    moved = pm.moved_for_i2s()
    assert conflicts(moved.layout(extra_buttons=True, i2s_audio=True), claims(root)) == []
    assert interface_enabled("i2s", claims(root)) and not interface_enabled("uart", claims(root))


def test_the_amplifiers_sd_mode_line_takes_gpio4_from_a_pad(tmp_path):
    root = pi4(tmp_path, i2s=True, sdmode=True)
    problems = conflicts(load_default().layout(seats=3, extra_buttons=True), claims(root))
    assert any(p.startswith("Pad 1>1 is on GPIO4") and "/max98357a" in p for p in problems)


def test_a_serial_console_on_the_boards_uart_is_named(tmp_path):
    root = pi4(tmp_path, uart=True, console=True)
    assert serial_problems("/dev/serial0", "the pad hub", root) == [
        "The Linux console is on /dev/serial0, where the pad hub is wired: turn the serial "
        "console off (sudo raspi-config nonint do_serial_cons 1) and reboot."]
    assert serial_problems("/dev/ttyS0", "the pad hub", root) != []  # the same device
    assert serial_problems("/dev/companion-dice", "the dice", root) == []  # USB: not the UART
    assert serial_problems("/dev/serial0", "the pad hub", pi4(tmp_path / "quiet", uart=True)) == []


def test_on_a_pi5_serial0_is_the_debug_connector(tmp_path):
    root = pi5(tmp_path, uart0=True)
    problems = serial_problems("/dev/serial0", "the pad hub", root)
    assert any("debug connector" in p and "/dev/ttyAMA0" in p for p in problems)
    assert serial_problems("/dev/ttyAMA0", "the pad hub", root) == []
